// @ts-check
// Carcassonne (卡卡颂) plugin: the SVG board of docs/carcassonne.md (green fields, roads,
// walled cities with shields, cloisters), pan and zoom by mouse, wheel and
// touch; legal positions pink, the selected one green with the drawn tile
// previewed on it (rotate with the button or R; Place or a second click);
// meeple choices as circles on the tile just placed; meeples in seat
// colours; a side panel with scores, meeples, tiles left, the log and the
// final scoring per feature. Other seats' turns are shown step by step
// (tile, meeple, score): update returns how long each state needs.
// Contract: clients/web/PLUGINS.md; moves and view G: docs/carcassonne.md.
// This file is the glue (mount, update, the camera); what to show and the
// camera's maths: carcassonne_state.js; the board's SVG:
// carcassonne_draw.js; pointer and keys: carcassonne_input.js; the side
// panel: carcassonne_side.js; tiles and meeples: carcassonne_tiles.js;
// strings: carcassonne_text.js; look: carcassonne.css.

import { h } from "/assets/js/dom.js";
import { DEFS } from "./carcassonne_tiles.js";
import { strings } from "./carcassonne_text.js";
import { createSide } from "./carcassonne_side.js";
import {
  stepsOf, legalAt, nextRotation, bounds, fitCam, zoomCam, showCam, toWorld, cellOf, meepleSpotAt, freshOf, boardHeight,
} from "./carcassonne_state.js";
import { boardSVG } from "./carcassonne_draw.js";
import { bindBoard, keyHandler } from "./carcassonne_input.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Controller} Controller */
/** @typedef {import("../js/types.js").Point} Point */

/**
 * mount draws the board and its side panel into el and returns the controller.
 * @param {HTMLElement} el
 * @param {PluginApi} api
 * @returns {Controller}
 */
