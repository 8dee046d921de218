// Tests of static/js/pacer.js (the room's pacing of states) with node's
// own test runner and its fake timers: node --test clients/web/jstest/
import { test, beforeEach, afterEach, mock } from "node:test";
import assert from "node:assert/strict";
import { after, needsWait, createPacer, SKIP, MAX_WAIT } from "../static/js/pacer.js";

beforeEach(() => { mock.timers.enable({ apis: ["setTimeout"] }); });
afterEach(() => { mock.timers.reset(); mock.restoreAll(); });

// settle lets resolved promises' callbacks run.
const settle = () => new Promise((resolve) => setImmediate(resolve));

// plugin stands for a game's update: it records every state shown with
// its options and answers with wait(state) (milliseconds, a Promise, or
// nothing).
function plugin(wait = () => undefined) {
  const shown = [];
  const show = (s, opts) => { shown.push({ s, ...opts }); return wait(s); };
  return { shown, show, ids: () => shown.map((x) => x.s.id) };
}

test("after waits the milliseconds given, then calls once", () => {
  let n = 0;
  after(300, () => n++);
  mock.timers.tick(299);
  assert.equal(n, 0);
  mock.timers.tick(1);
  assert.equal(n, 1);
  mock.timers.tick(10000);
  assert.equal(n, 1);
});

test("after calls at once for no wait, zero, a negative or a non-number", () => {
  for (const w of [undefined, null, 0, -5, "x", NaN, false]) {
    let n = 0;
    after(w, () => n++);
    assert.equal(n, 1, String(w));
  }
});

test("after caps a wait at MAX_WAIT", () => {
  let n = 0;
  after(MAX_WAIT * 100, () => n++);
  mock.timers.tick(MAX_WAIT - 1);
  assert.equal(n, 0);
  mock.timers.tick(1);
  assert.equal(n, 1);
});

test("after waits for a Promise, settled or failed, or MAX_WAIT for one that never settles", async () => {
  let n = 0;
  let resolve;
  after(new Promise((r) => { resolve = r; }), () => n++);
  await settle();
  assert.equal(n, 0);
  resolve();
  await settle();
  assert.equal(n, 1);
  mock.timers.tick(MAX_WAIT);
  assert.equal(n, 1, "the guard timer was cleared");

  let m = 0;
  let reject;
  after(new Promise((_, r) => { reject = r; }), () => m++);
  reject(new Error("animation failed"));
  await settle();
  assert.equal(m, 1);

  let k = 0;
  after(new Promise(() => {}), () => k++);
  mock.timers.tick(MAX_WAIT - 1);
  assert.equal(k, 0);
  mock.timers.tick(1);
  assert.equal(k, 1);
});

test("after's cancel stops the call", async () => {
  let n = 0;
  const cancel = after(100, () => n++);
  cancel();
  mock.timers.tick(1000);
  assert.equal(n, 0);
  let resolve;
  const cancel2 = after(new Promise((r) => { resolve = r; }), () => n++);
  cancel2();
  resolve();
  await settle();
  assert.equal(n, 0);
});

test("needsWait says whether an answer is a wait", () => {
  for (const w of [1, 250, "40", Promise.resolve(), { then() {} }]) assert.equal(needsWait(w), true, String(w));
  for (const w of [undefined, null, 0, -1, "", "x", false, {}]) assert.equal(needsWait(w), false, String(w));
});

test("states are shown in order, each after the wait the one before asked", () => {
  const p = plugin((s) => s.ms);
  const pacer = createPacer(p.show);
  pacer.push({ id: 1, ms: 100 });
  pacer.push({ id: 2, ms: 300 });
  pacer.push({ id: 3, ms: 50 });
  pacer.push({ id: 4, ms: 0 });
  // The first is shown at once (nothing was behind it then); the rest wait.
  assert.deepEqual(p.shown, [{ s: { id: 1, ms: 100 }, behind: 0, sync: false }]);
  assert.equal(pacer.shown().id, 1);
  assert.equal(pacer.pending(), 3);
  mock.timers.tick(99);
  assert.deepEqual(p.ids(), [1]);
  mock.timers.tick(1);
  assert.deepEqual(p.ids(), [1, 2]);
  assert.equal(p.shown[1].behind, 2, "the plugin hears how far behind it is");
  assert.equal(pacer.shown().id, 2);
  mock.timers.tick(299);
  assert.deepEqual(p.ids(), [1, 2]);
  mock.timers.tick(1);
  assert.deepEqual(p.ids(), [1, 2, 3]);
  assert.equal(p.shown[2].behind, 1);
  mock.timers.tick(50);
  // 4 asks for no wait: nothing is left.
  assert.deepEqual(p.ids(), [1, 2, 3, 4]);
  assert.equal(p.shown[3].behind, 0);
  assert.equal(pacer.pending(), 0);
  assert.ok(p.shown.every((x) => x.sync === false));
  // A state after a quiet spell is shown at once.
  pacer.push({ id: 5, ms: 100 });
  assert.deepEqual(p.ids(), [1, 2, 3, 4, 5]);
});

