// @ts-check
// Three Monks' pure derivations (no DOM): the board the table draws while a
// state's events play (applyEvent takes in one event as the rules made
// it), which events are new, where each monk sits, the seats' names, the
// status line and whether the viewer may choose a card now. View G and
// events: docs/threemonks.md. jstest/threemonks_state.test.mjs tests it.

/** @typedef {import("../js/types.js").Player} Player */
/** @typedef {(key: string, params?: Record<string, any>) => string} T */
/**
 * An event with the round it happened in.
 * @typedef {{e: any, round: number}} Ev
 */

export const STEP_MS = 380; // one animated event
export const FAST_MS = 90; // when the animation falls behind
export const BEHIND = 10; // queued events that count as falling behind
export const LOG_MAX = 240;
export const WIN = 10;

/**
 * seatIn is the seat of a place "water:<seat>", "item:<seat>" or "seat:<seat>".
 * @param {string} place
 * @returns {number}
 */
const seatIn = (place) => Number(place.slice(place.indexOf(":") + 1));

/**
 * moveWater adds n water to a place of board b (n < 0 takes it away).
 * @param {any} b
 * @param {string | undefined} place
 * @param {number} n
 */
export function moveWater(b, place, n) {
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
 * @param {any} b
 * @param {number} r
 * @param {string | null} you
 */
export function nextRound(b, r, you) {
  b.lastCards = b.revealed || b.lastCards;
  b.revealed = null;
  b.chosen = [];
  b.round = r;
  b.phase = "choose";
  const own = b.players && you !== null && b.players[you];
  if (own) {
    const last = b.lastCards && b.lastCards[Number(you)];
    b.players[you] = { ...own, choice: "", hand: own.hand.map((/** @type {any} */ c) => ({ ...c, locked: c.card === last })) };
  }
}

/**
 * applyEvent plays one event x on board b, a copy of a view G: the same
 * changes the rules made when they emitted it (docs/threemonks.md,
 * "Events"), so that once a state's events are all played b holds its
 * numbers.
 * @param {any} b
 * @param {Ev} x
 * @param {string | null} you
 */
export function applyEvent(b, x, you) {
  const e = x.e;
  if (x.round > b.round) nextRound(b, x.round, you);
  switch (e.kind) {
    case "reveal":
      b.revealed = e.cards.slice();
      b.chosen = e.cards.map((/** @type {string} */ _, /** @type {number} */ i) => String(i));
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
 * @param {any} g
 * @returns {any}
 */
export function startBoard(g) {
  const b = structuredClone(g);
  b.pending = null;
  return b;
}

/**
 * newEvents splits view g's events against those already seen ({round,
 * count}, null before the first state): fresh are the ones to play;
 * all (when the page cannot tell what it missed) go straight to the log.
 * @param {{round: number, count: number} | null} seen
 * @param {any} g
 * @returns {{fresh: Ev[], all: Ev[] | null, seen: {round: number, count: number}}}
 */
export function newEvents(seen, g) {
  const cur = g.events.map((/** @type {any} */ e) => ({ e, round: g.round }));
  const last = g.lastEvents.map((/** @type {any} */ e) => ({ e, round: g.round - 1 }));
  let fresh = null, all = null;
  if (!seen) all = [...last, ...cur];
  else if (seen.round === g.round) fresh = cur.slice(seen.count);
  else if (seen.round === g.round - 1) fresh = last.slice(seen.count).concat(cur);
  else all = [...last, ...cur];
  return { fresh: fresh || [], all, seen: { round: g.round, count: g.events.length } };
}

/**
 * spotAt is a monk's place on the round table, [x %, y %]: the viewer (me,
 * -1 for a spectator: seat 0) at the bottom, the others clockwise.
 * @param {number} seat
 * @param {number} me
 * @param {number} n
 * @returns {[number, number]}
 */
export function spotAt(seat, me, n) {
  const rel = (seat - Math.max(me, 0) + n) % n;
  const a = Math.PI / 2 + (rel * 2 * Math.PI) / n; // clockwise on screen
  return [50 + 40 * Math.cos(a), 50 + 37 * Math.sin(a)];
}

/**
 * seatName is a seat's name: "You" for the viewer, the seat number added
 * when names repeat, "Seat n" for an empty seat.
 * @param {Player[] | undefined} players
 * @param {number} seat
 * @param {number} me
 * @param {T} t
 * @returns {string}
 */
export function seatName(players, seat, me, t) {
  if (seat < 0) return "";
  if (seat === me) return t("tm.you");
  const p = players && players[seat];
  if (!p || !p.name) return t("tm.seat", { n: seat + 1 });
  const dup = /** @type {Player[]} */ (players).some((q, i) => i !== seat && q && q.name === p.name);
  return dup ? `${p.name} ${seat + 1}` : p.name;
}

/**
 * logSeatName names a seat in log sentences: the viewer by name and
 * "(you)", so English verbs stay in the third person.
 * @param {Player[] | undefined} players
 * @param {number} seat
 * @param {number} me
 * @param {T} t
 * @returns {string}
 */
export function logSeatName(players, seat, me, t) {
  if (seat !== me) return seatName(players, seat, me, t);
  const p = players && players[seat];
  return (p && p.name ? p.name + " " : "") + "(" + t("tm.you") + ")";
}

/**
 * ownSeat is the viewer's {hand, choice} in view g, or null.
 * @param {any} g
 * @param {string | null} you
 * @returns {any}
 */
export const ownSeat = (g, you) => (g && g.players && you !== null ? g.players[you] : null);

/**
 * endText says who won (or a draw) at the end.
 * @param {any} g
 * @param {any} o ctx.gameover
 * @param {string | null} you
 * @param {T} t
 * @param {(seat: number) => string} nameOf
 * @returns {string}
 */
export const endText = (g, o, you, t, nameOf) => (o.draw ? t("tm.draw") : o.winner === you ? t("tm.youWin", { n: g.monks[g.winner].water })
  : t("tm.wins", { name: nameOf(Number(o.winner)), n: g.monks[Number(o.winner)].water }));

/**
 * statusOf is the status line and its class ("mine" when the viewer is
 * asked, "over" at the end).
 * @param {any} g the board shown
 * @param {{started: boolean, animating: boolean, gameover: any, you: string | null, me: number}} o
 * @param {T} t
 * @param {(seat: number) => string} nameOf
 * @returns {{text: string, cls: string}}
 */
export function statusOf(g, o, t, nameOf) {
  if (!o.started) return { text: t("tm.waiting"), cls: "" };
  if (o.animating) return { text: t("tm.resolving", { n: g.round }), cls: "" };
  if (o.gameover) return { text: endText(g, o.gameover, o.you, t, nameOf), cls: "over" };
  if (g.pending) {
    const mineNow = g.pending.seat === o.me;
    const text = t("tm.round", { n: g.round }) + " · " + t("tm.phase." + g.phase) + " · " +
      (mineNow ? t("tm.ask" + g.pending.kind[0].toUpperCase() + g.pending.kind.slice(1), { item: t("tm.item." + g.monks[o.me].item.kind) })
        : t("tm.waitDecide", { name: nameOf(g.pending.seat), what: t("tm.what." + g.pending.kind) }));
    return { text, cls: mineNow ? "mine" : "" };
  }
  const left = g.numPlayers - g.chosen.length;
  const own = ownSeat(g, o.you);
  if (own && !own.choice) return { text: t("tm.chooseNow", { n: g.round }), cls: "mine" };
  if (own) return { text: t("tm.waitChoose", { card: t("tm.card." + own.choice), k: left }), cls: "" };
  return { text: t("tm.othersChoose", { n: g.round, k: left }), cls: "" };
}
