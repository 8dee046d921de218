// Tests of static/games/gomoku_state.js (what the gomoku plugin derives
// from a state: whose turn, the status line, the buttons, the undo
// toasts, the stone that grows in) with node's own test runner:
// node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const S = await import("../static/games/gomoku_state.js");
const t = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);
const nameOf = (seat) => "P" + seat;

// state builds a started 15x15 state with moves played at (0,0), (1,0)…
function state(moves = 2, over = {}, ctx = {}) {
  const board = Array.from({ length: 15 }, () => ".".repeat(15).split(""));
  const ms = [];
  for (let i = 0; i < moves; i++) { board[0][i] = i % 2 ? "W" : "B"; ms.push([i, 0]); }
  const G = { size: 15, board: board.map((r) => r.join("")), moves: ms, last: ms.length ? ms[ms.length - 1] : null,
    toMove: moves % 2 ? "1" : "0", winLine: null, undoRequest: null, result: null, ...over };
  return { G, ctx: { started: true, gameover: null, ...ctx }, players: [] };
}

test("cellAt reads the board, \"\" off it", () => {
  const g = state(3).G;
  assert.equal(S.cellAt(g, { x: 0, y: 0 }), "B");
  assert.equal(S.cellAt(g, { x: 1, y: 0 }), "W");
  assert.equal(S.cellAt(g, { x: 5, y: 5 }), ".");
  assert.equal(S.cellAt(g, { x: 15, y: 0 }), "");
  assert.equal(S.cellAt(g, { x: 0, y: 15 }), "");
  assert.equal(S.cellAt(null, { x: 0, y: 0 }), "");
  assert.equal(S.stoneOf("0"), "B");
  assert.equal(S.stoneOf("1"), "W");
});

test("the viewer's turn: seated, started, not over, their colour, no undo asked", () => {
  assert.equal(S.isMyTurn(state(2), "0"), true);
  assert.equal(S.isMyTurn(state(2), "1"), false);
  assert.equal(S.isMyTurn(state(2), null), false);
  assert.equal(S.isMyTurn(state(2, {}, { started: false }), "0"), false);
  assert.equal(S.isMyTurn(state(2, { undoRequest: "1" }), "0"), false);
  assert.equal(S.isMyTurn(state(2, { result: { winner: "1", reason: "resign" } }), "0"), false);
  assert.equal(S.isMyTurn(state(2, {}, { gameover: { winner: "1" } }), "0"), false);
  assert.equal(S.isMyTurn(null, "0"), false);
});

test("the status line", () => {
  assert.deepEqual(S.statusText(state(2), "0", t, nameOf),
    { text: 'gomoku.yourTurn {"colour":"gomoku.black"} · gomoku.moveNo {"n":3}', cls: "mine" });
  assert.deepEqual(S.statusText(state(3), "0", t, nameOf),
    { text: 'gomoku.toMove {"colour":"gomoku.white"} · gomoku.moveNo {"n":4}', cls: "" });
  assert.deepEqual(S.statusText(null, "0", t, nameOf), { text: "gomoku.waiting", cls: "" });
  const asked = state(2, { undoRequest: "1" });
  assert.equal(S.statusText(asked, "1", t, nameOf).text, "gomoku.undoWaiting");
  assert.deepEqual(S.statusText(asked, "0", t, nameOf), { text: 'gomoku.undoAsked {"name":"P1"}', cls: "mine" });
  assert.equal(S.statusText(asked, null, t, nameOf).text, 'gomoku.undoPending {"name":"P1"}');
  const five = state(9, { result: { winner: "0", reason: "five" } });
  assert.deepEqual(S.statusText(five, "0", t, nameOf), { text: 'gomoku.win.five {"colour":"gomoku.black"} gomoku.youWin', cls: "over win" });
  assert.deepEqual(S.statusText(five, "1", t, nameOf), { text: 'gomoku.win.five {"colour":"gomoku.black"} gomoku.youLose', cls: "over loss" });
  assert.deepEqual(S.statusText(five, null, t, nameOf), { text: 'gomoku.win.five {"colour":"gomoku.black"}', cls: "over" });
  assert.equal(S.statusText(state(4, { result: { winner: "1", reason: "resign" } }), null, t, nameOf).text,
    'gomoku.win.resign {"colour":"gomoku.white","loser":"gomoku.black"}');
  assert.deepEqual(S.statusText(state(4, { result: { draw: true } }), "0", t, nameOf), { text: "gomoku.draw", cls: "over" });
});

test("the buttons: the one asked answers, the one who asked waits", () => {
  assert.deepEqual(S.buttons(state(2), "0"), { undoHidden: false, undoDisabled: false, answerHidden: true, resignDisabled: false });
  assert.equal(S.buttons(state(0), "0").undoDisabled, true, "nothing to undo");
  const asked = state(2, { undoRequest: "1" });
  assert.deepEqual(S.buttons(asked, "0"), { undoHidden: true, undoDisabled: true, answerHidden: false, resignDisabled: false });
  assert.deepEqual(S.buttons(asked, "1"), { undoHidden: false, undoDisabled: true, answerHidden: true, resignDisabled: false });
  const over = S.buttons(state(2, { result: { winner: "0", reason: "resign" } }), "0");
  assert.equal(over.undoDisabled && over.resignDisabled && over.answerHidden, true);
});

test("grows: only a stone just played", () => {
  assert.deepEqual(S.grows(2, state(3).G), { x: 2, y: 0 });
  assert.equal(S.grows(-1, state(3).G), null, "not on the first state");
  assert.equal(S.grows(4, state(2).G), null, "not the stone an undo uncovers");
  assert.equal(S.grows(3, state(3).G), "keep");
});

test("undoAnswer: how an undo request was answered", () => {
  const after = state(2).G;
  assert.deepEqual(S.undoAnswer("1", 4, after, "1"), { key: "gomoku.undoAccepted", params: { n: 2 }, kind: "ok" });
  assert.deepEqual(S.undoAnswer("1", 4, after, "0"), { key: "gomoku.undoDone", params: { n: 2 }, kind: "ok" });
  assert.deepEqual(S.undoAnswer("1", 2, after, "1"), { key: "gomoku.undoDeclined", kind: "info" });
  assert.equal(S.undoAnswer("1", 2, after, "0"), null, "the one who declined is not told");
  assert.equal(S.undoAnswer(null, 4, after, "1"), null);
  assert.equal(S.undoAnswer("1", 4, after, null), null, "spectators are not told");
  assert.equal(S.undoAnswer("1", 4, state(2, { undoRequest: "0" }).G, "1"), null, "still asking");
});

test("boardWidth fits the width and the window's height", () => {
  assert.equal(S.boardWidth(1000, 1200), 760);
  assert.equal(S.boardWidth(500, 1200), 500);
  assert.equal(S.boardWidth(1000, 800), 460);
  assert.equal(S.boardWidth(100, 1200), 200);
  assert.equal(S.boardWidth(1000, 400), 300);
});
