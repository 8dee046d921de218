// @ts-check
// Gong Zhu's input: a click, a tap or Enter/Space on a card of the hand
// plays it (playCheck in gongzhu_state.js decides what a press does), and
// the "last trick" button and panel open and close the last trick.

import { toast } from "/assets/js/toast.js";
import { playCheck } from "./gongzhu_state.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("./gongzhu_state.js").Own} Own */

/**
 * bindCard makes a hand card playable by click and by keyboard.
 * @param {HTMLElement} node
 * @param {() => void} play
 */
export function bindCard(node, play) {
  node.tabIndex = 0;
  node.addEventListener("click", play);
  node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(); } });
}

/**
 * createPlay returns play(code), which sends a card. s() reads what the
 * felt shows; pending is the card on its way, set while it is sent and
 * cleared when the server refuses it (an accepted card stays pending until
 * the state on show has it out of the hand: the hand must not offer it
 * again meanwhile). renderHand redraws the hand.
 * @param {PluginApi} api
 * @param {() => {own: Own | null, started: boolean, gameover: boolean, myTurn: boolean, current: string}} s
 * @param {{get: () => string | null, set: (code: string | null) => void}} pending
 * @param {() => void} renderHand
 * @returns {(code: string) => void}
 */
export function createPlay(api, s, pending, renderHand) {
  return (code) => {
    const now = s();
    const what = playCheck(now.own, code, { pending: pending.get(), started: now.started, gameover: now.gameover, myTurn: now.myTurn });
    if (what === "ignore") return;
    if (what === "notYourTurn") {
      toast(api.t("gongzhu.notYourTurn", { name: now.current }), "info");
      return;
    }
    if (what === "illegal") {
      // Let the server refuse it: its reason ("you must follow ♣: you
      // still hold ♣3") comes in both languages and the host shows it in
      // the page's one.
      api.move("play", [code]).catch(() => {});
      return;
    }
    pending.set(code);
    renderHand();
    api.move("play", [code]).catch(() => {
      pending.set(null);
      renderHand();
    });
  };
}

/**
 * bindLastTrick: the button toggles the last trick's panel; a click
 * anywhere on the panel closes it. toggle(open) sets it and redraws;
 * isOpen says whether it is open now.
 * @param {HTMLElement} btn
 * @param {HTMLElement} panel
 * @param {() => boolean} isOpen
 * @param {(open: boolean) => void} toggle
 */
export function bindLastTrick(btn, panel, isOpen, toggle) {
  btn.addEventListener("click", () => toggle(!isOpen()));
  panel.addEventListener("click", () => toggle(false));
}
