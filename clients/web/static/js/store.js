// store: what the browser remembers in localStorage. A seat is
// "chaguan:seat:{matchID}" = {playerID, credentials, name}; the player's
// name is "chaguan:name". Every function survives disabled storage.

const NAME_KEY = "chaguan:name";
const seatKey = (matchID) => "chaguan:seat:" + matchID;

/** getName returns the remembered player name, or "". */
export function getName() {
  try { return localStorage.getItem(NAME_KEY) || ""; } catch (_) { return ""; }
}

/** setName remembers a trimmed, non-empty player name. */
export function setName(name) {
  const n = String(name || "").trim();
  if (!n) return;
  try { localStorage.setItem(NAME_KEY, n); } catch (_) { /* ignore */ }
}

/** getSeat returns {playerID, credentials, name} for matchID, or null. */
export function getSeat(matchID) {
  try {
    const raw = localStorage.getItem(seatKey(matchID));
    if (!raw) return null;
    const s = JSON.parse(raw);
    if (s && typeof s.playerID === "string" && typeof s.credentials === "string") return s;
  } catch (_) { /* corrupt or disabled: treat as none */ }
  return null;
}

/** setSeat remembers the seat this browser holds in matchID. */
export function setSeat(matchID, seat) {
  try {
    localStorage.setItem(seatKey(matchID), JSON.stringify({
      playerID: seat.playerID, credentials: seat.credentials, name: seat.name || "",
    }));
  } catch (_) { /* ignore */ }
}

/** forgetSeat drops the remembered seat of matchID. */
export function forgetSeat(matchID) {
  try { localStorage.removeItem(seatKey(matchID)); } catch (_) { /* ignore */ }
}
