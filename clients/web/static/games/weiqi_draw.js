// Drawing helpers of the weiqi plugin, in the weiqi design's palette
// (docs/weiqi.md, "Design"): a dark kaya board in a bronze frame, slate and
// shell stones, the cinnabar seal beside the last move, dead stones as a
// bold ✕ on grey, territory squares and the amber cursor halo.

import { COLS } from "./weiqi_text.js";

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

/** geometry returns the board geometry of an n-line board w CSS px wide. */
export function geometry(w, n) {
  const cell = w / (n - 1 + 2.5); // 1.25 cells each side: coordinates and the frame
  return { w, n, cell, pad: cell * 1.25, r: cell * 0.47 };
}

let cache = null; // {key, canvas}: the empty board at one size

/** drawBoard paints the empty board (kept in a cache per size). */
export function drawBoard(ctx, geom) {
  const dpr = ctx.getTransform().a;
  const key = `${geom.w}:${geom.n}:${dpr}`;
  if (!cache || cache.key !== key) cache = { key, canvas: renderBoard(geom, dpr) };
  ctx.save();
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.drawImage(cache.canvas, 0, 0);
  ctx.restore();
}

function renderBoard(geom, dpr) {
  const { w, n, cell, pad } = geom;
  const c = document.createElement("canvas");
  c.width = Math.round(w * dpr);
  c.height = Math.round(w * dpr);
  const ctx = c.getContext("2d");
  ctx.scale(dpr, dpr);
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

  const at = (v) => pad + v * cell;
  const end = at(n - 1);
  ctx.strokeStyle = PAL.gridHard;
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

/** drawStone paints a slate ("B") or shell ("W") stone. */
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

/** drawSeal paints the cinnabar seal ▪ beside the stone at (cx, cy). */
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

/** drawDead paints a dead stone: a bold ✕ on a grey disc, rimmed in its colour. */
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

/** drawTerritory marks an empty point of "b" or "w" territory. */
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

/** drawHalo paints the amber keyboard cursor. */
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

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
