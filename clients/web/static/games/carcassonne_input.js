// @ts-check
// Carcassonne's input: on the board a drag pans, a pinch or the wheel
// zooms and a still click acts (selects a legal cell, places on a second
// click, or puts a meeple on the spot nearest the pointer); the pointer
// shows where it may act; keys: R rotates, Enter places, Escape
// unselects, + and - zoom.

/** @typedef {import("./carcassonne_state.js").Cam} Cam */

/**
 * What the input asks of the plugin.
 * @typedef {object} Host
 * @property {(k: number, px?: number, py?: number) => void} zoomAt zoom by k about a screen point (the centre without one)
 * @property {(dx: number, dy: number) => void} pan
 * @property {(cx: number, cy: number) => void} act a still click at client point (cx, cy)
 * @property {(cx: number, cy: number) => boolean} live whether a click there would act
 * @property {() => boolean} myTile
 * @property {() => boolean} hasSel a cell is selected
 * @property {() => void} rotate
 * @property {() => void} place
 * @property {() => void} unselect
 */

/**
 * bindBoard listens to the pointer and the wheel on the board's svg.
 * @param {SVGSVGElement} svg
 * @param {Host} o
 */
export function bindBoard(svg, o) {
  /** @type {Map<number, {x: number, y: number}>} */
  const ptrs = new Map();
  /** @type {{x?: number, y?: number, moved: boolean, pinch: number | null} | null} */
  let drag = null;
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
      if (d > 0) o.zoomAt(d / drag.pinch, (a.x + b.x) / 2 - rc.left, (a.y + b.y) / 2 - rc.top);
      drag.pinch = d;
      return;
    }
    if (!drag.moved && Math.hypot(e.clientX - /** @type {number} */ (drag.x), e.clientY - /** @type {number} */ (drag.y)) < 6) return;
    drag.moved = true;
    o.pan(dx, dy);
  });
  const up = (/** @type {PointerEvent} */ e) => {
    const was = ptrs.has(e.pointerId);
    ptrs.delete(e.pointerId);
    if (!was || !drag) return;
    const click = !drag.moved && e.type === "pointerup";
    if (ptrs.size === 0) drag = null;
    if (click) o.act(e.clientX, e.clientY);
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  svg.addEventListener("wheel", (e) => {
    e.preventDefault();
    const rc = svg.getBoundingClientRect();
    o.zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX - rc.left, e.clientY - rc.top);
  }, { passive: false });
  const hover = (/** @type {PointerEvent} */ e) => {
    if (e.pointerType === "touch") return;
    svg.style.cursor = o.live(e.clientX, e.clientY) ? "pointer" : "grab";
  };
}

/**
 * keyHandler returns the document's keydown listener.
 * @param {Host} o
 * @returns {(e: KeyboardEvent) => void}
 */
export function keyHandler(o) {
  return (e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey) return;
    const tg = /** @type {HTMLElement | null} */ (e.target);
    if (tg && (tg.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(tg.tagName))) return;
    if (document.querySelector(".overlay")) return;
    const k = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (k === "r" && o.myTile()) { o.rotate(); e.preventDefault(); }
    else if (k === "Enter" && o.myTile() && o.hasSel() && !(tg && /^(BUTTON|A)$/.test(tg.tagName))) { o.place(); e.preventDefault(); }
    else if (k === "Escape" && o.hasSel()) o.unselect();
    else if (k === "+" || k === "=") o.zoomAt(1.2);
    else if (k === "-") o.zoomAt(1 / 1.2);
  };
}
