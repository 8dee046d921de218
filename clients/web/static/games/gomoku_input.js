// @ts-check
// Gomoku's input: the pointer over the board (hover preview, a click
// places, a first tap on a touch screen only arms the point), the
// keyboard (arrows move a cursor drawn like the hover stone, Enter or
// Space places there) and the undo, accept, decline and resign buttons.

import { confirmDialog } from "/assets/js/toast.js";
import { pointAt, samePoint, STEPS, stepPoint, centre } from "/assets/js/grid.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {import("../js/types.js").Geom} Geom */

/**
 * The board's input state and what it asks of the plugin: geom() the
 * current geometry, g() the view, live(p) whether p is empty on the
 * viewer's turn (a pointer cursor), canPlace(p) whether a stone may go
 * there now (live, and none on its way), place(p) sends it, redraw(), armedChanged() re-renders the status
 * ("tap again to place"). hover and armed are read by the drawing.
 * @typedef {object} BoardInput
 * @property {Point | null} hover the point under the mouse or the keyboard cursor
 * @property {Point | null} armed a first tap on a touch screen
 */

/**
 * bindBoard listens to the pointer and the keyboard on the canvas and
 * returns the input state.
 * @param {HTMLCanvasElement} canvas
 * @param {{geom: () => Geom | null, g: () => any, live: (p: Point | null) => boolean, canPlace: (p: Point | null) => boolean, place: (p: Point) => void, redraw: () => void, armedChanged: () => void}} on
 * @returns {BoardInput}
 */
export function bindBoard(canvas, on) {
  /** @type {BoardInput} */
  const input = { hover: null, armed: null };
  const at = (/** @type {PointerEvent} */ e) => pointAt(on.geom(), canvas.getBoundingClientRect(), e.clientX, e.clientY);

  canvas.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return;
    const p = at(e);
    if (!samePoint(p, input.hover)) { input.hover = p; on.redraw(); }
    canvas.style.cursor = on.live(p) ? "pointer" : "default";
  });
  canvas.addEventListener("pointerleave", () => { input.hover = null; on.redraw(); });
  canvas.addEventListener("pointerup", (e) => {
    const p = at(e);
    if (!p || !on.canPlace(p)) return;
    if (e.pointerType === "touch" && !samePoint(p, input.armed)) {
      input.armed = p;
      on.armedChanged(); // the status says "tap again to place"
      on.redraw();
      return;
    }
    input.armed = null;
    on.place(p);
  });

  canvas.tabIndex = 0;
  canvas.addEventListener("keydown", (e) => {
    const g = on.g();
    const geom = on.geom();
    if (!g || !geom) return;
    if (STEPS[e.key]) {
      const from = input.hover || (g.last ? { x: g.last[0], y: g.last[1] } : centre(geom.n));
      input.hover = stepPoint(from, STEPS[e.key], geom.n);
      on.redraw();
      e.preventDefault();
    } else if ((e.key === "Enter" || e.key === " ") && input.hover) {
      e.preventDefault();
      if (on.canPlace(input.hover)) on.place(input.hover);
    }
  });
  return input;
}

/**
 * bindButtons sends the buttons' moves; resign asks first.
 * @param {PluginApi} api
 * @param {{undo: HTMLElement, accept: HTMLElement, decline: HTMLElement, resign: HTMLElement}} b
 */
export function bindButtons(api, b) {
  const t = api.t;
  b.undo.addEventListener("click", () => api.move("requestUndo", []).catch(() => {}));
  b.accept.addEventListener("click", () => api.move("answerUndo", [true]).catch(() => {}));
  b.decline.addEventListener("click", () => api.move("answerUndo", [false]).catch(() => {}));
  b.resign.addEventListener("click", async () => {
    if (await confirmDialog(t("gomoku.resignConfirm"), t("gomoku.resign"), { danger: true })) api.move("resign", []).catch(() => {});
  });
}
