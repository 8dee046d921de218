// @ts-check
// thinking: how long a bot has been deciding, counted up beside its
// "thinking…" mark, and how a log entry's bot notes read (the bot's own
// reason, botReason; a move the fallback level played, fallback). A bot level that takes a while (an LLM, GNU Go) is
// announced by the server in the state (state.thinking, an extension:
// {playerID, since, serverTime}, Unix ms). The page counts from the
// moment it first shows that decision, starting at serverTime − since, so
// a skewed computer clock does not matter; later renders of the same
// decision keep counting from there instead of starting again.

import { h } from "./dom.js";
import { t, botLevel } from "./i18n.js";
import { isLLM } from "./botname.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").Thinking} Thinking */
/** @typedef {import("./types.js").Player} Player */

// anchors: per decision ("playerID:since"), the time elapsed when it was
// first shown and that moment (performance.now()); the newest few kept.
const anchors = new Map();
let timer = null;

/**
 * thinkingOf is state s's thinking when it is well formed, else null.
 * @param {State | null | undefined} s
 * @returns {Thinking | null}
 */
export function thinkingOf(s) {
  const th = s && s.thinking;
  if (!th || typeof th !== "object" || !Number.isFinite(th.since) || th.playerID === undefined) return null;
  return th;
}

/**
 * thinkingMs is how long the decision th has been going on, in ms.
 * @param {Thinking} th
 * @returns {number}
 */
export function thinkingMs(th) {
  const key = `${th.playerID}:${th.since}`;
  let a = anchors.get(key);
  if (!a) {
    const ms = Number.isFinite(th.serverTime) ? th.serverTime - th.since : 0;
    a = { ms: Math.max(0, ms), at: performance.now() };
    anchors.set(key, a);
    if (anchors.size > 8) anchors.delete(anchors.keys().next().value);
  }
  return a.ms + (performance.now() - a.at);
}

/**
 * secsText says n seconds: "3 s", "3 秒".
 * @type {(ms: number) => string}
 */
export const secsText = (ms) => t("thinking.secs", { n: Math.floor(ms / 1000) });

/**
 * thinkingSecs is the element that shows, and keeps showing once a
 * second, how long the decision th has been going on: "3 s" ("3 秒").
 * @param {Thinking} th
 * @returns {HTMLElement}
 */
export function thinkingSecs(th) {
  const el = h("span", { class: "think-secs", "data-think-secs": "", "data-since": String(th.since) });
  el.textContent = secsText(thinkingMs(th));
  el._thinking = th;
  if (!timer) timer = setInterval(tick, 1000);
  return el;
}

function tick() {
  const els = document.querySelectorAll("[data-think-secs]");
  if (!els.length) { clearInterval(timer); timer = null; return; }
  for (const el of els) if (el._thinking) el.textContent = secsText(thinkingMs(el._thinking));
}

// REASONS are the fallback reasons the server names (rooms.Fallback*).
const REASONS = ["timeout", "error", "busy", "panic", "illegal", "key_gone"];

/**
 * fallbackText says that the fallback level fb ({level, reason}) played a
 * move for player p's bot, and why: "played by the normal bot: the LLM
 * did not answer in time".
 * @param {{level?: string, reason?: string}} fb
 * @param {Player | null | undefined} p
 * @returns {string}
 */
export function fallbackText(fb, p) {
  const who = t(isLLM(p) ? "fallback.who.llm" : p && p.botLevel === "gnugo" ? "fallback.who.gnugo" : "fallback.who.bot");
  const why = t(REASONS.includes(fb.reason) ? "fallback." + fb.reason : "fallback.other", { who });
  return t("fallback.played", { level: botLevel(String(fb.level || "")), why });
}
