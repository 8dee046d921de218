// @ts-check
// Gong Zhu's pure derivations from the view G (docs/gongzhu.md), no DOM:
// where each seat sits around the table, whose turn the felt shows, which
// cards are playable, the status line, the finished and last tricks, the
// round's tags and marks, the team totals, the hand's fan and the pace
// of each state. gongzhu.js, gongzhu_draw.js and gongzhu_input.js use it;
// jstest/gongzhu_state.test.mjs tests it.

import { SUIT, label } from "./gongzhu_text.js";

/** @typedef {import("../js/types.js").Player} Player */
/** @typedef {(key: string, params?: Record<string, any>) => string} T */
/**
 * A trick in the view: the plays in order, the led suit, the seat winning
 * it so far and, once finished, its taker (-1 before).
 * @typedef {{plays: {seat: number, card: string}[], ledSuit?: string, winning?: number, taker: number}} Trick
 */
/**
 * The viewer's own seat in G.players: the hand and its legal cards.
 * @typedef {{hand: string[], legal: string[]}} Own
 */

/**
 * Seat spots on the table, in % of its box, by position relative to the
 * viewer (0 = bottom, then counterclockwise: right, top, left).
 * @type {Record<number, [number, number][]>}
 */
export const SPOTS = {
  3: [[50, 87], [85, 24], [15, 24]],
  4: [[50, 87], [88, 50], [50, 12], [12, 50]],
};

export const HOLD_MS = 1400; // a finished trick stays on the felt at most this long
export const MIN_HOLD_MS = 600; // and at least this long
export const COLLECT_MS = 400; // then flies to its taker
export const BANNER_MS = 2500; // the "round over" banner, before the next deal shows
export const CARD_MS = 250; // a played card flies in before the next state shows
export const FAST = 3; // states waiting that count as far behind: shortest pace

/**
 * bottomSeat is the seat drawn at the bottom: the viewer's, or seat 0 for
 * a spectator.
 * @param {string | null} you
 * @returns {number}
 */
export const bottomSeat = (you) => (you !== null ? Number(you) : 0);

/**
 * relSeat is a seat's position counterclockwise from the bottom.
 * @param {number} seat
 * @param {string | null} you
 * @param {number} n the number of seats
 * @returns {number}
 */
export const relSeat = (seat, you, n) => (seat - bottomSeat(you) + n) % n;

/**
 * spotOf is a seat's spot on the table, [left %, top %].
 * @param {number} seat
 * @param {string | null} you
 * @param {number} n
 * @returns {[number, number]}
 */
export const spotOf = (seat, you, n) => ((SPOTS[n] && SPOTS[n][relSeat(seat, you, n)]) || [50, 50]);

/**
 * spotOffset is the pixel offset from the table's centre of a seat's spot
 * on a table w x hgt px, scaled by k (1: at the seat, 0.36: the trick).
 * @param {number} seat
 * @param {string | null} you
 * @param {number} n
 * @param {number} w
 * @param {number} hgt
 * @param {number} k
 * @returns {[number, number]}
 */
export function spotOffset(seat, you, n, w, hgt, k) {
  const spot = spotOf(seat, you, n);
  return [(spot[0] - 50) / 100 * w * k, (spot[1] - 50) / 100 * hgt * k];
}

/**
 * plainName is a seat's name ("You" for the viewer, "Seat 3" for an empty one).
 * @param {Player[] | undefined} players
 * @param {number} seat
 * @param {string | null} you
 * @param {T} t
 * @returns {string}
 */
export function plainName(players, seat, you, t) {
  const p = players && players[seat];
  if (you !== null && String(seat) === you) return t("gongzhu.you");
  return (p && p.name) || t("gongzhu.seat", { n: seat + 1 });
}

/**
 * nameOf adds the seat number to plainName when several seats share the
 * name (bots are all called alike), for sentences.
 * @param {Player[] | undefined} players
 * @param {number} seat
 * @param {string | null} you
 * @param {T} t
 * @returns {string}
 */
