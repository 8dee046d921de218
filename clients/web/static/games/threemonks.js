// @ts-check
// Three Monks (三个和尚) plugin: a round wooden table with up to 8 monks (the
// viewer at the bottom, seats clockwise), each with name, water (ten drops
// to win), item and its water, the fish token and their card; the centre
// and the supply in the middle; the viewer's five cards (last round's
// locked); buttons for in-phase decisions; a bilingual log; every resolved
// step animated (water drops, items and the token fly between places,
// revealed cards flip). The table draws the board as the log has told it:
// while a state's events play, it starts from the state before and takes in
// each event with its log line. Contract: clients/web/PLUGINS.md; view G
// and events: docs/threemonks.md.
// This file is the glue (mount, update, the queue of events); the board
// and what to show: threemonks_state.js; drawing: threemonks_draw.js;
// cards, buttons and the item card: threemonks_input.js; strings:
// threemonks_text.js; look: threemonks.css.

import { h, replace } from "/assets/js/dom.js";
import { strings } from "./threemonks_text.js";
import {
  STEP_MS, FAST_MS, BEHIND, LOG_MAX, applyEvent, startBoard, newEvents, seatName, logSeatName, ownSeat,
} from "./threemonks_state.js";
import { renderTable, renderInfo, renderStatus, renderBanner, logLine, animateEvent } from "./threemonks_draw.js";
import { createSender, renderAsk, renderHand, placeInfo } from "./threemonks_input.js";

