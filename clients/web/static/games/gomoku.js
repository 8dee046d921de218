// Gomoku (五子棋) plugin: the board as the gomoku design draws it
// (docs/decisions.md, section "Gomoku plugin"): a wooden canvas with grain,
// grid, star points, 3-D stones, a red dot on the last move, a hover
// preview, the winning line; a status bar; undo and resign buttons.
// Contract: clients/web/PLUGINS.md. View G: {size, board[y][x] '.'|'B'|'W',
// moves, last, toMove, winLine, undoRequest, result}. Seat 0 is black.

import { setupCanvas } from "/assets/js/canvas.js";
import { confirmDialog, toast } from "/assets/js/toast.js";
import { h } from "/assets/js/dom.js";
import { drawBoard, drawStone } from "./gomoku_draw.js";
import { strings } from "./gomoku_text.js";

const colourKey = (seat) => (seat === "0" ? "gomoku.black" : "gomoku.white");
const stoneOf = (seat) => (seat === "0" ? "B" : "W");

function mount(el, api) {
  const t = api.t;
  let state = null;
  let geom = null; // {w, pad, cell, n}
  let hover = null; // {x, y} under the mouse
  let armed = null; // {x, y} first tap on a touch screen
  let pending = null; // {x, y} sent, not yet acked
  let anim = null; // {x, y, start} the newest stone, growing in
  let raf = 0;

  const canvas = h("canvas", { class: "gomoku-canvas", "data-board": "gomoku", role: "img" });
  const status = h("div", { class: "status-bar gomoku-status", "data-status": "gomoku" });
  const players = h("div", { class: "gomoku-players" });
  const undoBtn = h("button", { class: "btn small", type: "button", "data-move": "requestUndo" });
  const acceptBtn = h("button", { class: "btn small primary", type: "button", "data-move": "accept-undo" });
  const declineBtn = h("button", { class: "btn small", type: "button", "data-move": "decline-undo" });
  const resignBtn = h("button", { class: "btn small danger", type: "button", "data-move": "resign" });
  const NUMBERS_KEY = "chaguan:gomoku:numbers";
  let numbers = false;
  try { numbers = localStorage.getItem(NUMBERS_KEY) === "1"; } catch (_) { /* storage disabled */ }
  const numbersBox = h("input", { type: "checkbox", "data-option": "numbers", checked: numbers });
  const numbersLabel = h("span");
  numbersBox.addEventListener("change", () => {
    numbers = numbersBox.checked;
    try { localStorage.setItem(NUMBERS_KEY, numbers ? "1" : "0"); } catch (_) { /* ignore */ }
    redraw();
  });
  const controls = h("div", { class: "row gomoku-controls" },
    api.you === null ? null : [undoBtn, acceptBtn, declineBtn, resignBtn],
    h("label", { class: "check small" }, numbersBox, numbersLabel));
  const wrap = h("div", { class: "gomoku-board-wrap" }, canvas);
  const root = h("div", { class: "gomoku" }, players, status, wrap, controls);
  el.appendChild(root);
  injectStyle();

  const G = () => (state ? state.G : null);
  const started = () => !!(state && state.ctx && state.ctx.started);
  const over = () => !!(G() && G().result) || !!(state && state.ctx && state.ctx.gameover);
  const myTurn = () => api.you !== null && started() && !over() && G() && G().toMove === api.you && G().undoRequest === null;
  const nameOf = (seat) => {
    const p = state && state.players && state.players[Number(seat)];
    return (p && p.name) || t("room.emptySeat");
  };

  // --- geometry and drawing ----------------------------------------------
  const layout = () => {
    const n = (G() && G().size) || 15;
    const avail = Math.max(200, wrap.clientWidth || el.clientWidth || 360);
    // The board, with the players, status and Undo/Resign row, fits the
    // screen's height without scrolling (about 340 px of page above and
    // below it on a laptop).
    const tall = Math.max(300, window.innerHeight - 340);
    const w = Math.floor(Math.min(avail, 760, tall));
    const cell = w / (n - 1 + 2.2); // a margin of 1.1 cells: room for the labels beside edge stones
    geom = { w, n, cell, pad: cell * 1.1 };
    status.style.maxWidth = w + "px";
  };

  const draw = (now) => {
    raf = 0;
    if (!geom) layout();
    const ctx = setupCanvas(canvas, geom.w, geom.w);
    const g = G();
    drawBoard(ctx, geom);
    if (!g) return;
    const { cell, pad } = geom;
    const at = (v) => pad + v * cell;
    const r = cell * 0.46;
    for (let y = 0; y < g.board.length; y++) {
      const row = g.board[y];
      for (let x = 0; x < row.length; x++) {
        const c = row[x];
        if (c !== "B" && c !== "W") continue;
        let scale = 1, alpha = 1;
        if (anim && anim.x === x && anim.y === y) {
          const k = Math.min(1, (now - anim.start) / 180);
          scale = 1.25 - 0.25 * k;
          alpha = 0.4 + 0.6 * k;
          if (k < 1 && !raf) raf = requestAnimationFrame(draw);
        }
        drawStone(ctx, at(x), at(y), r * scale, c, alpha);
      }
    }
    if (pending && cellAt(g, pending) === ".") drawStone(ctx, at(pending.x), at(pending.y), r, stoneOf(api.you), 0.7);
    const prev = armed || hover;
    if (prev && myTurn() && !pending && cellAt(g, prev) === ".") {
      drawStone(ctx, at(prev.x), at(prev.y), r, stoneOf(api.you), armed ? 0.6 : 0.4);
    }
    if (numbers) drawNumbers(ctx, g, at, r);
    else if (g.last && !g.winLine) {
      ctx.fillStyle = "#d8322a";
      ctx.beginPath();
      ctx.arc(at(g.last[0]), at(g.last[1]), Math.max(2.5, r * 0.24), 0, Math.PI * 2);
      ctx.fill();
    }
    if (g.winLine && g.winLine.length >= 2) drawWinLine(ctx, g.winLine, at, r);
  };

  const drawNumbers = (ctx, g, at, r) => {
    ctx.save();
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    g.moves.forEach(([x, y], i) => {
      const c = cellAt(g, { x, y });
      if (c !== "B" && c !== "W") return;
      const label = String(i + 1);
      ctx.font = `600 ${Math.round(r * (label.length > 2 ? 0.7 : 0.9))}px system-ui, sans-serif`;
      ctx.fillStyle = i === g.moves.length - 1 ? "#e0392f" : c === "B" ? "#f3efe6" : "#2b1d14";
      ctx.fillText(label, at(x), at(y) + r * 0.04);
    });
    ctx.restore();
  };

  const drawWinLine = (ctx, line, at, r) => {
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
  };

  const redraw = () => { if (!raf) raf = requestAnimationFrame(draw); };

  // --- input ---------------------------------------------------------------
  const pointAt = (e) => {
    if (!geom) return null;
    const rect = canvas.getBoundingClientRect();
    // CSS may shrink the canvas (max-width) before the next layout: scale.
    const k = rect.width > 0 ? geom.w / rect.width : 1;
    const px = (e.clientX - rect.left) * k, py = (e.clientY - rect.top) * k;
    const x = Math.round((px - geom.pad) / geom.cell), y = Math.round((py - geom.pad) / geom.cell);
    if (x < 0 || y < 0 || x >= geom.n || y >= geom.n) return null;
    return { x, y };
  };
  const same = (a, b) => a && b && a.x === b.x && a.y === b.y;

  canvas.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return;
    const p = pointAt(e);
    if (!same(p, hover)) { hover = p; redraw(); }
    canvas.style.cursor = p && myTurn() && cellAt(G(), p) === "." ? "pointer" : "default";
  });
  canvas.addEventListener("pointerleave", () => { hover = null; redraw(); });
  canvas.addEventListener("pointerup", (e) => {
    const p = pointAt(e);
    if (!p || !myTurn() || pending || cellAt(G(), p) !== ".") return;
    if (e.pointerType === "touch" && !same(p, armed)) {
      armed = p;
      renderTexts(); // the status says "tap again to place"
      redraw();
      return;
    }
    armed = null;
    place(p);
  });

  // Keyboard: arrows move a cursor (drawn like the hover stone), Enter or
  // Space places there.
  canvas.tabIndex = 0;
  canvas.addEventListener("keydown", (e) => {
    const g = G();
    if (!g || !geom) return;
    const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (steps[e.key]) {
      const from = hover || (g.last ? { x: g.last[0], y: g.last[1] } : { x: (geom.n - 1) >> 1, y: (geom.n - 1) >> 1 });
      const [dx, dy] = steps[e.key];
      hover = { x: Math.min(geom.n - 1, Math.max(0, from.x + dx)), y: Math.min(geom.n - 1, Math.max(0, from.y + dy)) };
      redraw();
      e.preventDefault();
    } else if ((e.key === "Enter" || e.key === " ") && hover) {
      e.preventDefault();
      if (myTurn() && !pending && cellAt(g, hover) === ".") place(hover);
    }
  });

  const place = (p) => {
    pending = p;
    redraw();
    api.move("place", [p.x, p.y]).catch(() => {}).finally(() => { pending = null; redraw(); });
  };

  undoBtn.addEventListener("click", () => api.move("requestUndo", []).catch(() => {}));
  acceptBtn.addEventListener("click", () => api.move("answerUndo", [true]).catch(() => {}));
  declineBtn.addEventListener("click", () => api.move("answerUndo", [false]).catch(() => {}));
  resignBtn.addEventListener("click", async () => {
    if (await confirmDialog(t("gomoku.resignConfirm"), t("gomoku.resign"), { danger: true })) api.move("resign", []).catch(() => {});
  });

  // --- texts -----------------------------------------------------------------
  const statusText = () => {
    const g = G();
    if (!g || !started()) return { text: t("gomoku.waiting"), cls: "" };
    if (g.result) {
      const r = g.result;
      if (r.draw) return { text: t("gomoku.draw"), cls: "over" };
      const colour = t(colourKey(r.winner));
      const loserSeat = r.winner === "0" ? "1" : "0";
      let text = r.reason === "five" ? t("gomoku.win.five", { colour })
        : r.reason === "resign" ? t("gomoku.win.resign", { colour, loser: t(colourKey(loserSeat)) })
          : t("gomoku.win.other", { colour });
      // The viewer's own win is green, a loss red; spectators see neutral.
      if (api.you === null) return { text, cls: "over" };
      const won = api.you === r.winner;
      return { text: text + " " + (won ? t("gomoku.youWin") : t("gomoku.youLose")), cls: won ? "over win" : "over loss" };
    }
    const n = t("gomoku.moveNo", { n: g.moves.length + 1 });
    if (g.undoRequest !== null && g.undoRequest !== undefined) {
      if (api.you === g.undoRequest) return { text: t("gomoku.undoWaiting"), cls: "" };
      if (api.you !== null) return { text: t("gomoku.undoAsked", { name: nameOf(g.undoRequest) }), cls: "mine" };
      return { text: t("gomoku.undoPending", { name: nameOf(g.undoRequest) }), cls: "" };
    }
    const colour = t(colourKey(g.toMove));
    if (api.you === g.toMove) return { text: `${t("gomoku.yourTurn", { colour })} · ${n}`, cls: "mine" };
    return { text: `${t("gomoku.toMove", { colour })} · ${n}`, cls: "" };
  };

  const renderTexts = () => {
    const g = G();
    const s = statusText();
    status.textContent = s.text;
    status.className = "status-bar gomoku-status" + (s.cls ? " " + s.cls : "");
    if (armed) status.textContent += " · " + t("gomoku.tapAgain");
    const chip = (seat) => {
      const active = g && started() && !over() && g.toMove === seat;
      const won = g && g.result && g.result.winner === seat;
      return h("div", { class: "gomoku-player" + (active ? " active" : "") + (won ? " won" : "") },
        h("span", { class: "gomoku-stone " + (seat === "0" ? "b" : "w") }),
        h("span", { class: "gomoku-pname" }, nameOf(seat)),
        h("span", { class: "muted small gomoku-colour" }, t(colourKey(seat))),
        api.you === seat ? h("span", { class: "pill jade gomoku-you" }, t("common.you")) : null);
    };
    players.replaceChildren(chip("0"), h("span", { class: "gomoku-vs" }, "vs"), chip("1"));
    canvas.setAttribute("aria-label", s.text);
    undoBtn.textContent = t("gomoku.undo");
    acceptBtn.textContent = t("gomoku.accept");
    declineBtn.textContent = t("gomoku.decline");
    resignBtn.textContent = t("gomoku.resign");
    numbersLabel.textContent = t("gomoku.numbers");
    const asked = g && g.undoRequest !== null && g.undoRequest !== undefined && !over();
    const live = started() && !over();
    undoBtn.hidden = asked && api.you !== g.undoRequest;
    undoBtn.disabled = !live || asked || !g || g.moves.length === 0;
    acceptBtn.hidden = declineBtn.hidden = !(asked && api.you !== g.undoRequest);
    resignBtn.disabled = !live;
  };

  // --- lifecycle -------------------------------------------------------------
  const ro = new ResizeObserver(() => {
    const old = geom && geom.w;
    layout();
    if (geom.w !== old) { draw(performance.now()); }
  });
  ro.observe(wrap);
  api.onLangChange(renderTexts);

  return {
    update(s) {
      const before = G() ? G().moves.length : -1;
      const asked = G() ? G().undoRequest : null;
      state = s;
      const g = G();
      if (!g) return;
      // Grow in only a stone just played (not the whole board on the first
      // state, nor the stone an undo uncovers).
      if (before >= 0 && g.moves.length === before + 1 && g.last) {
        anim = { x: g.last[0], y: g.last[1], start: performance.now() };
      } else if (g.moves.length !== before) {
        anim = null;
      }
      if (armed && cellAt(g, armed) !== ".") armed = null;
      // An undo request answered: say how, to both players.
      if (asked !== null && asked !== undefined && (g.undoRequest === null || g.undoRequest === undefined) && !g.result && api.you !== null) {
        if (g.moves.length < before) toast(t(api.you === asked ? "gomoku.undoAccepted" : "gomoku.undoDone", { n: before - g.moves.length }), "ok");
        else if (api.you === asked) toast(t("gomoku.undoDeclined"), "info");
      }
      if (!geom || geom.n !== (g.size || 15)) layout();
      renderTexts();
      redraw();
    },
    destroy() {
      ro.disconnect();
      if (raf) cancelAnimationFrame(raf);
      root.remove();
    },
  };
}

