// @ts-check
// Weiqi (围棋) plugin: the weiqi design's terminal Go board in a browser. A dark
// kaya canvas board with slate and shell stones and the cinnabar seal ▪
// beside the last move; a sidebar with the seal pool, captures, komi,
// the last 20 moves, buttons and prompts; scoring with dead stones (✕ on
// grey) and territory; the evolution of the end animated generation by
// generation, then the count. Keys as the design maps them (? shows them).
// Contract: clients/web/PLUGINS.md; moves, view G, palette and keys:
// docs/weiqi.md.
// This file is the glue (mount, update, the evolution's animation); what
// to show: weiqi_state.js; drawing: weiqi_draw.js; the sidebar:
// weiqi_side.js; pointer and keys: weiqi_input.js; strings: weiqi_text.js;
// look: weiqi.css.

import { setupCanvas } from "/assets/js/canvas.js";
import { confirmDialog } from "/assets/js/toast.js";
import { h } from "/assets/js/dom.js";
import { geometry, drawBoard, drawPosition } from "./weiqi_draw.js";
import { strings, coordOf } from "./weiqi_text.js";
import { createSide } from "./weiqi_side.js";
import { SIDE_W, stoneOf, cellAt, phaseOf, evolutionOf, frame, evolutionDone, deadSet, boardLayout } from "./weiqi_state.js";
import { bindInput } from "./weiqi_input.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Controller} Controller */
/** @typedef {import("../js/types.js").Geom} Geom */
/** @typedef {import("../js/types.js").Point} Point */

