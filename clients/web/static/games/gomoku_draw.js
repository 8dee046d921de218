// Drawing helpers of the gomoku plugin: the wooden board (cached per size)
// and the 3-D stones.

const STARS = [[3, 3], [11, 3], [7, 7], [3, 11], [11, 11]];
const COLS = "ABCDEFGHJKLMNOP";
let cache = null; // {key, canvas} the board background at one size

/** drawBoard paints wood, grain, grid, star points and coordinates. */
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
  const bg = ctx.createLinearGradient(0, 0, w, w);
  bg.addColorStop(0, "#e8c38a");
  bg.addColorStop(0.5, "#dcb06f");
  bg.addColorStop(1, "#cf9f5e");
  ctx.fillStyle = bg;
  ctx.fillRect(0, 0, w, w);
  // Grain: long, slightly wavy fibres from a fixed seed, so the board looks
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

  const at = (v) => pad + v * cell;
  const end = at(n - 1);
  ctx.strokeStyle = "rgba(52, 30, 12, 0.82)";
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

/** drawStone paints a radial-gradient stone ("B" or "W") centred at cx, cy. */
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
