// Tests of static/js/grid.js (what the gomoku and weiqi boards share: the
// geometry, the point under the pointer, the cursor's steps, the repeatable
// random and the board cache) with node's own test runner:
// node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const grid = await import("../static/js/grid.js");
const { mulberry32, gridGeometry, samePoint, stepPoint, centre, STEPS, boardCache } = grid;
// pointAt, with -0 (a point just above or left of the first line rounds
// to it) read as 0.
const pointAt = (...args) => {
  const p = grid.pointAt(...args);
  return p && { x: p.x + 0, y: p.y + 0 };
};

test("mulberry32 gives the same sequence for a start value, in [0, 1), and another for another", () => {
  const a = mulberry32(20260415), b = mulberry32(20260415), c = mulberry32(3003);
  const xs = Array.from({ length: 1000 }, () => a());
  assert.deepEqual(Array.from({ length: 1000 }, () => b()), xs);
  for (const x of xs) assert.ok(x >= 0 && x < 1, String(x));
  assert.notDeepEqual(Array.from({ length: 10 }, () => c()), xs.slice(0, 10));
  // The grain the boards have always drawn: its first values stay put.
  const d = mulberry32(20260415);
  assert.equal(d().toFixed(12), mulberry32(20260415)().toFixed(12));
  assert.ok(new Set(xs).size > 990, "no short cycle");
});

test("gridGeometry: the lines span the width less a margin of cells each side", () => {
  const g = gridGeometry(560, 15, 1.1);
  assert.equal(g.n, 15);
  assert.equal(g.w, 560);
  assert.ok(Math.abs(g.pad + 14 * g.cell + g.pad - 560) < 1e-9);
  assert.ok(Math.abs(g.pad - 1.1 * g.cell) < 1e-9);
  // The plugins' own formulas, exactly.
  assert.equal(g.cell, 560 / (15 - 1 + 2.2));
  assert.equal(gridGeometry(500, 19, 1.25).cell, 500 / (19 - 1 + 2.5));
});

test("pointAt finds the nearest intersection, and null off the board", () => {
  const g = gridGeometry(560, 15, 1.1);
  const rect = { left: 100, top: 50, width: 560 };
  const px = (x, y) => [rect.left + g.pad + x * g.cell, rect.top + g.pad + y * g.cell];
  for (const [x, y] of [[0, 0], [7, 7], [14, 14], [3, 11], [14, 0]]) {
    const [cx, cy] = px(x, y);
    assert.deepEqual(pointAt(g, rect, cx, cy), { x, y });
    // Anywhere within half a cell rounds to it.
    assert.deepEqual(pointAt(g, rect, cx + g.cell * 0.49, cy - g.cell * 0.49), { x, y });
  }
  const [ex, ey] = px(7, 7);
  assert.deepEqual(pointAt(g, rect, ex + g.cell * 0.51, ey), { x: 8, y: 7 });
  // Off the board: past half a cell beyond an edge line.
  assert.equal(pointAt(g, rect, rect.left + g.pad - g.cell * 0.51, ey), null);
  assert.equal(pointAt(g, rect, ex, rect.top + g.pad + 14.51 * g.cell), null);
  assert.equal(pointAt(g, rect, rect.left - 5, rect.top - 5), null);
  assert.equal(pointAt(null, rect, ex, ey), null);
});

test("pointAt scales a canvas that CSS shrank", () => {
  const g = gridGeometry(760, 19, 1.25);
  const rect = { left: 0, top: 0, width: 380 }; // shown at half size
  const half = (v) => (g.pad + v * g.cell) / 2;
  assert.deepEqual(pointAt(g, rect, half(3), half(15)), { x: 3, y: 15 });
  assert.deepEqual(pointAt(g, rect, half(18), half(0)), { x: 18, y: 0 });
  // A box without a width (not laid out yet) counts as unscaled.
  assert.deepEqual(pointAt(g, { left: 0, top: 0, width: 0 }, g.pad + 2 * g.cell, g.pad), { x: 2, y: 0 });
});

test("samePoint, stepPoint and centre", () => {
  assert.equal(samePoint({ x: 1, y: 2 }, { x: 1, y: 2 }), true);
  assert.equal(samePoint({ x: 1, y: 2 }, { x: 2, y: 1 }), false);
  assert.equal(samePoint(null, { x: 1, y: 2 }), false);
  assert.equal(samePoint(null, null), false);
  assert.deepEqual(stepPoint({ x: 0, y: 5 }, STEPS.ArrowLeft, 9), { x: 0, y: 5 }, "kept on the board");
  assert.deepEqual(stepPoint({ x: 8, y: 8 }, STEPS.ArrowDown, 9), { x: 8, y: 8 });
  assert.deepEqual(stepPoint({ x: 4, y: 4 }, STEPS.ArrowUp, 9), { x: 4, y: 3 });
  assert.deepEqual(stepPoint({ x: 4, y: 4 }, STEPS.ArrowRight, 9), { x: 5, y: 4 });
  assert.deepEqual(centre(15), { x: 7, y: 7 });
  assert.deepEqual(centre(19), { x: 9, y: 9 });
  assert.deepEqual(centre(9), { x: 4, y: 4 });
});

test("boardCache draws the board once per size and pixel ratio", () => {
  const renders = [];
  const draw = boardCache((geom, dpr) => { renders.push(`${geom.w}/${geom.n}/${dpr}`); return { id: renders.length }; });
  const drawn = [];
  const ctx = (dpr) => ({
    getTransform: () => ({ a: dpr }),
    save() {}, restore() {}, setTransform() {},
    drawImage(img) { drawn.push(img.id); },
  });
  const g = gridGeometry(400, 15, 1.1);
  draw(ctx(1), g);
  draw(ctx(1), g);
  draw(ctx(1), g);
  assert.deepEqual(renders, ["400/15/1"]);
  draw(ctx(2), g);
  draw(ctx(2), gridGeometry(500, 15, 1.1));
  draw(ctx(2), gridGeometry(500, 15, 1.1));
  assert.deepEqual(renders, ["400/15/1", "400/15/2", "500/15/2"]);
  assert.deepEqual(drawn, [1, 1, 1, 2, 3, 3]);
  // Two boards keep their own caches.
  const other = boardCache(() => ({ id: 99 }));
  other(ctx(2), gridGeometry(500, 15, 1.1));
  draw(ctx(2), gridGeometry(500, 15, 1.1));
  assert.deepEqual(drawn.slice(-2), [99, 3]);
});
