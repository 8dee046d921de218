// Tests of the page routes (static/js/nav.js's parseRoute, which app.js
// renders by; roomPath; replay.js's replayPath) and of navigate, with
// node's own test runner: node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.mjs";

const env = install();
const { parseRoute, roomPath, navigate } = await import("../static/js/nav.js");
const { replayPath } = await import("../static/js/replay.js");

test("the lobby is /, the empty path and /index.html", () => {
  for (const p of ["/", "", "/index.html"]) assert.deepEqual(parseRoute(p), { view: "lobby" }, p);
});

test("a room is /m/{game}/{matchID}, with or without a trailing slash", () => {
  assert.deepEqual(parseRoute("/m/gomoku/abc123"), { view: "room", game: "gomoku", matchID: "abc123" });
  assert.deepEqual(parseRoute("/m/gongzhu/X-y_z/"), { view: "room", game: "gongzhu", matchID: "X-y_z" });
  assert.deepEqual(parseRoute("/m/three_monks-2/m"), { view: "room", game: "three_monks-2", matchID: "m" });
});

test("a replay is /m/{game}/{matchID}/replay, with or without a trailing slash", () => {
  assert.deepEqual(parseRoute("/m/weiqi/abc/replay"), { view: "replay", game: "weiqi", matchID: "abc" });
  assert.deepEqual(parseRoute("/m/weiqi/abc/replay/"), { view: "replay", game: "weiqi", matchID: "abc" });
  // "replay" as the match ID itself is a room.
  assert.deepEqual(parseRoute("/m/weiqi/replay"), { view: "room", game: "weiqi", matchID: "replay" });
});

test("the parts of a path are percent-decoded", () => {
  assert.deepEqual(parseRoute("/m/gomoku/a%2Fb%20c"), { view: "room", game: "gomoku", matchID: "a/b c" });
  assert.deepEqual(parseRoute("/m/gomoku/%E8%8C%B6/replay"), { view: "replay", game: "gomoku", matchID: "茶" });
  assert.deepEqual(parseRoute("/m/%67omoku/x"), { view: "room", game: "gomoku", matchID: "x" });
});

test("anything else is not found", () => {
  const bad = [
    "/lobby", "/m", "/m/", "/m/gomoku", "/m/gomoku/", "/m//abc", "/m/gomoku//",
    "/m/gomoku/abc/def", "/m/gomoku/abc/replay/x", "/m/gomoku/abc/replays", "/x/gomoku/abc",
    "/m/Gomoku/abc", // game names are lower case
    "/m/go.moku/abc", "/m/go%20moku/abc", "/m/go%2Fmoku/abc",
    "/m/" + "g".repeat(41) + "/abc", // a game name is at most 40 characters
    "/m/gomoku/" + "i".repeat(101), // a match ID is at most 100
    "/m/gomoku/%E0%A4%A", "/m/%ZZ/abc", // malformed escapes
    "/index.htm", "//",
  ];
  for (const p of bad) assert.deepEqual(parseRoute(p), { view: "notfound" }, p);
  assert.equal(parseRoute("/m/" + "g".repeat(40) + "/abc").view, "room");
  assert.equal(parseRoute("/m/gomoku/" + "i".repeat(100)).view, "room");
});

test("roomPath and replayPath give the paths parseRoute reads back", () => {
  assert.equal(roomPath("gomoku", "abc"), "/m/gomoku/abc");
  assert.equal(replayPath("gomoku", "abc"), "/m/gomoku/abc/replay");
  for (const id of ["abc", "a/b", "a b?c#d", "茶馆", "%41", "replay", "..", "a%2Fb"]) {
    assert.deepEqual(parseRoute(roomPath("carcassonne", id)), { view: "room", game: "carcassonne", matchID: id }, id);
    assert.deepEqual(parseRoute(replayPath("carcassonne", id)), { view: "replay", game: "carcassonne", matchID: id }, id);
  }
  // A match ID is escaped, never a path of its own.
  assert.equal(roomPath("gomoku", "../../x"), "/m/gomoku/..%2F..%2Fx");
});

test("navigate pushes or replaces the history entry and asks for a render", () => {
  let renders = 0;
  env.window.addEventListener("chaguan:navigate", () => renders++);
  const before = env.history.entries.length;
  navigate("/m/gomoku/abc");
  assert.equal(env.history.entries.length, before + 1);
  assert.equal(env.history.entries.at(-1), "/m/gomoku/abc");
  assert.equal(renders, 1);
  assert.deepEqual(parseRoute(env.location.pathname), { view: "room", game: "gomoku", matchID: "abc" });
  navigate("/m/gomoku/abc/replay", { replace: true });
  assert.equal(env.history.entries.length, before + 1, "replace adds no entry");
  assert.equal(env.history.entries.at(-1), "/m/gomoku/abc/replay");
  assert.equal(renders, 2);
  assert.equal(parseRoute(env.location.pathname).view, "replay");
});
