// @ts-check
// Drawing helpers of the weiqi plugin, in the weiqi design's palette
// (docs/weiqi.md, "Design"): a dark kaya board in a bronze frame, slate and
// shell stones, the cinnabar seal beside the last move, dead stones as a
// bold ✕ on grey, territory squares and the amber cursor halo.

import { boardCache, boardCanvas, gridGeometry, mulberry32, strokeGrid } from "/assets/js/grid.js";
import { COLS, coordOf, pointOf } from "./weiqi_text.js";

/** @typedef {import("../js/types.js").Geom} Geom */

/** PAL is the weiqi design's colour table (docs/weiqi.md, "Design"). */
export const PAL = {
  panel: "#1B1612", board: "#2E2519", gridHard: "#4A3D2A", gridSoft: "#3A2F1F",
  black: "#0A0A0A", white: "#EFE4C9", halo: "#D4A56A", seal: "#B2343A",
  dim: "#8E7B5E", text: "#D9C9A6", gold: "#6B5535",
};

/** STARS lists the star points (x, y from the top left) of each size. */
const STARS = {
  9: [[2, 2], [6, 2], [4, 4], [2, 6], [6, 6]],
  13: [[3, 3], [9, 3], [6, 6], [3, 9], [9, 9]],
  19: [[3, 3], [9, 3], [15, 3], [3, 9], [9, 9], [15, 9], [3, 15], [9, 15], [15, 15]],
};

/**
 * geometry returns the board geometry of an n-line board w CSS px wide:
 * 1.25 cells each side (coordinates and the frame), stones of r.
 * @param {number} w
 * @param {number} n
 * @returns {Geom}
 */
export function geometry(w, n) {
  const g = gridGeometry(w, n, 1.25);
  return { ...g, r: g.cell * 0.47 };
}

/**
 * drawBoard paints the empty board (kept in a cache per size).
 * @type {(ctx: CanvasRenderingContext2D, geom: Geom) => void}
 */
export const drawBoard = boardCache(renderBoard);

/**
 * renderBoard draws the empty board on a canvas of its own.
 * @param {Geom} geom
 * @param {number} dpr
 * @returns {HTMLCanvasElement}
 */
