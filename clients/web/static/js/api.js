// @ts-check
// api: the lobby REST calls of docs/protocol.md ("Lobby API"). Every call
// resolves with the decoded body or rejects with an ApiError carrying the
// server's {error, message} (status 0 and code "network" when the server
// is unreachable).

import { t } from "./i18n.js";

/** @typedef {import("./types.js").CatalogEntry} CatalogEntry */
/** @typedef {import("./types.js").Match} Match */
/** @typedef {import("./types.js").CreateBody} CreateBody */
/** @typedef {import("./types.js").CreateAnswer} CreateAnswer */
/** @typedef {import("./types.js").JoinBody} JoinBody */
/** @typedef {import("./types.js").JoinAnswer} JoinAnswer */
/** @typedef {import("./types.js").PlayAgainAnswer} PlayAgainAnswer */
/** @typedef {import("./types.js").ReplayPage} ReplayPage */
/** @typedef {import("./types.js").TryAnswer} TryAnswer */
/** @typedef {import("./types.js").Seat} Seat */

/** ApiError is a refused or failed lobby call. */
export class ApiError extends Error {
  /**
   * @param {number} status the HTTP status, 0 when unreachable
   * @param {string} code the server's error code, "network" or "http_NNN"
   * @param {string} [message] English
   * @param {string} [messageZh] Chinese, where the server has it
   */
  constructor(status, code, message, messageZh) {
    super(message || code);
    this.status = status;
    this.code = code;
    this.messageZh = messageZh || "";
  }
}

/**
 * @param {string} method
 * @param {string} path
 * @param {any} [body] sent as JSON when given
 * @param {RequestCache} [cache]
 * @returns {Promise<any>} the decoded body, null when empty
 */
async function call(method, path, body, cache = "no-store") {
  let res;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      cache,
    });
  } catch (e) {
    throw new ApiError(0, "network", t("error.network"));
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try { data = JSON.parse(text); } catch (_) { data = null; }
  }
  if (!res.ok) {
    const code = (data && data.error) || "http_" + res.status;
    const msg = (data && data.message) || res.statusText || code;
    throw new ApiError(res.status, code, msg, data && data.messageZh);
  }
  return data;
}

const seg = encodeURIComponent;
/** @type {Promise<CatalogEntry[] | null> | null} */
let catalogPromise = null;

/**
 * catalog returns GET /catalog, fetched once per page load (retried on failure).
 * @returns {Promise<CatalogEntry[] | null>}
 */
export function catalog() {
  if (!catalogPromise) {
    catalogPromise = call("GET", "/catalog").catch((e) => { catalogPromise = null; throw e; });
  }
  return catalogPromise;
}

/**
 * gameInfo returns the catalog entry named game, or null.
 * @param {string} game
 * @returns {Promise<CatalogEntry | null>}
 */
export async function gameInfo(game) {
  const list = await catalog();
  return (list || []).find((g) => g.name === game) || null;
}

/**
 * listMatches returns the open (not finished) listed matches of game.
 * @param {string} game
 * @returns {Promise<Match[]>}
 */
export async function listMatches(game) {
  const body = await call("GET", `/games/${seg(game)}?isGameover=false`);
  return (body && body.matches) || [];
}

/**
 * getMatch returns one Match.
 * @param {string} game
 * @param {string} id
 * @returns {Promise<Match>}
 */
export function getMatch(game, id) { return call("GET", `/games/${seg(game)}/${seg(id)}`); }

/**
 * replay returns a page of a match's steps as a spectator saw them (a
 * Replay): at most limit steps from the stateID from (fewer when they are
 * big: next is where the rest start). The browser's cache may answer:
 * the server marks a finished match's pages immutable and has the others
 * revalidated (ETag).
 * @param {string} game
 * @param {string} id
 * @param {number} from a stateID
 * @param {number} limit
 * @returns {Promise<ReplayPage>}
 */
export function replay(game, id, from, limit) {
  return call("GET", `/games/${seg(game)}/${seg(id)}/replay?from=${from}&limit=${limit}`, undefined, "default");
}

/**
 * create makes a match: body {numPlayers, setupData, unlisted, bots}. Resolves {matchID}.
 * @param {string} game
 * @param {CreateBody} body
 * @returns {Promise<CreateAnswer>}
 */
export function create(game, body) { return call("POST", `/games/${seg(game)}/create`, body); }

/**
 * tryLLM tests the player's own endpoint (POST /llm/try): one real
 * decision on a sample position. Resolves {status, body}: 200 with
 * {ok, latencyMs, choice, usage}, 502 with {ok: false, error}, or an
 * error body {error, message} (400, 403, 429).
 * @param {import("./types.js").OwnLLMWire} cfg
 * @returns {Promise<TryAnswer>}
 */
export async function tryLLM(cfg) {
  const res = await fetch("/llm/try", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(cfg), cache: "no-store",
  });
  let body = null;
  try { body = await res.json(); } catch (_) { body = null; }
  return { status: res.status, body };
}

/**
 * join takes a seat: body {playerName, playerID?}. Resolves {playerID, playerCredentials}.
 * @param {string} game
 * @param {string} id
 * @param {JoinBody} body
 * @returns {Promise<JoinAnswer>}
 */
export function join(game, id, body) { return call("POST", `/games/${seg(game)}/${seg(id)}/join`, body); }

/**
 * leave gives the seat up.
 * @param {string} game
 * @param {string} id
 * @param {Seat} seat
 * @returns {Promise<any>}
 */
export function leave(game, id, seat) {
  return call("POST", `/games/${seg(game)}/${seg(id)}/leave`, { playerID: seat.playerID, credentials: seat.credentials });
}

/**
 * playAgain resolves {nextMatchID}, the same for every caller.
 * @param {string} game
 * @param {string} id
 * @param {Seat} seat
 * @returns {Promise<PlayAgainAnswer>}
 */
export function playAgain(game, id, seat) {
  return call("POST", `/games/${seg(game)}/${seg(id)}/playAgain`, { playerID: seat.playerID, credentials: seat.credentials });
}

/**
 * addBot fills the empty seat `target` with a bot of `level`.
 * @param {string} game
 * @param {string} id
 * @param {Seat} seat the caller's seat
 * @param {number | string} target
 * @param {string} level
 * @returns {Promise<any>}
 */
export function addBot(game, id, seat, target, level) {
  return call("POST", `/games/${seg(game)}/${seg(id)}/bot`, {
    playerID: seat.playerID, credentials: seat.credentials, seat: String(target), level,
  });
}

/**
 * rename changes the seated player's name.
 * @param {string} game
 * @param {string} id
 * @param {Seat} seat
 * @param {string} newName
 * @returns {Promise<any>}
 */
export function rename(game, id, seat, newName) {
  return call("POST", `/games/${seg(game)}/${seg(id)}/update`, {
    playerID: seat.playerID, credentials: seat.credentials, newName,
  });
}