export function nameOf(players, seat, you, t) {
  const ps = players || [];
  const p = ps[seat];
  const dup = p && p.name && ps.some((q, i) => i !== seat && q && q.name === p.name);
  return dup && String(seat) !== you ? `${p.name} ${seat + 1}` : plainName(players, seat, you, t);
}

/**
 * ownSeat is the viewer's {hand, legal} in the view, or null (a spectator).
 * @param {any} g
 * @param {string | null} you
 * @returns {Own | null}
 */
export const ownSeat = (g, you) => (g && you !== null && g.players ? g.players[you] : null);

const RANKS = "23456789TJQKA";

/**
 * trickWinner is the seat on top of a trick so far: the highest card of
 * the led suit (Gong Zhu has no trumps), -1 while it is empty.
 * @param {Trick | null | undefined} trick
 * @returns {number}
 */
export function trickWinner(trick) {
  const plays = (trick && trick.plays) || [];
  if (plays.length === 0) return -1;
  const led = plays[0].card[1];
  let best = -1, top = -1;
  for (const p of plays) {
    const r = RANKS.indexOf(p.card[0]);
    if (p.card[1] === led && r > top) { best = p.seat; top = r; }
  }
  return best;
}

/**
 * withTable returns the state message s with what its view leaves out
 * because it tells it already, added to a copy of G for the felt to draw:
 * current, the seat to play (ctx.currentPlayer as a number, -1 when none);
 * handCounts, each seat's cards in hand: tricksPerRound, less one per
 * finished trick of the round, less one more once the seat has played to
 * the trick on the table; and the trick's winning seat (trickWinner).
 * @param {any} s
 * @returns {any}
 */
export function withTable(s) {
  if (!s || !s.G) return s;
  const g = s.G;
  const left = g.tricksPerRound - (g.tricks ? g.tricks.length : 0);
  const plays = (g.trick && g.trick.plays) || [];
  const handCounts = [];
  for (let seat = 0; seat < g.seats; seat++) handCounts.push(left - plays.filter((p) => p.seat === seat).length);
  const cp = s.ctx ? s.ctx.currentPlayer : null;
  const current = cp === null || cp === undefined || cp === "" ? -1 : Number(cp);
  const trick = g.trick ? { ...g.trick, winning: trickWinner(g.trick) } : g.trick;
  return { ...s, G: { ...g, current, handCounts, trick } };
}

/**
 * isMyTurn says whether the viewer's cards are playable: the felt shows
 * the state that asks for them (not while a finished trick or the
 * round's banner is on show).
 * @param {any} g
 * @param {{started: boolean, you: string | null, onShow: boolean}} o
 * @returns {boolean}
 */
export const isMyTurn = (g, o) => o.started && o.you !== null && !!g && String(g.current) === o.you && !o.onShow;

/**
 * handShown is the cards the hand shows: none while the round's banner is
 * up (the next deal shows once it is gone).
 * @param {Own | null} own
 * @param {boolean} roundOver
 * @returns {string[]}
 */
export const handShown = (own, roundOver) => (own && !roundOver ? own.hand : []);

/**
 * playable is the set of the cards to raise: the legal ones on the
 * viewer's turn, none while a card is on its way.
 * @param {Own | null} own
 * @param {boolean} myTurn
 * @param {string | null} pending
 * @returns {Set<string>}
 */
export const playable = (own, myTurn, pending) => new Set(own && myTurn && !pending ? own.legal : []);

/**
 * pendingDone says whether the card on its way has landed in the state on
 * show: the hand no longer holds it, or the round it was played in is over
 * (the next deal may hold the same card again: a card played last in a
 * round must not stay "on its way" in the next one).
 * @param {string | null} pending
 * @param {number} round the round it was played in
 * @param {any} g the view on show
 * @param {Own | null} own
 * @returns {boolean}
 */
export const pendingDone = (pending, round, g, own) => !!pending && (!g || !own || g.round !== round || !own.hand.includes(pending));

