// Tests of static/games/gongzhu_state.js (what the Gong Zhu plugin derives
// from a view: seats around the table, whose turn, the playable cards,
// the status line, the tricks, tags and marks, the hand's fan) with
// node's own test runner: node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const S = await import("../static/games/gongzhu_state.js");
const { label, signed, signClass, strings } = await import("../static/games/gongzhu_text.js");

// t writes a key and its params, so a test sees which sentence was chosen.
const t = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);

// view builds a 4-seat view G in round 2 with the given trick and own seat.
function view(over = {}) {
  return {
    seats: 4, round: 2, tricksPerRound: 13, current: 1, openingLead: false,
    trick: { plays: [], taker: -1 }, tricks: [], totals: [0, 0, 0, 0],
    players: { 1: { hand: ["2H", "9H", "QS", "3C"], legal: ["2H", "9H"] } },
    ...over,
  };
}

test("seats sit counterclockwise from the viewer at the bottom", () => {
  assert.equal(S.bottomSeat("2"), 2);
  assert.equal(S.bottomSeat(null), 0, "a spectator sees seat 0 at the bottom");
  assert.deepEqual([0, 1, 2, 3].map((s) => S.relSeat(s, "2", 4)), [2, 3, 0, 1]);
  assert.deepEqual([0, 1, 2].map((s) => S.relSeat(s, "1", 3)), [2, 0, 1]);
  assert.deepEqual(S.spotOf(2, "2", 4), [50, 87]);
  assert.deepEqual(S.spotOf(3, "2", 4), [88, 50], "the next seat is on the right");
  assert.deepEqual(S.spotOf(0, null, 5), [50, 50], "no spots for 5: the centre");
  // The bottom seat's spot, on an 800x400 table, at k=1 and at the trick's 0.36.
  assert.deepEqual(S.spotOffset(0, "0", 4, 800, 400, 1), [0, 148]);
  const [dx, dy] = S.spotOffset(1, "0", 4, 800, 400, 0.36);
  assert.ok(Math.abs(dx - 0.38 * 800 * 0.36) < 1e-9 && dy === 0);
});

test("a card on its way lands when the hand drops it or its round ends", () => {
  const g = view();
  const own = S.ownSeat(g, "1");
  assert.equal(S.pendingDone(null, 2, g, own), false, "nothing on its way");
  assert.equal(S.pendingDone("2H", 2, g, own), false, "still in the hand of its round: on its way");
  assert.equal(S.pendingDone("KD", 2, g, own), true, "out of the hand: played");
  // Played last in round 1, the same card dealt again in round 2: landed.
  assert.equal(S.pendingDone("2H", 1, g, own), true, "the next deal holds it again");
  assert.equal(S.pendingDone("2H", 2, g, null), true, "no hand any more");
});

test("the seat to play and the hand sizes are counted from ctx and the tricks", () => {
  const fin = { leader: 0, plays: [0, 1, 2, 3].map((seat) => ({ seat, card: "2H" })), taker: 1 };
  const s = {
    type: "state",
    ctx: { currentPlayer: "3" },
    G: { seats: 4, tricksPerRound: 13, tricks: [fin, fin], trick: { plays: [{ seat: 1, card: "5C" }, { seat: 2, card: "9C" }] } },
  };
  const d = S.withTable(s);
  assert.equal(d.G.current, 3);
  assert.deepEqual(d.G.handCounts, [11, 10, 10, 11]);
  assert.equal(d.G.trick.winning, 2, "9C over 5C");
  assert.equal(s.G.current, undefined, "the message itself is left as it came");
  assert.equal(d.ctx, s.ctx);
  const three = S.withTable({ ctx: { currentPlayer: "0" }, G: { seats: 3, tricksPerRound: 17, tricks: [], trick: { plays: [] } } });
  assert.deepEqual([three.G.current, three.G.handCounts], [0, [17, 17, 17]]);
  assert.equal(S.withTable({ ctx: { currentPlayer: "" }, G: { seats: 4, tricksPerRound: 13, tricks: [], trick: { plays: [] } } }).G.current, -1);
  assert.equal(S.withTable(null), null);
});

