// @ts-check
// conn: one WebSocket to a match (docs/protocol.md, "WebSocket"). It says
// hello with the seat's credentials (or as a spectator), hands every state,
// error and chat message to its callbacks, keys move promises by the move
// id, and reconnects with exponential backoff, then sends a sync.
//
// It asks for patches (docs/api.md, "Patches"): after the first state the
// server sends only what changed, and conn applies it to the view it
// holds, so onState gets the very state object a full state message would
// have given. A patch that does not start from the view held (a gap) or
// does not apply makes it send a sync and wait for the whole state.

import { applyPatch } from "./patch.js";

/** @typedef {import("./types.js").StateMessage} StateMessage */
/** @typedef {import("./types.js").ErrorMessage} ErrorMessage */
/** @typedef {import("./types.js").ChatMessage} ChatMessage */
/** @typedef {import("./types.js").Seat} Seat */

/**
 * What a Conn is opened with.
 * @typedef {object} ConnOptions
 * @property {string} game
 * @property {string} matchID
 * @property {Seat | null} seat null for a spectator
 * @property {(state: StateMessage) => void} [onState]
 * @property {(err: ErrorMessage) => void} [onError]
 * @property {(msg: ChatMessage) => void} [onChat]
 * @property {(status: "connecting" | "open" | "reconnecting" | "closed") => void} [onStatus]
 * @property {() => void} [onUnauthorized]
 */

const BACKOFF_MIN_MS = 500; // first retry delay
const BACKOFF_MAX_MS = 10000; // the delay doubles up to this
const MOVE_TIMEOUT_MS = 15000; // a move with no ack nor error by then is rejected

/**
 * Conn is the client side of one match connection.
 *
 * opts: {game, matchID, seat: {playerID, credentials}|null,
 *        onState(state), onError(err), onChat(msg), onStatus("connecting"|"open"|"reconnecting"|"closed"),
 *        onUnauthorized()}
 * onUnauthorized is called (and the connection closed) when the server
 * refuses the hello's credentials before any state arrived.
 */
export class Conn {
  /** @param {ConnOptions} opts */
  constructor(opts) {
    this.opts = opts;
    this.ws = null;
    this.nextID = 1;
    this.pending = new Map(); // move id -> {resolve, reject, timer}
    this.attempt = 0;
    this.closed = false;
    this.gotState = false; // a state arrived on the current socket
    this.everOpen = false;
    this.retryTimer = null;
    this.lastState = null;
    this.view = null; // the view held: the last state's fields but type, stateID and ack, as patched since
    this.viewID = null; // its stateID
    this.resyncing = false; // a sync was sent for a gap: patches wait for the state
    this.heldAcks = []; // acks of patches skipped while resyncing: the next state settles them
  }

