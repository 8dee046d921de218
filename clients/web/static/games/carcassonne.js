// Carcassonne (卡卡颂) plugin: the SVG board of docs/carcassonne.md (green fields, roads,
// walled cities with shields, cloisters), pan and zoom by mouse, wheel and
// touch; legal positions pink, the selected one green with the drawn tile
// previewed on it (rotate with the button or R; Place or a second click);
// meeple choices as circles on the tile just placed; meeples in seat
// colours; a side panel with scores, meeples, tiles left, the log and the
// final scoring per feature. Other seats' turns are shown step by step
// (tile, meeple, score): update returns how long each state needs.
// Contract: clients/web/PLUGINS.md; moves and view G: docs/carcassonne.md.

import { h } from "/assets/js/dom.js";
import { DEFS, tileSVG, spotOf, meepleSVG, SEAT_COLOURS, esc } from "./carcassonne_tiles.js";
import { strings } from "./carcassonne_text.js";
import { createSide } from "./carcassonne_side.js";

const MIN_PX = 22, MAX_PX = 160; // a tile's size on screen, in CSS px

let cssLoaded = false;
function loadCSS() {
  if (cssLoaded || document.querySelector('link[data-plugin="carcassonne"]')) return;
  cssLoaded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/assets/games/carcassonne.css", "data-plugin": "carcassonne" }));
}

const evKey = (e) => (e ? `${e.turn}:${e.kind}:${e.seat}:${e.x}:${e.y}:${e.feature || ""}:${e.points || 0}` : "");

