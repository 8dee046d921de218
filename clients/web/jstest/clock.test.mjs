// Tests of static/js/clock.js (the turn clocks beside the seats) with
// node's own test runner, fake timers and a fake performance.now:
// node --test clients/web/jstest/
import { test, beforeEach, afterEach, mock } from "node:test";
import assert from "node:assert/strict";
import { install, setGlobal } from "./fakedom.mjs";

const env = install();
let now = 1000; // performance.now() in ms
setGlobal("performance", { now: () => now });
const { formatClock, setClock, remainingMs, seatClock, LOW_MS, CLOCK_CHOICES } = await import("../static/js/clock.js");

beforeEach(() => {
  mock.timers.enable({ apis: ["setInterval"] });
  now = 1000;
});
afterEach(() => {
  setClock(null);
  for (const c of [...env.document.body.childNodes]) env.document.body.removeChild(c);
  mock.timers.reset();
});

// advance moves the page's clock on by ms and lets the ticker run.
function advance(ms) {
  now += ms;
  mock.timers.tick(ms);
}

test("formatClock: tenths under ten seconds, m:ss below an hour, h:mm:ss past it", () => {
  const cases = [
    [0, "0.0"], [99, "0.0"], [100, "0.1"], [5432, "5.4"], [9999, "9.9"],
    [LOW_MS, "0:10"], [10001, "0:11"], [59000, "0:59"], [59001, "1:00"], [60000, "1:00"],
    [61000, "1:01"], [600000, "10:00"], [3599000, "59:59"], [3599001, "1:00:00"],
    [3600000, "1:00:00"], [3661000, "1:01:01"], [36000000, "10:00:00"],
  ];
  for (const [ms, want] of cases) assert.equal(formatClock(ms), want, String(ms));
});

test("remainingMs is null without a clock, or for a seat it lacks", () => {
  assert.equal(remainingMs(0), null);
  setClock({ seats: [{ remainingMs: 5000, running: false }] });
  assert.equal(remainingMs(0), 5000);
  assert.equal(remainingMs(1), null);
  for (const bad of [null, undefined, {}, { seats: "x" }]) {
    setClock(bad);
    assert.equal(remainingMs(0), null, JSON.stringify(bad));
  }
});

test("the running seat counts down from the state's arrival; the others stand still", () => {
  setClock({ seats: [{ remainingMs: 65000, running: true }, { remainingMs: 30000, running: false }] });
  assert.equal(remainingMs(0), 65000);
  now += 1500;
  assert.equal(remainingMs(0), 63500);
  assert.equal(remainingMs(1), 30000);
  now += 100000;
  assert.equal(remainingMs(0), 0, "never below zero");
  // A new state restarts the count from its own arrival.
  setClock({ seats: [{ remainingMs: 20000, running: false }, { remainingMs: 30000, running: true }] });
  now += 2000;
  assert.equal(remainingMs(0), 20000);
  assert.equal(remainingMs(1), 28000);
});

test("a seat's clock element shows the time and counts down while its turn lasts", () => {
  const a = seatClock(0);
  const b = seatClock(1);
  assert.equal(a.hidden, true, "hidden without a clock");
  env.document.body.appendChild(a);
  env.document.body.appendChild(b);
  setClock({ seats: [{ remainingMs: 65000, running: true }, { remainingMs: 30000, running: false }] });
  assert.equal(a.hidden, false);
  assert.equal(a.textContent, "1:05");
  assert.equal(a.dataset.ms, "65000");
  assert.ok(a.classList.contains("running"));
  assert.ok(!a.classList.contains("low"));
  assert.equal(b.textContent, "0:30");
  assert.ok(!b.classList.contains("running"));
  advance(5500);
  assert.equal(a.textContent, "1:00");
  assert.equal(a.dataset.ms, "59500");
  assert.equal(b.textContent, "0:30");
  advance(250);
  assert.equal(a.dataset.ms, "59250");
  // Under LOW_MS a running clock is red and shows tenths.
  advance(49250 + 250);
  assert.equal(a.dataset.ms, "9750");
  assert.equal(a.textContent, "9.7");
  assert.ok(a.classList.contains("low"));
  advance(20000);
  assert.equal(a.textContent, "0.0");
  assert.equal(a.dataset.ms, "0");
});

test("a stopped clock under LOW_MS is not red; no clock hides the element and stops the ticker", () => {
  const a = seatClock(0);
  env.document.body.appendChild(a);
  setClock({ seats: [{ remainingMs: 4000, running: false }] });
  assert.equal(a.textContent, "4.0");
  assert.ok(!a.classList.contains("low"));
  assert.ok(!a.classList.contains("running"));
  setClock(null);
  assert.equal(a.hidden, true);
  // The ticker has stopped: it would hide every clock element again.
  a.hidden = false;
  advance(1000);
  assert.equal(a.hidden, false);
});

test("a seat clock made while a clock runs is filled at once", () => {
  setClock({ seats: [{ remainingMs: 125000, running: true }] });
  now += 5000;
  const a = seatClock(0);
  assert.equal(a.hidden, false);
  assert.equal(a.textContent, "2:00");
});

test("the create form's clock choices are [per move, bank] seconds", () => {
  assert.ok(CLOCK_CHOICES.length > 0);
  for (const [perMove, bank] of CLOCK_CHOICES) {
    assert.ok(Number.isInteger(perMove) && perMove > 0 && Number.isInteger(bank) && bank >= perMove, `${perMove}, ${bank}`);
  }
});
