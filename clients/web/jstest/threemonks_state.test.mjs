// Tests of static/games/threemonks_state.js (the board the Three Monks
// table draws while events play, the new events, the seats' places and
// names, the status line) with node's own test runner:
// node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";

const S = await import("../static/games/threemonks_state.js");
const t = (key, params) => (params ? `${key} ${JSON.stringify(params)}` : key);

function view(over = {}) {
  return {
    numPlayers: 3, round: 2, phase: "fetch", centre: 4, supplyTaken: 6, holder: 0, winner: -1,
    monks: [{ water: 1, item: { kind: "bucket", water: 2 } }, { water: 0, item: { kind: "bowl", water: 0 } }, { water: 5, item: null }],
    chosen: ["0", "1", "2"], revealed: ["fetch", "chant", "rest"], lastCards: null, pending: null,
    players: { 1: { choice: "chant", hand: [{ card: "chant", locked: false }, { card: "rest", locked: false }] } },
    events: [], lastEvents: [],
    ...over,
  };
}

test("applyEvent moves water between the supply, the centre, monks and items", () => {
  const b = view();
  S.applyEvent(b, { e: { kind: "fetch", seat: 0, from: "supply", to: "item:0", n: 3 }, round: 2 }, "1");
  assert.equal(b.supplyTaken, 9);
  assert.deepEqual(b.monks[0].item, { kind: "bucket", water: 5 });
  S.applyEvent(b, { e: { kind: "drink", seat: 0, from: "item:0", to: "water:0", n: 2 }, round: 2 }, "1");
  assert.deepEqual([b.monks[0].item.water, b.monks[0].water], [3, 3]);
  S.applyEvent(b, { e: { kind: "pour", seat: 2, from: "water:2", to: "centre", n: 1 }, round: 2 }, "1");
  assert.deepEqual([b.monks[2].water, b.centre], [4, 5]);
  S.applyEvent(b, { e: { kind: "fill", seat: 2, from: "centre", to: "item:2", n: 1 }, round: 2 }, "1");
  assert.deepEqual(b.monks[2].item, { kind: "", water: 1 }, "an empty item slot takes water");
  S.applyEvent(b, { e: { kind: "token", seat: 1, from: "seat:0", to: "seat:1" }, round: 2 }, "1");
  assert.equal(b.holder, 1);
  S.applyEvent(b, { e: { kind: "pass", seat: 0, from: "item:0", to: "item:1", item: "bucket", n: 3 }, round: 2 }, "1");
  assert.deepEqual(b.monks[1].item, { kind: "bucket", water: 3 });
  S.applyEvent(b, { e: { kind: "phase", phase: "drink" }, round: 2 }, "1");
  assert.equal(b.phase, "drink");
  S.applyEvent(b, { e: { kind: "win", seat: 2 }, round: 2 }, "1");
  assert.equal(b.winner, 2);
});

test("an event of the next round turns the board to choosing, last cards locked", () => {
  const b = view();
  S.applyEvent(b, { e: { kind: "reveal", cards: ["rest", "fetch", "chant"] }, round: 3 }, "1");
  assert.equal(b.round, 3);
  assert.deepEqual(b.lastCards, ["fetch", "chant", "rest"], "this round's cards became last round's");
  assert.deepEqual(b.revealed, ["rest", "fetch", "chant"]);
  assert.deepEqual(b.chosen, ["0", "1", "2"]);
  assert.equal(b.players[1].choice, "");
  assert.deepEqual(b.players[1].hand, [{ card: "chant", locked: true }, { card: "rest", locked: false }]);
  const spectator = view();
  S.nextRound(spectator, 3, null);
  assert.equal(spectator.players[1].choice, "chant", "a spectator's board has no own hand to lock");
});

test("startBoard copies the view, its question answered", () => {
  const g = view({ pending: { seat: 1, kind: "bowl" } });
  const b = S.startBoard(g);
  assert.equal(b.pending, null);
  b.monks[0].water = 99;
  assert.equal(g.monks[0].water, 1, "a copy");
});

