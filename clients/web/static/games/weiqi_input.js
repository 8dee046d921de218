// @ts-check
// Weiqi's input: the pointer over the board (hover preview; a click plays,
// or marks a group dead in scoring; a first tap on a 19x19 touch screen
// only arms the point; any click skips the evolution) and the design's
// keys (docs/weiqi.md): arrows or hjkl move the cursor, Enter or Space
// plays there, p pass, u undo, e score or approve, d dead, r then y
// resign, y/n answer a request, q or Escape resume or hide, ? the help.

import { pointAt, samePoint, centre, stepPoint } from "/assets/js/grid.js";
import { coordOf, pointOf } from "./weiqi_text.js";
import { cellAt, approvedBy } from "./weiqi_state.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {import("../js/types.js").Geom} Geom */
/** @typedef {import("./weiqi_state.js").Phase} Phase */

/**
 * The board's input state, read by the drawing and the sidebar.
 * @typedef {object} WeiqiInput
 * @property {Point | null} hover the point under the mouse
 * @property {Point | null} cursor the keyboard cursor
 * @property {boolean} cursorOn the cursor shows (a key moved it)
 * @property {Point | null} armed a first tap on a touch screen (19x19)
 * @property {boolean} resignArmed r was pressed: y confirms
 */

/**
 * What the input asks of the plugin.
 * @typedef {object} Host
 * @property {PluginApi} api
 * @property {() => any} g the view
 * @property {() => Geom | null} geom
 * @property {() => Phase} phase
 * @property {() => boolean} animating the evolution is playing
 * @property {() => void} finishEvolution skip to its end
 * @property {() => boolean} pending a stone is on its way
 * @property {(p: Point) => void} play sends a stone
 * @property {(name: string, args: any[]) => void} send sends a move (errors shown by the host)
 * @property {(yes: boolean) => void} answer answers the request waiting
 * @property {(open?: boolean) => void} toggleHelp
 * @property {() => boolean} helpOpen
 * @property {() => void} redraw
 * @property {() => void} renderTexts
 */

/**
 * bindInput listens to the pointer on the canvas and to the keys on the
 * document; it returns the input state and off() to stop listening to
 * the document.
 * @param {HTMLCanvasElement} canvas
 * @param {Host} o
 * @returns {{input: WeiqiInput, off: () => void}}
 */
export function bindInput(canvas, o) {
  /** @type {WeiqiInput} */
  const input = { hover: null, cursor: null, cursorOn: false, armed: null, resignArmed: false };
  const at = (/** @type {PointerEvent} */ e) => pointAt(o.geom(), canvas.getBoundingClientRect(), e.clientX, e.clientY);
  const isStone = (/** @type {Point | null} */ p) => { const c = cellAt(o.g() && o.g().board, p); return c === "B" || c === "W"; };
  const n = () => /** @type {Geom} */ (o.geom()).n;

  canvas.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return;
    const p = at(e);
    if (!samePoint(p, input.hover)) { input.hover = p; o.redraw(); }
    const ph = o.phase();
    const live = p && ((ph.myTurn && cellAt(o.g().board, p) === ".") || (ph.seated && ph.scoring && isStone(p)));
    canvas.style.cursor = live || o.animating() ? "pointer" : "default";
  });
  canvas.addEventListener("pointerleave", () => { input.hover = null; o.redraw(); });
  canvas.addEventListener("pointerup", (e) => {
    if (o.animating()) { o.finishEvolution(); return; }
    const p = at(e);
    if (!p) return;
    input.cursor = p;
    act(p, e.pointerType === "touch");
  });

  // act plays at p (or marks its group in scoring).
  const act = (/** @type {Point} */ p, /** @type {boolean} */ touch) => {
    const g = o.g();
    const ph = o.phase();
    if (!g || !ph.seated) return;
    if (ph.scoring) {
      if (isStone(p)) o.send("toggleDead", [coordOf(p.x, p.y, n())]);
      return;
    }
    if (!ph.myTurn || o.pending() || cellAt(g.board, p) !== ".") return;
    if (touch && n() >= 19 && !samePoint(p, input.armed)) { input.armed = p; o.renderTexts(); o.redraw(); return; }
    input.armed = null;
    o.play(p);
  };

  const typing = (/** @type {KeyboardEvent} */ e) => {
    const el = /** @type {HTMLElement | null} */ (e.target);
    if (!el || !el.tagName) return false;
    return el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName);
  };
  /** @type {Record<string, [number, number]>} */
  const STEPS = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1], h: [-1, 0], l: [1, 0], k: [0, -1], j: [0, 1] };
  const onKey = (/** @type {KeyboardEvent} */ e) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e) || !o.g() || !o.geom()) return;
    if (document.querySelector(".overlay")) return; // a confirm dialog has the keys
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const target = /** @type {HTMLElement | null} */ (e.target);
    const onButton = target && /^(BUTTON|A)$/.test(target.tagName);
    if (["Shift", "Control", "Alt", "Meta", "CapsLock", "Tab"].includes(e.key)) return;
    if (o.animating()) { o.finishEvolution(); e.preventDefault(); return; }
    if (input.resignArmed) {
      input.resignArmed = false;
      if (key === "y") o.send("resign", []);
      o.renderTexts();
      e.preventDefault();
      return;
    }
    const ph = o.phase();
    if (key === "?") { o.toggleHelp(); e.preventDefault(); return; }
    if (key === "Escape" || key === "q") {
      if (o.helpOpen()) o.toggleHelp(false);
      else if (ph.seated && ph.scoring) o.send("resume", []);
      else if (key === "Escape" && input.cursorOn) { input.cursorOn = false; o.redraw(); }
      else return;
      e.preventDefault();
      return;
    }
    if (STEPS[key]) {
      const N = n();
      if (!input.cursor) input.cursor = pointOf(o.g().last, N) || centre(N);
      else if (input.cursorOn) input.cursor = stepPoint(input.cursor, STEPS[key], N);
      input.cursorOn = true;
      o.redraw();
      e.preventDefault();
      return;
    }
    if (!ph.seated || ph.over) return;
    if ((key === "Enter" || key === " ") && !onButton) {
      e.preventDefault();
      if (ph.scoring) { if (!approvedBy(o.g(), o.api.you)) o.send("approve", []); }
      else if (input.cursorOn && input.cursor) act(input.cursor, false);
      else { input.cursor = input.cursor || centre(n()); input.cursorOn = true; o.redraw(); }
      return;
    }
    const g = o.g();
    if (key === "u" && g.phase === "play" && !ph.requestPending) o.send("requestUndo", []);
    else if (key === "p" && ph.myTurn) o.send("pass", []);
    else if (key === "e") {
      if (ph.scoring) { if (!approvedBy(g, o.api.you)) o.send("approve", []); }
      else if (g.phase === "play" && !ph.requestPending) o.send("requestScoring", []);
    } else if (key === "d" && ph.scoring && input.cursorOn && input.cursor && isStone(input.cursor)) o.send("toggleDead", [coordOf(input.cursor.x, input.cursor.y, n())]);
    else if (key === "r") { input.resignArmed = true; o.renderTexts(); }
    else if (key === "y" && g.phase === "play" && ph.requestPending) o.answer(true);
    else if (key === "n" && g.phase === "play" && ph.requestPending) o.answer(false);
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return { input, off: () => document.removeEventListener("keydown", onKey) };
}
