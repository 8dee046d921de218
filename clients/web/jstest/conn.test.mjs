// Tests of static/js/conn.js's patches with node's own test runner, with
// a stand-in WebSocket: node --test clients/web/jstest/
//
// With CHAGUAN_PATCH_FIXTURE naming a file of real server messages (the Go
// test TestNodeModules writes one: pairs of what a patch client and
// a full client were sent at each change of a Gong Zhu match), every
// patch is checked to give onState exactly the full client's state.
import { test, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";

// The browser's globals conn.js uses.
const sockets = [];
class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 1;
    this.sent = [];
    sockets.push(this);
  }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() { this.readyState = 3; }
}
globalThis.WebSocket = FakeSocket;
globalThis.window = { addEventListener() {}, removeEventListener() {} };
globalThis.location = { protocol: "http:", host: "example.test" };

const { Conn } = await import("../static/js/conn.js");

// open starts a Conn and its socket; states collects what onState gets.
function open(seat) {
  const states = [];
  const errors = [];
  const c = new Conn({ game: "gomoku", matchID: "m-1", seat, onState: (s) => states.push(s), onError: (e) => errors.push(e) });
  c.start();
  const ws = sockets[sockets.length - 1];
  ws.onopen();
  const recv = (msg) => ws.onmessage({ data: typeof msg === "string" ? msg : JSON.stringify(msg) });
  return { c, ws, states, errors, recv };
}

const state1 = {
  type: "state", matchID: "m-1", stateID: 1,
  G: { board: ["...", "..."], moves: [], last: null },
  ctx: { numPlayers: 2, currentPlayer: "0", turn: 1, gameover: null },
  players: [{ id: 0, name: "Ann", isConnected: true, isBot: false }, { id: 1, name: "Bob", isConnected: false, isBot: false }],
  log: [], you: "0",
};

beforeEach(() => { sockets.length = 0; });

test("hello asks for patches; a patch gives the state a full message would", () => {
  const { ws, states, recv } = open({ playerID: "0", credentials: "c" });
  assert.deepEqual(ws.sent[0], { type: "hello", playerID: "0", credentials: "c", patches: true });
  recv(state1);
  assert.equal(JSON.stringify(states[0]), JSON.stringify(state1));
  recv({ type: "patch", stateID: 2, base: 1, ops: [
    { op: "replace", path: "/G/board/0", value: "B.." },
    { op: "add", path: "/G/moves/-", value: [0, 0] },
    { op: "replace", path: "/G/last", value: [0, 0] },
    { op: "replace", path: "/ctx/currentPlayer", value: "1" },
    { op: "add", path: "/log/-", value: { turn: 1, playerID: "0", move: "place", args: [0, 0] } },
  ] });
  const want = structuredClone(state1);
  want.stateID = 2;
  want.G.board[0] = "B..";
  want.G.moves.push([0, 0]);
  want.G.last = [0, 0];
  want.ctx.currentPlayer = "1";
  want.log.push({ turn: 1, playerID: "0", move: "place", args: [0, 0] });
  assert.equal(states.length, 2);
  assert.equal(JSON.stringify(states[1]), JSON.stringify(want));
  // A change of presence keeps the stateID: base == stateID.
  recv({ type: "patch", stateID: 2, base: 2, ops: [{ op: "replace", path: "/players/1/isConnected", value: true }] });
  assert.equal(states[2].stateID, 2);
  assert.equal(states[2].players[1].isConnected, true);
});

test("the page may change the states it is given", () => {
  const { states, recv } = open(null);
  recv(state1);
  states[0].G.moves.push("garbage");
  states[0].log = null;
  recv({ type: "patch", stateID: 2, base: 1, ops: [{ op: "add", path: "/G/moves/-", value: [1, 1] }] });
  states[1].G.moves.length = 0;
  recv({ type: "patch", stateID: 3, base: 2, ops: [{ op: "add", path: "/G/moves/-", value: [2, 2] }] });
  assert.deepEqual(states[2].G.moves, [[1, 1], [2, 2]]);
  assert.deepEqual(states[2].log, []);
});

test("a move's promise resolves with the patched state that acks it", async () => {
  const { c, ws, recv } = open({ playerID: "0", credentials: "c" });
  recv(state1);
  const p = c.move("place", [0, 0]);
  const id = ws.sent[ws.sent.length - 1].id;
  recv({ type: "patch", stateID: 2, base: 1, ack: id, ops: [{ op: "add", path: "/G/moves/-", value: [0, 0] }] });
  const s = await p;
  assert.equal(s.ack, id);
  assert.deepEqual(Object.keys(s).slice(0, 5), ["type", "matchID", "stateID", "ack", "G"]);
});

test("a gap sends one sync, skips patches until the state, and settles their acks then", async () => {
  const { c, ws, states, recv } = open({ playerID: "0", credentials: "c" });
  recv(state1);
  const p = c.move("place", [0, 0]);
  const id = ws.sent[ws.sent.length - 1].id;
  const before = ws.sent.length;
  recv({ type: "patch", stateID: 3, base: 2, ops: [{ op: "add", path: "/G/moves/-", value: [5, 5] }] });
  recv({ type: "patch", stateID: 4, base: 3, ack: id, ops: [] });
  assert.equal(states.length, 1, "no state from a patch that does not follow");
  assert.deepEqual(ws.sent.slice(before), [{ type: "sync" }], "one sync");
  const full = { ...structuredClone(state1), stateID: 4 };
  full.G.moves = [[0, 0], [5, 5]];
  recv(full);
  assert.equal(JSON.stringify(states[1]), JSON.stringify(full));
  const s = await p;
  assert.equal(s.stateID, 4);
  // Patches follow on from the new state.
  recv({ type: "patch", stateID: 5, base: 4, ops: [{ op: "add", path: "/G/moves/-", value: [6, 6] }] });
  assert.deepEqual(states[2].G.moves, [[0, 0], [5, 5], [6, 6]]);
});

test("a patch that does not apply is a gap too", () => {
  const { ws, states, recv } = open(null);
  recv(state1);
  recv({ type: "patch", stateID: 2, base: 1, ops: [{ op: "replace", path: "/G/nothing/0", value: 1 }] });
  recv({ type: "patch", stateID: 3, base: 2, ops: [] });
  assert.equal(states.length, 1);
  assert.deepEqual(ws.sent.filter((m) => m.type === "sync"), [{ type: "sync" }]);
});

test("real server messages: every patch gives the full client's state", { skip: !process.env.CHAGUAN_PATCH_FIXTURE && "no CHAGUAN_PATCH_FIXTURE (the Go test TestNodeModules sets it)" }, () => {
  const pairs = JSON.parse(readFileSync(process.env.CHAGUAN_PATCH_FIXTURE, "utf8"));
  assert.ok(pairs.length > 50, `only ${pairs.length} messages`);
  const { states, recv } = open(null);
  let patches = 0;
  pairs.forEach(([patchMsg, fullMsg], i) => {
    if (JSON.parse(patchMsg).type === "patch") patches++;
    recv(patchMsg);
    assert.equal(states.length, i + 1, `message ${i} gave no state: ${patchMsg.slice(0, 200)}`);
    assert.equal(JSON.stringify(states[i]), JSON.stringify(JSON.parse(fullMsg)), `message ${i}`);
  });
  assert.ok(patches > pairs.length / 2, `only ${patches} patches`);
});
