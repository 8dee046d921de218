// @ts-check
// Gomoku (五子棋) plugin: the board as the gomoku design draws it
// (docs/decisions.md, section "Gomoku plugin"): a wooden canvas with grain,
// grid, star points, 3-D stones, a red dot on the last move, a hover
// preview, the winning line; a status bar; undo and resign buttons.
// Contract: clients/web/PLUGINS.md. View G: {size, board[y][x] '.'|'B'|'W',
// moves, last, toMove, winLine, undoRequest, result}. Seat 0 is black.
// This file is the glue (mount, update); what to show: gomoku_state.js;
// drawing: gomoku_draw.js; pointer, keys and buttons: gomoku_input.js;
// strings: gomoku_text.js; look: gomoku.css.

import { setupCanvas } from "/assets/js/canvas.js";
import { toast } from "/assets/js/toast.js";
import { h } from "/assets/js/dom.js";
import { gridGeometry } from "/assets/js/grid.js";
import { drawBoard, drawPosition } from "./gomoku_draw.js";
import { strings } from "./gomoku_text.js";
import { colourKey, stoneOf, cellAt, isMyTurn, statusText, buttons, chipState, grows, undoAnswer, boardWidth } from "./gomoku_state.js";
import { bindBoard, bindButtons } from "./gomoku_input.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Controller} Controller */
/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {import("../js/types.js").Geom} Geom */

const NUMBERS_KEY = "chaguan:gomoku:numbers";

/**
 * mount draws the board into el and returns the controller.
 * @param {HTMLElement} el
 * @param {PluginApi} api
 * @returns {Controller}
 */
function mount(el, api) {
  const t = api.t;
  /** @type {State | null} */
  let state = null;
  /** @type {Geom | null} */
  let geom = null;
  /** @type {Point | null} */
  let pending = null; // sent, not yet acked
  /** @type {{x: number, y: number, start: number} | null} */
  let anim = null; // the newest stone, growing in
  let raf = 0;

  const canvas = /** @type {HTMLCanvasElement} */ (h("canvas", { class: "gomoku-canvas", "data-board": "gomoku", role: "img" }));
  const status = h("div", { class: "status-bar gomoku-status", "data-status": "gomoku" });
  const players = h("div", { class: "gomoku-players" });
  const undoBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "btn small", type: "button", "data-move": "requestUndo" }));
  const acceptBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "btn small primary", type: "button", "data-move": "accept-undo" }));
  const declineBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "btn small", type: "button", "data-move": "decline-undo" }));
  const resignBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "btn small danger", type: "button", "data-move": "resign" }));
  let numbers = false;
  try { numbers = localStorage.getItem(NUMBERS_KEY) === "1"; } catch (_) { /* storage disabled */ }
  const numbersBox = /** @type {HTMLInputElement} */ (h("input", { type: "checkbox", "data-option": "numbers", checked: numbers }));
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

  const G = () => (state ? state.G : null);
  const myTurn = () => isMyTurn(state, api.you);
  const nameOf = (/** @type {string} */ seat) => {
    const p = state && state.players && state.players[Number(seat)];
    return (p && p.name) || t("room.emptySeat");
  };

  // --- geometry and drawing ----------------------------------------------
  const layout = () => {
    const n = (G() && G().size) || 15;
    const w = boardWidth(wrap.clientWidth || el.clientWidth || 360, window.innerHeight);
    geom = gridGeometry(w, n, 1.1); // a margin of 1.1 cells: room for the labels beside edge stones
    status.style.maxWidth = w + "px";
  };

  const draw = (/** @type {number} */ now) => {
    raf = 0;
    if (!geom) layout();
    const gm = /** @type {Geom} */ (geom);
    const ctx = setupCanvas(canvas, gm.w, gm.w);
    const g = G();
    drawBoard(ctx, gm);
    if (!g) return;
    const prev = input.armed || input.hover;
    const growing = drawPosition(ctx, g, gm, {
      anim, pending, numbers, mine: stoneOf(api.you),
      preview: prev && myTurn() && !pending ? prev : null, armed: !!input.armed,
    }, now);
    if (growing && !raf) raf = requestAnimationFrame(draw);
  };
  const redraw = () => { if (!raf) raf = requestAnimationFrame(draw); };

  // --- input ---------------------------------------------------------------
  const live = (/** @type {Point | null} */ p) => !!p && myTurn() && cellAt(G(), p) === ".";
  const place = (/** @type {Point} */ p) => {
    pending = p;
    redraw();
    api.move("place", [p.x, p.y]).catch(() => {}).finally(() => { pending = null; redraw(); });
  };
  const input = bindBoard(canvas, {
    geom: () => geom, g: G, live, canPlace: (p) => live(p) && !pending, place, redraw, armedChanged: () => renderTexts(),
  });
  bindButtons(api, { undo: undoBtn, accept: acceptBtn, decline: declineBtn, resign: resignBtn });

  // --- texts -----------------------------------------------------------------
  const renderTexts = () => {
    const s = statusText(state, api.you, t, nameOf);
    status.textContent = s.text;
    status.className = "status-bar gomoku-status" + (s.cls ? " " + s.cls : "");
    if (input.armed) status.textContent += " · " + t("gomoku.tapAgain");
    const chip = (/** @type {string} */ seat) => {
      const c = chipState(state, seat);
      return h("div", { class: "gomoku-player" + (c.active ? " active" : "") + (c.won ? " won" : "") },
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
    const b = buttons(state, api.you);
    undoBtn.hidden = b.undoHidden;
    undoBtn.disabled = b.undoDisabled;
    acceptBtn.hidden = declineBtn.hidden = b.answerHidden;
    resignBtn.disabled = b.resignDisabled;
  };

  // --- lifecycle -------------------------------------------------------------
  const ro = new ResizeObserver(() => {
    const old = geom && geom.w;
    layout();
    if (geom && geom.w !== old) { draw(performance.now()); }
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
      const grow = grows(before, g);
      if (grow !== "keep") anim = grow ? { x: grow.x, y: grow.y, start: performance.now() } : null;
      if (input.armed && cellAt(g, input.armed) !== ".") input.armed = null;
      // An undo request answered: say how, to both players.
      const said = undoAnswer(asked, before, g, api.you);
      if (said) toast(t(said.key, said.params), said.kind);
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

/** @type {import("../js/types.js").Plugin} */
export default { mount, strings };
