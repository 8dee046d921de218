// @ts-check
// botname: how a bot is named on screen. The server calls every bot
// "Bot (level)"; the client says it in the reader's language and adds the
// seat number: "Bot (normal) 3", "机器人（普通）3号". An LLM bot (level
// "llm" or "llm-NAME", an operator's endpoint: docs/llm.md) is named after
// its endpoint, "deepseek 3", and wears the badge "LLM · deepseek"; while
// it is its turn it shows that it is thinking.

import { h } from "./dom.js";
import { t, botLevel } from "./i18n.js";

/** @typedef {import("./types.js").Player} Player */

const BOT_RE = /^Bot \(([\w-]+)\)$/;
const LLM_RE = /^llm(?:-([\w-]+))?$/;

/**
 * llmName is the endpoint's name of an LLM level ("" for "llm"), or null for another level.
 * @param {string | null | undefined} level
 * @returns {string | null}
 */
export function llmName(level) {
  const m = LLM_RE.exec(level || "");
  return m ? m[1] || "" : null;
}

/**
 * isLLM says whether player p is an LLM bot.
 * @param {Player | null | undefined} p
 * @returns {boolean}
 */
export function isLLM(p) {
  return !!(p && p.isBot && llmName(p.botLevel) !== null);
}

/**
 * levelLabel names a bot level: a built-in one in the reader's language, an LLM one as "LLM · NAME".
 * @param {string} level
 * @returns {string}
 */
export function levelLabel(level) {
  const name = llmName(level);
  if (name === null) return botLevel(level);
  return name ? t("bot.llmNamed", { name }) : t("bot.llm");
}

/**
 * botDisplayName is the name to show for player p at seat index i.
 * @param {Player | null | undefined} p
 * @param {number} i
 * @returns {string}
 */
export function botDisplayName(p, i) {
  if (!p || !p.name) return p ? p.name : "";
  const m = p.isBot && BOT_RE.exec(p.name);
  if (!m) return p.name;
  const name = llmName(m[1]);
  if (name !== null) return t("bot.llmNameSeat", { name: name || t("bot.llm"), n: i + 1 });
  return t("bot.nameSeat", { level: botLevel(m[1]), n: i + 1 });
}

/**
 * thinkingMark is the animated "thinking…" shown while an LLM bot decides.
 * @param {string} [cls] more classes
 * @returns {HTMLElement}
 */
export function thinkingMark(cls) {
  return h("span", { class: "thinking" + (cls ? " " + cls : ""), "data-thinking": "", role: "status" },
    t("bot.thinking"), h("span", { class: "dots", "aria-hidden": "true" }, h("i", null, "."), h("i", null, "."), h("i", null, ".")));
}

/**
 * botBadges are the pills of a bot's seat: "bot · normal", or for an LLM
 * bot "LLM · NAME" and, when thinking (its turn, its move not in yet),
 * the thinking mark.
 * @param {Player | null | undefined} p
 * @param {boolean} [thinking]
 * @returns {(HTMLElement | null)[]}
 */
export function botBadges(p, thinking) {
  if (!p || !p.isBot) return [];
  if (!isLLM(p)) return [h("span", { class: "pill" }, t("room.bot") + (p.botLevel ? " · " + botLevel(p.botLevel) : ""))];
  return [
    h("span", { class: "pill llm", "data-llm": p.botLevel }, levelLabel(p.botLevel)),
    thinking ? thinkingMark("pill") : null,
  ];
}
