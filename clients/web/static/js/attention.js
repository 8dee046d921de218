// @ts-check
// attention: what the table does to catch a player's eye and ear. On each
// state the room shows (after the pacer: what is on screen, not what has
// arrived) it picks one sound, and while it is your move and the tab is in
// the background the tab title and favicon say so.

import { play } from "./sound.js";

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").UpdateOptions} UpdateOptions */

const FAVICON_PLAIN = faviconURL("#b8322a", false);
const FAVICON_TURN = faviconURL("#2f8f6f", true);

/**
 * yourMove reports whether state s waits for a move from its viewer.
 * @param {State | null | undefined} s
 * @returns {boolean}
 */
export function yourMove(s) {
  const you = s && s.you;
  if (!you || !s.ctx || !s.ctx.started || s.ctx.gameover) return false;
  return s.ctx.activePlayers ? you in s.ctx.activePlayers : s.ctx.currentPlayer === you;
}

// captured tells, per game, whether the step from a to b took something:
// stones captured, a trick gathered, points scored.
const captured = {
  weiqi: (a, b) => sum(b.captures) > sum(a.captures),
  gongzhu: (a, b) => (b.round || 0) > (a.round || 0) || len(b.tricks) > len(a.tricks),
  carcassonne: (a, b) => sum(b.scores) > sum(a.scores),
  threemonks: (a, b) => (b.round || 0) > (a.round || 0),
};

/**
 * soundFor returns the sound for showing state b after state a of game
 * (both as the room shows them), or "" for none: the end, else something
 * taken, else your turn coming round, else a move.
 * @param {string} game
 * @param {State} a
 * @param {State} b
 * @returns {string} one of sound.js's KINDS, or ""
 */
export function soundFor(game, a, b) {
  if (!a || !b || b.stateID === a.stateID) return "";
  if (b.ctx.gameover && !a.ctx.gameover) return "end";
  if (b.stateID < a.stateID) return "";
  const take = captured[game];
  if (take && a.G && b.G) {
    try { if (take(a.G, b.G)) return "capture"; } catch (_) { /* an unexpected view: no sound */ }
  }
  if (yourMove(b) && !yourMove(a)) return "turn";
  return "move";
}

/**
 * createAttention returns {show(state), destroy()} for a room of game:
 * show plays the sound for each newly shown state (none for the first, a
 * sync) and keeps the tab's favicon in step with whose move it is.
 * @param {string} game
 * @returns {{show: (s: State, opts?: UpdateOptions) => void, destroy: () => void}}
 */
export function createAttention(game) {
  let last = null;
  let mine = false;
  const icon = () => {
    const link = document.querySelector('link[rel="icon"]');
    if (link) link.href = mine && document.hidden ? FAVICON_TURN : FAVICON_PLAIN;
    document.documentElement.dataset.yourTurn = mine && document.hidden ? "background" : mine ? "yes" : "no";
  };
  const onVisibility = () => icon();
  document.addEventListener("visibilitychange", onVisibility);
  return {
    show(s, opts) {
      const sync = opts && opts.sync;
      if (last && !sync) {
        const kind = soundFor(game, last, s);
        // Catching up on a backlog, only the end and your turn are worth
        // a sound: a burst of knocks would be noise.
        const busy = opts && opts.behind > 2 && (kind === "move" || kind === "capture");
        if (kind && !busy) play(kind);
      }
      last = s;
      mine = yourMove(s);
      icon();
    },
    destroy() {
      document.removeEventListener("visibilitychange", onVisibility);
      mine = false;
      icon();
      delete document.documentElement.dataset.yourTurn;
    },
  };
}

function sum(xs) { return Array.isArray(xs) ? xs.reduce((n, x) => n + (Number(x) || 0), 0) : 0; }
function len(xs) { return Array.isArray(xs) ? xs.length : 0; }

// The app's seal, red as usual; jade with a white dot when it is your move.
function faviconURL(fill, dot) {
  const svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 64 64'>" +
    `<rect width='64' height='64' rx='12' fill='${fill}'/>` +
    "<text x='32' y='45' font-size='38' text-anchor='middle' fill='#f6efe0' font-family='serif'>茶</text>" +
    (dot ? "<circle cx='52' cy='12' r='11' fill='#f6efe0'/><circle cx='52' cy='12' r='7' fill='#b8322a'/>" : "") +
    "</svg>";
  return "data:image/svg+xml," + encodeURIComponent(svg);
}
