// @ts-check
// Gong Zhu (拱猪) plugin: an oval felt table with 3 or 4 seats (the viewer at
// the bottom, play going counterclockwise), the viewer's hand fanned along
// the bottom with the playable cards raised, the others' card backs and the
// point cards each took, the trick in the middle (cards fly in from their
// seat and are collected by the taker), the round result and the 榜.
// Contract: clients/web/PLUGINS.md. View G: docs/gongzhu.md.
// This file is the glue: mount builds the elements, update paces the
// states (a card flying in, a finished trick held then collected, the
// round's banner). What to show: gongzhu_state.js; drawing:
// gongzhu_draw.js; clicks and keys: gongzhu_input.js; strings:
// gongzhu_text.js; look: gongzhu.css.

import { h } from "/assets/js/dom.js";
import { strings } from "./gongzhu_text.js";
import {
  HOLD_MS, MIN_HOLD_MS, COLLECT_MS, BANNER_MS, CARD_MS, FAST,
  spotOffset, plainName, nameOf, ownSeat, isMyTurn, handShown, playable, pendingDone, statusLine, withTable,
  finKey, finishedTrick, lastTrick, change,
} from "./gongzhu_state.js";
import {
  cardEl, renderSeats, createTrickLayer, layoutHand, renderStatus, renderBoard, renderResult,
  bannerEl, renderLast as drawLast, renderRounds,
} from "./gongzhu_draw.js";
import { bindCard, createPlay, bindLastTrick } from "./gongzhu_input.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").UpdateOptions} UpdateOptions */
/** @typedef {import("../js/types.js").Controller} Controller */

/**
 * mount draws the table into el and returns the controller.
 * @param {HTMLElement} el
 * @param {PluginApi} api
 * @returns {Controller}
 */
