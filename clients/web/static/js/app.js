// app: the single-page router. "/" is the lobby, "/m/{game}/{matchID}" a
// room (the invite link). Links marked data-link and navigate() use the
// history API; every view is a function (el) => destroy.

import { h, replace } from "./dom.js";
import { t, lang, setLang, onLangChange } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountRoom } from "./room.js";
import { navigate } from "./nav.js";

const NAME_RE = /^[a-z0-9_-]{1,40}$/;
let destroyCurrent = null;


/** parseRoute maps a path to {view, game?, matchID?}. */
export function parseRoute(path) {
  if (path === "/" || path === "" || path === "/index.html") return { view: "lobby" };
  const m = /^\/m\/([^/]+)\/([^/]+)\/?$/.exec(path);
  if (m) {
    let game, id;
    try { game = decodeURIComponent(m[1]); id = decodeURIComponent(m[2]); } catch (_) { return { view: "notfound" }; }
    if (NAME_RE.test(game) && id.length > 0 && id.length <= 100) return { view: "room", game, matchID: id };
  }
  return { view: "notfound" };
}

function render() {
  if (destroyCurrent) {
    try { destroyCurrent(); } catch (e) { console.error(e); }
    destroyCurrent = null;
  }
  const el = document.getElementById("view");
  replace(el);
  window.scrollTo(0, 0);
  const route = parseRoute(location.pathname);
  document.body.dataset.view = route.view;
  syncLangButtons();
  if (route.view === "lobby") destroyCurrent = mountLobby(el);
  else if (route.view === "room") destroyCurrent = mountRoom(el, route.game, route.matchID);
  else destroyCurrent = mountNotFound(el);
}

function mountNotFound(el) {
  const draw = () => replace(el, h("section", { class: "card narrow center" },
    h("h1", null, t("notfound.title")),
    h("a", { href: "/", "data-link": true, class: "btn primary" }, t("room.backLobby"))));
  draw();
  return onLangChange(draw);
}

function syncLangButtons() {
  for (const b of document.querySelectorAll(".lang-switch button")) {
    const on = b.dataset.lang === lang();
    b.classList.toggle("active", on);
    b.setAttribute("aria-pressed", on ? "true" : "false");
  }
  document.title = lang() === "zh" ? "茶馆 · Chaguan" : "Chaguan · 茶馆";
}

document.addEventListener("click", (e) => {
  const a = e.target.closest && e.target.closest("a[data-link]");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  e.preventDefault();
  if (url.pathname + url.search !== location.pathname + location.search) navigate(url.pathname + url.search);
});
window.addEventListener("popstate", render);
window.addEventListener("chaguan:navigate", render);
for (const b of document.querySelectorAll(".lang-switch button")) {
  b.addEventListener("click", () => setLang(b.dataset.lang));
}
onLangChange(syncLangButtons);
syncLangButtons();
render();
