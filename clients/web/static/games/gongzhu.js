// Gong Zhu (拱猪) plugin: an oval felt table with 3 or 4 seats (the viewer at
// the bottom, play going counterclockwise), the viewer's hand fanned along
// the bottom with the playable cards raised, the others' card backs and the
// point cards each took, the trick in the middle (cards fly in from their
// seat and are collected by the taker), the round result and the 榜.
// Contract: clients/web/PLUGINS.md. View G: docs/gongzhu.md.

import { h } from "/assets/js/dom.js";
import { toast } from "/assets/js/toast.js";

const strings = {
  en: {
    "gongzhu.waiting": "Waiting for players…",
    "gongzhu.notYourTurn": "Not your turn yet: wait for {name}.",
    "gongzhu.roundTrick": "Round {round} · trick {trick}/{total}",
    "gongzhu.yourLeadOpening": "Your turn: lead {card}",
    "gongzhu.yourLead": "Your turn: lead any card",
    "gongzhu.yourFollow": "Your turn: follow {suit}",
    "gongzhu.yourVoid": "Your turn: no {suit} left, play any card",
    "gongzhu.othersLeadOpening": "{name} leads {card}",
    "gongzhu.othersTurn": "{name} to play",
    "gongzhu.led": "Led {suit}",
    "gongzhu.seat": "Seat {n}",
    "gongzhu.you": "You",
    "gongzhu.yourHand": "Your hand · tap a raised card to play it",
    "gongzhu.watching": "Watching: hands stay hidden",
    "gongzhu.roundOver": "Round {n} over",
    "gongzhu.youScored": "You scored {score}",
    "gongzhu.result": "Round {n} result",
    "gongzhu.noResult": "No round finished yet.",
    "gongzhu.board": "Scoreboard",
    "gongzhu.player": "Player",
    "gongzhu.team": "Team",
    "gongzhu.teamName": "Team {t}",
    "gongzhu.last": "Last",
    "gongzhu.total": "Total",
    "gongzhu.cards": "Cards taken",
    "gongzhu.score": "Score",
    "gongzhu.teamA": "A",
    "gongzhu.teamB": "B",
    "gongzhu.allHearts": "all hearts",
    "gongzhu.slam": "grand slam",
    "gongzhu.doubled": "×2",
    "gongzhu.pig": "pig",
    "gongzhu.sheep": "sheep",
    "gongzhu.transformer": "×2",
    "gongzhu.bot": "bot",
    "gongzhu.took": "{name} takes the trick",
    "gongzhu.lastTrick": "Last trick",
    "gongzhu.lastTrickTitle": "Trick {n} · {name} took it",
    "gongzhu.rounds": "Round by round",
    "gongzhu.roundCol": "Round",
    "gongzhu.roundsCapped": "Only the latest {n} rounds are kept (from round {first}); the totals count every round.",
    "gongzhu.totalsAfter": "Totals after this round: {totals}",
    "gongzhu.pigName": "Took the pig (♠Q)",
    "gongzhu.sheepName": "Took the sheep (♦J)",
    "gongzhu.transformerName": "Took the transformer (♣10)",
    "gongzhu.allHeartsName": "Took all 13 hearts",
    "gongzhu.allHeartsMark": "all♥",
    "gongzhu.marksLegend": "♠Q pig · ♦J sheep · ♣10 transformer · all♥ all hearts: who took them",
  },
  zh: {
    "gongzhu.notYourTurn": "还没轮到你：等待 {name} 出牌。",
    "gongzhu.waiting": "等待玩家入座…",
    "gongzhu.roundTrick": "第 {round} 局 · 第 {trick}/{total} 墩",
    "gongzhu.yourLeadOpening": "轮到你：请首出{card}",
    "gongzhu.yourLead": "轮到你：出任意一张牌",
    "gongzhu.yourFollow": "轮到你：请跟{suit}",
    "gongzhu.yourVoid": "轮到你：{suit}已无，可垫任意牌",
    "gongzhu.othersLeadOpening": "{name} 首出{card}",
    "gongzhu.othersTurn": "等待 {name} 出牌",
    "gongzhu.led": "领出 {suit}",
    "gongzhu.seat": "{n} 号座",
    "gongzhu.you": "你",
    "gongzhu.yourHand": "你的手牌 · 点击抬起的牌出牌",
    "gongzhu.watching": "观战中：看不到手牌",
    "gongzhu.roundOver": "第 {n} 局结束",
    "gongzhu.youScored": "你本局得分 {score}",
    "gongzhu.result": "第 {n} 局结算",
    "gongzhu.noResult": "还没有结束的牌局。",
    "gongzhu.board": "榜",
    "gongzhu.player": "玩家",
    "gongzhu.team": "队",
    "gongzhu.teamName": "{t} 队",
    "gongzhu.last": "上局",
    "gongzhu.total": "总分",
    "gongzhu.cards": "吃到的分牌",
    "gongzhu.score": "得分",
    "gongzhu.teamA": "甲",
    "gongzhu.teamB": "乙",
    "gongzhu.allHearts": "全红",
    "gongzhu.slam": "满贯",
    "gongzhu.doubled": "×2",
    "gongzhu.pig": "猪",
    "gongzhu.sheep": "羊",
    "gongzhu.transformer": "变",
    "gongzhu.bot": "机器人",
    "gongzhu.took": "{name} 收下这一墩",
    "gongzhu.lastTrick": "上一墩",
    "gongzhu.lastTrickTitle": "第 {n} 墩 · {name} 收下",
    "gongzhu.rounds": "每局得分",
    "gongzhu.roundCol": "局",
    "gongzhu.roundsCapped": "只保留最近 {n} 局（从第 {first} 局起）；总分计入每一局。",
    "gongzhu.totalsAfter": "本局后总分：{totals}",
    "gongzhu.pigName": "吃到猪（♠Q）",
    "gongzhu.sheepName": "吃到羊（♦J）",
    "gongzhu.transformerName": "吃到变压器（♣10）",
    "gongzhu.allHeartsName": "全红：吃齐 13 张红心",
    "gongzhu.allHeartsMark": "全红",
    "gongzhu.marksLegend": "♠Q 猪 · ♦J 羊 · ♣10 变压器 · 全红：标在吃到的人那一格",
  },
};