/**
 * mount draws the board and its sidebar into el and returns the controller.
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
  let pending = null; // a stone sent, not yet acked
  /** @type {{start: number} | null} */
  let evo = null; // the evolution being animated
  let evoDone = true; // the evolution was shown (or there is none)
  /** @type {(() => void)[]} */
  let evoWaiters = []; // settled when the evolution on show ends: the room's end card waits for it
  let helpOpen = false;
  let raf = 0;
  let lastGen = -1;

  const canvas = /** @type {HTMLCanvasElement} */ (h("canvas", { class: "wq-canvas", "data-board": "weiqi", role: "img", tabindex: "0" }));
  const help = h("div", { class: "wq-help", hidden: true, "data-help": "weiqi" });
  const wrap = h("div", { class: "wq-board" }, canvas, help);
  const side = createSide(api, {
    pass: () => send("pass", []),
    undo: () => send("requestUndo", []),
    score: () => send("requestScoring", []),
    resign: async () => {
      if (await confirmDialog(t("weiqi.resignConfirm"), t("weiqi.resign"), { danger: true })) send("resign", []);
    },
    answer: (/** @type {boolean} */ yes) => answer(yes),
    approve: () => send("approve", []),
    resume: () => send("resume", []),
    replay: () => startEvolution(),
    help: () => toggleHelp(),
  });
  const root = h("div", { class: "wq", "data-gen": "" }, wrap, side.el);
  el.appendChild(root);

  const G = () => (state ? state.G : null);
  const phase = () => phaseOf(state, api.you);
  const over = () => phase().over;
  const animating = () => !!evo;
  const n = () => (G() && G().size) || 19;
  const evolution = () => evolutionOf(G());
  const lastIdx = () => /** @type {any[]} */ (evolution()).length - 1;

  const send = (/** @type {string} */ name, /** @type {any[]} */ args) => { api.move(name, args).catch(() => {}); };
  const answer = (/** @type {boolean} */ yes) => {
    const g = G();
    if (!g) return;
    if (g.undoRequest != null && g.undoRequest !== api.you) send("answerUndo", [yes]);
    else if (g.scoringRequest != null && g.scoringRequest !== api.you) send("answerScoring", [yes]);
  };

  // --- layout and drawing ----------------------------------------------------
  // A frame's time may precede the start taken a moment earlier: clamp.
  const since = (/** @type {number} */ now) => (evo ? Math.max(0, now - evo.start) : 0);
  const layout = () => {
    const cs = getComputedStyle(root);
    const inner = root.clientWidth - parseFloat(cs.paddingLeft || "0") - parseFloat(cs.paddingRight || "0");
    const top = inner >= 620 ? wrap.getBoundingClientRect().top + window.scrollY : 0;
    const { wide, w } = boardLayout(inner, top, window.innerHeight);
    root.classList.toggle("wide", wide);
    geom = geometry(w, n());
    side.el.style.maxHeight = wide ? w + "px" : "";
    side.el.style.width = wide ? SIDE_W + "px" : "";
  };

  const draw = (/** @type {number} */ now) => {
    raf = 0;
    if (!geom || geom.n !== n()) layout();
    const gm = /** @type {Geom} */ (geom);
    const ctx = setupCanvas(canvas, gm.w, gm.w);
    drawBoard(ctx, gm);
    const g = G();
    if (!g || !Array.isArray(g.board)) return;
    const ph = phase();
    const view = frame(g, ph.over, evo ? since(now) : null);
    if (!Array.isArray(view.board)) return;
    const prev = input.armed || input.hover;
    drawPosition(ctx, g, gm, view, deadSet(g, ph.over), {
      pending, mine: stoneOf(api.you),
      preview: prev && ph.myTurn && !pending ? prev : null, armed: !!input.armed,
      cursor: input.cursorOn && input.cursor && !animating() && !ph.over ? input.cursor : null,
    });
    if (evo) {
      const gen = view.gen;
      if (gen !== lastGen) { lastGen = gen; root.dataset.gen = String(gen); renderTexts(); }
      if (evolutionDone(/** @type {any[]} */ (evolution()), since(now))) finishEvolution();
      else raf = requestAnimationFrame(draw);
    }
  };
  const redraw = () => { if (!raf) raf = requestAnimationFrame(draw); };

  const startEvolution = () => {
    if (!evolution()) return;
    evo = { start: performance.now() };
    evoDone = false;
    lastGen = -1;
    root.dataset.evolving = "1";
    renderTexts();
    redraw();
  };
  // evolutionShown settles once the evolution now playing has ended
  // (played out, or skipped by a key or a click).
  const evolutionShown = () => new Promise((done) => evoWaiters.push(() => done(undefined)));
  const settleEvolution = () => {
    const ws = evoWaiters;
    evoWaiters = [];
    for (const done of ws) done();
  };
  const finishEvolution = () => {
    if (!evo && evoDone) { settleEvolution(); return; }
    evo = null;
    evoDone = true;
    settleEvolution();
    root.dataset.evolving = "0";
    root.dataset.gen = evolution() ? String(lastIdx()) : "";
    renderTexts();
    redraw();
  };

  // --- pointer and keys --------------------------------------------------------
  const { input, off } = bindInput(canvas, {
    api, g: G, geom: () => geom, phase, animating, finishEvolution,
    pending: () => !!pending,
    play: (p) => {
      pending = p;
      redraw();
      api.move("play", [coordOf(p.x, p.y, /** @type {Geom} */ (geom).n)]).catch(() => {}).finally(() => { pending = null; redraw(); });
    },
    send, answer, toggleHelp: (open) => toggleHelp(open), helpOpen: () => helpOpen, redraw, renderTexts: () => renderTexts(),
  });

  const toggleHelp = (/** @type {boolean | undefined} */ open) => {
    helpOpen = open === undefined ? !helpOpen : open;
    help.hidden = !helpOpen;
    if (helpOpen) side.fillHelp(help);
  };
  help.addEventListener("click", () => toggleHelp(false));

  // --- texts -------------------------------------------------------------------
  const renderTexts = () => {
    const g = G();
    const ph = phase();
    side.render({
      state, g, started: ph.started, over: ph.over, myTurn: ph.myTurn, scoring: ph.scoring,
      evolving: animating(), gen: lastGen, lastGen: evolution() ? lastIdx() : 0, evoDone,
      resignArmed: input.resignArmed, armed: !!input.armed,
    });
    canvas.setAttribute("aria-label", side.statusText());
    if (helpOpen) side.fillHelp(help);
  };

  // --- lifecycle ---------------------------------------------------------------
  const ro = new ResizeObserver(() => {
    const old = geom && geom.w;
    layout();
    if (!geom || geom.w !== old) draw(performance.now());
  });
  ro.observe(root);
  const onResize = () => { layout(); draw(performance.now()); };
  window.addEventListener("resize", onResize);
  api.onLangChange(() => { renderTexts(); });

  return {
    update(s) {
      const before = G();
      state = s;
      const g = G();
      if (!g) return;
      // The evolution plays when the game ends by scoring while we watch;
      // opening a finished game shows the last generation at once. The
      // room's end card (who won) waits until the last generation is on
      // the board: update returns a promise settled then.
      const fresh = !!before && before.phase !== "over" && !before.result;
      let wait = 0;
      if (evolution() && over() && fresh && !evo) { startEvolution(); wait = evolutionShown(); }
      else if (!evolution() || !over()) { if (evo) finishEvolution(); evo = null; evoDone = true; delete root.dataset.evolving; root.dataset.gen = ""; }
      else if (!evo && !before) { root.dataset.gen = String(lastIdx()); root.dataset.evolving = "0"; }
      if (input.armed && cellAt(g.board, input.armed) !== ".") input.armed = null;
      if (over()) input.resignArmed = false;
      root.dataset.phase = g.phase || "";
      if (!geom || geom.n !== n()) layout();
      renderTexts();
      // The card announcing the end moves the board down: fit it again.
      requestAnimationFrame(() => { const old = geom && geom.w; layout(); if (geom.w !== old) redraw(); });
      redraw();
      return wait;
    },
    destroy() {
      ro.disconnect();
      window.removeEventListener("resize", onResize);
      off();
      if (raf) cancelAnimationFrame(raf);
      raf = 0;
      evo = null;
      settleEvolution();
      root.remove();
    },
  };
}

/** @type {import("../js/types.js").Plugin} */
export default { mount, strings };
