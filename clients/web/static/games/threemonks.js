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

import { h, replace } from "/assets/js/dom.js";
import { strings, ITEM_ZH, FETCHING, CARDS, CARD_ZH, seatOf, narrate } from "/assets/games/threemonks_text.js";

const STEP_MS = 380; // one animated event
const FAST_MS = 90; // when the animation falls behind
const BEHIND = 10; // queued events that count as falling behind
const LOG_MAX = 240;
const WIN = 10;

let cssLoaded = false;
function loadCSS() {
  if (cssLoaded || document.querySelector('link[data-plugin="threemonks"]')) return;
  cssLoaded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/assets/games/threemonks.css", "data-plugin": "threemonks" }));
}

const drops = (n, cls) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("span", { class: "tm-drop" + (cls ? " " + cls : "") }));
  return out;
};

// seatIn is the seat of a place "water:<seat>", "item:<seat>" or "seat:<seat>".
const seatIn = (place) => Number(place.slice(place.indexOf(":") + 1));

/** moveWater adds n water to a place of board b (n < 0 takes it away). */
function moveWater(b, place, n) {
  if (!place) return;
  if (place === "supply") b.supplyTaken -= n; // water leaving the supply is taken
  else if (place === "centre") b.centre += n;
  else if (place.startsWith("water:")) b.monks[seatIn(place)].water += n;
  else if (place.startsWith("item:")) {
    const m = b.monks[seatIn(place)];
    m.item = { ...(m.item || { kind: "", water: 0 }), water: ((m.item && m.item.water) || 0) + n };
  }
}

/**
 * nextRound turns board b to the choosing of round r, as the rules do at a
 * round's end: this round's cards become last round's (locked in the
 * viewer's hand), nobody has chosen.
 */
function nextRound(b, r, you) {
  b.lastCards = b.revealed || b.lastCards;
  b.revealed = null;
  b.chosen = [];
  b.round = r;
  b.phase = "choose";
  const own = b.players && you !== null && b.players[you];
  if (own) {
    const last = b.lastCards && b.lastCards[Number(you)];
    b.players[you] = { ...own, choice: "", hand: own.hand.map((c) => ({ ...c, locked: c.card === last })) };
  }
}

/**
 * applyEvent plays one event x ({e, round}) on board b, a copy of a view G:
 * the same changes the rules made when they emitted it (docs/threemonks.md,
 * "Events"), so that once a state's events are all played b holds its
 * numbers.
 */
function applyEvent(b, x, you) {
  const e = x.e;
  if (x.round > b.round) nextRound(b, x.round, you);
  switch (e.kind) {
    case "reveal":
      b.revealed = e.cards.slice();
      b.chosen = e.cards.map((_, i) => String(i));
      break;
    case "phase": b.phase = e.phase; break;
    case "token": b.holder = seatIn(e.to); break;
    case "win": b.winner = e.seat; break;
    case "pass": b.monks[seatIn(e.to)].item = { kind: e.item, water: e.n }; break;
    default:
      moveWater(b, e.from, -(e.n || 0));
      moveWater(b, e.to, e.n || 0);
  }
}

/**
 * startBoard copies a fully told view G as the board a newer state's
 * events play on: its question has been answered, since they came.
 */
function startBoard(g) {
  const b = structuredClone(g);
  b.pending = null;
  return b;
}

