// @ts-check
// clock: the turn clocks' countdown beside each seat. The server sends
// each seat's remaining time with every state (state.clock, an extension:
// only matches created with a clock have one); the page counts down from
// the moment it arrived, so a slow tab or a skewed computer clock does not
// drift. Under LOW_MS the time shows red.

import { h } from "./dom.js";

/** LOW_MS is when a running clock turns red. @type {number} */
export const LOW_MS = 10000;

/**
 * CLOCK_CHOICES are the create form's clocks: [perMove, bank] seconds.
 * @type {[number, number][]}
 */
export const CLOCK_CHOICES = [[5, 15], [10, 60], [15, 300], [30, 600]];

let latest = null; // {seats, at (performance.now() at arrival)}
let timer = null;

/**
 * setClock takes the clock of the newest state to arrive (or none).
 * @param {any} clock a state's clock: {seats: [{remainingMs, running}…]}, or none
 */
export function setClock(clock) {
  latest = clock && Array.isArray(clock.seats) ? { seats: clock.seats, at: performance.now() } : null;
  tick();
  if (latest && !timer) timer = setInterval(tick, 250);
  if (!latest && timer) { clearInterval(timer); timer = null; }
}

/**
 * remainingMs is seat i's time now, or null without a clock.
 * @param {number} i
 * @returns {number | null}
 */
export function remainingMs(i) {
  const s = latest && latest.seats[i];
  if (!s) return null;
  return Math.max(0, s.remainingMs - (s.running ? performance.now() - latest.at : 0));
}

/**
 * formatClock shows ms as m:ss (h:mm:ss past an hour; tenths under 10 s).
 * @param {number} ms
 * @returns {string}
 */
export function formatClock(ms) {
  if (ms < LOW_MS) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.ceil(ms / 1000);
  const hh = Math.floor(s / 3600), mm = Math.floor((s % 3600) / 60), ss = s % 60;
  const two = (n) => String(n).padStart(2, "0");
  return hh > 0 ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/**
 * seatClock is the countdown element of seat i (filled by the ticker).
 * @param {number} i
 * @returns {HTMLElement}
 */
export function seatClock(i) {
  const el = h("span", { class: "seat-clock", "data-clock-seat": String(i) });
  fill(el);
  return el;
}

function fill(el) {
  const i = Number(el.dataset.clockSeat);
  const ms = remainingMs(i);
  el.hidden = ms === null;
  if (ms === null) return;
  const running = !!latest.seats[i].running;
  el.textContent = formatClock(ms);
  el.classList.toggle("running", running);
  el.classList.toggle("low", running && ms < LOW_MS);
  el.dataset.ms = String(Math.round(ms));
}

function tick() {
  for (const el of document.querySelectorAll("[data-clock-seat]")) fill(el);
}