  /** start opens the connection; call it once. */
  start() {
    // Back online (Wi-Fi returned, laptop woke up): retry now, not after
    // the current backoff delay.
    this.onOnline = () => {
      if (this.closed || this.ws) return;
      clearTimeout(this.retryTimer);
      this.attempt = 0;
      this.connect();
    };
    window.addEventListener("online", this.onOnline);
    this.connect();
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/games/${encodeURIComponent(this.opts.game)}/${encodeURIComponent(this.opts.matchID)}/ws`;
  }

  status(s) { if (this.opts.onStatus) this.opts.onStatus(s); }

  connect() {
    if (this.closed) return;
    this.status(this.everOpen ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch (e) {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    this.gotState = false;
    this.view = null;
    this.resyncing = false;
    ws.onopen = () => {
      const seat = this.opts.seat;
      const hello = seat ? { type: "hello", playerID: seat.playerID, credentials: seat.credentials } : { type: "hello" };
      hello.patches = true;
      ws.send(JSON.stringify(hello));
      if (this.everOpen) ws.send(JSON.stringify({ type: "sync" }));
    };
    ws.onmessage = (ev) => this.onMessage(ev.data);
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending("lost");
      if (!this.closed) this.scheduleRetry();
    };
    ws.onerror = () => { /* onclose follows */ };
  }

  scheduleRetry() {
    if (this.closed) return;
    this.status("reconnecting");
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** this.attempt);
    this.attempt++;
    const delay = base / 2 + Math.random() * base / 2;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  onMessage(data) {
    let msg;
    try { msg = JSON.parse(data); } catch (_) { return; }
    if (!msg || typeof msg !== "object") return;
    switch (msg.type) {
      case "state": {
        // The page is drawn from ctx and players: a state without them is
        // not one this client understands, so it is dropped, not drawn.
        if (!usable(msg)) return;
        // The view held is a copy of its own: the page may change msg.
        this.view = viewOf(JSON.parse(data));
        this.viewID = msg.stateID;
        this.resyncing = false;
        const held = this.heldAcks;
        this.heldAcks = [];
        this.deliver(msg);
        for (const id of held) this.settle(id, true, msg);
        break;
      }
      case "patch": {
        const ack = msg.ack !== undefined && msg.ack !== null ? msg.ack : null;
        let view = null;
        if (!this.resyncing && this.view && msg.base === this.viewID) {
          try {
            view = applyPatch(this.view, msg.ops);
          } catch (_) {
            view = null;
          }
        }
        const state = view && stateOf(view, msg);
        if (!state || !usable(state)) {
          // A gap, or a patch that does not apply: ask for the whole view.
          if (ack !== null) this.heldAcks.push(ack);
          if (!this.resyncing) {
            this.resyncing = true;
            this.sync();
          }
          return;
        }
        this.view = view;
        this.viewID = msg.stateID;
        this.deliver(state);
        break;
      }
      case "error": {
        if (!this.gotState && this.opts.seat && msg.code === "unauthorized" && (msg.ref === undefined || msg.ref === null)) {
          this.close();
          if (this.opts.onUnauthorized) this.opts.onUnauthorized(msg);
          return;
        }
        if (msg.ref !== undefined && msg.ref !== null) this.settle(msg.ref, false, msg);
        if (this.opts.onError) this.opts.onError(msg);
        break;
      }
      case "chat":
        if (this.opts.onChat) this.opts.onChat(msg);
        break;
      default:
    }
  }

  /** deliver hands a state to the page, as the state message it is. */
  deliver(msg) {
    if (!this.gotState) {
      this.gotState = true;
      this.everOpen = true;
      this.attempt = 0;
      this.status("open");
    }
    this.lastState = msg;
    if (msg.ack !== undefined && msg.ack !== null) this.settle(msg.ack, true, msg);
    if (this.opts.onState) this.opts.onState(msg);
  }

  settle(id, ok, value) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    if (ok) p.resolve(value);
    else p.reject(value);
  }

  failPending(code) {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject({ code, message: code, ref: id });
    }
    this.pending.clear();
  }

  /**
   * send writes one client message; false when not connected (or before
   * the first state).
   * @param {object} obj
   * @returns {boolean}
   */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN || !this.gotState) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  /**
   * move sends a move and returns a Promise resolved with the state whose
   * ack is its id, or rejected with {code, message[, messageZh]}: the
   * server's error whose ref is its id, "disconnected" when not connected,
   * "lost" when the connection dropped first, "timeout" after 15 s.
   * @param {string} name
   * @param {any[]} args
   * @returns {Promise<StateMessage>}
   */
  move(name, args) {
    const id = this.nextID++;
    const msg = { type: "move", id, move: name, args: Array.isArray(args) ? args : [] };
    return new Promise((resolve, reject) => {
      if (!this.send(msg)) {
        reject({ code: "disconnected", message: "disconnected", ref: id });
        return;
      }
      const timer = setTimeout(() => this.settle(id, false, { code: "timeout", message: "timeout", ref: id }), MOVE_TIMEOUT_MS);
      this.pending.set(id, { resolve, reject, timer });
    });
  }

  /**
   * chat sends a chat line; it returns false when not connected.
   * @param {string} text
   * @returns {boolean}
   */
  chat(text) { return this.send({ type: "chat", text }); }

  /**
   * autoplay turns the server's bot on or off for this seat.
   * @param {boolean} on
   * @returns {boolean} false when not connected
   */
  autoplay(on) { return this.send({ type: "autoplay", on: !!on }); }

  /**
   * sync asks for the full current view.
   * @returns {boolean} false when not connected
   */
  sync() { return this.send({ type: "sync" }); }

  /**
   * spectate forgets the seat once the server no longer counts this
   * connection as its (a state says you ""): later reconnects say hello
   * as a spectator instead of with credentials that no longer work.
   */
  spectate() { this.opts.seat = null; }

  /** drop closes the current socket as a network failure would; the Conn reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }

  /** close ends the connection for good; pending moves are rejected. */
  close() {
    this.closed = true;
    if (this.onOnline) window.removeEventListener("online", this.onOnline);
    clearTimeout(this.retryTimer);
    const ws = this.ws;
    this.ws = null;
    this.failPending("lost");
    if (ws) {
      try { ws.close(); } catch (_) { /* ignore */ }
    }
    this.status("closed");
  }
}

// usable: the page is drawn from ctx and players.
function usable(msg) {
  return !!msg.ctx && typeof msg.ctx === "object" && Array.isArray(msg.players);
}

// viewOf is what a state message leaves to patch: all but type, stateID
// and ack, in the message's order.
function viewOf(msg) {
  const view = { ...msg };
  delete view.type;
  delete view.stateID;
  delete view.ack;
  return view;
}

// stateOf is the state message a patch stands for: a copy of the view
// (the page may change it; the view held must stay as the server has it),
// its fields in the order a state message has them.
function stateOf(view, patch) {
  const copy = typeof structuredClone === "function" ? structuredClone(view) : JSON.parse(JSON.stringify(view));
  const state = { type: "state", matchID: copy.matchID, stateID: patch.stateID };
  if (patch.ack !== undefined && patch.ack !== null) state.ack = patch.ack;
  for (const k of Object.keys(copy)) if (k !== "matchID") state[k] = copy[k];
  return state;
}