/**
 * playCheck says what a click on a card does: "ignore" (a card on its
 * way, no hand, the match over), "notYourTurn", "illegal" (sent all the
 * same: the server says why) or "play".
 * @param {Own | null} own
 * @param {string} code
 * @param {{pending: string | null, started: boolean, gameover: boolean, myTurn: boolean}} o
 * @returns {"ignore" | "notYourTurn" | "illegal" | "play"}
 */
export function playCheck(own, code, o) {
  if (o.pending || !own || !o.started || o.gameover) return "ignore";
  if (!o.myTurn) return "notYourTurn";
  if (!own.legal.includes(code)) return "illegal";
  return "play";
}

/**
 * openingCard is the card that must lead the round's first trick, or null.
 * @param {any} g
 * @returns {string | null}
 */
export const openingCard = (g) => (g.openingLead ? (g.seats === 3 ? "3C" : "2C") : null);

/**
 * statusLine is the status bar's sentence, class and round/trick counter.
 * @param {any} g
 * @param {{started: boolean, roundOver: {round: number} | null, held: {taker: number} | null, myTurn: boolean, own: Own | null}} o
 * @param {T} t
 * @param {(seat: number) => string} name
 * @returns {{text: string, cls: string, info: string}}
 */
export function statusLine(g, o, t, name) {
  let text, cls = "";
  if (!o.started) {
    text = t("gongzhu.waiting");
  } else if (o.roundOver) {
    text = t("gongzhu.roundOver", { n: o.roundOver.round });
  } else if (o.held) {
    text = t("gongzhu.took", { name: name(o.held.taker) });
  } else {
    const opening = openingCard(g);
    const led = g.trick.ledSuit;
    if (o.myTurn) {
      cls = "mine";
      if (opening) text = t("gongzhu.yourLeadOpening", { card: label(opening) });
      else if (!led) text = t("gongzhu.yourLead");
      else if (o.own && o.own.hand.some((c) => c[1] === led)) text = t("gongzhu.yourFollow", { suit: SUIT[led] });
      else text = t("gongzhu.yourVoid", { suit: SUIT[led] });
    } else if (opening) {
      text = t("gongzhu.othersLeadOpening", { name: name(g.current), card: label(opening) });
    } else {
      text = t("gongzhu.othersTurn", { name: name(g.current) });
    }
  }
  const info = t("gongzhu.roundTrick", { round: g.round, trick: Math.min(g.tricks.length + 1, g.tricksPerRound), total: g.tricksPerRound });
  return { text, cls, info };
}

/**
 * finKey names how far the round is: "round:finished tricks".
 * @param {any} g
 * @returns {string}
 */
export const finKey = (g) => g.round + ":" + g.tricks.length;

/**
 * finishedTrick is the trick that finished last: this round's, or the
 * last round's final trick right after a deal.
 * @param {any} g
 * @returns {Trick | null | undefined}
 */
export function finishedTrick(g) {
  return g.tricks.length ? g.tricks[g.tricks.length - 1]
    : g.lastRound && g.lastRound.tricks && g.lastRound.tricks[g.lastRound.tricks.length - 1];
}

/**
 * lastTrick is what the "last trick" panel shows: the trick and its number
 * in its round, or null before any trick finished.
 * @param {any} g
 * @returns {{trick: Trick, n: number} | null}
 */
export function lastTrick(g) {
  if (!g) return null;
  if (g.tricks && g.tricks.length) return { trick: g.tricks[g.tricks.length - 1], n: g.tricks.length };
  const lr = g.lastRound;
  if (lr && lr.tricks && lr.tricks.length) return { trick: lr.tricks[lr.tricks.length - 1], n: lr.tricks.length };
  return null;
}

/**
 * roundTags are the string keys of a seat's round tags: grand slam (all 16
 * point cards) or all hearts, and ×2 when the transformer doubled a score.
 * @param {string[]} codes the point cards the seat took
 * @param {number} score
 * @returns {string[]}
 */