function mount(el, api) {
  loadCSS();
  const t = api.t;
  let st = null; // the latest state message
  let seen = null; // {round, count}: events already queued or shown
  let queue = []; // [{e, round}] events waiting for their animation
  let timer = null;
  // board: the G the table draws while events play: the state shown
  // before them, with the events played so far (applyEvent).
  let board = null;
  let flipFresh = false; // play the flip animation once
  let busy = false; // a move is on its way
  let busyUntil = 0; // the stateID that ends busy: the acked state's (Infinity until acked)
  let fastMode = false; // the room's pacer says the page is behind
  let drained = []; // resolvers of the promises update returned: the queue is played out
  const settle = () => { const d = drained; drained = []; for (const f of d) f(); };
  // animating: the table is still telling what happened; until it is done
  // the status does not ask, and the cards and buttons wait.
  const animating = () => queue.length > 0 || timer !== null;
  const log = []; // [{e, round}]

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
  const n = () => (G() ? G().numPlayers : 0);
  const me = () => (api.you === null ? -1 : Number(api.you));
  const started = () => !!(st && st.ctx && st.ctx.started);
  const nameOf = (seat) => {
    if (seat < 0) return "";
    if (seat === me()) return t("tm.you");
    const p = st && st.players && st.players[seat];
    if (!p || !p.name) return t("tm.seat", { n: seat + 1 });
    const dup = st.players.some((q, i) => i !== seat && q && q.name === p.name);
    return dup ? `${p.name} ${seat + 1}` : p.name;
  };
  // logName names a seat in log sentences: the viewer by name and "(you)",
  // so English verbs stay in the third person.
  const logName = (seat) => {
    if (seat !== me()) return nameOf(seat);
    const p = st && st.players && st.players[seat];
    return (p && p.name ? p.name + " " : "") + "(" + t("tm.you") + ")";
  };
  const mine = (g) => (g && g.players && api.you !== null ? g.players[api.you] : null);

  // --- the table ----------------------------------------------------------
  const spot = (seat) => {
    const rel = (seat - Math.max(me(), 0) + n()) % n();
    const a = Math.PI / 2 + (rel * 2 * Math.PI) / n(); // clockwise on screen
    return [50 + 40 * Math.cos(a), 50 + 37 * Math.sin(a)];
  };

  const cardFace = (card, fresh) => h("div", {
    class: "tm-cardface c-" + card + (fresh ? " flip" : ""), "data-revealed": card, title: t("tm.card." + card),
  }, h("b", null, CARD_ZH[card]), h("small", null, t("tm.card." + card)));

  const renderMonk = (g, seat) => {
    const m = g.monks[seat];
    const pend = g.pending && g.pending.seat === seat;
    const choosing = g.phase === "choose" && !g.chosen.includes(String(seat));
    const won = g.winner === seat;
    const it = m.item || { kind: "", water: 0 };
    let slot;
    if (g.revealed && g.revealed[seat]) slot = cardFace(g.revealed[seat], flipFresh);
    else if (g.chosen.includes(String(seat))) slot = h("div", { class: "tm-cardback", "data-chosen": "" }, "僧");
    else slot = h("div", { class: "tm-cardslot" });
    const last = g.lastCards && g.lastCards[seat];
    const [x, y] = spot(seat);
    const p = st.players && st.players[seat];
    return h("div", {
      class: "tm-monk" + (seat === me() ? " you" : "") + (pend || choosing ? " active" : "") + (won ? " winner" : ""),
      "data-monk": seat, style: `--x:${x.toFixed(1)}%;--y:${y.toFixed(1)}%`,
    },
    h("div", { class: "tm-head", "data-place": "seat:" + seat },
      h("span", { class: "tm-name" }, nameOf(seat)),
      p && p.isBot ? h("span", { class: "pill" }, t("tm.bot")) : null,
      g.holder === seat ? h("span", { class: "tm-token", title: t("tm.token"), "data-token": "" }, "鱼") : null),
    h("div", { class: "tm-water", "data-place": "water:" + seat, "data-water": m.water, title: m.water + "/" + WIN },
      drops(Math.min(m.water, WIN), "full"), drops(Math.max(0, WIN - m.water), "empty"),
      h("span", { class: "tm-count" }, String(m.water))),
    h("div", { class: "tm-row" },
      h("div", {
        class: "tm-item" + (FETCHING.has(it.kind) ? " fetching" : "") + (infoSeat === seat ? " open" : ""), "data-place": "item:" + seat,
        "data-item": it.kind, title: t("tm.itemhelp." + it.kind), role: "button", tabindex: "0",
        "aria-label": t("tm.item." + it.kind) + ": " + t("tm.itemhelp." + it.kind),
        onclick: (e) => { e.stopPropagation(); toggleInfo(seat); },
        onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggleInfo(seat); } },
      },
      h("span", { class: "tm-seal" }, ITEM_ZH[it.kind] || "?"),
      h("span", { class: "tm-item-name" }, t("tm.item." + it.kind)),
      h("span", { class: "tm-item-water", "data-item-water": it.water }, drops(Math.min(it.water, 6), "small"), it.water > 0 ? String(it.water) : "")),
      slot),
    last ? h("div", { class: "tm-last muted" }, "⟲ " + t("tm.card." + last)) : null);
  };

  const renderTable = (g) => {
    table.dataset.round = g.round;
    replace(seatLayer, ...Array.from({ length: g.numPlayers }, (_, i) => renderMonk(g, i)));
    replace(centreEl, h("span", { class: "tm-label" }, t("tm.centre")),
      h("div", { class: "tm-pool" }, drops(Math.min(g.centre, 12)), h("b", { "data-centre": g.centre }, String(g.centre))));
    replace(supplyEl, h("span", { class: "tm-well" }, "井"), h("span", { class: "tm-label" }, t("tm.supply")),
      h("small", { class: "muted", "data-taken": g.supplyTaken }, t("tm.taken", { n: g.supplyTaken })));
    flipFresh = false;
  };

  // --- the item card -------------------------------------------------------
  const renderInfo = () => {
    const g = shownG();
    const m = g && infoSeat >= 0 && g.monks[infoSeat];
    if (!m || !m.item || !m.item.kind) { info.hidden = true; infoSeat = -1; replace(info); return; }
    const it = m.item;
    const other = api.lang() === "zh" ? strings.en["tm.item." + it.kind] : ITEM_ZH[it.kind];
    info.hidden = false;
    replace(info,
      h("div", { class: "tm-info-head" },
        h("span", { class: "tm-seal" + (FETCHING.has(it.kind) ? " fetching" : "") }, ITEM_ZH[it.kind] || "?"),
        h("div", null, h("b", null, t("tm.item." + it.kind)), other ? h("span", { class: "muted small" }, " · " + other) : null,
          h("div", { class: "muted small" }, (infoSeat === me() ? t("tm.yourItem") : t("tm.itemOf", { name: nameOf(infoSeat) })) + " · " + t("tm.itemWater", { n: it.water }))),
        h("button", { class: "btn small", type: "button", "data-action": "close-info", "aria-label": t("common.close"), onclick: () => toggleInfo(-1) }, "✕")),
      h("p", { class: "tm-info-rule", "data-item-rule": it.kind }, t("tm.rule." + it.kind)),
      FETCHING.has(it.kind) ? h("p", { class: "muted small" }, t("tm.itemFetching")) : null);
  };
  const toggleInfo = (seat) => {
    infoSeat = seat === infoSeat ? -1 : seat;
    if (shownG()) renderTable(shownG());
    renderInfo();
    if (infoSeat < 0) return;
    // Open the card just under the tapped item (above it near the bottom),
    // and bring it into view: on a phone the item may be far down the page.
    const item = table.querySelector(`[data-place="item:${infoSeat}"]`);
    const play = info.parentElement;
    if (item && play) {
      const ir = item.getBoundingClientRect(), pr = play.getBoundingClientRect();
      let top = ir.bottom - pr.top + 6;
      if (top + info.offsetHeight > pr.height) top = Math.max(0, ir.top - pr.top - info.offsetHeight - 6);
      info.style.top = top + "px";
    }
    if (info.scrollIntoView) info.scrollIntoView({ block: "nearest" });
  };
  const closeInfo = (e) => {
    if (infoSeat >= 0 && !info.contains(e.target)) toggleInfo(-1);
  };
  document.addEventListener("click", closeInfo);

  // --- status, decisions, hand ------------------------------------------
  const renderStatus = (g) => {
    const ctx = st.ctx || {};
    status.classList.remove("mine", "over");
    let text;
    if (!started()) text = t("tm.waiting");
    else if (animating()) text = t("tm.resolving", { n: g.round });
    else if (ctx.gameover) {
      status.classList.add("over");
      const o = ctx.gameover;
      text = o.draw ? t("tm.draw") : o.winner === api.you ? t("tm.youWin", { n: g.monks[g.winner].water })
        : t("tm.wins", { name: nameOf(Number(o.winner)), n: g.monks[Number(o.winner)].water });
    } else if (g.pending) {
      const mineNow = g.pending.seat === me();
      if (mineNow) status.classList.add("mine");
      text = t("tm.round", { n: g.round }) + " · " + t("tm.phase." + g.phase) + " · " +
        (mineNow ? t("tm.ask" + g.pending.kind[0].toUpperCase() + g.pending.kind.slice(1), { item: t("tm.item." + g.monks[me()].item.kind) })
          : t("tm.waitDecide", { name: nameOf(g.pending.seat), what: t("tm.what." + g.pending.kind) }));
    } else {
      const left = g.numPlayers - g.chosen.length;
      const own = mine(g);
      if (own && !own.choice) { status.classList.add("mine"); text = t("tm.chooseNow", { n: g.round }); }
      else if (own) text = t("tm.waitChoose", { card: t("tm.card." + own.choice), k: left });
      else text = t("tm.othersChoose", { n: g.round, k: left });
    }
    status.textContent = text;
  };

  const send = (name, args) => {
    if (busy) return;
    busy = true;
    render();
    // Accepted: the controls stay busy until a newer state is on show (the
    // room may still be showing earlier ones); refused: at once.
    busyUntil = Infinity;
    api.move(name, args).then((acked) => {
      busyUntil = acked && acked.stateID !== undefined ? acked.stateID : 0;
      if (st && st.stateID >= busyUntil) { busy = false; render(); }
    }, () => { busy = false; busyUntil = 0; render(); });
  };

  const renderAsk = (g) => {
    const p = g.pending;
    if (!started() || !p || p.seat !== me() || (st.ctx && st.ctx.gameover) || animating()) { replace(ask); ask.hidden = true; delete ask.dataset.key; return; }
    const key = JSON.stringify([p, busy, api.lang(), g.monks.map((m) => m.item && m.item.water)]);
    if (ask.dataset.key === key && !ask.hidden) return;
    ask.dataset.key = key;
    ask.hidden = false;
    let q, buttons = [];
    if (p.kind === "drink") {
      q = t("tm.askDrink", { item: t("tm.item." + g.monks[me()].item.kind) });
      for (let k = p.max; k >= 0; k--) {
        buttons.push(h("button", { class: "btn" + (k === p.max ? " primary" : ""), "data-ask": "drink", "data-value": k, disabled: busy, onclick: () => send("drink", [k]) }, t("tm.drinkN", { n: k })));
      }
    } else if (p.kind === "mouse") {
      q = t("tm.askMouse");
      for (const dir of ["left", "right"]) {
        const s = p[dir];
        buttons.push(h("button", { class: "btn primary", "data-ask": "mouse", "data-value": dir, disabled: busy, onclick: () => send("mouse", [dir]) },
          t("tm.robFrom", { name: nameOf(s), n: g.monks[s].item.water })));
      }
    } else {
      q = t("tm.askBowl");
      buttons.push(h("button", { class: "btn primary", "data-ask": "bowl", "data-value": "true", disabled: busy, onclick: () => send("bowl", [true]) }, t("tm.bowlYes")));
      buttons.push(h("button", { class: "btn", "data-ask": "bowl", "data-value": "false", disabled: busy, onclick: () => send("bowl", [false]) }, t("tm.bowlNo")));
    }
    replace(ask, h("p", null, q), h("div", { class: "row" }, buttons));
  };

  const renderHand = (g) => {
    const own = mine(g);
    if (!own) { replace(hand); delete hand.dataset.key; return; }
    const canChoose = started() && g.phase === "choose" && !own.choice && !busy && !animating();
    // Redraw only on a change, so a button stays the same node while it is
    // being clicked.
    const key = JSON.stringify([own.hand, own.choice, canChoose, api.lang()]);
    if (hand.dataset.key === key) return;
    hand.dataset.key = key;
    replace(hand, h("div", { class: "tm-hand-label muted" }, t("tm.hand")),
      h("div", { class: "tm-cards" }, own.hand.map((c) => {
        const chosen = own.choice === c.card;
        return h("button", {
          class: "tm-card c-" + c.card + (c.locked ? " locked" : "") + (chosen ? " chosen" : ""),
          "data-card": c.card, disabled: !canChoose || c.locked,
          title: t("tm.cardhelp." + c.card), onclick: () => send("choose", [c.card]),
        }, h("b", null, CARD_ZH[c.card]), h("span", null, t("tm.card." + c.card)),
        h("small", null, c.locked ? t("tm.locked") : chosen ? t("tm.chosen") : t("tm.cardhelp." + c.card)));
      })));
  };

  const renderBanner = () => {
    const o = st.ctx && st.ctx.gameover;
    if (!o || animating()) { banner.hidden = true; return; }
    banner.hidden = false;
    const g = G();
    replace(banner, h("div", { class: "tm-banner-seal" }, o.draw ? "和" : "胜"),
      h("p", null, o.draw ? t("tm.draw") : o.winner === api.you ? t("tm.youWin", { n: g.monks[g.winner].water })
        : t("tm.wins", { name: nameOf(Number(o.winner)), n: g.monks[Number(o.winner)].water })));
  };

  // --- log -----------------------------------------------------------------
  const logLine = (x) => h("li", { class: "ev-" + x.e.kind, "data-ev": x.e.kind },
    x.e.kind === "reveal" ? h("b", null, t("tm.round", { n: x.round }) + " ") : null, narrate(x.e, t, logName));
  const renderLog = () => {
    logTitle.textContent = t("tm.log");
    replace(logList, ...log.map(logLine));
    logList.scrollTop = logList.scrollHeight;
    // The first render may come before layout: scroll again once laid out.
    requestAnimationFrame(() => { logList.scrollTop = logList.scrollHeight; });
  };
  const pushLog = (x) => {
    log.push(x);
    if (log.length > LOG_MAX) log.splice(0, log.length - LOG_MAX);
    logList.appendChild(logLine(x));
    while (logList.childNodes.length > LOG_MAX) logList.removeChild(logList.firstChild);
    logList.scrollTop = logList.scrollHeight;
  };

  // --- animation -------------------------------------------------------------
  const placeEl = (place) => table.querySelector(`[data-place="${place}"]`);
  const fly = (from, to, node, ms) => {
    const a = placeEl(from), b = placeEl(to);
    if (!a || !b || !node.animate) return;
    const box = table.getBoundingClientRect(), ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    const ax = ra.left + ra.width / 2 - box.left, ay = ra.top + ra.height / 2 - box.top;
    const bx = rb.left + rb.width / 2 - box.left, by = rb.top + rb.height / 2 - box.top;
    node.style.left = "0px"; node.style.top = "0px";
    fx.appendChild(node);
    const anim = node.animate([
      { transform: `translate(${ax}px, ${ay}px) scale(.8)`, opacity: 0.2 },
      { transform: `translate(${(ax + bx) / 2}px, ${Math.min(ay, by) - 30}px) scale(1.2)`, opacity: 1, offset: 0.5 },
      { transform: `translate(${bx}px, ${by}px) scale(1)`, opacity: 0.9 },
    ], { duration: ms, easing: "ease-in-out" });
    anim.onfinish = () => node.remove();
  };
  const pulse = (place) => {
    const e = placeEl(place);
    if (e && e.animate) e.animate([{ boxShadow: "0 0 0 0 rgba(184,50,42,.7)" }, { boxShadow: "0 0 0 10px rgba(184,50,42,0)" }], { duration: 600 });
  };
  const animate = (x, ms) => {
    const e = x.e;
    if (e.kind === "pass") fly(e.from, e.to, h("span", { class: "tm-fly-item" }, ITEM_ZH[e.item] || ""), ms);
    else if (e.kind === "token") fly(e.from, e.to, h("span", { class: "tm-token tm-fly" }, "鱼"), ms);
    else if (e.from && e.to) {
      for (let i = 0; i < Math.min(e.n || 1, 4); i++) setTimeout(() => fly(e.from, e.to, h("span", { class: "tm-drop tm-fly" }), ms), i * 60);
    } else if (e.seat >= 0) pulse("seat:" + e.seat);
  };

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
      animate(x, ms);
    } catch (err) {
      console.error("threemonks: event", x.e, err);
    }
  };

  // newEvents returns the events of g not yet seen, with their rounds.
  const newEvents = (g) => {
    const cur = g.events.map((e) => ({ e, round: g.round }));
    const last = g.lastEvents.map((e) => ({ e, round: g.round - 1 }));
    let out = null;
    if (!seen) { log.push(...last, ...cur); renderLog(); }
    else if (seen.round === g.round) out = cur.slice(seen.count);
    else if (seen.round === g.round - 1) out = last.slice(seen.count).concat(cur);
    else { log.push(...last, ...cur); renderLog(); }
    seen = { round: g.round, count: g.events.length };
    return out || [];
  };

  function render() {
    const g = shownG();
    if (!g) { status.textContent = t("tm.waiting"); return; }
    renderTable(g);
    renderStatus(g);
    renderAsk(g);
    renderHand(g);
    renderBanner();
    renderInfo();
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
      if (busy && state.stateID >= busyUntil) busy = false;
      const fresh = newEvents(g);
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
      return queue.length ? new Promise((res) => drained.push(res)) : 0;
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

export default { mount, strings };
