// Tests of static/games/carcassonne_state.js (whose step, the legal
// rotations, the camera's maths, the spot under the pointer, what a state
// brings to animate and for how long) with node's own test runner:
// node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const S = await import("../static/games/carcassonne_state.js");
const { spotOf } = await import("../static/games/carcassonne_tiles.js");

const state = (G, ctx = {}) => ({ G: { phase: "tile", current: 0, tile: "D", ...G }, ctx: { started: true, gameover: null, ...ctx } });

test("stepsOf: the viewer's tile and meeple steps", () => {
  assert.deepEqual(S.stepsOf(state({}), "0"), { started: true, over: false, seated: true, mine: true, myTile: true, myMeeple: false });
  assert.equal(S.stepsOf(state({ phase: "meeple" }), "0").myMeeple, true);
  assert.equal(S.stepsOf(state({}), "1").mine, false);
  assert.equal(S.stepsOf(state({}), null).seated, false);
  assert.equal(S.stepsOf(state({}), "").seated, false, "an empty playerID is a spectator");
  assert.equal(S.stepsOf(state({ tile: "" }), "0").myTile, false, "no tile drawn");
  assert.equal(S.stepsOf(state({ phase: "over" }), "0").over, true);
  assert.equal(S.stepsOf(state({}, { gameover: {} }), "0").mine, false);
  assert.equal(S.stepsOf(null, "0").started, false);
});

test("legalAt and nextRotation", () => {
  const g = { placements: [{ x: 1, y: 0, rotations: [270, 0, 90] }] };
  assert.deepEqual(S.legalAt(g, { x: 1, y: 0 }), [0, 90, 270]);
  assert.equal(S.legalAt(g, { x: 2, y: 0 }), null);
  assert.equal(S.legalAt(g, null), null);
  assert.equal(S.legalAt({}, { x: 1, y: 0 }), null);
  assert.equal(S.nextRotation([0, 90, 270], 90), 270);
  assert.equal(S.nextRotation([0, 90, 270], 270), 0);
  assert.equal(S.nextRotation(null, 270), 0, "a quarter turn with no cell selected");
  assert.equal(S.nextRotation([], 90), 180);
});

test("the camera: fit, zoom about a point, bring cells into sight", () => {
  const b = S.bounds({ board: [{ x: 0, y: 0 }, { x: 2, y: 1 }], placements: [{ x: -1, y: 0 }] });
  assert.deepEqual(b, { x0: -1, y0: 0, x1: 3, y1: 2 });
  assert.deepEqual(S.bounds(null), { x0: 0, y0: 0, x1: 1, y1: 1 });
  const cam = S.fitCam(800, 600, b);
  // The box's centre (100, 100 in world units) lands on the screen's.
  assert.ok(Math.abs(100 * cam.s + cam.tx - 400) < 1e-9 && Math.abs(100 * cam.s + cam.ty - 300) < 1e-9);
  assert.equal(S.fitCam(8000, 6000, b).s, 1.1, "no larger than 110 px a tile");
  assert.equal(S.fitCam(10, 10, b).s, S.MIN_PX / 100);
  const z = S.zoomCam({ s: 1, tx: 0, ty: 0 }, 1.5, 200, 100);
  assert.deepEqual(z, { s: 1.5, tx: -100, ty: -50 }, "the point under the pointer stays put");
  assert.equal(S.zoomCam({ s: 1, tx: 0, ty: 0 }, 10, 0, 0).s, S.MAX_PX / 100);
  assert.equal(S.showCam({ s: 1, tx: 0, ty: 0 }, 800, 600, [[1, 1], [2, 2]]), null, "in sight already");
  const moved = S.showCam({ s: 1, tx: 0, ty: 0 }, 800, 600, [[10, 10]]);
  assert.ok(Math.abs(1050 * moved.s + moved.tx - 400) < 1e-9 && Math.abs(1050 * moved.s + moved.ty - 300) < 1e-9);
  assert.deepEqual(S.toWorld({ s: 2, tx: 10, ty: 20 }, { left: 5, top: 5 }, 215, 225), { x: 100, y: 100 });
  assert.deepEqual(S.cellOf({ x: -1, y: 199 }), { x: -1, y: 1 });
});

test("meepleSpotAt: the nearest option on the tile just placed, within reach", () => {
  // Tile D turned 90°: its city's spot is at (85, 50), its road's at (50, 50).
  const lp = { x: 2, y: 3, type: "D", rotation: 90 };
  const g = { lastPlaced: lp, meepleOptions: [{ feature: "road1" }, { feature: "city0" }] };
  assert.deepEqual(spotOf("D", 90, "city0"), [85, 50]);
  assert.deepEqual(spotOf("D", 90, "road1"), [50, 50]);
  const at = (x, y) => ({ x: 200 + x, y: 300 + y });
  assert.equal(S.meepleSpotAt(g, at(50, 50), 1).feature, "road1");
  assert.equal(S.meepleSpotAt(g, at(80, 52), 1).feature, "city0");
  assert.equal(S.meepleSpotAt(g, at(66, 50), 1).feature, "road1", "the nearer one");
  assert.equal(S.meepleSpotAt(g, at(50, 90), 1), null, "out of reach (13 world units, 16 px)");
  assert.equal(S.meepleSpotAt(g, at(50, 75), 0.5).feature, "road1", "zoomed out, the reach grows to 16 px");
  assert.equal(S.meepleSpotAt(g, at(50, 75), 1), null);
  assert.equal(S.meepleSpotAt({}, at(50, 50), 1), null);
});

test("freshOf: what to animate, and how long another seat's step shows", () => {
  const ev = (kind, seat, extra = {}) => ({ turn: 1, kind, seat, x: 0, y: 0, ...extra });
  const before = { board: [{ x: 0, y: 0 }], meeples: [], events: [ev("place", 0)] };
  const g = {
    board: [{ x: 0, y: 0 }, { x: 1, y: 0 }], meeples: [{ seat: 1, x: 1, y: 0, feature: "road" }],
    events: [ev("place", 0), ev("place", 1, { x: 1 }), ev("meeple", 1, { x: 1 }), ev("score", 1, { points: 4, cells: [[1, 0]] })],
  };
  let r = S.freshOf(before, g, {}, true, "0");
  assert.equal(r.fresh.tile, "1,0");
  assert.deepEqual([...r.fresh.meeples], ["1:1,0:road"]);
  assert.equal(r.fresh.scores.length, 1);
  assert.equal(r.wait, 1300);
  assert.equal(S.freshOf(before, g, {}, true, "1").wait, 400, "the viewer's own step: short");
  assert.equal(S.freshOf(before, g, { behind: 3 }, true, "0").wait, 120);
  r = S.freshOf(before, g, { sync: true }, true, "0");
  assert.deepEqual([r.fresh.tile, r.fresh.meeples.size, r.fresh.scores.length, r.wait], ["", 0, 0, 0]);
  assert.equal(S.freshOf(null, g, {}, true, "0").wait, 0);
  assert.equal(S.evKey(null), "");
  assert.equal(S.evKey(ev("score", 1, { points: 4, feature: "c1" })), "1:score:1:0:0:c1:4");
});

test("boardHeight", () => {
  assert.equal(S.boardHeight(true, 100, 800), 680);
  assert.equal(S.boardHeight(true, 100, 400), 440);
  assert.equal(S.boardHeight(true, 0, 2000), 900);
  assert.equal(S.boardHeight(false, 0, 800), 400);
  assert.equal(S.boardHeight(false, 0, 400), 280);
  assert.equal(S.boardHeight(false, 0, 2000), 520);
});