const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };
const rankLabel = (r) => (r === "T" ? "10" : r);
const isRed = (code) => code[1] === "H" || code[1] === "D";
const label = (code) => SUIT[code[1]] + rankLabel(code[0]);
const SPECIAL = { QS: "gongzhu.pig", JD: "gongzhu.sheep", TC: "gongzhu.transformer" };

// Seat spots on the table, in % of its box, by position relative to the
// viewer (0 = bottom, then counterclockwise: right, top, left).
const SPOTS = {
  3: [[50, 87], [85, 24], [15, 24]],
  4: [[50, 87], [88, 50], [50, 12], [12, 50]],
};

const HOLD_MS = 1400; // a finished trick stays on the felt at most this long
const MIN_HOLD_MS = 600; // and at least this long
const COLLECT_MS = 400; // then flies to its taker
const BANNER_MS = 2500; // the "round over" banner, before the next deal shows
const CARD_MS = 250; // a played card flies in before the next state shows
const FAST = 3; // states waiting that count as far behind: shortest pace

/** cardEl draws one face-up card with CSS: corner indices and a centre pip. */
function cardEl(code, t, extra) {
  const r = code[0], s = code[1];
  const face = "JQK".includes(r);
  const tag = SPECIAL[code] ? t(SPECIAL[code]) : null;
  const el = h("div", {
    class: "gz-card" + (isRed(code) ? " red" : "") + (face ? " gz-face" : "") + (tag ? " special" : "") + (extra ? " " + extra : ""),
    "data-card": code, "data-tag": tag, role: "img", "aria-label": label(code),
  },
  h("span", { class: "gz-idx" }, h("span", { class: "r" }, rankLabel(r)), h("span", { class: "s" }, SUIT[s])),
  h("span", { class: "gz-pip" }, face ? [r, h("small", null, SUIT[s])] : SUIT[s]),
  h("span", { class: "gz-idx bottom" }, h("span", { class: "r" }, rankLabel(r)), h("span", { class: "s" }, SUIT[s])));
  return el;
}

