// @ts-check
// nav: the paths of the pages, and history-API navigation without
// importing the router (which would make a cycle). app.js renders on the
// "chaguan:navigate" event, the view parseRoute names.

const NAME_RE = /^[a-z0-9_-]{1,40}$/;

/**
 * A page of the app: the view and, for a room or a replay, its match.
 * @typedef {{view: "lobby" | "room" | "replay" | "notfound", game?: string, matchID?: string}} Route
 */

/**
 * parseRoute maps a path to {view, game?, matchID?}.
 * @param {string} path
 * @returns {Route}
 */
export function parseRoute(path) {
  if (path === "/" || path === "" || path === "/index.html") return { view: "lobby" };
  const m = /^\/m\/([^/]+)\/([^/]+)(\/replay)?\/?$/.exec(path);
  if (m) {
    let game, id;
    try { game = decodeURIComponent(m[1]); id = decodeURIComponent(m[2]); } catch (_) { return { view: "notfound" }; }
    if (NAME_RE.test(game) && id.length > 0 && id.length <= 100) return { view: m[3] ? "replay" : "room", game, matchID: id };
  }
  return { view: "notfound" };
}

/**
 * navigate goes to a same-origin path and renders its view.
 * @param {string} path
 * @param {{replace?: boolean}} [opts] replace: replace the history entry instead of pushing one
 */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  window.dispatchEvent(new Event("chaguan:navigate"));
}

/**
 * roomPath is the invite path of a match.
 * @param {string} game
 * @param {string} matchID
 * @returns {string}
 */
export function roomPath(game, matchID) {
  return `/m/${encodeURIComponent(game)}/${encodeURIComponent(matchID)}`;
}
