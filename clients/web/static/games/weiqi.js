// Weiqi (围棋) plugin: the weiqi design's terminal Go board in a browser. A dark
// kaya canvas board with slate and shell stones and the cinnabar seal ▪
// beside the last move; a sidebar with the seal pool, captures, komi,
// the last 20 moves, buttons and prompts; scoring with dead stones (✕ on
// grey) and territory; the evolution of the end animated generation by
// generation, then the count. Keys as the design maps them (? shows them).
// Contract: clients/web/PLUGINS.md; moves, view G, palette and keys:
// docs/weiqi.md.

import { setupCanvas } from "/assets/js/canvas.js";
import { confirmDialog } from "/assets/js/toast.js";
import { h } from "/assets/js/dom.js";
import { geometry, drawBoard, drawStone, drawSeal, drawDead, drawTerritory, drawHalo } from "./weiqi_draw.js";
import { strings, coordOf, pointOf } from "./weiqi_text.js";
import { createSide } from "./weiqi_side.js";

const GEN_MS = 300; // one generation of the evolution
const SIDE_W = 272; // the sidebar's width beside the board
const stoneOf = (seat) => (seat === "0" ? "B" : "W");

let cssLoaded = false;
function loadCSS() {
  if (cssLoaded || document.querySelector('link[data-plugin="weiqi"]')) return;
  cssLoaded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/assets/games/weiqi.css", "data-plugin": "weiqi" }));
}

