// Tests of static/js/store.js (the player's name and seats the browser
// remembers) with node's own test runner: node --test clients/web/jstest/
import { test, beforeEach, afterEach, mock } from "node:test";
import assert from "node:assert/strict";
import { fakeStorage, brokenStorage, setGlobal } from "./fakedom.mjs";

let storage = fakeStorage();
setGlobal("localStorage", storage);
const { getName, setName, getSeat, setSeat, listSeats, forgetSeat } = await import("../static/js/store.js");

beforeEach(() => {
  storage = fakeStorage();
  setGlobal("localStorage", storage);
  mock.timers.enable({ apis: ["Date"], now: 1_700_000_000_000 });
});
afterEach(() => mock.timers.reset());

test("the name is trimmed and remembered; an empty one is not", () => {
  assert.equal(getName(), "");
  setName("  Lu Yu ");
  assert.equal(getName(), "Lu Yu");
  assert.equal(storage.getItem("chaguan:name"), "Lu Yu");
  for (const n of ["", "   ", null, undefined]) setName(n);
  assert.equal(getName(), "Lu Yu");
  setName("陆羽");
  assert.equal(getName(), "陆羽");
});

test("a seat is remembered per match, with its game and when it was taken", () => {
  assert.equal(getSeat("m1"), null);
  setSeat("m1", { playerID: "1", credentials: "secret", name: "Ann" }, "gomoku");
  assert.deepEqual(getSeat("m1"), { playerID: "1", credentials: "secret", name: "Ann", game: "gomoku", at: 1_700_000_000_000 });
  assert.deepEqual(JSON.parse(storage.getItem("chaguan:seat:m1")).playerID, "1");
  assert.equal(getSeat("m2"), null);
  // The game may come with the seat.
  setSeat("m2", { playerID: "0", credentials: "c2", game: "weiqi" });
  assert.equal(getSeat("m2").game, "weiqi");
  assert.equal(getSeat("m2").name, "");
});

test("rewriting a seat keeps its game and the time it was taken", () => {
  setSeat("m1", { playerID: "1", credentials: "old" }, "gongzhu");
  mock.timers.tick(60_000);
  setSeat("m1", { playerID: "2", credentials: "new", name: "Bo" });
  assert.deepEqual(getSeat("m1"), { playerID: "2", credentials: "new", name: "Bo", game: "gongzhu", at: 1_700_000_000_000 });
  // An explicit time is kept as given.
  setSeat("m1", { playerID: "2", credentials: "new", at: 5 });
  assert.equal(getSeat("m1").at, 5);
});

test("a seat that is not one reads as none", () => {
  const bad = ["{", "null", "42", '"x"', "{}", '{"playerID":1,"credentials":"c"}', '{"playerID":"1"}', '{"playerID":"1","credentials":null}'];
  for (const raw of bad) {
    storage.setItem("chaguan:seat:m", raw);
    assert.equal(getSeat("m"), null, raw);
  }
});

test("listSeats gives every seat, the newest first, skipping others and broken ones", () => {
  setSeat("a", { playerID: "0", credentials: "ca" }, "gomoku");
  mock.timers.tick(1000);
  setSeat("b", { playerID: "1", credentials: "cb" }, "weiqi");
  mock.timers.tick(1000);
  setSeat("c", { playerID: "2", credentials: "cc" }, "gongzhu");
  storage.setItem("chaguan:name", "Ann");
  storage.setItem("chaguan:seat:broken", "{");
  storage.setItem("other:seat:x", JSON.stringify({ playerID: "0", credentials: "x" }));
  storage.setItem("another:keys:a", "not a seat"); // as long as the prefix: not seat "a" again
  // A seat stored before "game" and "at" existed.
  storage.setItem("chaguan:seat:old", JSON.stringify({ playerID: "3", credentials: "co", name: "Old" }));
  const seats = listSeats();
  assert.deepEqual(seats.map((s) => s.matchID), ["c", "b", "a", "old"]);
  assert.deepEqual(seats[0], { playerID: "2", credentials: "cc", name: "", game: "gongzhu", at: 1_700_000_002_000, matchID: "c" });
  assert.deepEqual(seats[3], { playerID: "3", credentials: "co", name: "Old", game: "", at: 0, matchID: "old" });
});

test("forgetSeat drops one seat only", () => {
  setSeat("a", { playerID: "0", credentials: "ca" }, "gomoku");
  setSeat("b", { playerID: "1", credentials: "cb" }, "gomoku");
  forgetSeat("a");
  assert.equal(getSeat("a"), null);
  assert.equal(getSeat("b").credentials, "cb");
  assert.deepEqual(listSeats().map((s) => s.matchID), ["b"]);
  forgetSeat("nothing");
  assert.equal(listSeats().length, 1);
});

test("with storage disabled nothing throws and nothing is remembered", () => {
  setGlobal("localStorage", brokenStorage());
  assert.equal(getName(), "");
  setName("Ann");
  assert.equal(getName(), "");
  setSeat("m", { playerID: "0", credentials: "c" }, "gomoku");
  assert.equal(getSeat("m"), null);
  assert.deepEqual(listSeats(), []);
  forgetSeat("m");
});