function mount(el, api) {
  const t = api.t;
  /** @type {State | null} */
  let state = null;
  /** @type {Point | null} */
  let sel = null; // the selected legal position
  let rot = 0; // the preview's rotation
  let pending = false; // a move sent, not yet acked
  /** @type {import("./carcassonne_state.js").Cam} */
  let cam = { s: 0.8, tx: 0, ty: 0 }; // screen = world * s + t (world: 100 per tile)
  let userMoved = false;
  /** @type {import("./carcassonne_state.js").Fresh} */
  let fresh = { tile: "", meeples: new Set(), scores: [] }; // what to animate
  /** @type {[number, number][] | null} */
  let hl = null; // cells highlighted from the final breakdown
  let pointer = ""; // the kind of the last pointer used on the game ("mouse", "touch", "pen")
  let animate = false; // the next drawing animates what is fresh (once)

  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "cc-svg");
  svg.setAttribute("data-board", "carcassonne");
  svg.setAttribute("role", "img");
  svg.innerHTML = DEFS + `<g class="cc-world"></g>`;
  const world = /** @type {SVGGElement} */ (svg.querySelector(".cc-world"));
  const zoomBtn = (txt, key, fn) => h("button", { class: "cc-zoom-btn", type: "button", "data-zoom": key, onclick: fn }, txt);
  const zIn = zoomBtn("+", "in", () => zoomAt(1.25));
  const zOut = zoomBtn("−", "out", () => zoomAt(0.8));
  const zFit = zoomBtn("⤢", "fit", () => { userMoved = false; fit(); });
  // The zoom buttons float over the board's corner on a wide screen; on a
  // narrow one they sit in a row under the board, where they cover no
  // square of it.
  const zoom = h("div", { class: "cc-zoom", "data-zoombar": "" }, zIn, zOut, zFit);
  const wrap = h("div", { class: "cc-boardwrap" }, svg);
  const boardCol = h("div", { class: "cc-boardcol" }, wrap, zoom);
  const side = createSide(api, {
    rotate: () => rotate(),
    place: () => place(),
    meeple: (f) => placeMeeple(f),
    skip: () => skip(),
    highlight: (cells) => { hl = cells; drawBoard(); },
    show: (cells) => showCells(cells),
    hot: (f) => { for (const e of svg.querySelectorAll(".cc-spot")) e.classList.toggle("hot", e.dataset.feature === f); },
  });
  const root = h("div", { class: "cc" }, boardCol, side.el);
  el.appendChild(root);
  // Which words the hints use (click or tap, R or not) follows the pointer
  // in hand; before any, what the screen is.
  const touchUI = () => (pointer ? pointer !== "mouse" : !!(window.matchMedia && matchMedia("(hover: none) and (pointer: coarse)").matches));
  root.addEventListener("pointerdown", (e) => {
    // Only the hint's words change here: a render would rebuild the
    // panel's lists under the finger and lose the click.
    if (e.pointerType && e.pointerType !== pointer) { pointer = e.pointerType; side.setTouch(touchUI()); }
  }, true);

  const G = () => (state ? state.G : null);
  const steps = () => stepsOf(state, api.you);
  const started = () => steps().started;
  const over = () => steps().over;
  const seated = () => steps().seated;
  const mine = () => steps().mine;
  const myTile = () => steps().myTile;
  const myMeeple = () => steps().myMeeple;
  const legal = (/** @type {Point | null} */ p) => legalAt(G(), p);
  const send = (/** @type {string} */ name, /** @type {any[]} */ args) => {
    pending = true;
    render();
    return api.move(name, args).then(() => true, () => false).finally(() => { pending = false; render(); });
  };

  // --- actions ---------------------------------------------------------------
  const select = (/** @type {Point} */ p) => {
    const rs = legal(p);
    if (!rs) return;
    sel = { x: p.x, y: p.y };
    if (!rs.includes(rot)) rot = rs[0];
    render();
  };
  const rotate = () => {
    if (!myTile() || pending) return;
    rot = nextRotation(legal(sel), rot);
    render();
  };
  const place = () => {
    if (!myTile() || pending || !sel) return;
    const rs = legal(sel);
    if (!rs || !rs.includes(rot)) return;
    const p = sel;
    send("placeTile", [{ x: p.x, y: p.y, rotation: rot }]).then((ok) => { if (ok) sel = null; render(); });
  };
  const placeMeeple = (/** @type {string} */ feature) => { if (myMeeple() && !pending) send("placeMeeple", [{ feature }]); };
  const skip = () => { if (myMeeple() && !pending) send("skipMeeple", []); };

  // --- camera ----------------------------------------------------------------
  const size = () => ({ w: svg.clientWidth || 300, h: svg.clientHeight || 300 });
  const applyCam = () => { world.setAttribute("transform", `translate(${cam.tx} ${cam.ty}) scale(${cam.s})`); };
  const fit = () => {
    const { w, h: hh } = size();
    cam = fitCam(w, hh, bounds(G()));
    applyCam();
  };
  const zoomAt = (/** @type {number} */ k, /** @type {number | undefined} */ px, /** @type {number | undefined} */ py) => {
    const { w, h: hh } = size();
    if (px === undefined || py === undefined) { px = w / 2; py = hh / 2; }
    cam = zoomCam(cam, k, px, py);
    userMoved = true;
    applyCam();
  };
  // showCells brings highlighted cells (a feature of the final scoring)
  // into sight: the board onto the screen, and the camera onto them when
  // they lie outside its window.
  const showCells = (/** @type {[number, number][]} */ cells) => {
    if (!cells || !cells.length) return;
    const smooth = !(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
    const rc = wrap.getBoundingClientRect();
    const top = document.querySelector(".topbar");
    const topH = top ? top.getBoundingClientRect().bottom : 0;
    if (rc.top < topH || rc.bottom > window.innerHeight) {
      wrap.scrollIntoView({ block: rc.height + topH > window.innerHeight ? "start" : "nearest", behavior: smooth ? "smooth" : "auto" });
    }
    const { w, h: hh } = size();
    const next = showCam(cam, w, hh, cells);
    if (!next) return;
    cam = next;
    userMoved = true;
    applyCam();
  };
  const worldAt = (/** @type {number} */ cx, /** @type {number} */ cy) => toWorld(cam, svg.getBoundingClientRect(), cx, cy);

  // --- pointer and keys --------------------------------------------------------
  /** @type {import("./carcassonne_input.js").Host} */
  const host = {
    zoomAt,
    pan: (dx, dy) => { cam.tx += dx; cam.ty += dy; userMoved = true; applyCam(); },
    act: (cx, cy) => {
      const g = G();
      if (!g || pending) return;
      const w = worldAt(cx, cy);
      if (myMeeple()) {
        const o = meepleSpotAt(g, w, cam.s);
        if (o) placeMeeple(o.feature);
        return;
      }
      if (!myTile()) return;
      const cell = cellOf(w);
      if (!legal(cell)) return;
      if (sel && sel.x === cell.x && sel.y === cell.y) place();
      else select(cell);
    },
    live: (cx, cy) => {
      const w = worldAt(cx, cy);
      return !!((myTile() && legal(cellOf(w))) || (myMeeple() && meepleSpotAt(G(), w, cam.s)));
    },
    myTile, hasSel: () => !!sel, rotate: () => rotate(), place: () => place(),
    unselect: () => { sel = null; render(); },
  };
  bindBoard(svg, host);
  const onKey = keyHandler(host);

  // --- drawing ---------------------------------------------------------------
  const drawBoard = () => {
    const g = G();
    if (!g) { world.innerHTML = ""; return; }
    const anim = animate;
    animate = false;
    const st = steps();
    world.innerHTML = boardSVG(g, { anim, fresh, sel, rot, hl, myTile: st.myTile, myMeeple: st.myMeeple, over: st.over, lang: api.lang() });
    applyCam();
    svg.setAttribute("aria-label", t("carcassonne.board"));
  };

  const render = () => {
    drawBoard();
    side.render({ state, g: G(), started: started(), over: over(), myTile: myTile(), myMeeple: myMeeple(), pending, sel, rot, legal: legal(sel), touch: touchUI() });
    zIn.title = t("carcassonne.zoomIn");
    zOut.title = t("carcassonne.zoomOut");
    zFit.title = t("carcassonne.fit");
    for (const b of [zIn, zOut, zFit]) b.setAttribute("aria-label", b.title);
    root.dataset.phase = G() ? G().phase || "" : "";
    root.classList.toggle("spectator", !seated());
  };

  // --- layout ----------------------------------------------------------------
  const layout = () => {
    const wide = root.clientWidth >= 760;
    root.classList.toggle("wide", wide);
    const top = wrap.getBoundingClientRect().top + window.scrollY;
    const hh = boardHeight(wide, top, window.innerHeight);
    wrap.style.height = hh + "px";
    side.el.style.maxHeight = wide ? hh + "px" : "";
  };
  const ro = new ResizeObserver(() => { layout(); if (!userMoved) fit(); else applyCam(); });
  ro.observe(root);
  const onResize = () => { layout(); if (!userMoved) fit(); };
  window.addEventListener("resize", onResize);
  document.addEventListener("keydown", onKey);
  api.onLangChange(() => render());

  return {
    update(s, opts) {
      const o = opts || {};
      const before = G();
      state = s;
      const g = G();
      if (!g) return 0;
      // What is new since the state shown before: animate it.
      const nw = freshOf(before, g, o, seated(), api.you);
      fresh = nw.fresh;
      const wait = nw.wait;
      if (g.phase !== "tile" || !mine()) sel = null;
      if (sel && !legal(sel)) sel = null;
      if (g.phase === "tile" && before && before.tile !== g.tile) rot = 0;
      if (!over()) hl = null;
      layout();
      animate = true;
      render();
      if (!userMoved) fit();
      return wait;
    },
    destroy() {
      ro.disconnect();
      window.removeEventListener("resize", onResize);
      document.removeEventListener("keydown", onKey);
      root.remove();
    },
  };
}

// showsThinking: the side panel shows a bot's thinking seconds itself,
// so the host's status line does not repeat them.
/** @type {import("../js/types.js").Plugin} */
export default { mount, strings, showsThinking: true };