function mount(el, api) {
  loadCSS();
  const t = api.t;
  let state = null;
  let sel = null; // {x, y} the selected legal position
  let rot = 0; // the preview's rotation
  let pending = false; // a move sent, not yet acked
  let cam = { s: 0.8, tx: 0, ty: 0 }; // screen = world * s + t (world: 100 per tile)
  let userMoved = false;
  let fresh = { tile: "", meeples: new Set(), scores: [] }; // what to animate
  let hl = null; // cells highlighted from the final breakdown
  let pointer = ""; // the kind of the last pointer used on the game ("mouse", "touch", "pen")
  let animate = false; // the next drawing animates what is fresh (once)

  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "cc-svg");
  svg.setAttribute("data-board", "carcassonne");
  svg.setAttribute("role", "img");
  svg.innerHTML = DEFS + `<g class="cc-world"></g>`;
  const world = svg.querySelector(".cc-world");
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
  const started = () => !!(state && state.ctx && state.ctx.started);
  const over = () => !!(G() && G().phase === "over") || !!(state && state.ctx && state.ctx.gameover);
  const seated = () => api.you !== null && api.you !== "";
  const mine = () => seated() && started() && !over() && G() && String(G().current) === String(api.you);
  const myTile = () => mine() && G().phase === "tile" && !!G().tile;
  const myMeeple = () => mine() && G().phase === "meeple";
  const legalAt = (p) => {
    const g = G();
    if (!p || !g || !Array.isArray(g.placements)) return null;
    const pl = g.placements.find((q) => q.x === p.x && q.y === p.y);
    return pl ? [...pl.rotations].sort((a, b) => a - b) : null;
  };
  const send = (name, args) => {
    pending = true;
    render();
    return api.move(name, args).then(() => true, () => false).finally(() => { pending = false; render(); });
  };

  // --- actions ---------------------------------------------------------------
  const select = (p) => {
    const rs = legalAt(p);
    if (!rs) return;
    sel = { x: p.x, y: p.y };
    if (!rs.includes(rot)) rot = rs[0];
    render();
  };
  const rotate = () => {
    if (!myTile() || pending) return;
    const rs = legalAt(sel);
    if (rs && rs.length) rot = rs[(rs.indexOf(rot) + 1) % rs.length];
    else rot = (rot + 90) % 360;
    render();
  };
  const place = () => {
    if (!myTile() || pending || !sel) return;
    const rs = legalAt(sel);
    if (!rs || !rs.includes(rot)) return;
    const p = sel;
    send("placeTile", [{ x: p.x, y: p.y, rotation: rot }]).then((ok) => { if (ok) sel = null; render(); });
  };
  const placeMeeple = (feature) => { if (myMeeple() && !pending) send("placeMeeple", [{ feature }]); };
  const skip = () => { if (myMeeple() && !pending) send("skipMeeple", []); };

  // --- camera ----------------------------------------------------------------
  const size = () => ({ w: svg.clientWidth || 300, h: svg.clientHeight || 300 });
  const applyCam = () => { world.setAttribute("transform", `translate(${cam.tx} ${cam.ty}) scale(${cam.s})`); };
  const bounds = () => {
    const g = G();
    const cells = [...((g && g.board) || []), ...((g && g.placements) || [])];
    if (!cells.length) cells.push({ x: 0, y: 0 });
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const q of cells) { x0 = Math.min(x0, q.x); y0 = Math.min(y0, q.y); x1 = Math.max(x1, q.x); y1 = Math.max(y1, q.y); }
    return { x0, y0, x1: x1 + 1, y1: y1 + 1 };
  };
  const fit = () => {
    const { w, h: hh } = size();
    const b = bounds();
    const bw = (b.x1 - b.x0 + 0.6) * 100, bh = (b.y1 - b.y0 + 0.6) * 100;
    let s = Math.min(w / bw, hh / bh);
    s = Math.max(MIN_PX / 100, Math.min(s, 1.1));
    cam = { s, tx: w / 2 - ((b.x0 + b.x1) / 2) * 100 * s, ty: hh / 2 - ((b.y0 + b.y1) / 2) * 100 * s };
    applyCam();
  };
  const zoomAt = (k, px, py) => {
    const { w, h: hh } = size();
    if (px === undefined) { px = w / 2; py = hh / 2; }
    const s = Math.max(MIN_PX / 100, Math.min(MAX_PX / 100, cam.s * k));
    const r = s / cam.s;
    cam = { s, tx: px - (px - cam.tx) * r, ty: py - (py - cam.ty) * r };
    userMoved = true;
    applyCam();
  };
  // showCells brings highlighted cells (a feature of the final scoring)
  // into sight: the board onto the screen, and the camera onto them when
  // they lie outside its window.
  const showCells = (cells) => {
    if (!cells || !cells.length) return;
    const smooth = !(window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches);
    const rc = wrap.getBoundingClientRect();
    const top = document.querySelector(".topbar");
    const topH = top ? top.getBoundingClientRect().bottom : 0;
    if (rc.top < topH || rc.bottom > window.innerHeight) {
      wrap.scrollIntoView({ block: rc.height + topH > window.innerHeight ? "start" : "nearest", behavior: smooth ? "smooth" : "auto" });
    }
    const { w, h: hh } = size();
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const [x, y] of cells) { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + 1); y1 = Math.max(y1, y + 1); }
    const inView = x0 * 100 * cam.s + cam.tx >= 0 && x1 * 100 * cam.s + cam.tx <= w && y0 * 100 * cam.s + cam.ty >= 0 && y1 * 100 * cam.s + cam.ty <= hh;
    if (inView) return;
    const s = Math.max(MIN_PX / 100, Math.min(cam.s, w / ((x1 - x0 + 0.6) * 100), hh / ((y1 - y0 + 0.6) * 100)));
    cam = { s, tx: w / 2 - ((x0 + x1) / 2) * 100 * s, ty: hh / 2 - ((y0 + y1) / 2) * 100 * s };
    userMoved = true;
    applyCam();
  };
  const toWorld = (cx, cy) => {
    const rc = svg.getBoundingClientRect();
    return { x: (cx - rc.left - cam.tx) / cam.s, y: (cy - rc.top - cam.ty) / cam.s };
  };

  // --- pointer: drag pans, pinch zooms, a still click acts -------------------
  const ptrs = new Map();
  let drag = null; // {x, y, moved, pinch}
  svg.addEventListener("pointerdown", (e) => {
    if (e.button !== undefined && e.button > 0) return;
    ptrs.set(e.pointerId, { x: e.clientX, y: e.clientY });
    try { svg.setPointerCapture(e.pointerId); } catch (_) { /* gone */ }
    if (ptrs.size === 1) drag = { x: e.clientX, y: e.clientY, moved: false, pinch: null };
    else if (ptrs.size === 2) {
      const [a, b] = [...ptrs.values()];
      drag = { moved: true, pinch: Math.hypot(a.x - b.x, a.y - b.y) };
    }
  });
  svg.addEventListener("pointermove", (e) => {
    const p = ptrs.get(e.pointerId);
    if (!p || !drag) { hover(e); return; }
    const dx = e.clientX - p.x, dy = e.clientY - p.y;
    p.x = e.clientX; p.y = e.clientY;
    if (ptrs.size >= 2 && drag.pinch) {
      const [a, b] = [...ptrs.values()];
      const d = Math.hypot(a.x - b.x, a.y - b.y);
      const rc = svg.getBoundingClientRect();
      if (d > 0) zoomAt(d / drag.pinch, (a.x + b.x) / 2 - rc.left, (a.y + b.y) / 2 - rc.top);
      drag.pinch = d;
      return;
    }
    if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
    drag.moved = true;
    cam.tx += dx; cam.ty += dy;
    userMoved = true;
    applyCam();
  });
  const up = (e) => {
    const was = ptrs.has(e.pointerId);
    ptrs.delete(e.pointerId);
    if (!was || !drag) return;
    const click = !drag.moved && e.type === "pointerup";
    if (ptrs.size === 0) drag = null;
    if (click) act(e.clientX, e.clientY);
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const rc = svg.getBoundingClientRect();
    zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - rc.left, e.clientY - rc.top);
  }, { passive: false });
  const hover = (e) => {
    if (e.pointerType === "touch") return;
    const w = toWorld(e.clientX, e.clientY);
    const cell = { x: Math.floor(w.x / 100), y: Math.floor(w.y / 100) };
    const live = (myTile() && legalAt(cell)) || (myMeeple() && spotAt(w));
    svg.style.cursor = live ? "pointer" : "grab";
  };
  const spotAt = (w) => {
    const g = G();
    if (!g || !g.lastPlaced || !Array.isArray(g.meepleOptions)) return null;
    const lp = g.lastPlaced;
    let best = null, bd = Infinity;
    for (const o of g.meepleOptions) {
      const [sx, sy] = spotOf(lp.type, lp.rotation, o.feature);
      const d = Math.hypot(w.x - (lp.x * 100 + sx), w.y - (lp.y * 100 + sy));
      if (d < bd) { bd = d; best = o; }
    }
    const reach = Math.max(13, 16 / cam.s);
    return best && bd <= reach ? best : null;
  };
  const act = (cx, cy) => {
    const g = G();
    if (!g || pending) return;
    const w = toWorld(cx, cy);
    if (myMeeple()) {
      const o = spotAt(w);
      if (o) placeMeeple(o.feature);
      return;
    }
    if (!myTile()) return;
    const cell = { x: Math.floor(w.x / 100), y: Math.floor(w.y / 100) };
    if (!legalAt(cell)) return;
    if (sel && sel.x === cell.x && sel.y === cell.y) place();
    else select(cell);
  };

  // --- keyboard --------------------------------------------------------------
  const onKey = (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tg = e.target;
    if (tg && (tg.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(tg.tagName))) return;
    if (document.querySelector(".overlay")) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (k === "r" && myTile()) { rotate(); e.preventDefault(); }
    else if (k === "Enter" && myTile() && sel && !(tg && /^(BUTTON|A)$/.test(tg.tagName))) { place(); e.preventDefault(); }
    else if (k === "Escape" && sel) { sel = null; render(); }
    else if (k === "+" || k === "=") zoomAt(1.2);
    else if (k === "-") zoomAt(1 / 1.2);
  };

  // --- drawing ---------------------------------------------------------------
  const drawBoard = () => {
    const g = G();
    if (!g) { world.innerHTML = ""; return; }
    const out = [];
    const board = g.board || [];
    const anim = animate;
    animate = false;
    for (const b of board) {
      const key = `${b.x},${b.y}`;
      const cls = "cc-tile" + (anim && fresh.tile === key ? " cc-new" : "");
      out.push(`<g class="${cls}" data-tile="${key}" data-type="${b.type}" transform="translate(${b.x * 100} ${b.y * 100})"><g class="cc-in">${tileSVG(b.type, b.rotation)}</g></g>`);
    }
    const lp = g.lastPlaced;
    if (lp && !over()) out.push(`<rect class="cc-last" x="${lp.x * 100 + 1.5}" y="${lp.y * 100 + 1.5}" width="97" height="97"/>`);
    // Legal positions: pink; the selected one green with the tile on it.
    if (g.phase === "tile" && Array.isArray(g.placements)) {
      const me = myTile();
      for (const p of g.placements) {
        const isSel = me && sel && sel.x === p.x && sel.y === p.y;
        if (isSel) continue;
        const fits = p.rotations.includes(rot);
        out.push(`<rect class="cc-cand${me && !fits ? " dim" : ""}${me ? "" : " watch"}" data-cand="${p.x},${p.y}" x="${p.x * 100 + 3}" y="${p.y * 100 + 3}" width="94" height="94" rx="6"/>`);
      }
      if (me && sel && g.tile) {
        const ok = (legalAt(sel) || []).includes(rot);
        out.push(`<g class="cc-preview" transform="translate(${sel.x * 100} ${sel.y * 100})"><g opacity=".9">${tileSVG(g.tile, rot)}</g>` +
          `<rect class="cc-sel${ok ? "" : " bad"}" data-sel="${sel.x},${sel.y}" x="1.5" y="1.5" width="97" height="97" rx="3"/></g>`);
      }
    }
    if (hl) for (const [x, y] of hl) out.push(`<rect class="cc-hl" x="${x * 100 + 2}" y="${y * 100 + 2}" width="96" height="96"/>`);
    for (const m of g.meeples || []) {
      const b = board.find((q) => q.x === m.x && q.y === m.y);
      if (!b) continue;
      const [sx, sy] = spotOf(b.type, b.rotation, m.feature);
      const key = `${m.seat}:${m.x},${m.y}:${m.feature}`;
      const lying = m.kind === "field" ? ` data-field="1"` : "";
      out.push(`<g class="cc-mwrap${anim && fresh.meeples.has(key) ? " cc-new" : ""}" data-meeple="${key}"${lying} transform="translate(${m.x * 100 + sx} ${m.y * 100 + sy})"><g class="cc-in">${meepleSVG(m.seat, 0, 0, 1.05, m.kind === "field" ? ` transform="rotate(-90)"` : "")}</g></g>`);
    }
    // The meeple step: the choices as circles on the tile just placed.
    if (g.phase === "meeple" && lp && Array.isArray(g.meepleOptions)) {
      const me = myMeeple();
      const lang = api.lang();
      for (const o of g.meepleOptions) {
        const [sx, sy] = spotOf(lp.type, lp.rotation, o.feature);
        const label = (o.label && (o.label[lang] || o.label.en)) || o.feature;
        const col = SEAT_COLOURS[Number(g.current) % SEAT_COLOURS.length];
        out.push(`<g class="cc-spot${me ? " live" : ""}" data-feature="${esc(o.feature)}" data-kind="${esc(o.kind)}" transform="translate(${lp.x * 100 + sx} ${lp.y * 100 + sy})">` +
          `<title>${esc(label)}</title><circle r="9" fill="rgba(255,255,255,.6)" stroke="${col}" stroke-width="2.4"/><circle r="2.8" fill="${col}"/></g>`);
      }
    }
    for (const sc of anim ? fresh.scores : []) {
      for (const [x, y] of sc.cells || []) out.push(`<rect class="cc-scored" x="${x * 100 + 2}" y="${y * 100 + 2}" width="96" height="96"/>`);
      const col = SEAT_COLOURS[(sc.seats && sc.seats[0]) % SEAT_COLOURS.length] || "#333";
      out.push(`<g class="cc-float" transform="translate(${sc.x * 100 + 50} ${sc.y * 100 + 40})"><text text-anchor="middle" fill="${col}">+${sc.points}</text></g>`);
    }
    world.innerHTML = out.join("");
    applyCam();
    svg.setAttribute("aria-label", t("carcassonne.board"));
  };

  const render = () => {
    drawBoard();
    side.render({ state, g: G(), started: started(), over: over(), myTile: myTile(), myMeeple: myMeeple(), pending, sel, rot, legal: legalAt(sel), touch: touchUI() });
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
    const hh = wide ? Math.max(440, Math.min(window.innerHeight - top - 20, 900)) : Math.max(280, Math.min(Math.round(window.innerHeight * 0.5), 520));
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
      fresh = { tile: "", meeples: new Set(), scores: [] };
      let wait = 0;
      if (before && !o.sync && Array.isArray(before.board) && Array.isArray(g.board)) {
        const lastBefore = evKey((before.events || [])[(before.events || []).length - 1]);
        const evs = g.events || [];
        const i = evs.findLastIndex((e) => evKey(e) === lastBefore);
        const news = i >= 0 ? evs.slice(i + 1) : [];
        // My own moves need no pause; another seat's are shown step by step.
        const byOther = !seated() || !news.some((e) => (e.kind === "place" || e.kind === "meeple") && String(e.seat) === String(api.you));
        if (g.board.length > before.board.length) {
          const nb = g.board[g.board.length - 1];
          fresh.tile = `${nb.x},${nb.y}`;
          wait = Math.max(wait, 700);
        }
        const had = new Set((before.meeples || []).map((m) => `${m.seat}:${m.x},${m.y}:${m.feature}`));
        for (const m of g.meeples || []) {
          const key = `${m.seat}:${m.x},${m.y}:${m.feature}`;
          if (!had.has(key)) { fresh.meeples.add(key); wait = Math.max(wait, 550); }
        }
        fresh.scores = news.filter((e) => e.kind === "score");
        if (fresh.scores.length) wait = Math.max(wait, 1300);
        if (!byOther && wait) wait = Math.min(wait, 400);
        if ((o.behind || 0) >= 3) wait = Math.min(wait, 120);
      }
      if (g.phase !== "tile" || !mine()) sel = null;
      if (sel && !legalAt(sel)) sel = null;
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
export default { mount, strings, showsThinking: true };
