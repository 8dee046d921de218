// @ts-check
// grid: what the gomoku and weiqi boards share. A square grid's geometry,
// the point under the pointer (pixel → intersection), the keyboard
// cursor's step, the repeatable random that lays the same wood grain on every
// redraw, the cache of the empty board drawn once per size, and the grid
// lines themselves. Pure but for boardCanvas and strokeGrid (a canvas);
// jstest/grid.test.mjs tests it.

/** @typedef {import("./types.js").Point} Point */
/** @typedef {import("./types.js").Geom} Geom */

/**
 * mulberry32 returns a repeatable random in [0, 1): the same sequence for
 * the same start value.
 * @param {number} start
 * @returns {() => number}
 */
export function mulberry32(start) {
  let a = start >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * gridGeometry is an n-line board w CSS px wide with a margin of `margin`
 * cells from the edge to the first line on each side.
 * @param {number} w
 * @param {number} n
 * @param {number} margin
 * @returns {Geom}
 */
export function gridGeometry(w, n, margin) {
  const cell = w / (n - 1 + 2 * margin);
  return { w, n, cell, pad: cell * margin };
}

/**
 * pointAt is the intersection nearest to the pointer at clientX, clientY
 * on a canvas whose box is rect, or null off the board. CSS may shrink the
 * canvas (max-width) before the next layout: the pointer is scaled from
 * the box's width to geom.w.
 * @param {Geom | null} geom
 * @param {{left: number, top: number, width: number}} rect
 * @param {number} clientX
 * @param {number} clientY
 * @returns {Point | null}
 */
export function pointAt(geom, rect, clientX, clientY) {
  if (!geom) return null;
  const k = rect.width > 0 ? geom.w / rect.width : 1;
  const x = Math.round(((clientX - rect.left) * k - geom.pad) / geom.cell);
  const y = Math.round(((clientY - rect.top) * k - geom.pad) / geom.cell);
  return x < 0 || y < 0 || x >= geom.n || y >= geom.n ? null : { x, y };
}

/**
 * samePoint says whether a and b are the same point (false when either is null).
 * @param {Point | null | undefined} a
 * @param {Point | null | undefined} b
 * @returns {boolean}
 */
export const samePoint = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;

/** STEPS maps the arrow keys to a cursor step. @type {Record<string, [number, number]>} */
export const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * stepPoint moves p by [dx, dy], kept on an n-line board.
 * @param {Point} p
 * @param {[number, number]} step
 * @param {number} n
 * @returns {Point}
 */
export const stepPoint = (p, step, n) => ({
  x: Math.min(n - 1, Math.max(0, p.x + step[0])),
  y: Math.min(n - 1, Math.max(0, p.y + step[1])),
});

/**
 * centre is the middle point of an n-line board.
 * @param {number} n
 * @returns {Point}
 */
export const centre = (n) => ({ x: (n - 1) >> 1, y: (n - 1) >> 1 });

/**
 * boardCache returns drawBoard(ctx, geom), which paints the empty board
 * render(geom, dpr) drew (a canvas of device pixels), drawing it again
 * only when the size, the line count or the pixel ratio changed. Each
 * board keeps its own cache.
 * @param {(geom: Geom, dpr: number) => CanvasImageSource} render
 * @returns {(ctx: CanvasRenderingContext2D, geom: Geom) => void}
 */
export function boardCache(render) {
  /** @type {{key: string, canvas: CanvasImageSource} | null} */
  let cache = null;
  return (ctx, geom) => {
    const dpr = ctx.getTransform().a;
    const key = `${geom.w}:${geom.n}:${dpr}`;
    if (!cache || cache.key !== key) cache = { key, canvas: render(geom, dpr) };
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(cache.canvas, 0, 0);
    ctx.restore();
  };
}

/**
 * boardCanvas is a new w x w CSS px canvas at dpr device pixels per CSS
 * pixel, and its context scaled to CSS pixels.
 * @param {number} w
 * @param {number} dpr
 * @returns {{canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D}}
 */
export function boardCanvas(w, dpr) {
  const canvas = document.createElement("canvas");
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(w * dpr);
  const ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  ctx.scale(dpr, dpr);
  return { canvas, ctx };
}

/**
 * strokeGrid draws the n lines each way, each on a device pixel, and the
 * outer square twice as thick, in colour.
 * @param {CanvasRenderingContext2D} ctx
 * @param {Geom} geom
 * @param {number} dpr
 * @param {string} colour
 */
export function strokeGrid(ctx, geom, dpr, colour) {
  const { n, cell, pad } = geom;
  const at = (/** @type {number} */ v) => pad + v * cell;
  const end = at(n - 1);
  ctx.strokeStyle = colour;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let i = 0; i < n; i++) {
    const p = Math.round(at(i) * dpr) / dpr + 0.5 / dpr;
    ctx.moveTo(at(0), p); ctx.lineTo(end, p);
    ctx.moveTo(p, at(0)); ctx.lineTo(p, end);
  }
  ctx.stroke();
  ctx.lineWidth = 2;
  ctx.strokeRect(at(0), at(0), end - at(0), end - at(0));
}
