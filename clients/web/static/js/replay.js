// @ts-check
// replay: the replay page at /m/{game}/{matchID}/replay. It fetches the
// match step by step (GET /games/{game}/{id}/replay: what a spectator saw
// at each stateID) and shows each step on the game's own board, mounted
// as for a spectator, with first / back / play / forward / last, a step
// slider and the arrow keys (Home and End, space to play).

import { h, replace } from "./dom.js";
import { t, pick, merge, lang, onLangChange } from "./i18n.js";
import * as api from "./api.js";
import { createPluginHost, loadPlugin } from "./pluginhost.js";
import { botDisplayName } from "./botname.js";
import { roomPath } from "./nav.js";
import { after } from "./pacer.js";

/** @typedef {import("./types.js").ReplayStep} ReplayStep */

/**
 * PLAY_MS is the least time a step stays on screen while playing.
 * @type {number}
 */
export const PLAY_MS = 700;
/** PAGE is how many steps one request asks for. The server may answer
 * fewer (a page of a long match's big views is cut at about 1 MiB, and
 * says where the rest starts: next); page() asks again from there. */
export const PAGE = 100;

/**
 * replayPath is the replay page's path of a match.
 * @param {string} game
 * @param {string} matchID
 * @returns {string}
 */
export function replayPath(game, matchID) {
  return roomPath(game, matchID) + "/replay";
}

// Small drawn icons: the fonts of every reader do not hold ⏮ or ⏸.
const ICONS = {
  first: '<path d="M6 5v14M18 5l-9 7 9 7z"/>',
  back: '<path d="M16 5l-9 7 9 7z"/>',
  play: '<path d="M8 5l11 7-11 7z"/>',
  pause: '<path d="M8 5v14M16 5v14"/>',
  forward: '<path d="M8 5l9 7-9 7z"/>',
  last: '<path d="M18 5v14M6 5l9 7-9 7z"/>',
};