function mount(el, api) {
  loadCSS();
  const t = api.t;
  let state = null;
  let geom = null;
  let hover = null; // {x, y} under the mouse
  let cursor = null; // {x, y} the keyboard cursor
  let cursorOn = false; // shown once a key moved it
  let armed = null; // a first tap on a touch screen (19x19)
  let pending = null; // a stone sent, not yet acked
  let evo = null; // {start}: the evolution being animated
  let evoDone = true; // the evolution was shown (or there is none)
  let evoWaiters = []; // settled when the evolution on show ends: the room's end card waits for it
  let resignArmed = false; // r was pressed: y confirms
  let helpOpen = false;
  let raf = 0;
  let lastGen = -1;

  const canvas = h("canvas", { class: "wq-canvas", "data-board": "weiqi", role: "img", tabindex: "0" });
  const help = h("div", { class: "wq-help", hidden: true, "data-help": "weiqi" });
  const wrap = h("div", { class: "wq-board" }, canvas, help);
  const side = createSide(api, {
    pass: () => send("pass", []),
    undo: () => send("requestUndo", []),
    score: () => send("requestScoring", []),
    resign: async () => {
      if (await confirmDialog(t("weiqi.resignConfirm"), t("weiqi.resign"), { danger: true })) send("resign", []);
    },
    answer: (yes) => answer(yes),
    approve: () => send("approve", []),
    resume: () => send("resume", []),
    replay: () => startEvolution(),
    help: () => toggleHelp(),
  });
  const root = h("div", { class: "wq", "data-gen": "" }, wrap, side.el);
  el.appendChild(root);

  const G = () => (state ? state.G : null);
  const started = () => !!(state && state.ctx && state.ctx.started);
  const over = () => !!(G() && (G().result || G().phase === "over")) || !!(state && state.ctx && state.ctx.gameover);
  const seated = () => api.you !== null;
  const requestPending = () => { const g = G(); return !!g && (g.undoRequest != null || g.scoringRequest != null); };
  const myTurn = () => seated() && started() && !over() && G().phase === "play" && G().toMove === api.you && !requestPending();
  const scoring = () => started() && !over() && G().phase === "scoring";
  const animating = () => !!evo;
  const n = () => (G() && G().size) || 19;
  const cellAt = (b, p) => (b && p && b[p.y] ? b[p.y][p.x] || "" : "");
  const evolution = () => { const g = G(); return g && Array.isArray(g.evolution) && g.evolution.length ? g.evolution : null; };
  const lastIdx = () => evolution().length - 1;

  const send = (name, args) => api.move(name, args).catch(() => {});
  const answer = (yes) => {
    const g = G();
    if (!g) return;
    if (g.undoRequest != null && g.undoRequest !== api.you) send("answerUndo", [yes]);
    else if (g.scoringRequest != null && g.scoringRequest !== api.you) send("answerScoring", [yes]);
  };

  // --- what the board shows --------------------------------------------------
  // A frame's time may precede the start taken a moment earlier: clamp.
  const since = (now) => Math.max(0, now - evo.start);
  const genNow = (now) => (evo ? Math.min(lastIdx(), Math.floor(since(now) / GEN_MS)) : -1);
  const shown = (now) => {
    const g = G();
    const ev = evolution();
    if (ev && over()) {
      if (evo) {
        const gen = genNow(now);
        return { board: ev[gen], prev: gen > 0 ? ev[gen - 1] : null, k: (since(now) % GEN_MS) / (GEN_MS * 0.6), gen, territory: null };
      }
      return { board: ev[ev.length - 1], prev: null, k: 1, gen: ev.length - 1, territory: g.territory };
    }
    return { board: g.board, prev: null, k: 1, gen: -1, territory: g.phase === "scoring" || over() ? g.territory : null };
  };

  // --- layout and drawing ----------------------------------------------------
  const layout = () => {
    const cs = getComputedStyle(root);
    const inner = root.clientWidth - parseFloat(cs.paddingLeft || 0) - parseFloat(cs.paddingRight || 0);
    const wide = inner >= 620;
    root.classList.toggle("wide", wide);
    let w;
    if (wide) {
      const top = wrap.getBoundingClientRect().top + window.scrollY;
      const byHeight = window.innerHeight - top - 26;
      w = Math.min(inner - SIDE_W - 16, Math.max(380, byHeight), 820);
    } else {
      w = Math.min(inner, 720);
    }
    w = Math.max(220, Math.floor(w));
    geom = geometry(w, n());
    side.el.style.maxHeight = wide ? w + "px" : "";
    side.el.style.width = wide ? SIDE_W + "px" : "";
  };

  const draw = (now) => {
    raf = 0;
    if (!geom || geom.n !== n()) layout();
    const ctx = setupCanvas(canvas, geom.w, geom.w);
    drawBoard(ctx, geom);
    const g = G();
    if (!g || !Array.isArray(g.board)) return;
    const { cell, pad, r } = geom;
    const at = (v) => pad + v * cell;
    const view = shown(now);
    if (!Array.isArray(view.board)) return;
    const dead = new Set(g.phase === "scoring" || (over() && !evolution()) ? g.dead || [] : []);
    const N = geom.n;
    if (view.territory) {
      for (let y = 0; y < N; y++) {
        const row = view.territory[y] || "";
        for (let x = 0; x < N; x++) if (row[x] === "b" || row[x] === "w") drawTerritory(ctx, at(x), at(y), cell, row[x]);
      }
    }
    const k = Math.max(0, Math.min(1, view.k));
    for (let y = 0; y < N; y++) {
      const row = view.board[y] || "";
      const prow = view.prev ? view.prev[y] || "" : "";
      for (let x = 0; x < N; x++) {
        const c = row[x], p = prow[x];
        if (c === "B" || c === "W") {
          if (dead.has(coordOf(x, y, N))) drawDead(ctx, at(x), at(y), r, c);
          else if (view.prev && p !== c) drawStone(ctx, at(x), at(y), r * (0.55 + 0.45 * k), c, 0.5 + 0.5 * k);
          else drawStone(ctx, at(x), at(y), r, c);
        } else if (view.prev && (p === "B" || p === "W") && k < 1) {
          drawStone(ctx, at(x), at(y), r, p, 0.85 * (1 - k));
        }
      }
    }
    if (view.gen < 0) {
      const lp = pointOf(g.last, N);
      if (lp && (view.board[lp.y] || "")[lp.x] !== "." && !dead.has(g.last)) drawSeal(ctx, at(lp.x), at(lp.y), r);
    }
    if (pending && cellAt(g.board, pending) === ".") drawStone(ctx, at(pending.x), at(pending.y), r, stoneOf(api.you), 0.7);
    const prev = armed || hover;
    if (prev && myTurn() && !pending && cellAt(g.board, prev) === ".") drawStone(ctx, at(prev.x), at(prev.y), r, stoneOf(api.you), armed ? 0.6 : 0.42);
    if (cursorOn && cursor && !animating() && !over()) drawHalo(ctx, at(cursor.x), at(cursor.y), r);
    if (evo) {
      const gen = view.gen;
      if (gen !== lastGen) { lastGen = gen; root.dataset.gen = String(gen); renderTexts(); }
      if (since(now) >= GEN_MS * (lastIdx() + 1)) finishEvolution();
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
  const evolutionShown = () => new Promise((done) => evoWaiters.push(done));
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

  // --- mouse and touch -------------------------------------------------------
  const pointAt = (e) => {
    if (!geom) return null;
    const rect = canvas.getBoundingClientRect();
    const s = rect.width > 0 ? geom.w / rect.width : 1;
    const x = Math.round(((e.clientX - rect.left) * s - geom.pad) / geom.cell);
    const y = Math.round(((e.clientY - rect.top) * s - geom.pad) / geom.cell);
    return x < 0 || y < 0 || x >= geom.n || y >= geom.n ? null : { x, y };
  };
  const same = (a, b) => !!a && !!b && a.x === b.x && a.y === b.y;
  const isStone = (p) => { const c = cellAt(G() && G().board, p); return c === "B" || c === "W"; };

  canvas.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return;
    const p = pointAt(e);
    if (!same(p, hover)) { hover = p; redraw(); }
    const live = p && ((myTurn() && cellAt(G().board, p) === ".") || (seated() && scoring() && isStone(p)));
    canvas.style.cursor = live || animating() ? "pointer" : "default";
  });
  canvas.addEventListener("pointerleave", () => { hover = null; redraw(); });
  canvas.addEventListener("pointerup", (e) => {
    if (animating()) { finishEvolution(); return; }
    const p = pointAt(e);
    if (!p) return;
    cursor = p;
    act(p, e.pointerType === "touch");
  });

  // act plays at p (or marks its group in scoring).
  const act = (p, touch) => {
    const g = G();
    if (!g || !seated()) return;
    if (scoring()) {
      if (isStone(p)) send("toggleDead", [coordOf(p.x, p.y, geom.n)]);
      return;
    }
    if (!myTurn() || pending || cellAt(g.board, p) !== ".") return;
    if (touch && geom.n >= 19 && !same(p, armed)) { armed = p; renderTexts(); redraw(); return; }
    armed = null;
    pending = p;
    redraw();
    api.move("play", [coordOf(p.x, p.y, geom.n)]).catch(() => {}).finally(() => { pending = null; redraw(); });
  };

  // --- keyboard (the design's keys, docs/weiqi.md) ---------------------------
  const typing = (e) => {
    const el = e.target;
    if (!el || !el.tagName) return false;
    return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  };
  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1], h: [-1, 0], l: [1, 0], k: [0, -1], j: [0, 1] };
  const onKey = (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e) || !G() || !geom) return;
    if (document.querySelector(".overlay")) return; // a confirm dialog has the keys
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const onButton = e.target && /^(BUTTON|A)$/.test(e.target.tagName);
    if (["Shift", "Control", "Alt", "Meta", "CapsLock", "Tab"].includes(e.key)) return;
    if (animating()) { finishEvolution(); e.preventDefault(); return; }
    if (resignArmed) {
      resignArmed = false;
      if (key === "y") send("resign", []);
      renderTexts();
      e.preventDefault();
      return;
    }
    if (key === "?") { toggleHelp(); e.preventDefault(); return; }
    if (key === "Escape" || key === "q") {
      if (helpOpen) toggleHelp(false);
      else if (seated() && scoring()) send("resume", []);
      else if (key === "Escape" && cursorOn) { cursorOn = false; redraw(); }
      else return;
      e.preventDefault();
      return;
    }
    if (STEPS[key]) {
      const N = geom.n;
      if (!cursor) {
        const lp = pointOf(G().last, N);
        cursor = lp || { x: (N - 1) >> 1, y: (N - 1) >> 1 };
      } else if (cursorOn) {
        cursor = { x: Math.min(N - 1, Math.max(0, cursor.x + STEPS[key][0])), y: Math.min(N - 1, Math.max(0, cursor.y + STEPS[key][1])) };
      }
      cursorOn = true;
      redraw();
      e.preventDefault();
      return;
    }
    if (!seated() || over()) return;
    if ((key === "Enter" || key === " ") && !onButton) {
      e.preventDefault();
      if (scoring()) { if (!approvedMe()) send("approve", []); }
      else if (cursorOn && cursor) act(cursor, false);
      else { cursor = cursor || { x: (geom.n - 1) >> 1, y: (geom.n - 1) >> 1 }; cursorOn = true; redraw(); }
      return;
    }
    const g = G();
    if (key === "u" && g.phase === "play" && !requestPending()) send("requestUndo", []);
    else if (key === "p" && myTurn()) send("pass", []);
    else if (key === "e") {
      if (scoring()) { if (!approvedMe()) send("approve", []); }
      else if (g.phase === "play" && !requestPending()) send("requestScoring", []);
    } else if (key === "d" && scoring() && cursorOn && cursor && isStone(cursor)) send("toggleDead", [coordOf(cursor.x, cursor.y, geom.n)]);
    else if (key === "r") { resignArmed = true; renderTexts(); }
    else if (key === "y" && g.phase === "play" && requestPending()) answer(true);
    else if (key === "n" && g.phase === "play" && requestPending()) answer(false);
    else return;
    e.preventDefault();
  };
  const approvedMe = () => { const g = G(); return !!(g && g.approved && g.approved[Number(api.you)]); };

  const toggleHelp = (open) => {
    helpOpen = open === undefined ? !helpOpen : open;
    help.hidden = !helpOpen;
    if (helpOpen) side.fillHelp(help);
  };
  help.addEventListener("click", () => toggleHelp(false));

  // --- texts -------------------------------------------------------------------
  const renderTexts = () => {
    const g = G();
    side.render({
      state, g, started: started(), over: over(), myTurn: myTurn(), scoring: scoring(),
      evolving: animating(), gen: lastGen, lastGen: evolution() ? lastIdx() : 0, evoDone,
      resignArmed, armed: !!armed,
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
  document.addEventListener("keydown", onKey);
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
      if (armed && cellAt(g.board, armed) !== ".") armed = null;
      if (over()) resignArmed = false;
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
      document.removeEventListener("keydown", onKey);
      if (raf) cancelAnimationFrame(raf);
      raf = 0;
      evo = null;
      settleEvolution();
      root.remove();
    },
  };
}

export default { mount, strings };
