// @ts-check
// app: the single-page router. "/" is the lobby, "/m/{game}/{matchID}" a
// room (the invite link), ".../replay" its replay (nav.js's parseRoute).
// Links marked data-link and navigate() use the history API; every view is
// a function (el) => destroy.

import { h, replace } from "./dom.js";
import { t, lang, setLang, onLangChange } from "./i18n.js";
import { mountLobby } from "./lobby.js";
import { mountRoom } from "./room.js";
import { mountReplay } from "./replay.js";
import { navigate, parseRoute } from "./nav.js";
import { muted, setMuted, onMuteChange } from "./sound.js";

let destroyCurrent = null;

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
  else if (route.view === "replay") destroyCurrent = mountReplay(el, route.game, route.matchID);
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

// The sound switch in the top bar: on by default, remembered.
const muteBtn = document.getElementById("mute");
function syncMute() {
  if (!muteBtn) return;
  const off = muted();
  muteBtn.innerHTML = speakerIcon(off);
  muteBtn.setAttribute("aria-pressed", off ? "true" : "false");
  muteBtn.title = off ? t("sound.unmute") : t("sound.mute");
  muteBtn.setAttribute("aria-label", muteBtn.title);
}
// A speaker drawn in SVG (an emoji may be missing from the reader's fonts),
// with sound waves when on and a cross when muted.
function speakerIcon(off) {
  const tail = off
    ? '<path d="M16 9l5 6M21 9l-5 6"/>'
    : '<path d="M16 9.5a3.5 3.5 0 0 1 0 5M18.5 7a7 7 0 0 1 0 10"/>';
  return '<svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="none" stroke="currentColor" ' +
    'stroke-width="2" stroke-linecap="round" stroke-linejoin="round"><path d="M4 9.5h3.5L12 6v12l-4.5-3.5H4z" fill="currentColor"/>' +
    tail + "</svg>";
}
if (muteBtn) muteBtn.addEventListener("click", () => setMuted(!muted()));
onMuteChange(syncMute);
onLangChange(syncMute);
syncMute();
render();