test("the seat on top: the highest card of the led suit, no trumps", () => {
  const tr = (...cs) => ({ plays: cs.map((card, i) => ({ seat: (i + 1) % 4, card })) });
  assert.equal(S.trickWinner(tr()), -1, "empty");
  assert.equal(S.trickWinner(null), -1);
  assert.equal(S.trickWinner(tr("5C")), 1);
  assert.equal(S.trickWinner(tr("5C", "AH", "4C")), 1, "off-suit aces do not count");
  assert.equal(S.trickWinner(tr("5C", "TC", "9C", "KC")), 0, "K over T over 9");
  assert.equal(S.trickWinner(tr("JD", "QD", "AD")), 3, "A is high");
});

test("names: You for the viewer, the seat number when names repeat", () => {
  const players = [{ id: 0, name: "Bot" }, { id: 1, name: "Ann" }, { id: 2, name: "Bot" }, { id: 3 }];
  assert.equal(S.plainName(players, 1, "1", t), "gongzhu.you");
  assert.equal(S.plainName(players, 0, "1", t), "Bot");
  assert.equal(S.plainName(players, 3, "1", t), 'gongzhu.seat {"n":4}');
  assert.equal(S.nameOf(players, 0, "1", t), "Bot 1");
  assert.equal(S.nameOf(players, 2, "1", t), "Bot 3");
  assert.equal(S.nameOf(players, 1, "1", t), "gongzhu.you");
  assert.equal(S.nameOf(players, 1, null, t), "Ann");
  assert.equal(S.nameOf(undefined, 2, null, t), 'gongzhu.seat {"n":3}');
});

test("the playable cards: the legal ones on the viewer's turn only", () => {
  const g = view();
  const own = S.ownSeat(g, "1");
  assert.deepEqual(own.hand, ["2H", "9H", "QS", "3C"]);
  assert.equal(S.ownSeat(g, null), null, "a spectator has no hand");
  const on = S.isMyTurn(g, { started: true, you: "1", onShow: false });
  assert.equal(on, true);
  assert.deepEqual([...S.playable(own, on, null)], ["2H", "9H"]);
  assert.deepEqual([...S.playable(own, on, "2H")], [], "none while a card is on its way");
  assert.deepEqual([...S.playable(own, false, null)], []);
  assert.deepEqual([...S.playable(null, true, null)], []);
  // Not the viewer's turn while a finished trick or the round's banner is on show,
  // before the start, for another seat, or for a spectator.
  assert.equal(S.isMyTurn(g, { started: true, you: "1", onShow: true }), false);
  assert.equal(S.isMyTurn(g, { started: false, you: "1", onShow: false }), false);
  assert.equal(S.isMyTurn(g, { started: true, you: "0", onShow: false }), false);
  assert.equal(S.isMyTurn(g, { started: true, you: null, onShow: false }), false);
  assert.equal(S.isMyTurn(null, { started: true, you: "1", onShow: false }), false);
  // The next deal shows once the round's banner is gone.
  assert.deepEqual(S.handShown(own, false), own.hand);
  assert.deepEqual(S.handShown(own, true), []);
});

test("playCheck: what pressing a card does", () => {
  const own = { hand: ["2H", "9H", "QS"], legal: ["2H", "9H"] };
  const on = { pending: null, started: true, gameover: false, myTurn: true };
  assert.equal(S.playCheck(own, "2H", on), "play");
  assert.equal(S.playCheck(own, "QS", on), "illegal", "sent all the same: the server says why");
  assert.equal(S.playCheck(own, "2H", { ...on, myTurn: false }), "notYourTurn");
  assert.equal(S.playCheck(own, "2H", { ...on, pending: "9H" }), "ignore");
  assert.equal(S.playCheck(own, "2H", { ...on, gameover: true }), "ignore");
  assert.equal(S.playCheck(own, "2H", { ...on, started: false }), "ignore");
  assert.equal(S.playCheck(null, "2H", on), "ignore");
});