test("a plugin that asks no wait sees every state at once, in order", () => {
  const p = plugin();
  const pacer = createPacer(p.show);
  for (let i = 1; i <= 5; i++) pacer.push({ id: i });
  assert.deepEqual(p.ids(), [1, 2, 3, 4, 5]);
  assert.equal(pacer.pending(), 0);
  assert.equal(pacer.shown().id, 5);
});

test("a Promise holds the next state until it settles", async () => {
  const resolvers = [];
  const p = plugin(() => new Promise((r) => resolvers.push(r)));
  const pacer = createPacer(p.show);
  pacer.push({ id: 1 });
  pacer.push({ id: 2 });
  await settle();
  assert.deepEqual(p.ids(), [1]);
  resolvers[0]();
  await settle();
  assert.deepEqual(p.ids(), [1, 2]);
  assert.equal(pacer.pending(), 0);
});

test("a sync is shown at once: it ends the wait and drops the waiting states", () => {
  const p = plugin(() => 500);
  const pacer = createPacer(p.show);
  pacer.push({ id: 1 });
  pacer.push({ id: 2 });
  pacer.push({ id: 3 });
  assert.deepEqual(p.ids(), [1]);
  pacer.push({ id: 9 }, { sync: true });
  assert.deepEqual(p.ids(), [1, 9]);
  assert.deepEqual(p.shown[1], { s: { id: 9 }, behind: 0, sync: true });
  assert.equal(pacer.shown().id, 9);
  assert.equal(pacer.pending(), 0);
  // 1's wait was cancelled: the states dropped never show; the sync's own
  // wait holds the next state.
  pacer.push({ id: 10 });
  mock.timers.tick(499);
  assert.deepEqual(p.ids(), [1, 9]);
  mock.timers.tick(1);
  assert.deepEqual(p.ids(), [1, 9, 10]);
  mock.timers.tick(5000);
  assert.deepEqual(p.ids(), [1, 9, 10]);
});

test("more than SKIP waiting states: the newest supersedes them and is shown as a sync", () => {
  const p = plugin(() => 100);
  const pacer = createPacer(p.show);
  pacer.push({ id: 0 });
  for (let i = 1; i <= SKIP; i++) pacer.push({ id: i });
  assert.equal(pacer.pending(), SKIP, "SKIP waiting states are still played one by one");
  pacer.push({ id: SKIP + 1 });
  assert.equal(pacer.pending(), SKIP + 1);
  mock.timers.tick(100);
  // One jump to the present, without animation.
  assert.deepEqual(p.ids(), [0, SKIP + 1]);
  assert.deepEqual(p.shown[1], { s: { id: SKIP + 1 }, behind: 0, sync: true });
  assert.equal(pacer.pending(), 0);
  assert.equal(pacer.shown().id, SKIP + 1);
});

test("SKIP waiting states are still played one by one, each told how far behind it is", () => {
  const p = plugin(() => 100);
  const pacer = createPacer(p.show);
  for (let i = 0; i <= SKIP; i++) pacer.push({ id: i });
  assert.equal(pacer.pending(), SKIP);
  mock.timers.tick(100);
  assert.deepEqual(p.shown[1], { s: { id: 1 }, behind: SKIP - 1, sync: false });
  for (let i = 1; i < SKIP; i++) mock.timers.tick(100);
  assert.deepEqual(p.ids(), Array.from({ length: SKIP + 1 }, (_, i) => i));
  assert.ok(p.shown.every((x) => !x.sync));
});

test("a plugin that throws does not stop the states after it", () => {
  const errors = mock.method(console, "error", () => {});
  const p = plugin((s) => { if (s.id === 2) throw new Error("broken draw"); return 10; });
  const pacer = createPacer(p.show);
  pacer.push({ id: 1 });
  pacer.push({ id: 2 });
  pacer.push({ id: 3 });
  mock.timers.tick(10);
  // 2 threw, so asked no wait: 3 follows at once.
  assert.deepEqual(p.ids(), [1, 2, 3]);
  assert.equal(errors.mock.callCount(), 1);
});

test("destroy ends the wait; nothing is shown after it", () => {
  const p = plugin(() => 100);
  const pacer = createPacer(p.show);
  pacer.push({ id: 1 });
  pacer.push({ id: 2 });
  pacer.destroy();
  assert.equal(pacer.pending(), 0);
  mock.timers.tick(1000);
  pacer.push({ id: 3 });
  pacer.push({ id: 4 }, { sync: true });
  assert.deepEqual(p.ids(), [1]);
});