export function roundTags(codes, score) {
  const hearts = codes.filter((c) => c[1] === "H").length;
  const out = [];
  if (codes.length === 16) out.push("gongzhu.slam");
  else if (hearts === 13) out.push("gongzhu.allHearts");
  if (codes.includes("TC") && codes.length > 1 && codes.length < 16 && score !== 0) out.push("gongzhu.doubled");
  return out;
}

/**
 * MARKS are the round-by-round board's marks: the history row's field, the
 * card (null: all hearts) and the string key of its name.
 * @type {[string, string | null, string][]}
 */
export const MARKS = [["pig", "QS", "gongzhu.pigName"], ["sheep", "JD", "gongzhu.sheepName"],
  ["transformer", "TC", "gongzhu.transformerName"], ["allHearts", null, "gongzhu.allHeartsName"]];

/**
 * marksOf are the marks a history row gives a seat.
 * @param {Record<string, any>} row
 * @param {number} seat
 * @returns {[string, string | null, string][]}
 */
export const marksOf = (row, seat) => MARKS.filter(([key]) => row[key] === seat);

/**
 * teamTotals are the two teams' totals at 4 seats (seats 1+3, 2+4), none at 3.
 * @param {any} g
 * @returns {number[]}
 */
export const teamTotals = (g) => (g.seats === 4 ? [g.totals[0] + g.totals[2], g.totals[1] + g.totals[3]] : []);

/** FAN_LIFT is the most a card of the hand rises (px) when it is legal and
 * pointed at (gongzhu.css: .gz-hand.turn .gz-card.legal:hover). */
export const FAN_LIFT = 24;

/** FAN_ORIGIN is where a hand's card turns about, as a share of its height
 * below its top (gongzhu.css: transform-origin 50% 140%). */
export const FAN_ORIGIN = 1.4;

/**
 * fanLayout places count cards of cw x ch px in a hand W px wide: a fan
 * whose outer cards are turned and stay inside the box, raised or not (on
 * a 390 px phone the fan used to widen the page, and a raised outer card
 * to leave the screen). A card turns by its rotate about a point
 * FAN_ORIGIN of its height below its top, so its top outer corner swings
 * out by (FAN_ORIGIN*ch + lift)*sin(angle), less its half width's
 * cw/2*(1-cos(angle)) pulled in: the fan is inset by that much each side.
 * @param {number} count
 * @param {number} W
 * @param {number} cw
 * @param {number} ch
 * @returns {{left: number, rotate: number, bottom: number, z: number}[]}
 */
export function fanLayout(count, W, cw, ch) {
  const mid = (count - 1) / 2;
  const tilt = count > 13 ? 1.2 : 1.8; // degrees per card from the middle
  const outer = mid * tilt * Math.PI / 180;
  const inset = Math.ceil((FAN_ORIGIN * ch + FAN_LIFT) * Math.sin(outer) - cw / 2 * (1 - Math.cos(outer))) + 1;
  const step = count > 1 ? Math.min(cw * 0.66, (W - cw - 2 * inset) / (count - 1)) : 0;
  const left0 = (W - (cw + step * (count - 1))) / 2;
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push({ left: left0 + i * step, rotate: (i - mid) * tilt, bottom: 4 - Math.pow(i - mid, 2) * (count > 13 ? 0.18 : 0.3), z: i + 1 });
  }
  return out;
}

/**
 * change says what happened between two views: a round ended (a new
 * lastRound), a trick finished, a card was played.
 * @param {any} prev
 * @param {any} g
 * @returns {{newRound: boolean, trickDone: boolean, played: boolean}}
 */
export function change(prev, g) {
  const newRound = !!g.lastRound && (!prev.lastRound || prev.lastRound.round !== g.lastRound.round);
  const trickDone = newRound || g.round !== prev.round || g.tricks.length !== prev.tricks.length;
  const played = g.trick.plays.length > prev.trick.plays.length;
  return { newRound, trickDone, played };
}
