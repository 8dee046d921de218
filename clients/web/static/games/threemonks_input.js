// @ts-check
// Three Monks' input: the viewer's five cards (choose one), the decision
// buttons (drink how much, rob whom, fill the bowl), the busy guard that
// keeps them from sending twice, and the item card a tap on an item opens
// (placed under the item, closed by a click elsewhere).

import { h, replace } from "/assets/js/dom.js";
import { CARD_ZH } from "./threemonks_text.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("./threemonks_draw.js").View} View */

/**
 * createSender returns send(name, args) and busy(): one move at a time.
 * An accepted move keeps the controls busy until a newer state is on show
 * (the room may still be showing earlier ones): onState(stateID) says
 * which is; a refused one frees them at once. render redraws.
 * @param {PluginApi} api
 * @param {() => number | null} shownID the stateID on show, null before any
 * @param {() => void} render
 */
export function createSender(api, shownID, render) {
  let busy = false;
  let busyUntil = 0; // the stateID that ends busy: the acked state's (Infinity until acked)
  return {
    busy: () => busy,
    /** @param {number} stateID a new state on show */
    onState(stateID) { if (busy && stateID >= busyUntil) busy = false; },
    /** @param {string} name @param {any[]} args */
    send(name, args) {
      if (busy) return;
      busy = true;
      render();
      busyUntil = Infinity;
      api.move(name, args).then((acked) => {
        busyUntil = acked && acked.stateID !== undefined ? acked.stateID : 0;
        const id = shownID();
        if (id !== null && id >= busyUntil) { busy = false; render(); }
      }, () => { busy = false; busyUntil = 0; render(); });
    },
  };
}

/**
 * renderAsk draws the question the viewer must answer now, with its
 * buttons, or hides the panel. It redraws only on a change, so a button
 * stays the same node while it is being clicked.
 * @param {HTMLElement} ask
 * @param {any} g
 * @param {{asked: boolean, busy: boolean}} o asked: the pending question is the viewer's and may be answered now
 * @param {View} v
 * @param {(name: string, args: any[]) => void} send
 */
export function renderAsk(ask, g, o, v, send) {
  const t = v.t;
  const p = g.pending;
  if (!o.asked) { replace(ask); ask.hidden = true; delete ask.dataset.key; return; }
  const busy = o.busy;
  const key = JSON.stringify([p, busy, v.lang(), g.monks.map((/** @type {any} */ m) => m.item && m.item.water)]);
  if (ask.dataset.key === key && !ask.hidden) return;
  ask.dataset.key = key;
  ask.hidden = false;
  let q;
  const buttons = [];
  if (p.kind === "drink") {
    q = t("tm.askDrink", { item: t("tm.item." + g.monks[v.me].item.kind) });
    for (let k = p.max; k >= 0; k--) {
      buttons.push(h("button", { class: "btn" + (k === p.max ? " primary" : ""), "data-ask": "drink", "data-value": k, disabled: busy, onclick: () => send("drink", [k]) }, t("tm.drinkN", { n: k })));
    }
  } else if (p.kind === "mouse") {
    q = t("tm.askMouse");
    for (const dir of ["left", "right"]) {
      const s = p[dir];
      buttons.push(h("button", { class: "btn primary", "data-ask": "mouse", "data-value": dir, disabled: busy, onclick: () => send("mouse", [dir]) },
        t("tm.robFrom", { name: v.nameOf(s), n: g.monks[s].item.water })));
    }
  } else {
    q = t("tm.askBowl");
    buttons.push(h("button", { class: "btn primary", "data-ask": "bowl", "data-value": "true", disabled: busy, onclick: () => send("bowl", [true]) }, t("tm.bowlYes")));
    buttons.push(h("button", { class: "btn", "data-ask": "bowl", "data-value": "false", disabled: busy, onclick: () => send("bowl", [false]) }, t("tm.bowlNo")));
  }
  replace(ask, h("p", null, q), h("div", { class: "row" }, buttons));
}

/**
 * renderHand draws the viewer's cards (last round's locked, the chosen one
 * marked); a card sends "choose" when canChoose. It redraws only on a change.
 * @param {HTMLElement} hand
 * @param {any} own the viewer's {hand, choice}, or null
 * @param {boolean} canChoose
 * @param {View} v
 * @param {(name: string, args: any[]) => void} send
 */
export function renderHand(hand, own, canChoose, v, send) {
  const t = v.t;
  if (!own) { replace(hand); delete hand.dataset.key; return; }
  const key = JSON.stringify([own.hand, own.choice, canChoose, v.lang()]);
  if (hand.dataset.key === key) return;
  hand.dataset.key = key;
  replace(hand, h("div", { class: "tm-hand-label muted" }, t("tm.hand")),
    h("div", { class: "tm-cards" }, own.hand.map((/** @type {{card: string, locked: boolean}} */ c) => {
      const chosen = own.choice === c.card;
      return h("button", {
        class: "tm-card c-" + c.card + (c.locked ? " locked" : "") + (chosen ? " chosen" : ""),
        "data-card": c.card, disabled: !canChoose || c.locked,
        title: t("tm.cardhelp." + c.card), onclick: () => send("choose", [c.card]),
      }, h("b", null, CARD_ZH[c.card]), h("span", null, t("tm.card." + c.card)),
      h("small", null, c.locked ? t("tm.locked") : chosen ? t("tm.chosen") : t("tm.cardhelp." + c.card)));
    })));
}

/**
 * placeInfo opens the item card just under the tapped item (above it near
 * the bottom) and brings it into view: on a phone the item may be far
 * down the page.
 * @param {HTMLElement} info
 * @param {HTMLElement} table
 * @param {number} seat
 */
export function placeInfo(info, table, seat) {
  const item = table.querySelector(`[data-place="item:${seat}"]`);
  const play = info.parentElement;
  if (item && play) {
    const ir = item.getBoundingClientRect(), pr = play.getBoundingClientRect();
    let top = ir.bottom - pr.top + 6;
    if (top + info.offsetHeight > pr.height) top = Math.max(0, ir.top - pr.top - info.offsetHeight - 6);
    info.style.top = top + "px";
  }
  if (info.scrollIntoView) info.scrollIntoView({ block: "nearest" });
}
