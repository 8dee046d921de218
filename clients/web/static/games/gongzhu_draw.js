// @ts-check
// Gong Zhu's DOM drawing: CSS cards and point-card chips, the seats around
// the felt, the trick flying in and collected, the hand's fan, the status
// bar, the scoreboard (榜), the round result and its banner, the last
// trick panel and the round-by-round board. Every renderer takes the
// element it fills, the view G and a Names context; what to draw comes
// from gongzhu_state.js.

import { h } from "/assets/js/dom.js";
import { SUIT, rankLabel, isRed, label, SPECIAL, signed, signClass } from "./gongzhu_text.js";
import { spotOf, relSeat, fanLayout, roundTags, marksOf, teamTotals, COLLECT_MS } from "./gongzhu_state.js";

/** @typedef {import("./gongzhu_state.js").T} T */
/** @typedef {import("./gongzhu_state.js").Trick} Trick */
/**
 * What the renderers need to name people: the i18n lookup, the viewer,
 * whether the match started, and a seat's names (nameOf for sentences
 * and titles, plainName beside a seat-number badge).
 * @typedef {{t: T, you: string | null, started: boolean, nameOf: (seat: number) => string, plainName: (seat: number) => string}} Names
 */

/**
 * cardEl draws one face-up card with CSS: corner indices and a centre pip.
 * @param {string} code
 * @param {T} t
 * @param {string} [extra] more classes
 * @returns {HTMLElement}
 */
export function cardEl(code, t, extra) {
  const r = code[0], s = code[1];
  const face = "JQK".includes(r);
  const tag = SPECIAL[code] ? t(SPECIAL[code]) : null;
  return h("div", {
    class: "gz-card" + (isRed(code) ? " red" : "") + (face ? " gz-face" : "") + (tag ? " special" : "") + (extra ? " " + extra : ""),
    "data-card": code, "data-tag": tag, role: "img", "aria-label": label(code),
  },
  h("span", { class: "gz-idx" }, h("span", { class: "r" }, rankLabel(r)), h("span", { class: "s" }, SUIT[s])),
  h("span", { class: "gz-pip" }, face ? [r, h("small", null, SUIT[s])] : SUIT[s]),
  h("span", { class: "gz-idx bottom" }, h("span", { class: "r" }, rankLabel(r)), h("span", { class: "s" }, SUIT[s])));
}

/**
 * chips draws the small point-card chips of a seat.
 * @param {string[] | undefined} codes
 * @returns {HTMLElement[]}
 */
export function chips(codes) {
  return (codes || []).map((c) => h("span", {
    class: "gz-chip" + (isRed(c) ? " red" : "") + (SPECIAL[c] ? " special" : ""), "data-chip": c,
  }, label(c)));
}

/**
 * seatName is a seat's number badge and name.
 * @param {Names} v
 * @param {number} seat
 */
export const seatName = (v, seat) => [h("span", { class: "gz-seatno" }, String(seat + 1)), v.plainName(seat)];

/**
 * renderSeats draws every seat at its spot: name, total, card backs (not
 * the viewer's own), the point cards taken.
 * @param {HTMLElement} layer
 * @param {any} g
 * @param {Names} v
 */
export function renderSeats(layer, g, v) {
  layer.replaceChildren();
  for (let seat = 0; seat < g.seats; seat++) {
    const spot = spotOf(seat, v.you, g.seats);
    const count = g.handCounts[seat];
    const backs = [];
    if (relSeat(seat, v.you, g.seats) !== 0 || v.you === null) {
      for (let i = 0; i < Math.min(count, 13); i++) backs.push(h("span", { class: "gz-back-mini" }));
      backs.push(h("span", { class: "gz-count" }, String(count)));
    }
    const node = h("div", {
      class: "gz-seat" + (v.started && g.current === seat ? " current" : "") + (String(seat) === v.you ? " me" : "") +
        (spot[1] < 30 ? " top" : ""),
      "data-seat": String(seat),
    },
    h("div", { class: "gz-seat-head" },
      h("span", { class: "gz-name", title: v.nameOf(seat) }, seatName(v, seat)),
      h("span", { class: "gz-score", title: v.t("gongzhu.total") }, signed(g.totals[seat]))),
    backs.length ? h("div", { class: "gz-backs" }, backs) : null,
    h("div", { class: "gz-taken", "data-taken": String(seat) }, chips(g.pointCards[seat])));
    node.style.left = spot[0] + "%";
    node.style.top = spot[1] + "%";
    layer.appendChild(node);
  }
}

