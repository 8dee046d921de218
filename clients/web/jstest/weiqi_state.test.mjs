// Tests of static/games/weiqi_state.js (what the weiqi plugin derives from
// a state: the phase, the evolution's frames, the dead stones, the
// board's width) with node's own test runner: node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const S = await import("../static/games/weiqi_state.js");

const empty = (n) => Array.from({ length: n }, () => ".".repeat(n));
function state(G, ctx = {}) {
  return { G: { size: 9, board: empty(9), phase: "play", toMove: "0", undoRequest: null, scoringRequest: null, ...G }, ctx: { started: true, gameover: null, ...ctx } };
}

test("phaseOf: whose turn, scoring, over, requests", () => {
  let p = S.phaseOf(state({}), "0");
  assert.deepEqual(p, { started: true, over: false, seated: true, requestPending: false, myTurn: true, scoring: false });
  assert.equal(S.phaseOf(state({}), "1").myTurn, false);
  assert.equal(S.phaseOf(state({}), null).myTurn, false);
  assert.equal(S.phaseOf(state({ undoRequest: "1" }), "0").myTurn, false);
  assert.equal(S.phaseOf(state({ scoringRequest: "1" }), "0").requestPending, true);
  p = S.phaseOf(state({ phase: "scoring" }), "0");
  assert.equal(p.scoring && !p.myTurn, true);
  assert.equal(S.phaseOf(state({ phase: "over" }), "0").over, true);
  assert.equal(S.phaseOf(state({ result: "B+R" }), "0").over, true);
  assert.equal(S.phaseOf(state({}, { gameover: { winner: "0" } }), "0").over, true);
  assert.equal(S.phaseOf(state({}, { started: false }), "0").myTurn, false);
  assert.equal(S.phaseOf(null, "0").started, false);
});

test("frame: the live position, scoring's territory, the evolution generation by generation", () => {
  const board = empty(9), territory = empty(9);
  const ev = [empty(9), empty(9), empty(9)];
  const live = S.frame({ board, phase: "play", territory }, false, null);
  assert.deepEqual(live, { board, prev: null, k: 1, gen: -1, territory: null });
  assert.equal(S.frame({ board, phase: "scoring", territory }, false, null).territory, territory);
  const g = { board, phase: "over", territory, evolution: ev };
  assert.deepEqual(S.frame(g, true, null), { board: ev[2], prev: null, k: 1, gen: 2, territory });
  const f0 = S.frame(g, true, 0);
  assert.deepEqual([f0.board, f0.prev, f0.gen, f0.territory], [ev[0], null, 0, null]);
  const f1 = S.frame(g, true, S.GEN_MS + S.GEN_MS * 0.3);
  assert.deepEqual([f1.board, f1.prev, f1.gen], [ev[1], ev[0], 1]);
  assert.ok(Math.abs(f1.k - 0.5) < 1e-9, "half way through growing in");
  assert.equal(S.frame(g, true, S.GEN_MS * 10).gen, 2, "never past the last generation");
  assert.equal(S.evolutionDone(ev, S.GEN_MS * 3 - 1), false);
  assert.equal(S.evolutionDone(ev, S.GEN_MS * 3), true);
  assert.equal(S.evolutionOf({ evolution: [] }), null);
  assert.equal(S.evolutionOf(null), null);
});

test("deadSet: in scoring, and at an end without an evolution", () => {
  assert.deepEqual([...S.deadSet({ phase: "scoring", dead: ["D4", "E5"] }, false)], ["D4", "E5"]);
  assert.deepEqual([...S.deadSet({ phase: "over", dead: ["D4"] }, true)], ["D4"]);
  assert.deepEqual([...S.deadSet({ phase: "over", dead: ["D4"], evolution: [empty(9)] }, true)], []);
  assert.deepEqual([...S.deadSet({ phase: "play", dead: ["D4"] }, false)], []);
  assert.equal(S.approvedBy({ approved: [true, false] }, "0"), true);
  assert.equal(S.approvedBy({ approved: [true, false] }, "1"), false);
  assert.equal(S.approvedBy({}, "0"), false);
});

test("boardLayout: beside the sidebar when wide, above it when narrow", () => {
  assert.deepEqual(S.boardLayout(1200, 100, 900), { wide: true, w: 774 });
  assert.deepEqual(S.boardLayout(1200, 100, 400), { wide: true, w: 380 }, "never under 380 beside the sidebar");
  assert.deepEqual(S.boardLayout(2000, 0, 2000), { wide: true, w: 820 });
  assert.deepEqual(S.boardLayout(619, 0, 900), { wide: false, w: 619 });
  assert.deepEqual(S.boardLayout(900, 0, 900).wide, true);
  assert.deepEqual(S.boardLayout(200, 0, 900), { wide: false, w: 220 });
  assert.equal(S.cellAt(["B.", ".W"], { x: 1, y: 1 }), "W");
  assert.equal(S.cellAt(["B.", ".W"], { x: 2, y: 1 }), "");
  assert.equal(S.cellAt(null, { x: 0, y: 0 }), "");
});