test("the status line says what to do, and the round and trick", () => {
  const name = (seat) => "P" + seat;
  const own = { hand: ["2H", "9H", "QS", "3C"], legal: [] };
  const base = { started: true, roundOver: null, held: null, myTurn: true, own };
  let s = S.statusLine(view({ openingLead: true }), base, t, name);
  assert.equal(s.text, 'gongzhu.yourLeadOpening {"card":"♣2"}');
  assert.equal(s.cls, "mine");
  assert.equal(s.info, 'gongzhu.roundTrick {"round":2,"trick":1,"total":13}');
  assert.equal(S.statusLine(view({ openingLead: true, seats: 3 }), base, t, name).text, 'gongzhu.yourLeadOpening {"card":"♣3"}');
  assert.equal(S.statusLine(view(), base, t, name).text, "gongzhu.yourLead");
  const led = (suit) => view({ trick: { plays: [{ seat: 0, card: "5" + suit }], ledSuit: suit, taker: -1 } });
  assert.equal(S.statusLine(led("H"), base, t, name).text, 'gongzhu.yourFollow {"suit":"♥"}');
  assert.equal(S.statusLine(led("D"), base, t, name).text, 'gongzhu.yourVoid {"suit":"♦"}');
  s = S.statusLine(view(), { ...base, myTurn: false }, t, name);
  assert.deepEqual([s.text, s.cls], ['gongzhu.othersTurn {"name":"P1"}', ""]);
  assert.equal(S.statusLine(view({ openingLead: true }), { ...base, myTurn: false }, t, name).text, 'gongzhu.othersLeadOpening {"name":"P1","card":"♣2"}');
  assert.equal(S.statusLine(view(), { ...base, held: { taker: 3 } }, t, name).text, 'gongzhu.took {"name":"P3"}');
  assert.equal(S.statusLine(view(), { ...base, roundOver: { round: 1 } }, t, name).text, 'gongzhu.roundOver {"n":1}');
  assert.equal(S.statusLine(view(), { ...base, started: false }, t, name).text, "gongzhu.waiting");
  // The counter never passes the last trick.
  const full = view({ tricks: Array.from({ length: 13 }, () => ({ plays: [], taker: 0 })) });
  assert.equal(S.statusLine(full, base, t, name).info, 'gongzhu.roundTrick {"round":2,"trick":13,"total":13}');
});

test("the finished and the last trick, this round's or the last round's", () => {
  const a = { plays: [{ seat: 0, card: "2C" }], taker: 0 }, b = { plays: [{ seat: 1, card: "AS" }], taker: 1 };
  assert.equal(S.finishedTrick(view({ tricks: [a, b] })), b);
  assert.equal(S.finishedTrick(view({ lastRound: { round: 1, tricks: [a, b] } })), b, "right after a deal");
  assert.equal(S.finishedTrick(view()), undefined);
  assert.deepEqual(S.lastTrick(view({ tricks: [a, b] })), { trick: b, n: 2 });
  assert.deepEqual(S.lastTrick(view({ lastRound: { round: 1, tricks: [a] } })), { trick: a, n: 1 });
  assert.equal(S.lastTrick(view()), null);
  assert.equal(S.lastTrick(null), null);
  assert.equal(S.finKey(view({ tricks: [a, b] })), "2:2");
});

test("a round's tags: grand slam, all hearts, the transformer's ×2", () => {
  const hearts = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"];
  assert.deepEqual(S.roundTags([...hearts, "QS", "JD", "TC"], 800), ["gongzhu.slam"]);
  assert.deepEqual(S.roundTags(hearts, 200), ["gongzhu.allHearts"]);
  assert.deepEqual(S.roundTags(["QS", "TC"], -200), ["gongzhu.doubled"]);
  assert.deepEqual(S.roundTags(["TC"], 50), [], "the transformer alone is not a ×2");
  assert.deepEqual(S.roundTags(["TC", "2H"], 0), [], "a doubled 0 is no ×2");
  assert.deepEqual(S.roundTags([], 0), []);
});