function icon(name) {
  const s = h("span", { class: "replay-icon", "aria-hidden": "true" });
  s.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="currentColor" stroke="currentColor" stroke-width="2" stroke-linejoin="round">${ICONS[name]}</svg>`;
  return s;
}

/**
 * mountReplay renders the replay page into el and returns its destroy.
 * @param {HTMLElement} el
 * @param {string} game
 * @param {string} matchID
 * @returns {() => void}
 */
export function mountReplay(el, game, matchID) {
  // total: the number of steps; steps: step index -> the step; pages:
  // page number -> the promise of its steps, settled once all are in
  // steps.
  const r = { info: null, players: [], total: 0, steps: new Map(), pages: new Map(), plugin: null, at: 0, playing: false, alive: true, cancel: () => {} };
  const title = h("h1", { class: "room-title" });
  const subtitle = h("div", { class: "muted small room-id" });
  const back = h("a", { href: roomPath(game, matchID), "data-link": true, class: "btn small back-lobby", "data-action": "back-match" });
  const pluginEl = h("div", { class: "plugin-area", "data-game": game });
  const slider = h("input", { type: "range", class: "replay-slider", min: 0, max: 0, value: 0, step: 1, "data-field": "step",
    oninput: () => go(Number(slider.value)) });
  const counter = h("span", { class: "replay-counter", "data-field": "counter" });
  const button = (action, fn) => h("button", { class: "btn small replay-btn", type: "button", "data-action": action, onclick: fn }, icon(action));
  const playBtn = button("play", () => (r.playing ? stop() : play()));
  const buttons = [button("first", () => go(0)), button("back", () => go(r.at - 1)), playBtn,
    button("forward", () => go(r.at + 1)), button("last", () => go(last()))];
  const bar = h("div", { class: "replay-bar card", role: "toolbar" }, h("div", { class: "replay-buttons" }, buttons), slider, counter);
  const host = createPluginHost(pluginEl, () => Promise.reject({ code: "replay", message: t("replay.noMoves") }));

  replace(el, h("div", { class: "room replay" },
    h("section", { class: "card room-head" }, back, h("div", { class: "room-titles" }, title, subtitle)),
    bar, h("div", { class: "room-main" }, pluginEl)));

  const last = () => Math.max(0, r.total - 1);

  // request asks for steps from index i (stateID i+1) on, retrying when
  // the server is busy building other replays (503 unavailable).
  const request = async (i, limit) => {
    for (let tries = 1; ; tries++) {
      try {
        return await api.replay(game, matchID, i + 1, limit);
      } catch (e) {
        if (e.code !== "unavailable" || tries >= 5 || !r.alive) throw e;
        await new Promise((ok) => setTimeout(ok, 1000 * tries));
      }
    }
  };
  // page loads (once) the steps of page n, PAGE of them from n*PAGE; step
  // i is stateID i+1. A response may hold fewer steps than asked: the
  // rest are asked for from its next.
  const page = (n) => {
    if (!r.pages.has(n)) {
      const end = r.total ? Math.min((n + 1) * PAGE, r.total) : (n + 1) * PAGE;
      const p = (async () => {
        for (let i = n * PAGE; i < end;) {
          const res = await request(i, end - i);
          for (const s of res.steps) r.steps.set(s.stateID - 1, s);
          if (!res.steps.length || !res.next) break;
          i = res.next - 1;
        }
      })().catch((e) => { r.pages.delete(n); throw e; });
      r.pages.set(n, p);
    }
    return r.pages.get(n);
  };
  /** @type {(i: number) => ReplayStep | undefined} */
  const loaded = (i) => r.steps.get(i);
  // ready loads what showing step i needs: its page, and the one before
  // when the log reaches back into it.
  const ready = (i) => {
    const n = Math.floor(i / PAGE);
    const need = [page(n)];
    if (n > 0 && i % PAGE < 50) need.push(page(n - 1));
    return Promise.all(need);
  };

  const drawHead = () => {
    back.textContent = "← " + t("replay.backMatch");
    title.textContent = t("replay.title", { game: r.info ? pick(r.info.title) : game });
    subtitle.textContent = t("room.matchId", { id: matchID.slice(0, 8) });
    for (const b of buttons) b.title = t("replay." + b.dataset.action);
    for (const b of buttons) b.setAttribute("aria-label", b.title);
    playBtn.replaceChildren(icon(r.playing ? "pause" : "play"));
    playBtn.title = t(r.playing ? "replay.pause" : "replay.play");
    playBtn.setAttribute("aria-label", playBtn.title);
    playBtn.dataset.playing = r.playing ? "true" : "false";
    if (r.total) counter.textContent = t("replay.step", { n: r.at, total: last() });
    document.title = `${title.textContent} · ${t("app.title")}`;
  };

  // The state message the live room would have shown at step i, as a
  // spectator: the log is every move's entry up to it.
  const stateAt = (i) => {
    const step = loaded(i);
    const log = [];
    for (let j = Math.max(1, i - 49); j <= i; j++) {
      const s = loaded(j);
      if (s && s.log) log.push(s.log);
    }
    const players = r.players.map((p, k) => {
      const name = botDisplayName(p, k);
      return name === p.name ? p : { ...p, name };
    });
    return { type: "state", matchID, stateID: step.stateID, G: step.G, ctx: step.ctx, players, log, you: "" };
  };

  // show puts step i on the board: animated when it follows the one on
  // show (a forward step, playing), drawn at once for any jump.
  const show = (i, animate) => {
    r.at = i;
    slider.value = String(i);
    el.querySelector(".replay").dataset.step = String(i);
    const wait = host.update(stateAt(i), { behind: 0, sync: !animate });
    drawHead();
    return wait;
  };

  // go jumps to step i (animated when it is the next one), once loaded.
  let wanted = 0;
  const go = (i) => {
    if (!r.total) return;
    const to = Math.max(0, Math.min(last(), i));
    const animate = to === r.at + 1;
    stop();
    wanted = to;
    ready(to).then(() => { if (r.alive && wanted === to) show(to, animate); }, showError);
  };

  const play = () => {
    if (!r.total) return;
    r.playing = true;
    drawHead();
    const tick = () => {
      if (!r.playing || !r.alive) return;
      if (r.at >= last()) { stop(); return; }
      const next = r.at + 1;
      if (!loaded(next)) {
        ready(next).then(() => { if (r.playing) tick(); }, (e) => { stop(); showError(e); });
        return;
      }
      if ((next + 20) % PAGE === 0 && next + 20 <= last()) page(Math.floor((next + 20) / PAGE)).catch(() => {});
      const wait = show(next, true);
      const started = Date.now();
      r.cancel = after(wait, () => {
        r.cancel = after(Math.max(0, PLAY_MS - (Date.now() - started)), tick);
      });
    };
    if (r.at >= last()) {
      ready(0).then(() => { if (!r.playing) return; show(0, false); r.cancel = after(PLAY_MS, tick); }, showError);
    } else tick();
  };

  function stop() {
    r.cancel();
    r.cancel = () => {};
    if (r.playing) { r.playing = false; drawHead(); }
  }

  const onKey = (e) => {
    if (e.target.closest && e.target.closest("input, textarea, select")) {
      if (e.target !== slider) return;
    }
    const keys = { ArrowLeft: () => go(r.at - 1), ArrowRight: () => go(r.at + 1), Home: () => go(0), End: () => go(last()),
      " ": () => (r.playing ? stop() : play()) };
    const fn = keys[e.key];
    if (!fn || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    fn();
  };
  document.addEventListener("keydown", onKey);

  // showError says why there is no replay, in the page's language: a
  // match that does not exist (or expired) has no room to go back to, so
  // it links to the lobby; another failure offers the match and the lobby.
  function showError(e) {
    r.error = e || {};
    const gone = !!e && (e.status === 404 || e.code === "not_found");
    const why = gone ? t("room.notFound")
      : lang() === "zh" ? (e && e.messageZh) || t("replay.failed") : (e && e.message) || t("replay.failed");
    const lobby = h("a", { href: "/", "data-link": true, class: "btn" + (gone ? " primary" : ""), "data-action": "back-lobby" }, t("room.backLobby"));
    const links = gone ? [lobby]
      : [h("a", { href: roomPath(game, matchID), "data-link": true, class: "btn primary", "data-action": "back-match" }, t("replay.backMatch")), lobby];
    replace(el, h("section", { class: "card narrow center replay-error", "data-error": gone ? "not_found" : (e && e.code) || "error" },
      h("h1", null, t("replay.unavailable")),
      h("p", { class: "muted" }, why),
      h("div", { class: "row", style: "justify-content: center" }, links)));
    document.title = `${t("replay.unavailable")} · ${t("app.title")}`;
  }

  const offLang = onLangChange(() => {
    if (r.error) { showError(r.error); return; }
    drawHead();
    if (loaded(r.at)) host.update(stateAt(r.at), { behind: 0, sync: true, redraw: true });
    host.lang(lang());
  });

  (async () => {
    drawHead();
    const plugin = loadPlugin(game).catch(() => null);
    try {
      let head;
      [r.info, head] = await Promise.all([api.gameInfo(game), api.replay(game, matchID, 1, 1)]);
      r.total = head.total;
      r.players = head.players;
      // Open on the end: most come from the end card to look back.
      await ready(last());
    } catch (e) {
      if (r.alive) showError(e);
      return;
    }
    r.plugin = await plugin;
    if (!r.alive) return;
    if (r.plugin && r.plugin.strings) merge(r.plugin.strings);
    host.mount(r.plugin, null);
    slider.max = String(last());
    show(last(), false);
    window.__chaguanReplay = { steps: r.total, at: () => r.at, playing: () => r.playing,
      stateID: (i) => (loaded(i) ? loaded(i).stateID : 0) };
  })();

  return () => {
    r.alive = false;
    stop();
    offLang();
    document.removeEventListener("keydown", onKey);
    host.unmount();
    window.__chaguanReplay = undefined;
  };
}
