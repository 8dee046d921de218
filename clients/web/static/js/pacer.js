// @ts-check
// pacer: plays a match's states to the page in order, one at a time, at a
// pace the eye can follow. Every game uses it through the room: the plugin
// says how long it needs to show a state (its update returns milliseconds,
// or a Promise settled when it is done); the next state waits that long.
// When states pile up the plugin is told how far behind it is, so it
// shortens its animations; when the page falls too far behind, or
// reconnects (a sync), it skips to the present without animating. The
// host's status, seats and end card are drawn from the state on show, not
// the latest one to arrive, so what the page shows and asks always belongs
// to one state.

/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").UpdateOptions} UpdateOptions */

/**
 * SKIP is how many waiting states make the pacer jump to the newest.
 * @type {number}
 */
export const SKIP = 40;
/**
 * MAX_WAIT caps the wait of one state, in ms, whatever a plugin asks.
 * @type {number}
 */
export const MAX_WAIT = 20000;

/**
 * after calls fn once wait is over: wait is milliseconds or a Promise (a
 * thenable), capped at MAX_WAIT. It returns a function that cancels.
 * @param {number | Promise<unknown> | void | null | undefined} wait
 * @param {() => void} fn
 * @returns {() => void}
 */
export function after(wait, fn) {
  let done = false;
  let timer = null;
  const go = () => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    fn();
  };
  if (wait && typeof wait.then === "function") {
    timer = setTimeout(go, MAX_WAIT);
    wait.then(go, go);
  } else {
    const ms = Math.max(0, Math.min(Number(wait) || 0, MAX_WAIT));
    if (ms === 0) { go(); return () => {}; }
    timer = setTimeout(go, ms);
  }
  return () => { done = true; clearTimeout(timer); };
}

/**
 * needsWait says whether a plugin's answer asks the pacer to wait.
 * @param {any} wait
 * @returns {boolean}
 */
export function needsWait(wait) {
  return !!wait && (typeof wait.then === "function" || Number(wait) > 0);
}

/**
 * createPacer returns {push(state, {sync}), shown(), pending(), destroy()}.
 * show(state, {behind, sync}) draws a state and returns how long it needs
 * before the next one: milliseconds, a Promise, or nothing.
 * @param {(s: State, opts: UpdateOptions) => (number | Promise<unknown> | void)} show
 * @returns {{push: (s: State, opts?: {sync?: boolean}) => void, shown: () => State | null, pending: () => number, destroy: () => void}}
 */
export function createPacer(show) {
  let queue = [];
  let waiting = null; // cancels the wait of the state on show
  let current = null;
  let alive = true;

  const display = (s, opts) => {
    current = s;
    let wait = 0;
    try { wait = show(s, opts); } catch (e) { console.error(e); }
    if (!needsWait(wait)) return;
    waiting = after(wait, () => { waiting = null; next(); });
  };

  function next() {
    while (alive && !waiting && queue.length) {
      let sync = false;
      if (queue.length > SKIP) {
        // Too far behind to catch up by speeding: show the present.
        queue = queue.slice(-1);
        sync = true;
      }
      const s = queue.shift();
      display(s, { behind: queue.length, sync });
    }
  }

  return {
    /** push queues a state; sync shows it at once and drops the queue. */
    push(s, { sync = false } = {}) {
      if (!alive) return;
      if (sync) {
        if (waiting) waiting();
        waiting = null;
        queue = [];
        display(s, { behind: 0, sync: true });
        return;
      }
      queue.push(s);
      next();
    },
    /** shown is the state on show. */
    shown: () => current,
    /** pending is how many states wait to be shown. */
    pending: () => queue.length,
    destroy() {
      alive = false;
      if (waiting) waiting();
      waiting = null;
      queue = [];
    },
  };
}