test("marks, team totals and the change between two views", () => {
  const row = { pig: 2, sheep: 0, transformer: 2, allHearts: null };
  assert.deepEqual(S.marksOf(row, 2).map((m) => m[0]), ["pig", "transformer"]);
  assert.deepEqual(S.marksOf(row, 0).map((m) => m[0]), ["sheep"]);
  assert.deepEqual(S.marksOf(row, 1), []);
  assert.deepEqual(S.teamTotals({ seats: 4, totals: [10, -20, 30, 5] }), [40, -15]);
  assert.deepEqual(S.teamTotals({ seats: 3, totals: [10, -20, 30] }), []);
  const prev = view({ trick: { plays: [{ seat: 0, card: "2C" }], taker: -1 } });
  assert.deepEqual(S.change(prev, view({ trick: { plays: [{ seat: 0, card: "2C" }, { seat: 1, card: "5C" }], taker: -1 } })),
    { newRound: false, trickDone: false, played: true });
  assert.deepEqual(S.change(prev, view({ tricks: [{ plays: [], taker: 1 }] })), { newRound: false, trickDone: true, played: false });
  assert.deepEqual(S.change(prev, view({ round: 3, lastRound: { round: 2 } })), { newRound: true, trickDone: true, played: false });
  assert.deepEqual(S.change(prev, prev), { newRound: false, trickDone: false, played: false });
});

test("the hand's fan is centred, symmetric and inside the box", () => {
  for (const count of [1, 5, 13, 17]) {
    const spots = S.fanLayout(count, 600, 60, 88);
    assert.equal(spots.length, count);
    const first = spots[0], last = spots[count - 1];
    assert.ok(Math.abs(first.left + (last.left + 60) - 600) < 1e-9, `centred (${count})`);
    assert.ok(Math.abs(first.rotate + last.rotate) < 1e-9, "tilted both ways alike");
    assert.ok(first.left >= 0 && last.left + 60 <= 600);
    assert.deepEqual(spots.map((s) => s.z), Array.from({ length: count }, (_, i) => i + 1));
    for (let i = 1; i < count; i++) assert.ok(spots[i].left > spots[i - 1].left);
  }
  assert.equal(S.fanLayout(1, 600, 60, 88)[0].left, 270);
  // A narrow phone squeezes the cards closer than 2/3 of a card.
  const phone = S.fanLayout(13, 360, 60, 88);
  assert.ok(phone[1].left - phone[0].left < 40);
});

test("the fan's turned cards stay inside the box, raised or not", () => {
  // Each corner of a card turned by its rotate about the point FAN_ORIGIN of
  // its height below its top, after its rise (translateY, before the turn).
  const extent = (/** @type {any} */ s, cw, ch, lift) => {
    const a = s.rotate * Math.PI / 180, ox = s.left + cw / 2, oy = S.FAN_ORIGIN * ch;
    const xs = [];
    for (const x of [0, cw]) for (const y of [0, ch]) {
      const lx = x - cw / 2, ly = y - lift - oy;
      xs.push(ox + lx * Math.cos(a) - ly * Math.sin(a));
    }
    return [Math.min(...xs), Math.max(...xs)];
  };
  for (const [W, cw, ch] of [[370, 50, 72], [360, 60, 88], [320, 50, 72], [600, 62, 88], [1000, 62, 88]]) {
    for (const count of [2, 8, 13, 17]) {
      for (const lift of [0, 16, S.FAN_LIFT]) {
        for (const s of S.fanLayout(count, W, cw, ch)) {
          const [l, r] = extent(s, cw, ch, lift);
          assert.ok(l >= 0 && r <= W, `${count} cards in ${W} px, lifted ${lift}: ${l.toFixed(1)}..${r.toFixed(1)}`);
        }
      }
    }
  }
});

test("card names and scores", () => {
  assert.equal(label("QS"), "♠Q");
  assert.equal(label("TH"), "♥10");
  assert.equal(signed(5), "+5");
  assert.equal(signed(-200), "-200");
  assert.equal(signed(0), "0");
  assert.equal(signClass(1), "num pos");
  assert.equal(signClass(-1), "num neg");
  assert.equal(signClass(0), "num");
  assert.deepEqual(Object.keys(strings.en).sort(), Object.keys(strings.zh).sort(), "every string in both languages");
});
