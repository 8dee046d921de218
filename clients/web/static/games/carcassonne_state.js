// @ts-check
// Carcassonne's pure derivations (no DOM): whose step it is, the legal
// rotations at a cell, the next rotation, the camera (fit the board,
// zoom about a point, bring cells into sight, screen → world), the cell
// and the meeple spot under the pointer, and what a new state brings to
// animate and how long it needs on show. View G: docs/carcassonne.md.
// jstest/carcassonne_state.test.mjs tests it.

import { spotOf } from "./carcassonne_tiles.js";

/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {{s: number, tx: number, ty: number}} Cam screen = world * s + t (world: 100 per tile) */
/** @typedef {{tile: string, meeples: Set<string>, scores: any[]}} Fresh what a state brings to animate */

export const MIN_PX = 22, MAX_PX = 160; // a tile's size on screen, in CSS px

/**
 * evKey names an event, to find where a view's events pick up.
 * @param {any} e
 * @returns {string}
 */
export const evKey = (e) => (e ? `${e.turn}:${e.kind}:${e.seat}:${e.x}:${e.y}:${e.feature || ""}:${e.points || 0}` : "");

/**
 * The steps as the plugin acts on them.
 * @typedef {{started: boolean, over: boolean, seated: boolean, mine: boolean, myTile: boolean, myMeeple: boolean}} Steps
 */

/**
 * stepsOf reads whose step it is for viewer you.
 * @param {State | null} s
 * @param {string | null} you
 * @returns {Steps}
 */
export function stepsOf(s, you) {
  const g = s ? s.G : null;
  const started = !!(s && s.ctx && s.ctx.started);
  const over = !!(g && g.phase === "over") || !!(s && s.ctx && s.ctx.gameover);
  const seated = you !== null && you !== "";
  const mine = seated && started && !over && !!g && String(g.current) === String(you);
  return { started, over, seated, mine, myTile: mine && g.phase === "tile" && !!g.tile, myMeeple: mine && g.phase === "meeple" };
}

/**
 * legalAt is the rotations the drawn tile may take at cell p, sorted, or
 * null where it may not go.
 * @param {any} g
 * @param {Point | null} p
 * @returns {number[] | null}
 */
export function legalAt(g, p) {
  if (!p || !g || !Array.isArray(g.placements)) return null;
  const pl = g.placements.find((/** @type {any} */ q) => q.x === p.x && q.y === p.y);
  return pl ? [...pl.rotations].sort((a, b) => a - b) : null;
}

/**
 * nextRotation turns the preview to the next legal rotation at the
 * selected cell, or a quarter turn when none is selected.
 * @param {number[] | null} rs
 * @param {number} rot
 * @returns {number}
 */
export const nextRotation = (rs, rot) => (rs && rs.length ? rs[(rs.indexOf(rot) + 1) % rs.length] : (rot + 90) % 360);

/**
 * bounds is the box of the board's tiles and legal cells, in cells.
 * @param {any} g
 * @returns {{x0: number, y0: number, x1: number, y1: number}}
 */
export function bounds(g) {
  const cells = [...((g && g.board) || []), ...((g && g.placements) || [])];
  if (!cells.length) cells.push({ x: 0, y: 0 });
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const q of cells) { x0 = Math.min(x0, q.x); y0 = Math.min(y0, q.y); x1 = Math.max(x1, q.x); y1 = Math.max(y1, q.y); }
  return { x0, y0, x1: x1 + 1, y1: y1 + 1 };
}

/**
 * fitCam centres box b in a w x hh screen, as large as fits (no larger
 * than 110 px a tile, no smaller than MIN_PX).
 * @param {number} w
 * @param {number} hh
 * @param {{x0: number, y0: number, x1: number, y1: number}} b
 * @returns {Cam}
 */
export function fitCam(w, hh, b) {
  const bw = (b.x1 - b.x0 + 0.6) * 100, bh = (b.y1 - b.y0 + 0.6) * 100;
  let s = Math.min(w / bw, hh / bh);
  s = Math.max(MIN_PX / 100, Math.min(s, 1.1));
  return { s, tx: w / 2 - ((b.x0 + b.x1) / 2) * 100 * s, ty: hh / 2 - ((b.y0 + b.y1) / 2) * 100 * s };
}

/**
 * zoomCam zooms by k about screen point (px, py), which stays put.
 * @param {Cam} cam
 * @param {number} k
 * @param {number} px
 * @param {number} py
 * @returns {Cam}
 */
export function zoomCam(cam, k, px, py) {
  const s = Math.max(MIN_PX / 100, Math.min(MAX_PX / 100, cam.s * k));
  const r = s / cam.s;
  return { s, tx: px - (px - cam.tx) * r, ty: py - (py - cam.ty) * r };
}

/**
 * showCam is the camera that brings cells into a w x hh screen (centred,
 * zoomed out if need be), or null when they are all in sight already.
 * @param {Cam} cam
 * @param {number} w
 * @param {number} hh
 * @param {[number, number][]} cells
 * @returns {Cam | null}
 */