function mount(el, api) {
  const t = api.t;
  /** @type {State | null} */
  let st = null; // the latest state message
  /** @type {string | null} */
  let pending = null; // the card code sent, not yet acked
  let pendingRound = 0; // the round it was sent in
  /** @type {any} */
  let hold = null; // timer while a finished trick is on show
  /** @type {{taker: number, since: number} | null} */
  let held = null; // the finished trick on show
  /** @type {string | null} */
  let lastFinKey = null; // round:tricks of the last trick layer render
  /** @type {number | null} */
  let lastResult = null; // lastRound.round seen so far
  /** @type {any} */
  let bannerTimer = null;
  /** @type {any} */
  let roundOver = null; // the finished round while its banner shows, before the next deal
  /** @type {any} */
  let roundTimer = null;
  let fast = false; // the page is behind: shorter holds
  /** @type {Map<string, HTMLElement>} */
  const handEls = new Map(); // card code -> element

  const status = h("div", { class: "status-bar gz-status", "data-status": "gongzhu" });
  const table = h("div", { class: "gz-table", "data-table": "gongzhu" });
  const centre = h("div", { class: "gz-centre" }, h("div", { class: "gz-watermark" }, "拱猪"));
  const ledEl = h("div", { class: "gz-led", "data-led": "" });
  const infoEl = h("div", { class: "gz-led gz-info" });
  const seatLayer = h("div");
  const trickLayer = h("div");
  const bannerSlot = h("div");
  table.append(centre, ledEl, infoEl, seatLayer, trickLayer, bannerSlot);
  const handLabel = h("div", { class: "gz-hand-label muted" });
  // The last finished trick, on demand: a button (or Enter) opens it over
  // the felt; a click anywhere on it, or the button again, closes it.
  let showLast = false;
  const lastBtn = /** @type {HTMLButtonElement} */ (h("button", { class: "btn small gz-lastbtn", type: "button", "data-action": "last-trick", "aria-pressed": "false" }));
  const lastPanel = h("div", { class: "gz-lastpanel", "data-last-trick": "", hidden: true });
  bindLastTrick(lastBtn, lastPanel, () => showLast, (open) => { showLast = open; renderLast(); });
  table.append(lastPanel);
  const hand = h("div", { class: "gz-hand", "data-hand": "gongzhu" });
  const board = h("section", { class: "card gz-board", "data-scoreboard": "gongzhu" });
  const result = h("section", { class: "card gz-result", "data-result": "gongzhu" });
  const rounds = h("section", { class: "card gz-rounds", "data-rounds": "gongzhu", hidden: true });
  const root = h("div", { class: "gz" }, status,
    h("div", { class: "gz-main" },
      h("div", { class: "gz-play" }, table, api.you === null ? null : hand, h("div", { class: "gz-under" }, handLabel, lastBtn)),
      h("div", { class: "gz-side" }, result, board, rounds)));
  el.appendChild(root);

  const G = () => (st ? st.G : null);
  const n = () => (G() ? G().seats : 4);
  const started = () => !!(st && st.ctx && st.ctx.started);
  /** @type {import("./gongzhu_draw.js").Names} */
  const names = {
    t,
    you: api.you,
    get started() { return started(); },
    nameOf: (seat) => nameOf(st && st.players, seat, api.you, t),
    plainName: (seat) => plainName(st && st.players, seat, api.you, t),
  };
  const mine = () => ownSeat(G(), api.you);
  const myTurn = () => isMyTurn(G(), { started: started(), you: api.you, onShow: !!held || !!roundOver });
  const holdMs = () => (fast ? MIN_HOLD_MS : HOLD_MS);
  /** @type {(seat: number, k: number) => [number, number]} */
  const offset = (seat, k) => spotOffset(seat, api.you, n(), table.clientWidth, table.clientHeight, k);
  const trick = createTrickLayer(trickLayer, ledEl, offset, t);

  // --- the trick -------------------------------------------------------------
  // The finished trick stays on the felt until the next trick's first card
  // arrives (at least MIN_HOLD_MS, at most HOLD_MS), then flies to its taker.
  const endHold = () => {
    clearTimeout(hold);
    hold = null;
    if (held) trick.collect(held.taker);
    held = null;
  };

  const renderTrick = () => {
    const g = G();
    const key = finKey(g);
    if (lastFinKey !== null && key !== lastFinKey) {
      const done = finishedTrick(g);
      if (held) endHold();
      if (done) {
        trick.show(done);
        held = { taker: done.taker, since: performance.now() };
        hold = setTimeout(() => { endHold(); if (st) render(); }, holdMs());
      }
    }
    lastFinKey = key;
    if (held) {
      if (g.trick.plays.length === 0) return;
      const wait = MIN_HOLD_MS - (performance.now() - held.since);
      if (wait > 0) {
        clearTimeout(hold);
        hold = setTimeout(() => { endHold(); if (st) render(); }, wait);
        return;
      }
      endHold();
    }
    trick.show(g.trick);
  };

  // --- the hand --------------------------------------------------------------
  const play = createPlay(api, () => ({
    own: mine(), started: started(), gameover: !!(st && st.ctx.gameover), myTurn: myTurn(),
    current: G() ? names.nameOf(G().current) : "",
  }), { get: () => pending, set: (c) => { pending = c; pendingRound = G() ? G().round : 0; } }, () => { if (st) renderHand(); });

  const renderHand = () => {
    const me = mine();
    if (api.you === null) {
      handLabel.textContent = t("gongzhu.watching");
      return;
    }
    const codes = handShown(me, !!roundOver);
    const legal = playable(me, myTurn(), pending);
    for (const [code, node] of handEls) {
      if (!codes.includes(code)) { node.remove(); handEls.delete(code); }
    }
    codes.forEach((code) => {
      let node = handEls.get(code);
      if (!node) {
        node = cardEl(code, t);
        bindCard(node, () => play(code));
        handEls.set(code, node);
      }
      node.classList.toggle("legal", legal.has(code));
      node.classList.toggle("sending", pending === code);
      node.setAttribute("aria-disabled", legal.has(code) ? "false" : "true");
      hand.appendChild(node); // keeps DOM order = display order
    });
    hand.classList.toggle("turn", myTurn() && !pending); // a card on its way: not asking any more
    handLabel.textContent = t("gongzhu.yourHand");
    layoutHand(hand);
  };

  // --- texts, result, banner ---------------------------------------------------
  const renderLast = () => { showLast = drawLast(lastBtn, lastPanel, lastTrick(G()), showLast, names); };

  const showBanner = (/** @type {any} */ r) => {
    clearTimeout(bannerTimer);
    bannerSlot.replaceChildren(bannerEl(r, names));
    // While the round is on show the update's timer takes it away.
    if (!roundOver) bannerTimer = setTimeout(() => bannerSlot.replaceChildren(), BANNER_MS);
  };

  const render = () => {
    const g = G();
    if (!g) return;
    const r = g.lastRound ? g.lastRound.round : 0;
    const fresh = lastResult !== null && r !== lastResult && r > 0;
    lastResult = r;
    renderSeats(seatLayer, g, names);
    renderTrick(); // first: it decides whether a finished trick is on show
    renderStatus(status, statusLine(g, { started: started(), roundOver, held, myTurn: myTurn(), own: mine() }, t, names.nameOf));
    infoEl.textContent = "";
    renderHand();
    renderBoard(board, g, names);
    renderResult(result, g, names, fresh);
    renderRounds(rounds, g, names);
    renderLast();
    if (fresh) showBanner(g.lastRound);
  };

  const ro = new ResizeObserver(() => {
    layoutHand(hand);
    if (st && !held) trick.show(G().trick);
  });
  ro.observe(table);
  ro.observe(hand);
  api.onLangChange(() => {
    for (const node of handEls.values()) node.remove();
    handEls.clear();
    render();
  });

  return {
    // update shows one state and returns how long it needs on show (the
    // room's pacer waits that long before the next): a card flying in, a
    // finished trick held then collected, a round's banner before the next
    // deal. {behind} shortens them; {sync} shows the present at once.
    update(s, o) {
      o = o || {};
      const prev = G();
      st = withTable(s);
      fast = (o.behind || 0) >= FAST;
      const own = mine();
      const g = G();
      if (pendingDone(pending, pendingRound, g, own)) pending = null;
      if (o.sync || !prev || !g) {
        clearTimeout(hold); hold = null; held = null;
        trick.clear();
        clearTimeout(bannerTimer); clearTimeout(roundTimer);
        bannerSlot.replaceChildren();
        roundOver = null;
        lastFinKey = null;
        lastResult = g && g.lastRound ? g.lastRound.round : 0;
        render();
        return 0;
      }
      if (o.redraw) { render(); return 0; }
      const { newRound, trickDone, played } = change(prev, g);
      if (newRound) {
        clearTimeout(roundTimer);
        clearTimeout(bannerTimer);
        roundOver = g.lastRound;
      }
      render();
      if (newRound) {
        const ms = holdMs() + COLLECT_MS + (fast ? 800 : BANNER_MS);
        roundTimer = setTimeout(() => {
          roundOver = null;
          bannerSlot.replaceChildren();
          if (st) render();
        }, ms);
        return ms + 20;
      }
      if (trickDone) return holdMs() + COLLECT_MS;
      return played ? (fast ? 60 : CARD_MS) : 0;
    },
    destroy() {
      ro.disconnect();
      clearTimeout(hold);
      clearTimeout(roundTimer);
      clearTimeout(bannerTimer);
      root.remove();
    },
  };
}

/** @type {import("../js/types.js").Plugin} */
export default { mount, strings };
