// @ts-check
// Drawing helpers of the gomoku plugin: the wooden board (cached per size,
// js/grid.js), the 3-D stones, the move numbers and the winning line.

import { boardCache, boardCanvas, mulberry32, strokeGrid } from "/assets/js/grid.js";

/** @typedef {import("../js/types.js").Geom} Geom */

const STARS = [[3, 3], [11, 3], [7, 7], [3, 11], [11, 11]];
const COLS = "ABCDEFGHJKLMNOP";

/**
 * drawBoard paints wood, grain, grid, star points and coordinates (drawn
 * once per size).
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
  const bg = ctx.createLinearGradient(0, 0, w, w);
  bg.addColorStop(0, "#e8c38a");
  bg.addColorStop(0.5, "#dcb06f");
  bg.addColorStop(1, "#cf9f5e");
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, w, w);
  // Grain: long, slightly wavy fibres from a fixed start value, so the board looks
  // the same on every redraw.
  const rnd = mulberry32(20260415);
  for (let i = 0; i < 90; i++) {
    const y0 = rnd() * w;
    const amp = 1 + rnd() * 5;
    const freq = 0.004 + rnd() * 0.012;
    const phase = rnd() * Math.PI * 2;
    ctx.strokeStyle = rnd() < 0.5 ? `rgba(120, 72, 30, ${0.04 + rnd() * 0.08})` : `rgba(255, 235, 200, ${0.05 + rnd() * 0.08})`;
    ctx.lineWidth = 0.5 + rnd() * 1.6;
    ctx.beginPath();
    for (let x = -4; x <= w + 4; x += 6) {
      const y = y0 + Math.sin(x * freq + phase) * amp + Math.sin(x * freq * 3.1 + phase) * amp * 0.3;
      if (x === -4) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
  }
  const vignette = ctx.createRadialGradient(w / 2, w / 2, w * 0.2, w / 2, w / 2, w * 0.75);
  vignette.addColorStop(0, "rgba(255, 240, 210, 0.12)");
  vignette.addColorStop(1, "rgba(90, 50, 20, 0.18)");
  ctx.fillStyle = vignette;
  ctx.fillRect(0, 0, w, w);

  const at = (/** @type {number} */ v) => pad + v * cell;
  strokeGrid(ctx, geom, dpr, "rgba(52, 30, 12, 0.82)");
  ctx.fillStyle = "rgba(52, 30, 12, 0.9)";
  if (n === 15) {
    for (const [x, y] of STARS) {
      ctx.beginPath();
      ctx.arc(at(x), at(y), Math.max(2.2, cell * 0.11), 0, Math.PI * 2);
      ctx.fill();
    }
  }
  if (cell >= 18) {
    ctx.fillStyle = "rgba(70, 40, 15, 0.65)";
    ctx.font = `${Math.round(cell * 0.32)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (let i = 0; i < n; i++) {
      ctx.fillText(COLS[i] || String(i), at(i), pad * 0.36);
      ctx.fillText(String(n - i), pad * 0.36, at(i));
    }
  }
  return c;
}

/**
 * drawStone paints a radial-gradient stone ("B" or "W") centred at cx, cy.
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
    ctx.shadowColor = "rgba(30, 15, 5, 0.45)";
    ctx.shadowBlur = r * 0.35;
    ctx.shadowOffsetX = r * 0.1;
    ctx.shadowOffsetY = r * 0.16;
  }
  const g = ctx.createRadialGradient(cx - r * 0.35, cy - r * 0.38, r * 0.08, cx, cy, r);
  if (colour === "B") {
    g.addColorStop(0, "#7a7a7a");
    g.addColorStop(0.35, "#2b2b2b");
    g.addColorStop(1, "#050505");
  } else {
    g.addColorStop(0, "#ffffff");
    g.addColorStop(0.55, "#efede6");
    g.addColorStop(1, "#c3bdb0");
  }
  ctx.fillStyle = g;
  ctx.beginPath();
  ctx.arc(cx, cy, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.restore();
}

/**
 * What drawPosition draws over the board: the stone growing in (anim, its
 * start time), the stone sent and not yet acked (pending), the preview
 * under the pointer or of a first tap (preview, armed: a touch), and
 * whether move numbers replace the last-move dot.
 * @typedef {object} Marks
 * @property {{x: number, y: number, start: number} | null} anim
 * @property {import("../js/types.js").Point | null} pending
 * @property {import("../js/types.js").Point | null} preview
 * @property {boolean} armed
 * @property {string} mine the viewer's stone, "B" or "W"
 * @property {boolean} numbers
 */

/**
 * drawPosition draws the stones of view g on the board, the growing
 * stone, the pending and preview stones, the last move (a red dot, or
 * every move's number) and the winning line. It returns true while the
 * newest stone is still growing (draw again next frame).
 * @param {CanvasRenderingContext2D} ctx
 * @param {any} g
 * @param {Geom} geom
 * @param {Marks} m
 * @param {number} now
 * @returns {boolean}
 */
export function drawPosition(ctx, g, geom, m, now) {
  const { cell, pad } = geom;
  const at = (/** @type {number} */ v) => pad + v * cell;
  const r = cell * 0.46;
  let growing = false;
  for (let y = 0; y < g.board.length; y++) {
    const row = g.board[y];
    for (let x = 0; x < row.length; x++) {
      const c = row[x];
      if (c !== "B" && c !== "W") continue;
      let scale = 1, alpha = 1;
      if (m.anim && m.anim.x === x && m.anim.y === y) {
        const k = Math.min(1, (now - m.anim.start) / 180);
        scale = 1.25 - 0.25 * k;
        alpha = 0.4 + 0.6 * k;
        if (k < 1) growing = true;
      }
      drawStone(ctx, at(x), at(y), r * scale, c, alpha);
    }
  }
  const empty = (/** @type {import("../js/types.js").Point} */ p) => !!g.board[p.y] && g.board[p.y][p.x] === ".";
  if (m.pending && empty(m.pending)) drawStone(ctx, at(m.pending.x), at(m.pending.y), r, m.mine, 0.7);
  if (m.preview && empty(m.preview)) drawStone(ctx, at(m.preview.x), at(m.preview.y), r, m.mine, m.armed ? 0.6 : 0.4);
  if (m.numbers) drawNumbers(ctx, g, at, r);
  else if (g.last && !g.winLine) {
    ctx.fillStyle = "#d8322a";
    ctx.beginPath();
    ctx.arc(at(g.last[0]), at(g.last[1]), Math.max(2.5, r * 0.24), 0, Math.PI * 2);
    ctx.fill();
  }
  if (g.winLine && g.winLine.length >= 2) drawWinLine(ctx, g.winLine, at, r);
  return growing;
}

/**
 * drawNumbers writes each stone's move number on it (the newest in red).
 * @param {CanvasRenderingContext2D} ctx
 * @param {any} g
 * @param {(v: number) => number} at
 * @param {number} r
 */
function drawNumbers(ctx, g, at, r) {
  ctx.save();
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  g.moves.forEach((/** @type {[number, number]} */ [x, y], /** @type {number} */ i) => {
    const c = g.board[y] ? g.board[y][x] : "";
    if (c !== "B" && c !== "W") return;
    const label = String(i + 1);
    ctx.font = `600 ${Math.round(r * (label.length > 2 ? 0.7 : 0.9))}px system-ui, sans-serif`;
    ctx.fillStyle = i === g.moves.length - 1 ? "#e0392f" : c === "B" ? "#f3efe6" : "#2b1d14";
    ctx.fillText(label, at(x), at(y) + r * 0.04);
  });
  ctx.restore();
}

/**
 * drawWinLine rings the five (or more) stones in gold and strikes a red
 * line through them.
 * @param {CanvasRenderingContext2D} ctx
 * @param {[number, number][]} line
 * @param {(v: number) => number} at
 * @param {number} r
 */
function drawWinLine(ctx, line, at, r) {
  const pts = [...line].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const a = pts[0], b = pts[pts.length - 1];
  ctx.save();
  ctx.strokeStyle = "rgba(201, 154, 46, 0.95)";
  ctx.lineWidth = Math.max(2, r * 0.14);
  for (const p of pts) {
    ctx.beginPath();
    ctx.arc(at(p[0]), at(p[1]), r * 1.02, 0, Math.PI * 2);
    ctx.stroke();
  }
  ctx.strokeStyle = "rgba(216, 50, 42, 0.9)";
  ctx.lineCap = "round";
  ctx.lineWidth = Math.max(3, r * 0.3);
  ctx.shadowColor = "rgba(216, 50, 42, 0.6)";
  ctx.shadowBlur = r * 0.6;
  ctx.beginPath();
  ctx.moveTo(at(a[0]), at(a[1]));
  ctx.lineTo(at(b[0]), at(b[1]));
  ctx.stroke();
  ctx.restore();
}
