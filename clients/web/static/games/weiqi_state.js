// @ts-check
// Weiqi's pure derivations from the state (no DOM): the phase (whose turn,
// scoring, over, a request waiting), the evolution of the end and which
// generation a moment of its animation shows, what the board shows (the
// position, or an evolution frame, with or without territory), the dead
// stones, and the board's width beside the sidebar. View G: docs/weiqi.md.
// jstest/weiqi_state.test.mjs tests it.

/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Point} Point */

export const GEN_MS = 300; // one generation of the evolution
export const SIDE_W = 272; // the sidebar's width beside the board

/**
 * stoneOf is the stone a seat plays: "B" for seat 0, "W" for seat 1.
 * @param {string | null} seat
 * @returns {string}
 */
export const stoneOf = (seat) => (seat === "0" ? "B" : "W");

/**
 * cellAt is board b's cell at p ("." empty, "B", "W"), "" off the board.
 * @param {string[] | null | undefined} b
 * @param {Point | null | undefined} p
 * @returns {string}
 */
export const cellAt = (b, p) => (b && p && b[p.y] ? b[p.y][p.x] || "" : "");

/**
 * The phase as the plugin acts on it.
 * @typedef {object} Phase
 * @property {boolean} started
 * @property {boolean} over a result, phase "over", or the match is over
 * @property {boolean} seated the viewer holds a seat
 * @property {boolean} requestPending an undo or scoring request waits for an answer
 * @property {boolean} myTurn the viewer may play a stone
 * @property {boolean} scoring marking dead stones
 */

/**
 * phaseOf reads the phase from a state for viewer you.
 * @param {State | null} s
 * @param {string | null} you
 * @returns {Phase}
 */
export function phaseOf(s, you) {
  const g = s ? s.G : null;
  const started = !!(s && s.ctx && s.ctx.started);
  const over = !!(g && (g.result || g.phase === "over")) || !!(s && s.ctx && s.ctx.gameover);
  const seated = you !== null;
  const requestPending = !!g && (g.undoRequest != null || g.scoringRequest != null);
  return {
    started, over, seated, requestPending,
    myTurn: seated && started && !over && g.phase === "play" && g.toMove === you && !requestPending,
    scoring: started && !over && g.phase === "scoring",
  };
}

/**
 * evolutionOf is the evolution of the end (boards, generation by
 * generation), or null.
 * @param {any} g
 * @returns {string[][] | null}
 */
export const evolutionOf = (g) => (g && Array.isArray(g.evolution) && g.evolution.length ? g.evolution : null);

/**
 * What the board shows: a board, the generation before it while one grows
 * in (prev, k from 0 to 1), the generation (-1: the live position) and
 * the territory to shade, if any.
 * @typedef {{board: string[], prev: string[] | null, k: number, gen: number, territory: string[] | null}} Frame
 */

/**
 * frame is what the board shows: the evolution's generation since ms into
 * its animation (since null: not animating, the last generation), or the
 * live position (with territory in scoring and at the end).
 * @param {any} g
 * @param {boolean} over
 * @param {number | null} since
 * @returns {Frame}
 */
export function frame(g, over, since) {
  const ev = evolutionOf(g);
  if (ev && over) {
    if (since !== null) {
      const gen = genAt(ev, since);
      return { board: ev[gen], prev: gen > 0 ? ev[gen - 1] : null, k: (since % GEN_MS) / (GEN_MS * 0.6), gen, territory: null };
    }
    return { board: ev[ev.length - 1], prev: null, k: 1, gen: ev.length - 1, territory: g.territory };
  }
  return { board: g.board, prev: null, k: 1, gen: -1, territory: g.phase === "scoring" || over ? g.territory : null };
}

/**
 * genAt is the generation shown since ms into the evolution's animation.
 * @param {any[]} ev
 * @param {number} since
 * @returns {number}
 */
export const genAt = (ev, since) => Math.min(ev.length - 1, Math.floor(since / GEN_MS));

/**
 * evolutionDone says whether the animation, since ms in, has shown the
 * last generation for its full time.
 * @param {any[]} ev
 * @param {number} since
 * @returns {boolean}
 */
export const evolutionDone = (ev, since) => since >= GEN_MS * ev.length;

/**
 * deadSet is the stones marked dead ("D4"…) to draw as dead: in scoring,
 * and at an end without an evolution.
 * @param {any} g
 * @param {boolean} over
 * @returns {Set<string>}
 */
export const deadSet = (g, over) => new Set(g.phase === "scoring" || (over && !evolutionOf(g)) ? g.dead || [] : []);

/**
 * approvedBy says whether seat you approved the count in scoring.
 * @param {any} g
 * @param {string | null} you
 * @returns {boolean}
 */
export const approvedBy = (g, you) => !!(g && g.approved && g.approved[Number(you)]);

/**
 * boardLayout is the board's width in the plugin's inner width: beside the
 * sidebar when there is room (wide; as tall as the window below top
 * allows, at least 380, at most 820), else above it (at most 720); never
 * under 220.
 * @param {number} inner
 * @param {number} top the board's top in the page
 * @param {number} innerHeight
 * @returns {{wide: boolean, w: number}}
 */
export function boardLayout(inner, top, innerHeight) {
  const wide = inner >= 620;
  let w;
  if (wide) {
    const byHeight = innerHeight - top - 26;
    w = Math.min(inner - SIDE_W - 16, Math.max(380, byHeight), 820);
  } else {
    w = Math.min(inner, 720);
  }
  return { wide, w: Math.max(220, Math.floor(w)) };
}