/**
 * place moves a trick card dx, dy px from the table's centre.
 * @param {HTMLElement} node
 * @param {number} dx
 * @param {number} dy
 * @param {number} [scale]
 */
const place = (node, dx, dy, scale) => {
  node.style.transform = `translate(calc(-50% + ${dx}px), calc(-50% + ${dy}px))` + (scale ? ` scale(${scale})` : "");
};

/**
 * createTrickLayer draws the trick in layer: show(trick) flies each new
 * card in from its seat (offset(seat, k) is a seat's pixel offset from the
 * table's centre, scaled by k); collect(taker) sends them all to the taker.
 * @param {HTMLElement} layer
 * @param {HTMLElement} ledEl the "Led ♠" line
 * @param {(seat: number, k: number) => [number, number]} offset
 * @param {T} t
 */
export function createTrickLayer(layer, ledEl, offset, t) {
  /** @type {Map<string, HTMLElement>} card code -> element */
  const els = new Map();
  return {
    /** @param {Trick} trick */
    show(trick) {
      const keep = new Set(trick.plays.map((p) => p.card));
      for (const [code, node] of els) {
        if (!keep.has(code)) { node.remove(); els.delete(code); }
      }
      const top = trick.taker >= 0 ? trick.taker : trick.winning;
      trick.plays.forEach((p, i) => {
        let node = els.get(p.card);
        const [dx, dy] = offset(p.seat, 0.36);
        if (!node) {
          node = cardEl(p.card, t, "gz-trick-card");
          const [sx, sy] = offset(p.seat, 1);
          place(node, sx, sy, 0.7);
          node.style.opacity = "0.4";
          layer.appendChild(node);
          els.set(p.card, node);
          node.getBoundingClientRect(); // commit the start position so the move animates
        }
        node.style.zIndex = String(2 + i);
        node.style.opacity = "1";
        node.classList.toggle("winning", p.seat === top && trick.plays.length > 1);
        node.dataset.seat = String(p.seat);
        place(node, dx, dy, 1);
      });
      ledEl.textContent = trick.ledSuit ? t("gongzhu.led", { suit: SUIT[trick.ledSuit] }) : "";
    },
    /** @param {number} taker */
    collect(taker) {
      const [tx, ty] = offset(taker, 1);
      for (const node of els.values()) {
        node.classList.add("collect");
        node.style.opacity = "0";
        place(node, tx, ty, 0.35);
        setTimeout(() => node.remove(), COLLECT_MS);
      }
      els.clear();
    },
    clear() {
      for (const node of els.values()) node.remove();
      els.clear();
    },
  };
}

/**
 * layoutHand fans the hand's cards (fanLayout) across its width.
 * @param {HTMLElement} hand
 */
export function layoutHand(hand) {
  const cards = /** @type {HTMLElement[]} */ ([...hand.children]);
  const count = cards.length;
  if (!count) return;
  const spots = fanLayout(count, hand.clientWidth || 320, cards[0].offsetWidth || 60, cards[0].offsetHeight || 88);
  cards.forEach((c, i) => {
    c.style.left = spots[i].left + "px";
    c.style.rotate = spots[i].rotate + "deg";
    c.style.bottom = spots[i].bottom + "px";
    c.style.zIndex = String(spots[i].z);
  });
}

/**
 * renderStatus fills the status bar: the sentence, then the round/trick
 * counter, which shows once and never wraps.
 * @param {HTMLElement} status
 * @param {{text: string, cls: string, info: string}} line
 */
export function renderStatus(status, line) {
  status.replaceChildren(line.text + " · ", h("span", { class: "gz-counter", "data-counter": "" }, line.info));
  status.className = "status-bar gz-status" + (line.cls ? " " + line.cls : "");
}

/** @type {(t: T, team: number) => string} */
const teamLabel = (t, team) => t(team === 0 ? "gongzhu.teamA" : "gongzhu.teamB");

/**
 * renderBoard draws the scoreboard (榜): the seats by rank, and the teams
 * with 4 seats.
 * @param {HTMLElement} board
 * @param {any} g
 * @param {Names} v
 */