/** @typedef {import("../js/types.js").PluginApi} PluginApi */
/** @typedef {import("../js/types.js").State} State */
/** @typedef {import("../js/types.js").Controller} Controller */
/** @typedef {import("./threemonks_state.js").Ev} Ev */

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
  /** @type {{round: number, count: number} | null} */
  let seen = null; // events already queued or shown
  /** @type {Ev[]} */
  let queue = []; // events waiting for their animation
  /** @type {any} */
  let timer = null;
  // board: the G the table draws while events play: the state shown
  // before them, with the events played so far (applyEvent).
  /** @type {any} */
  let board = null;
  let flipFresh = false; // play the flip animation once
  let fastMode = false; // the room's pacer says the page is behind
  /** @type {(() => void)[]} */
  let drained = []; // resolvers of the promises update returned: the queue is played out
  const settle = () => { const d = drained; drained = []; for (const f of d) f(); };
  // animating: the table is still telling what happened; until it is done
  // the status does not ask, and the cards and buttons wait.
  const animating = () => queue.length > 0 || timer !== null;
  /** @type {Ev[]} */
  const log = [];

  const status = h("div", { class: "status-bar tm-status", "data-status": "threemonks" });
  const seatLayer = h("div", { class: "tm-seats" });
  const centreEl = h("div", { class: "tm-centre", "data-place": "centre" });
  const supplyEl = h("div", { class: "tm-supply", "data-place": "supply" });
  const fx = h("div", { class: "tm-fx" });
  const table = h("div", { class: "tm-table", "data-table": "threemonks" },
    h("div", { class: "tm-mid" }, supplyEl, centreEl), seatLayer, fx);
  const ask = h("div", { class: "tm-ask", "data-ask-panel": "" });
  const hand = h("div", { class: "tm-hand", "data-hand": "threemonks" });
  const logList = h("ol", { class: "tm-log", "data-log": "threemonks" });
  const logTitle = h("h3");
  const banner = h("div", { class: "tm-banner", "data-banner": "threemonks", hidden: true });
  // A tap (or click, or Enter) on an item opens a card with its rule: the
  // hover tooltip alone does nothing on a phone.
  const info = h("div", { class: "tm-info card", role: "dialog", "data-item-info": "", hidden: true });
  let infoSeat = -1; // whose item the card shows, -1 when closed
  const root = h("div", { class: "tm" }, status,
    h("div", { class: "tm-main" },
      h("div", { class: "tm-play" }, table, banner, info, ask, api.you === null ? null : hand),
      h("section", { class: "card tm-side" }, logTitle, logList)));
  el.appendChild(root);

  const G = () => (st && st.G && st.G.monks ? st.G : null);
  // shownG is the G the page draws: the board while events play, else the
  // state on show.
  const shownG = () => (animating() && board ? board : G());
  const me = () => (api.you === null ? -1 : Number(api.you));
  const started = () => !!(st && st.ctx && st.ctx.started);
  const gameover = () => (st && st.ctx ? st.ctx.gameover : null);
  /** @returns {import("./threemonks_draw.js").View} */
  const view = () => ({
    t, lang: api.lang, you: api.you, me: me(), players: st ? st.players : undefined,
    nameOf: (seat) => seatName(st ? st.players : undefined, seat, me(), t),
    logName: (seat) => logSeatName(st ? st.players : undefined, seat, me(), t),
    infoSeat, flipFresh, onItem: (seat) => toggleInfo(seat),
  });
  const sender = createSender(api, () => (st ? st.stateID : null), () => render());

  // --- the table and the item card -----------------------------------------
  const drawTable = (/** @type {any} */ g) => {
    renderTable({ table, seats: seatLayer, centre: centreEl, supply: supplyEl }, g, view());
    flipFresh = false;
  };
  const drawInfo = () => { if (!renderInfo(info, shownG(), view())) infoSeat = -1; };
  const toggleInfo = (/** @type {number} */ seat) => {
    infoSeat = seat === infoSeat ? -1 : seat;
    const g = shownG();
    if (g) drawTable(g);
    drawInfo();
    if (infoSeat >= 0) placeInfo(info, table, infoSeat);
  };
  const closeInfo = (/** @type {Event} */ e) => {
    if (infoSeat >= 0 && !info.contains(/** @type {Node} */ (e.target))) toggleInfo(-1);
  };
  document.addEventListener("click", closeInfo);

  // --- log -----------------------------------------------------------------
  const renderLog = () => {
    logTitle.textContent = t("tm.log");
    const v = view();
    replace(logList, ...log.map((x) => logLine(x, v)));
    logList.scrollTop = logList.scrollHeight;
    // The first render may come before layout: scroll again once laid out.
    requestAnimationFrame(() => { logList.scrollTop = logList.scrollHeight; });
  };
  const pushLog = (/** @type {Ev} */ x) => {
    log.push(x);
    if (log.length > LOG_MAX) log.splice(0, log.length - LOG_MAX);
    logList.appendChild(logLine(x, view()));
    while (logList.childNodes.length > LOG_MAX) logList.removeChild(/** @type {ChildNode} */ (logList.firstChild));
    logList.scrollTop = logList.scrollHeight;
  };

  // --- animation -------------------------------------------------------------
  // step plays the next event: the board takes it in, the table and the
  // log line show it together, then its animation runs. With none left,
  // the table shows the state on show itself.
  const step = () => {
    timer = null;
    const x = queue.shift();
    if (!x) { board = null; render(); settle(); return; }
    const ms = queue.length > BEHIND || document.hidden || fastMode ? FAST_MS : STEP_MS;
    timer = setTimeout(step, ms + 40);
    try {
      if (board) applyEvent(board, x, api.you);
      flipFresh = x.e.kind === "reveal";
      render();
      pushLog(x);
      animateEvent(table, fx, x, ms);
    } catch (err) {
      console.error("threemonks: event", x.e, err);
    }
  };

  function render() {
    const g = shownG();
    if (!g) { status.textContent = t("tm.waiting"); return; }
    const v = view();
    drawTable(g);
    renderStatus(status, g, { started: started(), animating: animating(), gameover: gameover() }, v);
    const p = g.pending;
    renderAsk(ask, g, { asked: started() && !!p && p.seat === me() && !gameover() && !animating(), busy: sender.busy() }, v, sender.send);
    const own = ownSeat(g, api.you);
    renderHand(hand, own, !!own && started() && g.phase === "choose" && !own.choice && !sender.busy() && !animating(), v, sender.send);
    renderBanner(banner, G(), gameover(), animating(), v);
    drawInfo();
  }

  api.onLangChange(() => { render(); renderLog(); });
  renderLog();

  return {
    // update queues the state's new events and returns how long they take
    // to play (the room's pacer holds the next state until then); {behind}
    // plays them fast, {sync} logs them at once and shows the present.
    update(state, o) {
      o = o || {};
      const before = G(); // the state on show until now, fully told
      st = state;
      const g = G();
      if (!g) { render(); return 0; }
      if (o.redraw) { render(); return 0; }
      sender.onState(state.stateID);
      const ev = newEvents(seen, g);
      seen = ev.seen;
      if (ev.all) { log.push(...ev.all); renderLog(); }
      const fresh = ev.fresh;
      fastMode = (o.behind || 0) > 0;
      if (o.sync) {
        if (timer) clearTimeout(timer);
        timer = null;
        for (const x of queue.concat(fresh)) pushLog(x);
        queue = [];
        board = null;
        render();
        settle();
        return 0;
      }
      // The board starts from the state before, unless events still play
      // (the pacer gave up waiting): then it goes on from where it is.
      if (fresh.length && !animating()) board = before ? startBoard(before) : null;
      queue.push(...fresh); // before render: the banner waits for the queue
      render();
      if (queue.length && !timer) timer = setTimeout(step, 30);
      // The pacer (and the end card) wait until the table has told it all.
      return queue.length ? new Promise((res) => drained.push(() => res(undefined))) : 0;
    },
    destroy() {
      document.removeEventListener("click", closeInfo);
      settle();
      if (timer) clearTimeout(timer);
      timer = null;
      queue = [];
      board = null;
    },
  };
}

/** @type {import("../js/types.js").Plugin} */
export default { mount, strings };