export function showCam(cam, w, hh, cells) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const [x, y] of cells) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1); }
  const inView = x0 * 100 * cam.s + cam.tx >= 0 && x1 * 100 * cam.s + cam.tx <= w && y0 * 100 * cam.s + cam.ty >= 0 && y1 * 100 * cam.s + cam.ty <= hh;
  if (inView) return null;
  const s = Math.max(MIN_PX / 100, Math.min(cam.s, w / ((x1 - x0 + 0.6) * 100), hh / ((y1 - y0 + 0.6) * 100)));
  return { s, tx: w / 2 - ((x0 + x1) / 2) * 100 * s, ty: hh / 2 - ((y0 + y1) / 2) * 100 * s };
}

/**
 * toWorld turns a pointer at (cx, cy) over a board whose box starts at
 * (left, top) into world units.
 * @param {Cam} cam
 * @param {{left: number, top: number}} rc
 * @param {number} cx
 * @param {number} cy
 * @returns {{x: number, y: number}}
 */
export const toWorld = (cam, rc, cx, cy) => ({ x: (cx - rc.left - cam.tx) / cam.s, y: (cy - rc.top - cam.ty) / cam.s });

/**
 * cellOf is the cell holding world point w.
 * @param {{x: number, y: number}} w
 * @returns {Point}
 */
export const cellOf = (w) => ({ x: Math.floor(w.x / 100), y: Math.floor(w.y / 100) });

/**
 * meepleSpotAt is the meeple option nearest to world point w on the tile
 * just placed, when within reach (at least 13 world units, 16 screen
 * pixels), or null.
 * @param {any} g
 * @param {{x: number, y: number}} w
 * @param {number} scale the camera's s
 * @returns {any}
 */
export function meepleSpotAt(g, w, scale) {
  if (!g || !g.lastPlaced || !Array.isArray(g.meepleOptions)) return null;
  const lp = g.lastPlaced;
  let best = null, bd = Infinity;
  for (const o of g.meepleOptions) {
    const [sx, sy] = spotOf(lp.type, lp.rotation, o.feature);
    const d = Math.hypot(w.x - (lp.x * 100 + sx), w.y - (lp.y * 100 + sy));
    if (d < bd) { bd = d; best = o; }
  }
  const reach = Math.max(13, 16 / scale);
  return best && bd <= reach ? best : null;
}

/**
 * meepleKey names a meeple on the board.
 * @param {{seat: number, x: number, y: number, feature: string}} m
 * @returns {string}
 */
export const meepleKey = (m) => `${m.seat}:${m.x},${m.y}:${m.feature}`;

/**
 * freshOf is what view g brings over the view before to animate (the new
 * tile, new meeples, the scores of its new events) and how long it needs
 * on show: another seat's steps one by one (a tile 700 ms, a meeple 550,
 * a score 1300), the viewer's own at most 400, all at most 120 when
 * behind by 3 or more; nothing on a sync.
 * @param {any} before
 * @param {any} g
 * @param {{sync?: boolean, behind?: number}} o
 * @param {boolean} seated
 * @param {string | null} you
 * @returns {{fresh: Fresh, wait: number}}
 */
export function freshOf(before, g, o, seated, you) {
  /** @type {Fresh} */
  const fresh = { tile: "", meeples: new Set(), scores: [] };
  let wait = 0;
  if (!before || o.sync || !Array.isArray(before.board) || !Array.isArray(g.board)) return { fresh, wait };
  const lastBefore = evKey((before.events || [])[(before.events || []).length - 1]);
  const evs = g.events || [];
  const i = evs.findLastIndex((/** @type {any} */ e) => evKey(e) === lastBefore);
  const news = i >= 0 ? evs.slice(i + 1) : [];
  // My own moves need no pause; another seat's are shown step by step.
  const byOther = !seated || !news.some((/** @type {any} */ e) => (e.kind === "place" || e.kind === "meeple") && String(e.seat) === String(you));
  if (g.board.length > before.board.length) {
    const nb = g.board[g.board.length - 1];
    fresh.tile = `${nb.x},${nb.y}`;
    wait = Math.max(wait, 700);
  }
  const had = new Set((before.meeples || []).map(meepleKey));
  for (const m of g.meeples || []) {
    const key = meepleKey(m);
    if (!had.has(key)) { fresh.meeples.add(key); wait = Math.max(wait, 550); }
  }
  fresh.scores = news.filter((/** @type {any} */ e) => e.kind === "score");
  if (fresh.scores.length) wait = Math.max(wait, 1300);
  if (!byOther && wait) wait = Math.min(wait, 400);
  if ((o.behind || 0) >= 3) wait = Math.min(wait, 120);
  return { fresh, wait };
}

/**
 * boardHeight is the board's height: beside the panel (wide) from the
 * board's top to the window's bottom (440-900 px), else half the window
 * (280-520 px).
 * @param {boolean} wide
 * @param {number} top
 * @param {number} innerHeight
 * @returns {number}
 */
export const boardHeight = (wide, top, innerHeight) => (wide ? Math.max(440, Math.min(innerHeight - top - 20, 900)) : Math.max(280, Math.min(Math.round(innerHeight * 0.5), 520)));