export function renderBoard(board, g, v) {
  const t = v.t;
  const four = g.seats === 4;
  const rows = g.scoreboard.rows.map((/** @type {any} */ r) => h("tr", { class: String(r.seat) === v.you ? "me" : "", "data-row": String(r.seat) },
    h("td", null, h("span", { class: "gz-rank" + (r.rank === 1 ? " r1" : "") }, String(r.rank))),
    h("td", { title: v.nameOf(r.seat) }, seatName(v, r.seat)),
    four ? h("td", null, h("span", { class: "gz-team t" + r.team }, teamLabel(t, r.team))) : null,
    h("td", { class: signClass(r.lastRound), "data-last": String(r.seat) }, signed(r.lastRound)),
    h("td", { class: signClass(r.total), "data-total": String(r.seat) }, signed(r.total))));
  const teamRows = (g.scoreboard.teams || []).map((/** @type {any} */ tm) => h("tr", { class: "teamrow", "data-team": String(tm.team) },
    h("td", null, h("span", { class: "gz-rank" + (tm.rank === 1 ? " r1" : "") }, String(tm.rank))),
    h("td", { title: tm.seats.map(v.nameOf).join(" + ") }, t("gongzhu.teamName", { t: teamLabel(t, tm.team) }),
      h("div", { class: "gz-members muted" }, tm.seats.map(v.nameOf).join(" + "))),
    h("td", null, h("span", { class: "gz-team t" + tm.team }, teamLabel(t, tm.team))),
    h("td", { class: signClass(tm.lastRound) }, signed(tm.lastRound)),
    h("td", { class: signClass(tm.total), "data-team-total": String(tm.team) }, signed(tm.total))));
  board.replaceChildren(h("h3", null, t("gongzhu.board")),
    h("table", null,
      h("thead", null, h("tr", null, h("th", null, "#"), h("th", null, t("gongzhu.player")),
        four ? h("th", null, t("gongzhu.team")) : null,
        h("th", { class: "num" }, t("gongzhu.last")), h("th", { class: "num" }, t("gongzhu.total")))),
      h("tbody", null, rows),
      teamRows.length ? h("tbody", null, teamRows) : null));
}

/**
 * renderResult draws the last round's result: each seat's point cards,
 * tags and score; fresh flashes it (a round just ended).
 * @param {HTMLElement} result
 * @param {any} g
 * @param {Names} v
 * @param {boolean} fresh
 */
export function renderResult(result, g, v, fresh) {
  const t = v.t;
  const r = g.lastRound;
  if (!r) {
    result.replaceChildren(h("h3", null, t("gongzhu.result", { n: 1 })), h("p", { class: "muted small" }, t("gongzhu.noResult")));
    return;
  }
  const rows = r.scores.map((/** @type {number} */ score, /** @type {number} */ seat) => h("tr", { class: String(seat) === v.you ? "me" : "" },
    h("td", { title: v.nameOf(seat) }, seatName(v, seat)),
    h("td", null, h("div", { class: "gz-taken" }, chips(r.pointCards[seat]),
      roundTags(r.pointCards[seat], score).map((k) => h("span", { class: "gz-tag" }, t(k))))),
    h("td", { class: signClass(score), "data-round-score": String(seat) }, signed(score))));
  result.replaceChildren(h("h3", null, t("gongzhu.result", { n: r.round })),
    h("table", null, h("thead", null, h("tr", null, h("th", null, t("gongzhu.player")), h("th", null, t("gongzhu.cards")),
      h("th", { class: "num" }, t("gongzhu.score")))), h("tbody", null, rows)));
  if (fresh) {
    result.classList.remove("fresh");
    result.getBoundingClientRect();
    result.classList.add("fresh");
  }
}

/**
 * bannerEl is the "round over" banner over the felt, with the viewer's score.
 * @param {{round: number, scores: number[]}} r
 * @param {Names} v
 * @returns {HTMLElement}
 */
export function bannerEl(r, v) {
  const lines = [h("div", null, v.t("gongzhu.roundOver", { n: r.round }))];
  if (v.you !== null) {
    const s = r.scores[Number(v.you)];
    lines.push(h("div", { class: s > 0 ? "pos" : s < 0 ? "neg" : "" }, v.t("gongzhu.youScored", { score: signed(s) })));
  }
  return h("div", { class: "gz-banner", "data-banner": "round" }, lines);
}

/**
 * renderLast draws the "last trick" button and, when open, the panel with
 * the trick's cards and who played them. It returns whether the panel is
 * open (never without a finished trick).
 * @param {HTMLButtonElement} btn
 * @param {HTMLElement} panel
 * @param {{trick: Trick, n: number} | null} last
 * @param {boolean} open
 * @param {Names} v
 * @returns {boolean}
 */
