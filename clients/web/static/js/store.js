// @ts-check
// store: what the browser remembers in localStorage. A seat is
// "chaguan:seat:{matchID}" = {playerID, credentials, name, game, at} (game
// and at, the time it was taken, feed "my matches"; seats stored before
// they existed lack them); the player's name is "chaguan:name". Every
// function survives disabled storage.

/** @typedef {import("./types.js").Seat} Seat */
/** @typedef {import("./types.js").SeatEntry} SeatEntry */

const NAME_KEY = "chaguan:name";
const SEAT_PREFIX = "chaguan:seat:";
const seatKey = (matchID) => SEAT_PREFIX + matchID;

/**
 * getName returns the remembered player name, or "".
 * @returns {string}
 */
export function getName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (_) { return ""; }
}

/**
 * setName remembers a trimmed, non-empty player name.
 * @param {string} name
 */
export function setName(name) {
  const n = String(name || "").trim();
  if (!n) return;
  try { localStorage.setItem(NAME_KEY, n); } catch (_) { /* ignore */ }
}

/**
 * getSeat returns {playerID, credentials, name} for matchID, or null.
 * @param {string} matchID
 * @returns {Seat | null}
 */
export function getSeat(matchID) {
  try {
    const raw = localStorage.getItem(seatKey(matchID));
    if (!raw) return null;
    const s = JSON.parse(raw);
    if (s && typeof s.playerID === "string" && typeof s.credentials === "string") return s;
  } catch (_) { /* corrupt or disabled: treat as none */ }
  return null;
}

/**
 * setSeat remembers the seat this browser holds in matchID of game (game
 * may be omitted when seat.game says it, or when rewriting a seat).
 * @param {string} matchID
 * @param {Seat} seat
 * @param {string} [game]
 */
export function setSeat(matchID, seat, game) {
  const old = getSeat(matchID);
  try {
    localStorage.setItem(seatKey(matchID), JSON.stringify({
      playerID: seat.playerID, credentials: seat.credentials, name: seat.name || "",
      game: game || seat.game || (old && old.game) || "",
      at: seat.at || (old && old.at) || Date.now(),
    }));
  } catch (_) { /* ignore */ }
}

/**
 * listSeats returns every remembered seat as {matchID, playerID,
 * credentials, name, game, at}, the newest first.
 * @returns {SeatEntry[]}
 */
export function listSeats() {
  const out = [];
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const k = localStorage.key(i);
      if (!k || !k.startsWith(SEAT_PREFIX)) continue;
      const matchID = k.slice(SEAT_PREFIX.length);
      const s = getSeat(matchID);
      if (s) out.push({ ...s, matchID, game: s.game || "", at: Number(s.at) || 0 });
    }
  } catch (_) { /* disabled storage: none */ }
  return out.sort((a, b) => b.at - a.at);
}

/**
 * forgetSeat drops the remembered seat of matchID.
 * @param {string} matchID
 */
export function forgetSeat(matchID) {
  try { localStorage.removeItem(seatKey(matchID)); } catch (_) { /* ignore */ }
}