function renderBoard(geom, dpr) {
  const { w, n, cell, pad } = geom;
  const { canvas: c, ctx } = boardCanvas(w, dpr);
  // Kaya: the design's dark board with a faint warm glow and long fibres.
  ctx.fillStyle = PAL.board;
  ctx.fillRect(0, 0, w, w);
  const glow = ctx.createRadialGradient(w * 0.4, w * 0.35, w * 0.05, w / 2, w / 2, w * 0.75);
  glow.addColorStop(0, "rgba(212, 165, 106, 0.10)");
  glow.addColorStop(1, "rgba(0, 0, 0, 0.22)");
  ctx.fillStyle = glow;
  ctx.fillRect(0, 0, w, w);
  const rnd = mulberry32(3003);
  for (let i = 0; i < 70; i++) {
    const y0 = rnd() * w, amp = 1 + rnd() * 4, freq = 0.004 + rnd() * 0.01, phase = rnd() * 6.28;
    ctx.strokeStyle = rnd() < 0.55 ? `rgba(212, 165, 106, ${0.015 + rnd() * 0.035})` : `rgba(0, 0, 0, ${0.05 + rnd() * 0.08})`;
    ctx.lineWidth = 0.5 + rnd() * 1.5;
    ctx.beginPath();
    for (let x = -4; x <= w + 4; x += 6) {
      const y = y0 + Math.sin(x * freq + phase) * amp;
      if (x === -4) ctx.moveTo(x, y); else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  // The bronze frame.
  ctx.strokeStyle = PAL.gold;
  ctx.lineWidth = 2;
  ctx.strokeRect(1, 1, w - 2, w - 2);
  ctx.strokeStyle = "rgba(107, 85, 53, 0.45)";
  ctx.lineWidth = 1;
  ctx.strokeRect(5.5, 5.5, w - 11, w - 11);

  const at = (/** @type {number} */ v) => pad + v * cell;
  strokeGrid(ctx, geom, dpr, PAL.gridHard);
  for (const [x, y] of STARS[n] || []) {
    ctx.fillStyle = PAL.gridSoft;
    ctx.beginPath();
    ctx.arc(at(x), at(y), Math.max(3.5, cell * 0.2), 0, Math.PI * 2);
    ctx.fill();
    ctx.fillStyle = PAL.gridHard;
    ctx.beginPath();
    ctx.arc(at(x), at(y), Math.max(2, cell * 0.1), 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.fillStyle = PAL.dim;
  ctx.font = `${Math.max(8, Math.round(cell * 0.36))}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  const near = pad * 0.42, far = w - pad * 0.42;
  for (let i = 0; i < n; i++) {
    ctx.fillText(COLS[i], at(i), near);
    ctx.fillText(COLS[i], at(i), far);
    ctx.fillText(String(n - i), near, at(i));
    ctx.fillText(String(n - i), far, at(i));
  }
  return c;
}

/**
 * drawStone paints a slate ("B") or shell ("W") stone.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {string} colour
 * @param {number} [alpha]
 */
export function drawStone(ctx, cx, cy, r, colour, alpha = 1) {
  ctx.save();
  ctx.globalAlpha = alpha;
  if (alpha >= 0.99) {
    ctx.shadowColor = "rgba(0, 0, 0, 0.55)";
    ctx.shadowBlur = r * 0.4;
    ctx.shadowOffsetX = r * 0.08;
    ctx.shadowOffsetY = r * 0.14;
  }
  const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.4, r * 0.06, cx, cy, r);
  if (colour === "B") {
    g.addColorStop(0, "#55524d");
    g.addColorStop(0.3, "#232221");
    g.addColorStop(1, PAL.black);
  } else {
    g.addColorStop(0, "#fffaf0");
    g.addColorStop(0.5, PAL.white);
    g.addColorStop(1, "#b9a987");
  }
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.shadowColor = "transparent";
  if (colour === "W" && r > 6) {
    // The clam shell's growth lines.
    ctx.clip();
    ctx.strokeStyle = "rgba(150, 128, 90, 0.16)";
    ctx.lineWidth = Math.max(0.6, r * 0.05);
    for (let k = 1; k <= 4; k++) {
      ctx.beginPath();
      ctx.arc(cx + r * 0.2, cy + r * 1.6, r * (0.9 + k * 0.32), Math.PI * 1.15, Math.PI * 1.85);
      ctx.stroke();
    }
  } else if (colour === "B") {
    ctx.strokeStyle = "rgba(217, 201, 166, 0.16)";
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.arc(cx, cy, r - 0.5, Math.PI * 0.9, Math.PI * 1.7);
    ctx.stroke();
  }
  ctx.restore();
}

/**
 * drawSeal paints the cinnabar seal ▪ beside the stone at (cx, cy).
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 */
export function drawSeal(ctx, cx, cy, r) {
  const s = Math.max(6, r * 0.62);
  const x = cx + r * 0.5, y = cy - r * 0.5 - s;
  ctx.save();
  ctx.shadowColor = "rgba(0, 0, 0, 0.5)";
  ctx.shadowBlur = 2;
  ctx.fillStyle = PAL.seal;
  ctx.fillRect(x, y, s, s);
  ctx.shadowColor = "transparent";
  ctx.strokeStyle = "rgba(239, 228, 201, 0.55)";
  ctx.lineWidth = Math.max(0.75, s * 0.1);
  const i = s * 0.22;
  ctx.strokeRect(x + i, y + i, s - 2 * i, s - 2 * i);
  ctx.restore();
}

/**
 * drawDead paints a dead stone: a bold ✕ on a grey disc, rimmed in its colour.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 * @param {string} colour
 */
export function drawDead(ctx, cx, cy, r, colour) {
  ctx.save();
  ctx.fillStyle = colour === "B" ? "#5d564d" : "#9a9284";
  ctx.beginPath();
  ctx.arc(cx, cy, r * 0.92, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = colour === "B" ? PAL.black : PAL.white;
  ctx.lineWidth = Math.max(1.5, r * 0.14);
  ctx.stroke();
  const k = r * 0.42;
  ctx.lineCap = "round";
  ctx.lineWidth = Math.max(2, r * 0.24);
  ctx.strokeStyle = colour === "B" ? PAL.black : PAL.white;
  ctx.beginPath();
  ctx.moveTo(cx - k, cy - k); ctx.lineTo(cx + k, cy + k);
  ctx.moveTo(cx + k, cy - k); ctx.lineTo(cx - k, cy + k);
  ctx.stroke();
  ctx.restore();
}

/**
 * drawTerritory marks an empty point of "b" or "w" territory.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} cell
 * @param {string} owner
 * @param {number} [alpha]
 */
export function drawTerritory(ctx, cx, cy, cell, owner, alpha = 1) {
  const s = Math.max(4, cell * 0.26);
  ctx.save();
  ctx.globalAlpha = alpha;
  ctx.fillStyle = owner === "b" ? PAL.black : PAL.white;
  ctx.strokeStyle = owner === "b" ? PAL.dim : "rgba(0, 0, 0, 0.45)";
  ctx.lineWidth = 1;
  ctx.fillRect(cx - s / 2, cy - s / 2, s, s);
  ctx.strokeRect(cx - s / 2 + 0.5, cy - s / 2 + 0.5, s - 1, s - 1);
  ctx.restore();
}

/**
 * drawHalo paints the amber keyboard cursor.
 * @param {CanvasRenderingContext2D} ctx
 * @param {number} cx
 * @param {number} cy
 * @param {number} r
 */
export function drawHalo(ctx, cx, cy, r) {
  ctx.save();
  ctx.strokeStyle = PAL.halo;
  ctx.shadowColor = "rgba(212, 165, 106, 0.9)";
  ctx.shadowBlur = r * 0.9;
  ctx.lineWidth = Math.max(2, r * 0.16);
  ctx.beginPath();
  ctx.arc(cx, cy, r * 1.08, 0, Math.PI * 2);
  ctx.stroke();
  ctx.shadowBlur = 0;
  ctx.fillStyle = "rgba(212, 165, 106, 0.16)";
  ctx.fill();
  ctx.restore();
}

/**
 * What drawPosition draws over the frame: the stone sent and not yet
 * acked, the preview under the pointer or of a first tap (armed), the
 * viewer's stone colour, and the keyboard cursor's halo.
 * @typedef {object} Marks
 * @property {import("../js/types.js").Point | null} pending
 * @property {import("../js/types.js").Point | null} preview
 * @property {boolean} armed
 * @property {string} mine
 * @property {import("../js/types.js").Point | null} cursor
 */

/**
 * drawPosition draws frame f (weiqi_state.js) of view g on the board:
 * territory, stones (dead ones as ✕, a generation growing in over the one
 * before), the seal beside the last move, the pending and preview stones
 * and the cursor's halo.
 * @param {CanvasRenderingContext2D} ctx
 * @param {any} g
 * @param {Geom} geom
 * @param {import("./weiqi_state.js").Frame} f
 * @param {Set<string>} dead
 * @param {Marks} m
 */
export function drawPosition(ctx, g, geom, f, dead, m) {
  const { cell, pad } = geom;
  const r = /** @type {number} */ (geom.r);
  const at = (/** @type {number} */ v) => pad + v * cell;
  const N = geom.n;
  if (f.territory) {
    for (let y = 0; y < N; y++) {
      const row = f.territory[y] || "";
      for (let x = 0; x < N; x++) if (row[x] === "b" || row[x] === "w") drawTerritory(ctx, at(x), at(y), cell, row[x]);
    }
  }
  const k = Math.max(0, Math.min(1, f.k));
  for (let y = 0; y < N; y++) {
    const row = f.board[y] || "";
    const prow = f.prev ? f.prev[y] || "" : "";
    for (let x = 0; x < N; x++) {
      const c = row[x], p = prow[x];
      if (c === "B" || c === "W") {
        if (dead.has(coordOf(x, y, N))) drawDead(ctx, at(x), at(y), r, c);
        else if (f.prev && p !== c) drawStone(ctx, at(x), at(y), r * (0.55 + 0.45 * k), c, 0.5 + 0.5 * k);
        else drawStone(ctx, at(x), at(y), r, c);
      } else if (f.prev && (p === "B" || p === "W") && k < 1) {
        drawStone(ctx, at(x), at(y), r, p, 0.85 * (1 - k));
      }
    }
  }
  if (f.gen < 0) {
    const lp = pointOf(g.last, N);
    if (lp && (f.board[lp.y] || "")[lp.x] !== "." && !dead.has(g.last)) drawSeal(ctx, at(lp.x), at(lp.y), r);
  }
  const empty = (/** @type {import("../js/types.js").Point} */ p) => !!g.board[p.y] && (g.board[p.y][p.x] || "") === ".";
  if (m.pending && empty(m.pending)) drawStone(ctx, at(m.pending.x), at(m.pending.y), r, m.mine, 0.7);
  if (m.preview && empty(m.preview)) drawStone(ctx, at(m.preview.x), at(m.preview.y), r, m.mine, m.armed ? 0.6 : 0.42);
  if (m.cursor) drawHalo(ctx, at(m.cursor.x), at(m.cursor.y), r);
}
