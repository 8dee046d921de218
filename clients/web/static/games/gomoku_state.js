// @ts-check
// Gomoku's pure derivations from the state (no DOM): whose turn it is, the
// status line and its class, which buttons show, the toast that says how
// an undo request was answered, and which stone grows in.
// View G: {size, board[y][x] '.'|'B'|'W', moves, last, toMove, winLine,
// undoRequest, result}. Seat 0 is black. jstest/gomoku_state.test.mjs
// tests it.

/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {(key: string, params?: Record<string, any>) => string} T */

/**
 * colourKey is the string key of a seat's colour.
 * @param {string} seat
 * @returns {string}
 */
export const colourKey = (seat) => (seat === "0" ? "gomoku.black" : "gomoku.white");

/**
 * stoneOf is the stone a seat plays: "B" for seat 0, "W" for seat 1.
 * @param {string | null} seat
 * @returns {string}
 */
export const stoneOf = (seat) => (seat === "0" ? "B" : "W");

/**
 * cellAt is the board's cell at p ("." empty, "B", "W"), "" off the board.
 * @param {any} g
 * @param {Point | null | undefined} p
 * @returns {string}
 */
export function cellAt(g, p) {
  if (!g || !p || !g.board[p.y]) return "";
  return g.board[p.y][p.x] || "";
}

/** @param {State | null} s */
export const isStarted = (s) => !!(s && s.ctx && s.ctx.started);

/**
 * isOver says whether the game ended (a result, or the match is over).
 * @param {State | null} s
 * @returns {boolean}
 */
export const isOver = (s) => !!(s && s.G && s.G.result) || !!(s && s.ctx && s.ctx.gameover);

/**
 * isMyTurn says whether the viewer may place a stone now: seated, the game
 * on, their colour to move and no undo request waiting.
 * @param {State | null} s
 * @param {string | null} you
 * @returns {boolean}
 */
export const isMyTurn = (s, you) => you !== null && isStarted(s) && !isOver(s) && !!s && !!s.G && s.G.toMove === you && s.G.undoRequest === null;

/** @param {any} g */
const asking = (g) => g.undoRequest !== null && g.undoRequest !== undefined;

/**
 * statusText is the status bar's sentence and class ("mine" on the
 * viewer's turn; "over", with "win" or "loss" for a player, at the end).
 * @param {State | null} s
 * @param {string | null} you
 * @param {T} t
 * @param {(seat: string) => string} nameOf
 * @returns {{text: string, cls: string}}
 */
export function statusText(s, you, t, nameOf) {
  const g = s ? s.G : null;
  if (!g || !isStarted(s)) return { text: t("gomoku.waiting"), cls: "" };
  if (g.result) {
    const r = g.result;
    if (r.draw) return { text: t("gomoku.draw"), cls: "over" };
    const colour = t(colourKey(r.winner));
    const loserSeat = r.winner === "0" ? "1" : "0";
    const text = r.reason === "five" ? t("gomoku.win.five", { colour })
      : r.reason === "resign" ? t("gomoku.win.resign", { colour, loser: t(colourKey(loserSeat)) })
        : t("gomoku.win.other", { colour });
    // The viewer's own win is green, a loss red; spectators see neutral.
    if (you === null) return { text, cls: "over" };
    const won = you === r.winner;
    return { text: text + " " + (won ? t("gomoku.youWin") : t("gomoku.youLose")), cls: won ? "over win" : "over loss" };
  }
  const n = t("gomoku.moveNo", { n: g.moves.length + 1 });
  if (asking(g)) {
    if (you === g.undoRequest) return { text: t("gomoku.undoWaiting"), cls: "" };
    if (you !== null) return { text: t("gomoku.undoAsked", { name: nameOf(g.undoRequest) }), cls: "mine" };
    return { text: t("gomoku.undoPending", { name: nameOf(g.undoRequest) }), cls: "" };
  }
  const colour = t(colourKey(g.toMove));
  if (you === g.toMove) return { text: `${t("gomoku.yourTurn", { colour })} · ${n}`, cls: "mine" };
  return { text: `${t("gomoku.toMove", { colour })} · ${n}`, cls: "" };
}

/**
 * buttons says which of undo, accept/decline and resign show and work: the
 * one asked answers, the one who asked waits.
 * @param {State | null} s
 * @param {string | null} you
 * @returns {{undoHidden: boolean, undoDisabled: boolean, answerHidden: boolean, resignDisabled: boolean}}
 */
export function buttons(s, you) {
  const g = s ? s.G : null;
  const asked = !!g && asking(g) && !isOver(s);
  const live = isStarted(s) && !isOver(s);
  return {
    undoHidden: asked && you !== g.undoRequest,
    undoDisabled: !live || asked || !g || g.moves.length === 0,
    answerHidden: !(asked && you !== g.undoRequest),
    resignDisabled: !live,
  };
}

/**
 * chipState says whether a seat's chip is the one to move, or the winner.
 * @param {State | null} s
 * @param {string} seat
 * @returns {{active: boolean, won: boolean}}
 */
export function chipState(s, seat) {
  const g = s ? s.G : null;
  return {
    active: !!g && isStarted(s) && !isOver(s) && g.toMove === seat,
    won: !!(g && g.result && g.result.winner === seat),
  };
}

/**
 * grows says which stone grows in on this state: only a stone just played
 * (not the whole board on the first state, nor the stone an undo
 * uncovers). "keep" leaves the animation running (nothing changed), null
 * stops it.
 * @param {number} before the number of moves the previous state had (-1: none)
 * @param {any} g
 * @returns {Point | null | "keep"}
 */
export function grows(before, g) {
  if (before >= 0 && g.moves.length === before + 1 && g.last) return { x: g.last[0], y: g.last[1] };
  if (g.moves.length !== before) return null;
  return "keep";
}

/**
 * undoAnswer is the toast that says how the viewer's (or the opponent's)
 * undo request was answered, or null: asked is who had asked before this
 * state, before how many moves there were.
 * @param {string | null | undefined} asked
 * @param {number} before
 * @param {any} g
 * @param {string | null} you
 * @returns {{key: string, params?: Record<string, any>, kind: string} | null}
 */
export function undoAnswer(asked, before, g, you) {
  if (asked === null || asked === undefined || asking(g) || g.result || you === null) return null;
  if (g.moves.length < before) return { key: you === asked ? "gomoku.undoAccepted" : "gomoku.undoDone", params: { n: before - g.moves.length }, kind: "ok" };
  if (you === asked) return { key: "gomoku.undoDeclined", kind: "info" };
  return null;
}

/**
 * boardWidth is the board's width: the width available, at most 760 px,
 * and short enough that the board with the players, status and buttons
 * fits the screen's height without scrolling (about 340 px of page above
 * and below it on a laptop).
 * @param {number} avail
 * @param {number} innerHeight
 * @returns {number}
 */
export function boardWidth(avail, innerHeight) {
  const tall = Math.max(300, innerHeight - 340);
  return Math.floor(Math.min(Math.max(200, avail), 760, tall));
}