function cellAt(g, p) {
  if (!g || !p || !g.board[p.y]) return "";
  return g.board[p.y][p.x] || "";
}

let styled = false;
function injectStyle() {
  if (styled) return;
  styled = true;
  const css = `
.gomoku { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
.gomoku > * { justify-self: center; }
.gomoku > .gomoku-board-wrap { justify-self: stretch; min-width: 0; display: flex; justify-content: center; padding: 4px 0 14px; }
.gomoku-canvas:focus-visible { outline: 3px solid var(--jade); outline-offset: 3px; }
.gomoku-canvas { display: block; max-width: 100%; height: auto !important; aspect-ratio: 1; border-radius: 10px; box-shadow: 0 2px 4px rgba(59,37,24,.25), 0 12px 30px rgba(59,37,24,.28); touch-action: manipulation; }
.gomoku-status { width: 100%; }
.gomoku-status.over.win { background: var(--jade); color: #fff; box-shadow: 0 0 0 3px var(--jade-light); }
.gomoku-status.over.loss { background: var(--seal); color: var(--paper); box-shadow: 0 0 0 3px rgba(184, 50, 42, .25); }
.gomoku-players { display: flex; align-items: center; justify-content: center; gap: 10px; flex-wrap: wrap; width: 100%; }
.gomoku-player { display: flex; align-items: center; gap: 8px; padding: 6px 12px; border-radius: 999px; background: var(--card); border: 1px solid var(--line); box-shadow: var(--shadow); transition: box-shadow .2s, border-color .2s; }
.gomoku-player.active { border-color: var(--jade); box-shadow: 0 0 0 3px var(--jade-light); }
.gomoku-player.won { border-color: var(--gold); box-shadow: 0 0 0 3px rgba(201,154,46,.35); }
.gomoku-pname { font-weight: 700; max-width: 9em; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.gomoku-stone { width: 18px; height: 18px; border-radius: 50%; flex: none; }
.gomoku-stone.b { background: radial-gradient(circle at 35% 35%, #777, #111 60%, #000); }
.gomoku-stone.w { background: radial-gradient(circle at 35% 35%, #fff, #eee 55%, #bdb8ae); border: 1px solid #b8b0a0; }
.gomoku-vs { color: var(--muted); font-style: italic; }
.gomoku-controls { justify-content: center; }
/* A phone: the chips share the line when both names fit (a bot's name,
   "机器人（简单）2号", is whole), and take a line each when they do not;
   only a name wider than the screen is cut. */
@media (max-width: 480px) {
  .gomoku-players { gap: 6px; }
  .gomoku-player { padding: 4px 10px; gap: 6px; min-width: 0; max-width: 100%; }
  .gomoku-pname { max-width: none; min-width: 2em; }
  .gomoku-player .gomoku-colour { display: none; }
}`;
  document.head.appendChild(h("style", { "data-plugin": "gomoku" }, css));
}

export default { mount, strings };
