// @ts-check
// sound: short sounds for the table, made with Web Audio (no files to
// load): your turn, a move, a capture or a trick taken, and the end. On by
// default; the mute switch in the top bar is remembered in localStorage
// ("chaguan:mute"). Browsers start audio only after the page was touched:
// until then a sound is skipped quietly, and no AudioContext is made at
// all (one made before a gesture starts suspended, and the browser warns
// about it in the console: a spectator who only watches would see that).

const MUTE_KEY = "chaguan:mute";
const listeners = new Set();
let audio = null;

/**
 * KINDS are the sounds there are.
 * @type {string[]}
 */
export const KINDS = ["turn", "move", "capture", "end"];

/**
 * muted reports whether the player switched sounds off.
 * @returns {boolean}
 */
export function muted() {
  try { return localStorage.getItem(MUTE_KEY) === "1"; } catch (_) { return false; }
}

/**
 * setMuted switches sounds off (true) or on, and remembers it.
 * @param {boolean} on
 */
export function setMuted(on) {
  try {
    if (on) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
  } catch (_) { /* disabled storage: this page only */ }
  for (const fn of [...listeners]) fn(on);
}

/**
 * onMuteChange calls fn(muted) on every switch; returns the unsubscribe.
 * @param {(muted: boolean) => void} fn
 * @returns {() => void}
 */
export function onMuteChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

// Each sound is a few notes: [frequency Hz, start s, length s, gain, wave].
const NOTES = {
  // A rising fourth on a soft bell: it is your move.
  turn: [[659, 0, 0.22, 0.16, "sine"], [880, 0.12, 0.32, 0.16, "sine"]],
  // A stone or a card set down: a short low knock.
  move: [[220, 0, 0.07, 0.22, "triangle"], [440, 0, 0.04, 0.06, "square"]],
  // Stones lifted, a trick gathered: three quick falling notes.
  capture: [[988, 0, 0.09, 0.12, "triangle"], [784, 0.07, 0.09, 0.12, "triangle"], [587, 0.14, 0.16, 0.12, "triangle"]],
  // The end: a small gong, a low note and its overtone fading slowly.
  end: [[196, 0, 1.6, 0.22, "sine"], [392, 0, 1.1, 0.08, "sine"], [523, 0.02, 0.7, 0.04, "sine"]],
};

/**
 * play makes the sound kind ("turn", "move", "capture", "end") unless the
 * player muted sounds. Every call is noted in window.__chaguanSounds
 * (kind and whether it was muted), so the browser tests can tell what the
 * page would have played.
 * @param {string} kind one of KINDS
 */
export function play(kind) {
  const notes = NOTES[kind];
  if (!notes) return;
  const off = muted();
  const log = (window.__chaguanSounds = window.__chaguanSounds || []);
  log.push({ kind, muted: off });
  if (log.length > 200) log.splice(0, log.length - 200);
  if (off) return;
  try {
    const ctx = context();
    if (!ctx || ctx.state !== "running") return;
    const t0 = ctx.currentTime + 0.01;
    for (const [freq, start, len, gain, wave] of notes) tone(ctx, freq, t0 + start, len, gain, wave);
  } catch (_) { /* no audio here: the game goes on silently */ }
}

// gestured: the page has had a touch, a click or a key of the person's
// (the app is one page: a room opened from the lobby by a click has had
// one), so an AudioContext may start.
let gestured = false;

function context() {
  if (!audio) {
    if (!gestured) return null;
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    audio = new AC();
  }
  if (audio.state === "suspended") audio.resume().catch(() => {});
  return audio;
}

function tone(ctx, freq, at, len, gain, wave) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = wave;
  osc.frequency.setValueAtTime(freq, at);
  amp.gain.setValueAtTime(0.0001, at);
  amp.gain.exponentialRampToValueAtTime(gain, at + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, at + len);
  osc.connect(amp).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + len + 0.05);
}

// The first gesture of the page (a click, a key, the end of a touch: the
// events that count as user activation) makes the AudioContext, so the
// first sound after it is heard. A touch's pointerdown is not yet an
// activation: the listeners stay until the context runs.
const GESTURES = ["pointerdown", "pointerup", "touchend", "click", "keydown"];
function onGesture(e) {
  if (!e.isTrusted || (e.type === "keydown" && (e.key === "Escape" || e.isComposing))) return;
  if (e.type === "pointerdown" && e.pointerType !== "mouse") return;
  gestured = true;
  if (muted()) return;
  const ctx = context();
  if (ctx && ctx.state === "running") stopListening();
  else if (ctx) ctx.resume().then(() => { if (ctx.state === "running") stopListening(); }, () => {});
}
function stopListening() {
  for (const ev of GESTURES) window.removeEventListener(ev, onGesture, true);
}
for (const ev of GESTURES) window.addEventListener(ev, onGesture, true);
