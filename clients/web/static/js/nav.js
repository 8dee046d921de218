// nav: history-API navigation without importing the router (which would
// make a cycle). app.js renders on the "chaguan:navigate" event.

/** navigate goes to a same-origin path and renders its view. */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  window.dispatchEvent(new Event("chaguan:navigate"));
}

/** roomPath is the invite path of a match. */
export function roomPath(game, matchID) {
  return `/m/${encodeURIComponent(game)}/${encodeURIComponent(matchID)}`;
}