test("newEvents: the fresh ones, across a round's end, and all of them when lost", () => {
  const g = view({ round: 3, events: ["c1", "c2"], lastEvents: ["l1", "l2", "l3"] });
  let r = S.newEvents(null, g);
  assert.deepEqual(r.fresh, []);
  assert.deepEqual(r.all.map((x) => [x.e, x.round]), [["l1", 2], ["l2", 2], ["l3", 2], ["c1", 3], ["c2", 3]]);
  assert.deepEqual(r.seen, { round: 3, count: 2 });
  r = S.newEvents({ round: 3, count: 1 }, g);
  assert.deepEqual(r.fresh.map((x) => x.e), ["c2"]);
  assert.equal(r.all, null);
  r = S.newEvents({ round: 2, count: 2 }, g);
  assert.deepEqual(r.fresh.map((x) => [x.e, x.round]), [["l3", 2], ["c1", 3], ["c2", 3]]);
  r = S.newEvents({ round: 1, count: 2 }, g);
  assert.equal(r.fresh.length, 0);
  assert.equal(r.all.length, 5, "too far behind: everything to the log");
});

test("spots: the viewer at the bottom, the others clockwise", () => {
  const [x0, y0] = S.spotAt(1, 1, 4);
  assert.ok(Math.abs(x0 - 50) < 1e-9 && Math.abs(y0 - 87) < 1e-9);
  const [x1, y1] = S.spotAt(2, 1, 4);
  assert.ok(Math.abs(x1 - 10) < 1e-9 && Math.abs(y1 - 50) < 1e-9, "the next seat on the left: clockwise");
  assert.deepEqual(S.spotAt(0, -1, 4).map((v) => Math.round(v)), [50, 87], "a spectator sees seat 0 at the bottom");
});

test("names and the status line", () => {
  const players = [{ id: 0, name: "Bot" }, { id: 1, name: "Ann" }, { id: 2, name: "Bot" }, { id: 3 }];
  assert.equal(S.seatName(players, 0, 1, t), "Bot 1");
  assert.equal(S.seatName(players, 1, 1, t), "tm.you");
  assert.equal(S.seatName(players, 3, 1, t), 'tm.seat {"n":4}');
  assert.equal(S.seatName(players, -1, 1, t), "");
  assert.equal(S.logSeatName(players, 1, 1, t), "Ann (tm.you)");
  assert.equal(S.logSeatName(players, 2, 1, t), "Bot 3");
  const name = (s) => "P" + s;
  const o = { started: true, animating: false, gameover: null, you: "1", me: 1 };
  assert.deepEqual(S.statusOf(view(), { ...o, started: false }, t, name), { text: "tm.waiting", cls: "" });
  assert.deepEqual(S.statusOf(view(), { ...o, animating: true }, t, name), { text: 'tm.resolving {"n":2}', cls: "" });
  assert.deepEqual(S.statusOf(view({ winner: 2, monks: view().monks.map((m, i) => (i === 2 ? { ...m, water: 10 } : m)) }), { ...o, gameover: { winner: "2" } }, t, name),
    { text: 'tm.wins {"name":"P2","n":10}', cls: "over" });
  assert.deepEqual(S.statusOf(view({ pending: { seat: 1, kind: "bowl" } }), o, t, name),
    { text: 'tm.round {"n":2} · tm.phase.fetch · tm.askBowl {"item":"tm.item.bowl"}', cls: "mine" });
  assert.deepEqual(S.statusOf(view({ pending: { seat: 0, kind: "drink" } }), o, t, name),
    { text: 'tm.round {"n":2} · tm.phase.fetch · tm.waitDecide {"name":"P0","what":"tm.what.drink"}', cls: "" });
  const choosing = view({ phase: "choose", chosen: ["0"], players: { 1: { choice: "", hand: [] } } });
  assert.deepEqual(S.statusOf(choosing, o, t, name), { text: 'tm.chooseNow {"n":2}', cls: "mine" });
  assert.deepEqual(S.statusOf(view({ phase: "choose", chosen: ["1"] }), o, t, name), { text: 'tm.waitChoose {"card":"tm.card.chant","k":2}', cls: "" });
  assert.deepEqual(S.statusOf(view({ phase: "choose", chosen: [] }), { ...o, you: null, me: -1 }, t, name), { text: 'tm.othersChoose {"n":2,"k":3}', cls: "" });
});