/** chips draws the small point-card chips of a seat. */
function chips(codes) {
  return (codes || []).map((c) => h("span", {
    class: "gz-chip" + (isRed(c) ? " red" : "") + (SPECIAL[c] ? " special" : ""), "data-chip": c,
  }, label(c)));
}

const signed = (n) => (n > 0 ? "+" + n : String(n));
const signClass = (n) => (n > 0 ? "num pos" : n < 0 ? "num neg" : "num");

let cssLoaded = false;
function loadCSS() {
  if (cssLoaded || document.querySelector('link[data-plugin="gongzhu"]')) return;
  cssLoaded = true;
  document.head.appendChild(h("link", { rel: "stylesheet", href: "/assets/games/gongzhu.css", "data-plugin": "gongzhu" }));
}

function mount(el, api) {
  loadCSS();
  const t = api.t;
  let st = null; // the latest state message
  let pending = null; // the card code sent, not yet acked
  let hold = null; // timer while a finished trick is on show
  let held = null; // {taker, since} of the finished trick on show
  let lastFinKey = null; // round:tricks of the last trick layer render
  let lastResult = null; // lastRound.round seen so far
  let bannerTimer = null;
  let roundOver = null; // the finished round while its banner shows, before the next deal
  let roundTimer = null;
  let fast = false; // the page is behind: shorter holds
  const handEls = new Map(); // card code -> element
  const trickEls = new Map(); // card code -> element

  const status = h("div", { class: "status-bar gz-status", "data-status": "gongzhu" });
  const table = h("div", { class: "gz-table", "data-table": "gongzhu" });
  const centre = h("div", { class: "gz-centre" }, h("div", { class: "gz-watermark" }, "拱猪"));
  const ledEl = h("div", { class: "gz-led", "data-led": "" });
  const infoEl = h("div", { class: "gz-led" });
  ledEl.style.cssText = "position:absolute;left:22%;top:72%;transform:translate(-50%,-50%);color:rgba(246,239,224,.9);font-size:.85rem;z-index:1";
  infoEl.style.cssText = "position:absolute;left:78%;top:72%;transform:translate(-50%,-50%);color:rgba(246,239,224,.75);font-size:.75rem;z-index:1;text-align:center";
  const seatLayer = h("div");
  const trickLayer = h("div");
  const bannerSlot = h("div");
  table.append(centre, ledEl, infoEl, seatLayer, trickLayer, bannerSlot);
  const handLabel = h("div", { class: "gz-hand-label muted" });
  // The last finished trick, on demand: a button (or Enter) opens it over
  // the felt; a click anywhere on it, or the button again, closes it.
  let showLast = false;
  const lastBtn = h("button", { class: "btn small gz-lastbtn", type: "button", "data-action": "last-trick", "aria-pressed": "false" });
  const lastPanel = h("div", { class: "gz-lastpanel", "data-last-trick": "", hidden: true });
  lastBtn.addEventListener("click", () => { showLast = !showLast; renderLast(); });
  lastPanel.addEventListener("click", () => { showLast = false; renderLast(); });
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
  const bottom = () => (api.you !== null ? Number(api.you) : 0);
  const rel = (seat) => (seat - bottom() + n()) % n();
  // plainName is a seat's name ("You" for the viewer); nameOf adds the seat
  // number when several seats share the name (bots are all called alike),
  // for sentences. Tables and the felt show the number in a badge instead.
  const plainName = (seat) => {
    const p = st && st.players && st.players[seat];
    if (api.you !== null && String(seat) === api.you) return t("gongzhu.you");
    return (p && p.name) || t("gongzhu.seat", { n: seat + 1 });
  };
  const nameOf = (seat) => {
    const ps = (st && st.players) || [];
    const p = ps[seat];
    const dup = p && p.name && ps.some((q, i) => i !== seat && q && q.name === p.name);
    return dup && String(seat) !== api.you ? `${p.name} ${seat + 1}` : plainName(seat);
  };
  const seatName = (seat) => [h("span", { class: "gz-seatno" }, String(seat + 1)), plainName(seat)];
  const mine = () => (G() && api.you !== null && G().players ? G().players[api.you] : null);
  // Your cards are playable only when the felt shows the state that asks
  // for them: not while a finished trick or the round's banner is on show.
  const myTurn = () => started() && api.you !== null && G() && String(G().current) === api.you && !held && !roundOver;
  const holdMs = () => (fast ? MIN_HOLD_MS : HOLD_MS);

  // Pixel offset from the table's centre of a seat's spot, scaled by k.
  const offset = (seat, k) => {
    const spot = SPOTS[n()][rel(seat)] || [50, 50];
    return [(spot[0] - 50) / 100 * table.clientWidth * k, (spot[1] - 50) / 100 * table.clientHeight * k];
  };
  const place = (node, dx, dy, scale) => {
    node.style.transform = `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))` + (scale ? ` scale(${scale})` : "");
  };

  // --- seats ---------------------------------------------------------------
  const renderSeats = () => {
    const g = G();
    seatLayer.replaceChildren();
    for (let seat = 0; seat < g.seats; seat++) {
      const spot = SPOTS[g.seats][rel(seat)];
      const count = g.handCounts[seat];
      const backs = [];
      if (rel(seat) !== 0 || api.you === null) {
        for (let i = 0; i < Math.min(count, 13); i++) backs.push(h("span", { class: "gz-back-mini" }));
        backs.push(h("span", { class: "gz-count" }, String(count)));
      }
      const node = h("div", {
        class: "gz-seat" + (started() && g.current === seat ? " current" : "") + (String(seat) === api.you ? " me" : "") +
          (spot[1] < 30 ? " top" : ""),
        "data-seat": String(seat),
      },
      h("div", { class: "gz-seat-head" },
        h("span", { class: "gz-name", title: nameOf(seat) }, seatName(seat)),
        h("span", { class: "gz-score", title: t("gongzhu.total") }, signed(g.totals[seat]))),
      backs.length ? h("div", { class: "gz-backs" }, backs) : null,
      h("div", { class: "gz-taken", "data-taken": String(seat) }, chips(g.pointCards[seat])));
      node.style.left = spot[0] + "%";
      node.style.top = spot[1] + "%";
      seatLayer.appendChild(node);
    }
  };

  // --- the trick -------------------------------------------------------------
  const showTrick = (trick) => {
    const keep = new Set(trick.plays.map((p) => p.card));
    for (const [code, node] of trickEls) {
      if (!keep.has(code)) { node.remove(); trickEls.delete(code); }
    }
    const top = trick.taker >= 0 ? trick.taker : trick.winning;
    trick.plays.forEach((p, i) => {
      let node = trickEls.get(p.card);
      const [dx, dy] = offset(p.seat, 0.36);
      if (!node) {
        node = cardEl(p.card, t, "gz-trick-card");
        const [sx, sy] = offset(p.seat, 1);
        place(node, sx, sy, 0.7);
        node.style.opacity = "0.4";
        trickLayer.appendChild(node);
        trickEls.set(p.card, node);
        node.getBoundingClientRect(); // commit the start position so the move animates
      }
      node.style.zIndex = String(2 + i);
      node.style.opacity = "1";
      node.classList.toggle("winning", p.seat === top && trick.plays.length > 1);
      node.dataset.seat = String(p.seat);
      place(node, dx, dy, 1);
    });
    ledEl.textContent = trick.ledSuit ? t("gongzhu.led", { suit: SUIT[trick.ledSuit] }) : "";
  };

  // The finished trick stays on the felt until the next trick's first card
  // arrives (at least MIN_HOLD_MS, at most HOLD_MS), then flies to its taker.
  const collect = () => {
    const [tx, ty] = offset(held.taker, 1);
    for (const node of trickEls.values()) {
      node.classList.add("collect");
      node.style.opacity = "0";
      place(node, tx, ty, 0.35);
      setTimeout(() => node.remove(), COLLECT_MS);
    }
    trickEls.clear();
  };
  const endHold = () => {
    clearTimeout(hold);
    hold = null;
    collect();
    held = null;
  };

  const renderTrick = () => {
    const g = G();
    const finKey = g.round + ":" + g.tricks.length;
    if (lastFinKey !== null && finKey !== lastFinKey) {
      const done = g.tricks.length ? g.tricks[g.tricks.length - 1]
        : g.lastRound && g.lastRound.tricks && g.lastRound.tricks[g.lastRound.tricks.length - 1];
      if (held) endHold();
      if (done) {
        showTrick(done);
        held = { taker: done.taker, since: performance.now() };
        hold = setTimeout(() => { endHold(); if (st) render(); }, holdMs());
      }
    }
    lastFinKey = finKey;
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
    showTrick(g.trick);
  };

  // --- the hand --------------------------------------------------------------
  const layoutHand = () => {
    const cards = [...hand.children];
    const count = cards.length;
    if (!count) return;
    const W = hand.clientWidth || 320;
    const cw = cards[0].offsetWidth || 60;
    const ch = cards[0].offsetHeight || 88;
    const mid = (count - 1) / 2;
    const tilt = count > 13 ? 1.2 : 1.8; // degrees per card from the middle
    // The outer cards are turned: keep their corners inside the hand's box
    // (on a 390 px phone the fan used to widen the page).
    const inset = Math.ceil(ch / 2 * Math.sin(mid * tilt * Math.PI / 180)) + 4;
    const step = count > 1 ? Math.min(cw * 0.66, (W - cw - 2 * inset) / (count - 1)) : 0;
    const left0 = (W - (cw + step * (count - 1))) / 2;
    cards.forEach((c, i) => {
      c.style.left = left0 + i * step + "px";
      c.style.rotate = ((i - mid) * tilt) + "deg";
      c.style.bottom = 4 - Math.pow(i - mid, 2) * (count > 13 ? 0.18 : 0.3) + "px";
      c.style.zIndex = String(i + 1);
    });
  };

  const renderHand = () => {
    const me = mine();
    if (api.you === null) {
      handLabel.textContent = t("gongzhu.watching");
      return;
    }
    // The next deal shows when the round's banner is gone.
    const codes = me && !roundOver ? me.hand : [];
    const legal = new Set(me && myTurn() && !pending ? me.legal : []);
    for (const [code, node] of handEls) {
      if (!codes.includes(code)) { node.remove(); handEls.delete(code); }
    }
    codes.forEach((code) => {
      let node = handEls.get(code);
      if (!node) {
        node = cardEl(code, t);
        node.tabIndex = 0;
        node.addEventListener("click", () => play(code));
        node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); play(code); } });
        handEls.set(code, node);
      }
      node.classList.toggle("legal", legal.has(code));
      node.classList.toggle("sending", pending === code);
      node.setAttribute("aria-disabled", legal.has(code) ? "false" : "true");
      hand.appendChild(node); // keeps DOM order = display order
    });
    hand.classList.toggle("turn", myTurn() && !pending); // a card on its way: not asking any more
    handLabel.textContent = t("gongzhu.yourHand");
    layoutHand();
  };

  const play = (code) => {
    const me = mine();
    if (pending || !me || !started() || st.ctx.gameover) return;
    if (!myTurn()) {
      toast(t("gongzhu.notYourTurn", { name: nameOf(G().current) }), "info");
      return;
    }
    if (!me.legal.includes(code)) {
      // Let the server refuse it: its reason ("you must follow ♣: you
      // still hold ♣3") comes in both languages and the host shows it in
      // the page's one.
      api.move("play", [code]).catch(() => {});
      return;
    }
    pending = code;
    renderHand();
    // An accepted card stays "sending" until the state on show has it out
    // of the hand (the room may still be showing earlier states): the hand
    // must not offer it again meanwhile.
    api.move("play", [code]).catch(() => {
      pending = null;
      if (st) renderHand();
    });
  };

  // --- texts, result, scoreboard ---------------------------------------------
  const renderStatus = () => {
    const g = G();
    let text, cls = "";
    if (!started()) {
      text = t("gongzhu.waiting");
    } else if (roundOver) {
      text = t("gongzhu.roundOver", { n: roundOver.round });
    } else if (held) {
      text = t("gongzhu.took", { name: nameOf(held.taker) });
    } else {
      const opening = g.openingLead ? (g.seats === 3 ? "3C" : "2C") : null;
      const led = g.trick.ledSuit;
      const me = mine();
      if (myTurn()) {
        cls = "mine";
        if (opening) text = t("gongzhu.yourLeadOpening", { card: label(opening) });
        else if (!led) text = t("gongzhu.yourLead");
        else if (me && me.hand.some((c) => c[1] === led)) text = t("gongzhu.yourFollow", { suit: SUIT[led] });
        else text = t("gongzhu.yourVoid", { suit: SUIT[led] });
      } else if (opening) {
        text = t("gongzhu.othersLeadOpening", { name: nameOf(g.current), card: label(opening) });
      } else {
        text = t("gongzhu.othersTurn", { name: nameOf(g.current) });
      }
    }
    const info = t("gongzhu.roundTrick", { round: g.round, trick: Math.min(g.tricks.length + 1, g.tricksPerRound), total: g.tricksPerRound });
    // The round/trick counter shows once, in the status, and never wraps.
    status.replaceChildren(text + " · ", h("span", { class: "gz-counter", "data-counter": "" }, info));
    status.className = "status-bar gz-status" + (cls ? " " + cls : "");
    infoEl.textContent = "";
  };

  const teamLabel = (team) => t(team === 0 ? "gongzhu.teamA" : "gongzhu.teamB");

  const renderBoard = () => {
    const g = G();
    const four = g.seats === 4;
    const rows = g.scoreboard.rows.map((r) => h("tr", { class: String(r.seat) === api.you ? "me" : "", "data-row": String(r.seat) },
      h("td", null, h("span", { class: "gz-rank" + (r.rank === 1 ? " r1" : "") }, String(r.rank))),
      h("td", { title: nameOf(r.seat) }, seatName(r.seat)),
      four ? h("td", null, h("span", { class: "gz-team t" + r.team }, teamLabel(r.team))) : null,
      h("td", { class: signClass(r.lastRound), "data-last": String(r.seat) }, signed(r.lastRound)),
      h("td", { class: signClass(r.total), "data-total": String(r.seat) }, signed(r.total))));
    const teamRows = (g.scoreboard.teams || []).map((tm) => h("tr", { class: "teamrow", "data-team": String(tm.team) },
      h("td", null, h("span", { class: "gz-rank" + (tm.rank === 1 ? " r1" : "") }, String(tm.rank))),
      h("td", { title: tm.seats.map(nameOf).join(" + ") }, t("gongzhu.teamName", { t: teamLabel(tm.team) }),
        h("div", { class: "gz-members muted" }, tm.seats.map(nameOf).join(" + "))),
      h("td", null, h("span", { class: "gz-team t" + tm.team }, teamLabel(tm.team))),
      h("td", { class: signClass(tm.lastRound) }, signed(tm.lastRound)),
      h("td", { class: signClass(tm.total), "data-team-total": String(tm.team) }, signed(tm.total))));
    board.replaceChildren(h("h3", null, t("gongzhu.board")),
      h("table", null,
        h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("gongzhu.player")),
          four ? h("th", null, t("gongzhu.team")) : null,
          h("th", { class: "num" }, t("gongzhu.last")), h("th", { class: "num" }, t("gongzhu.total")))),
        h("tbody", null, rows),
        teamRows.length ? h("tbody", null, teamRows) : null));
  };

  const tags = (codes, score) => {
    const hearts = codes.filter((c) => c[1] === "H").length;
    const out = [];
    if (codes.length === 16) out.push(t("gongzhu.slam"));
    else if (hearts === 13) out.push(t("gongzhu.allHearts"));
    if (codes.includes("TC") && codes.length > 1 && codes.length < 16 && score !== 0) out.push(t("gongzhu.doubled"));
    return out.map((x) => h("span", { class: "gz-tag" }, x));
  };

  const renderResult = (fresh) => {
    const r = G().lastRound;
    if (!r) {
      result.replaceChildren(h("h3", null, t("gongzhu.result", { n: 1 })), h("p", { class: "muted small" }, t("gongzhu.noResult")));
      return;
    }
    const rows = r.scores.map((score, seat) => h("tr", { class: String(seat) === api.you ? "me" : "" },
      h("td", { title: nameOf(seat) }, seatName(seat)),
      h("td", null, h("div", { class: "gz-taken" }, chips(r.pointCards[seat]), tags(r.pointCards[seat], score))),
      h("td", { class: signClass(score), "data-round-score": String(seat) }, signed(score))));
    result.replaceChildren(h("h3", null, t("gongzhu.result", { n: r.round })),
      h("table", null, h("thead", null, h("tr", null, h("th", null, t("gongzhu.player")), h("th", null, t("gongzhu.cards")),
        h("th", { class: "num" }, t("gongzhu.score")))), h("tbody", null, rows)));
    if (fresh) {
      result.classList.remove("fresh");
      result.getBoundingClientRect();
      result.classList.add("fresh");
    }
  };

  const showBanner = (r) => {
    clearTimeout(bannerTimer);
    const lines = [h("div", null, t("gongzhu.roundOver", { n: r.round }))];
    if (api.you !== null) {
      const s = r.scores[Number(api.you)];
      lines.push(h("div", { class: s > 0 ? "pos" : s < 0 ? "neg" : "" }, t("gongzhu.youScored", { score: signed(s) })));
    }
    bannerSlot.replaceChildren(h("div", { class: "gz-banner", "data-banner": "round" }, lines));
    // While the round is on show the update's timer takes it away.
    if (!roundOver) bannerTimer = setTimeout(() => bannerSlot.replaceChildren(), BANNER_MS);
  };

  // --- the last trick, and the round-by-round 榜 ----------------------------
  const lastTrick = () => {
    const g = G();
    if (!g) return null;
    if (g.tricks && g.tricks.length) return { trick: g.tricks[g.tricks.length - 1], n: g.tricks.length };
    const lr = g.lastRound;
    if (lr && lr.tricks && lr.tricks.length) return { trick: lr.tricks[lr.tricks.length - 1], n: lr.tricks.length };
    return null;
  };
  const renderLast = () => {
    const last = lastTrick();
    lastBtn.textContent = t("gongzhu.lastTrick");
    lastBtn.disabled = !last;
    if (!last) showLast = false;
    lastBtn.setAttribute("aria-pressed", showLast ? "true" : "false");
    lastBtn.classList.toggle("primary", showLast);
    lastPanel.hidden = !showLast;
    if (!showLast) { lastPanel.replaceChildren(); return; }
    const tr = last.trick;
    lastPanel.replaceChildren(
      h("div", { class: "gz-lasttitle" }, t("gongzhu.lastTrickTitle", { n: last.n, name: nameOf(tr.taker) })),
      h("div", { class: "gz-lastcards" }, tr.plays.map((p) => h("div", { class: "gz-lastplay" + (p.seat === tr.taker ? " taker" : "") },
        cardEl(p.card, t), h("div", { class: "gz-lastseat" }, seatName(p.seat))))));
  };

  // The round-by-round 榜: every finished round the view keeps (G.history,
  // the same for every player and spectator), each seat's score with a chip
  // on the seat that took the pig, the sheep, the transformer or all hearts
  // (drawn from data-label by CSS, so a cell's text is its score alone),
  // the team scores with 4 seats, and the totals underneath.
  const MARKS = [["pig", "QS", "gongzhu.pigName"], ["sheep", "JD", "gongzhu.sheepName"],
    ["transformer", "TC", "gongzhu.transformerName"], ["allHearts", null, "gongzhu.allHeartsName"]];
  const marks = (row, seat) => MARKS.filter(([key]) => row[key] === seat).map(([key, code, name]) => h("span", {
    class: "gz-chip gz-mark" + (code === null || isRed(code) ? " red" : ""), "data-mark": key, title: t(name),
    "data-label": code === null ? t("gongzhu.allHeartsMark") : label(code),
  }));
  const scoreCell = (score, extra, attrs) => h("td", Object.assign({ class: signClass(score) }, attrs),
    h("span", { class: "gz-rscore" }, signed(score)), extra && extra.length ? h("span", { class: "gz-marks" }, extra) : null);
  const teamHeads = (g) => (g.seats === 4 ? [0, 1].map((tm) => h("th", { class: "num" }, h("span", { class: "gz-team t" + tm }, teamLabel(tm)))) : []);
  const roundRow = (row) => h("tr", { "data-round-row": String(row.round), title: t("gongzhu.totalsAfter", { totals: row.totals.map(signed).join(" / ") }) },
    h("td", null, String(row.round)),
    row.scores.map((sc, s) => scoreCell(sc, marks(row, s), { "data-round-seat": String(s) })),
    (row.teamScores || []).map((sc, tm) => scoreCell(sc, null, { "data-round-team": String(tm) })));
  const renderRounds = () => {
    const g = G();
    const hist = (g && g.history) || [];
    if (hist.length === 0) { rounds.hidden = true; rounds.replaceChildren(); return; }
    rounds.hidden = false;
    const seats = Array.from({ length: g.seats }, (_, i) => i);
    const teamTotals = g.seats === 4 ? [g.totals[0] + g.totals[2], g.totals[1] + g.totals[3]] : [];
    const scroller = h("div", { class: "gz-rounds-scroll" },
      h("table", null,
        h("thead", null, h("tr", null, h("th", null, t("gongzhu.roundCol")),
          seats.map((s) => h("th", { class: "num" + (String(s) === api.you ? " me" : ""), title: nameOf(s) }, h("span", { class: "gz-seatno" }, String(s + 1)))),
          teamHeads(g))),
        h("tbody", null, hist.map(roundRow)),
        h("tfoot", null, h("tr", null, h("td", null, t("gongzhu.total")),
          seats.map((s) => h("td", { class: signClass(g.totals[s]), "data-rounds-total": String(s) }, signed(g.totals[s]))),
          teamTotals.map((v, tm) => h("td", { class: signClass(v), "data-rounds-team-total": String(tm) }, signed(v)))))));
    const parts = [h("h3", null, t("gongzhu.rounds")), scroller, h("p", { class: "gz-legend muted small" }, t("gongzhu.marksLegend"))];
    if (hist[0].round > 1) parts.push(h("p", { class: "muted small", "data-rounds-capped": "" }, t("gongzhu.roundsCapped", { n: hist.length, first: hist[0].round })));
    rounds.replaceChildren(...parts);
    scroller.scrollTop = scroller.scrollHeight; // the latest round in sight
  };

  const render = () => {
    const g = G();
    if (!g) return;
    const r = g.lastRound ? g.lastRound.round : 0;
    const fresh = lastResult !== null && r !== lastResult && r > 0;
    lastResult = r;
    renderSeats();
    renderTrick(); // first: it decides whether a finished trick is on show
    renderStatus();
    renderHand();
    renderBoard();
    renderResult(fresh);
    renderRounds();
    renderLast();
    if (fresh) showBanner(g.lastRound);
  };

  const ro = new ResizeObserver(() => {
    layoutHand();
    if (st && !held) showTrick(G().trick);
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
      st = s;
      fast = (o.behind || 0) >= FAST;
      const own = mine();
      if (pending && (!own || !own.hand.includes(pending))) pending = null;
      const g = G();
      if (o.sync || !prev || !g) {
        clearTimeout(hold); hold = null; held = null;
        for (const node of trickEls.values()) node.remove();
        trickEls.clear();
        clearTimeout(bannerTimer); clearTimeout(roundTimer);
        bannerSlot.replaceChildren();
        roundOver = null;
        lastFinKey = null;
        lastResult = g && g.lastRound ? g.lastRound.round : 0;
        render();
        return 0;
      }
      if (o.redraw) { render(); return 0; }
      const newRound = !!g.lastRound && (!prev.lastRound || prev.lastRound.round !== g.lastRound.round);
      const trickDone = newRound || g.round !== prev.round || g.tricks.length !== prev.tricks.length;
      const played = g.trick.plays.length > prev.trick.plays.length;
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

export default { mount, strings };
