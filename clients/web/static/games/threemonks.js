// Three Monks (三个和尚) plugin: a round wooden table with up to 8 monks
// (the viewer at the bottom, seats clockwise), each with name, water (ten
// drops to win), item and its water, the fish token and their card; the
// centre and the supply in the middle; the viewer's five cards (last
// round's locked); buttons for in-phase decisions; a bilingual log; every
// resolved step animated (water drops, items and the token fly between
// places, revealed cards flip). Contract: clients/web/PLUGINS.md; view G and
// events: docs/threemonks.md.

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

function mount(el, api) {
  loadCSS();
  const t = api.t;
  let st = null; // the latest state message
  let seen = null; // {round, count}: events already queued or shown
  let queue = []; // [{e, round}] events waiting for their animation
  let timer = null;
  let flip = null; // cards shown face up while last round's events play
  let flipFresh = false; // play the flip animation once
  let busy = false; // a move is on its way
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
  const root = h("div", { class: "tm" }, status,
    h("div", { class: "tm-main" },
      h("div", { class: "tm-play" }, table, banner, ask, api.you === null ? null : hand),
      h("section", { class: "card tm-side" }, logTitle, logList)));
  el.appendChild(root);

  const G = () => (st && st.G && st.G.monks ? st.G : null);
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
  const mine = () => (G() && G().players && api.you !== null ? G().players[api.you] : null);

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
    const shown = g.revealed || flip;
    if (shown && shown[seat]) slot = cardFace(shown[seat], flipFresh);
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
        class: "tm-item" + (FETCHING.has(it.kind) ? " fetching" : ""), "data-place": "item:" + seat,
        "data-item": it.kind, title: t("tm.itemhelp." + it.kind),
      },
      h("span", { class: "tm-seal" }, ITEM_ZH[it.kind] || "?"),
      h("span", { class: "tm-item-name" }, t("tm.item." + it.kind)),
      h("span", { class: "tm-item-water", "data-item-water": it.water }, drops(Math.min(it.water, 6), "small"), it.water > 0 ? String(it.water) : "")),
      slot),
    last ? h("div", { class: "tm-last muted" }, "⟲ " + t("tm.card." + last)) : null);
  };

  const renderTable = (g) => {
    replace(seatLayer, ...Array.from({ length: g.numPlayers }, (_, i) => renderMonk(g, i)));
    replace(centreEl, h("span", { class: "tm-label" }, t("tm.centre")),
      h("div", { class: "tm-pool" }, drops(Math.min(g.centre, 12)), h("b", { "data-centre": g.centre }, String(g.centre))));
    replace(supplyEl, h("span", { class: "tm-well" }, "井"), h("span", { class: "tm-label" }, t("tm.supply")),
      h("small", { class: "muted" }, t("tm.taken", { n: g.supplyTaken })));
    flipFresh = false;
  };

  // --- status, decisions, hand ------------------------------------------
  const renderStatus = (g) => {
    const ctx = st.ctx || {};
    status.classList.remove("mine", "over");
    let text;
    if (!started()) text = t("tm.waiting");
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
      const own = mine();
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
    api.move(name, args).catch(() => {}).finally(() => { busy = false; render(); });
  };

  const renderAsk = (g) => {
    const p = g.pending;
    if (!started() || !p || p.seat !== me() || (st.ctx && st.ctx.gameover)) { replace(ask); ask.hidden = true; return; }
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
    const own = mine();
    if (!own) { replace(hand); return; }
    const canChoose = started() && g.phase === "choose" && !own.choice && !busy;
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
    if (!o || queue.length) { banner.hidden = true; return; }
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

  const step = () => {
    timer = null;
    const x = queue.shift();
    if (!x) { flip = null; render(); return; }
    const ms = queue.length > BEHIND || document.hidden ? FAST_MS : STEP_MS;
    timer = setTimeout(step, ms + 40);
    try {
      if (x.e.kind === "reveal" && !(G() && G().revealed)) { flip = x.e.cards; flipFresh = true; renderTable(G()); }
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
    const g = G();
    if (!g) { status.textContent = t("tm.waiting"); return; }
    if (g.revealed) flip = null;
    renderTable(g);
    renderStatus(g);
    renderAsk(g);
    renderHand(g);
    renderBanner();
  }

  api.onLangChange(() => { render(); renderLog(); });
  renderLog();

  return {
    update(state) {
      st = state;
      const g = G();
      if (!g) { render(); return; }
      const fresh = newEvents(g);
      queue.push(...fresh); // before render: the banner waits for the queue
      render();
      if (queue.length && !timer) timer = setTimeout(step, 30);
    },
    destroy() {
      if (timer) clearTimeout(timer);
      timer = null;
      queue = [];
    },
  };
}

export default { mount, strings };