export function renderLast(btn, panel, last, open, v) {
  btn.textContent = v.t("gongzhu.lastTrick");
  btn.disabled = !last;
  if (!last) open = false;
  btn.setAttribute("aria-pressed", open ? "true" : "false");
  btn.classList.toggle("primary", open);
  panel.hidden = !open;
  if (!open || !last) { panel.replaceChildren(); return false; }
  const tr = last.trick;
  panel.replaceChildren(
    h("div", { class: "gz-lasttitle" }, v.t("gongzhu.lastTrickTitle", { n: last.n, name: v.nameOf(tr.taker) })),
    h("div", { class: "gz-lastcards" }, tr.plays.map((p) => h("div", { class: "gz-lastplay" + (p.seat === tr.taker ? " taker" : "") },
      cardEl(p.card, v.t), h("div", { class: "gz-lastseat" }, seatName(v, p.seat))))));
  return true;
}

/**
 * renderRounds draws the round-by-round 榜: every finished round the view
 * keeps (G.history, the same for every player and spectator), each seat's
 * score with a chip on the seat that took the pig, the sheep, the
 * transformer or all hearts (drawn from data-label by CSS, so a cell's
 * text is its score alone), the team scores with 4 seats, and the totals
 * underneath. Hidden before the first round ends.
 * @param {HTMLElement} rounds
 * @param {any} g
 * @param {Names} v
 */
export function renderRounds(rounds, g, v) {
  const t = v.t;
  const hist = (g && g.history) || [];
  if (hist.length === 0) { rounds.hidden = true; rounds.replaceChildren(); return; }
  rounds.hidden = false;
  /** @type {(row: any, seat: number) => HTMLElement[]} */
  const marks = (row, seat) => marksOf(row, seat).map(([key, code, name]) => h("span", {
    class: "gz-chip gz-mark" + (code === null || isRed(code) ? " red" : ""), "data-mark": key, title: t(name),
    "data-label": code === null ? t("gongzhu.allHeartsMark") : label(code),
  }));
  /** @type {(score: number, extra: HTMLElement[] | null, attrs: Record<string, string>) => HTMLElement} */
  const scoreCell = (score, extra, attrs) => h("td", Object.assign({ class: signClass(score) }, attrs),
    h("span", { class: "gz-rscore" }, signed(score)), extra && extra.length ? h("span", { class: "gz-marks" }, extra) : null);
  const teamHeads = g.seats === 4 ? [0, 1].map((tm) => h("th", { class: "num" }, h("span", { class: "gz-team t" + tm }, teamLabel(t, tm)))) : [];
  /** @type {(row: any) => HTMLElement} */
  const roundRow = (row) => h("tr", { "data-round-row": String(row.round), title: t("gongzhu.totalsAfter", { totals: row.totals.map(signed).join(" / ") }) },
    h("td", null, String(row.round)),
    row.scores.map((/** @type {number} */ sc, /** @type {number} */ s) => scoreCell(sc, marks(row, s), { "data-round-seat": String(s) })),
    (row.teamScores || []).map((/** @type {number} */ sc, /** @type {number} */ tm) => scoreCell(sc, null, { "data-round-team": String(tm) })));
  const seats = Array.from({ length: g.seats }, (_, i) => i);
  const scroller = h("div", { class: "gz-rounds-scroll" },
    h("table", null,
      h("thead", null, h("tr", null, h("th", null, t("gongzhu.roundCol")),
        seats.map((s) => h("th", { class: "num" + (String(s) === v.you ? " me" : ""), title: v.nameOf(s) }, h("span", { class: "gz-seatno" }, String(s + 1)))),
        teamHeads)),
      h("tbody", null, hist.map(roundRow)),
      h("tfoot", null, h("tr", null, h("td", null, t("gongzhu.total")),
        seats.map((s) => h("td", { class: signClass(g.totals[s]), "data-rounds-total": String(s) }, signed(g.totals[s]))),
        teamTotals(g).map((val, tm) => h("td", { class: signClass(val), "data-rounds-team-total": String(tm) }, signed(val)))))));
  const parts = [h("h3", null, t("gongzhu.rounds")), scroller, h("p", { class: "gz-legend muted small" }, t("gongzhu.marksLegend"))];
  if (hist[0].round > 1) parts.push(h("p", { class: "muted small", "data-rounds-capped": "" }, t("gongzhu.roundsCapped", { n: hist.length, first: hist[0].round })));
  rounds.replaceChildren(...parts);
  scroller.scrollTop = scroller.scrollHeight; // the latest round in sight
}
