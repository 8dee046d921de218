// @ts-check
// lobby: the game list from /catalog, each game's open matches (refreshed
// every few seconds), and the create form.

import { h, replace } from "./dom.js";
import { t, has, pick, lang, onLangChange } from "./i18n.js";
import * as api from "./api.js";
import { getName, setName, getSeat, setSeat } from "./store.js";
import { toastError, toast } from "./toast.js";
import { navigate, roomPath } from "./nav.js";
import { createForm } from "./create.js";
import { botDisplayName } from "./botname.js";
import { createMyMatches } from "./mymatches.js";

/** @typedef {import("./types.js").CatalogEntry} CatalogEntry */
/** @typedef {import("./types.js").Match} Match */
/** @typedef {import("./types.js").CreateBody} CreateBody */

const REFRESH_MS = 4000;

/**
 * mountLobby renders the lobby into el and returns its destroy function.
 * @param {HTMLElement} el
 * @returns {() => void}
 */
export function mountLobby(el) {
  /** @type {CatalogEntry[] | null} */
  let games = null;
  /** @type {Error | null} */
  let failed = null;
  /** @type {Map<string, Match[] | Error>} game name -> its open matches, or why they did not load */
  const matches = new Map();
  let openForm = null; // name of the game whose create form is open
  let timer = null;
  let alive = true;
  const mine = createMyMatches();

  const nameInput = h("input", {
    id: "name-input", class: "input", maxlength: 40, autocomplete: "nickname",
    value: getName(), oninput: () => setName(nameInput.value),
  });

  /** needName returns the trimmed name, or "" after asking for it. */
  const needName = () => {
    const n = nameInput.value.trim();
    if (n) { setName(n); return n; }
    toast(t("name.needed"), "error");
    nameInput.focus();
    nameInput.scrollIntoView({ block: "center", behavior: "smooth" });
    return "";
  };

  const draw = () => {
    if (!alive) return;
    const hero = h("section", { class: "hero" },
      h("div", { class: "hero-text" },
        h("h1", null, t("app.title"), h("span", { class: "hero-sub" }, lang() === "zh" ? "Chaguan" : "茶馆")),
        h("p", { class: "tagline" }, t("app.tagline"))),
      h("label", { class: "field name-field" }, h("span", null, t("name.label")),
        Object.assign(nameInput, { placeholder: t("name.placeholder") })));
    let body;
    if (failed) {
      body = h("div", { class: "card center" }, h("p", null, t("lobby.catalogFailed"), " ", failed.message),
        h("button", { class: "btn", onclick: load }, t("common.retry")));
    } else if (!games) {
      body = h("p", { class: "loading" }, t("common.loading"));
    } else {
      body = h("div", { class: "games-grid" }, games.map(gameCard));
    }
    mine.redraw();
    replace(el, hero, mine.el, h("h2", { class: "section-title" }, t("lobby.games")), body);
  };

  const gameCard = (g) => {
    const other = lang() === "zh" ? g.title.en : g.title.zh;
    const players = g.minPlayers === g.maxPlayers ? t("lobby.playersOne", { min: g.minPlayers })
      : t("lobby.players", { min: g.minPlayers, max: g.maxPlayers });
    const isOpen = openForm === g.name;
    const toggle = h("button", {
      class: "btn " + (isOpen ? "" : "primary"), type: "button", "data-action": "new",
      onclick: () => { openForm = isOpen ? null : g.name; draw(); },
    }, isOpen ? t("common.cancel") : t("lobby.new"));
    return h("article", { class: "card game-card", "data-game": g.name },
      h("header", { class: "game-head" },
        h("span", { class: "game-seal", "aria-hidden": "true" }, [...(g.title.zh || g.name)][0]),
        h("div", { class: "game-names" }, h("h3", null, pick(g.title)), h("div", { class: "muted small" }, other)),
        h("span", { class: "pill" }, players)),
      has("game." + g.name + ".desc") ? h("p", { class: "game-desc" }, t("game." + g.name + ".desc")) : null,
      h("div", { class: "row" }, toggle),
      isOpen ? createForm(g, { onCreate: (body) => doCreate(g, body) }) : null,
      h("h4", { class: "subhead" }, t("lobby.open")),
      matchList(g));
  };

  const matchList = (g) => {
    const list = matches.get(g.name);
    if (list === undefined) return h("p", { class: "muted small" }, t("common.loading"));
    if (list instanceof Error) return h("p", { class: "muted small" }, list.message);
    // Open matches are the ones a person can still sit down in; finished and
    // full ones (bot-only tables, say) leave the list, though their links
    // still work for watching. Your own unfinished matches stay, to resume.
    const open = list.filter((m) => !m.gameover && (m.players.some((p) => !p.name) || getSeat(m.matchID)));
    if (open.length === 0) return h("p", { class: "muted small empty" }, t("lobby.none"));
    const sorted = [...open].sort((a, b) => (a.started - b.started) || (b.updatedAt - a.updatedAt)).slice(0, 12);
    return h("ul", { class: "match-list" }, sorted.map((m) => matchRow(g, m)));
  };

  const matchRow = (g, m) => {
    const seated = m.players.filter((p) => p.name).length;
    const free = m.players.length - seated;
    const mine = getSeat(m.matchID);
    const status = m.gameover ? t("lobby.over") : m.started ? t("lobby.started") : t("lobby.waiting");
    const names = m.players.map((p, i) => h("span", { class: "seat-chip" + (p.name ? "" : " free") + (p.isBot ? " bot" : "") },
      p.name ? botDisplayName(p, i) : "·"));
    const buttons = [];
    if (mine) {
      buttons.push(h("a", { class: "btn small primary", href: roomPath(g.name, m.matchID), "data-link": true }, t("lobby.resume")));
    } else if (free > 0 && !m.started) {
      buttons.push(h("button", { class: "btn small primary", type: "button", "data-action": "join", onclick: () => doJoin(g, m) }, t("lobby.join")));
    }
    buttons.push(h("a", { class: "btn small", href: roomPath(g.name, m.matchID), "data-link": true }, t("lobby.watch")));
    return h("li", { class: "match-row", "data-match": m.matchID },
      h("div", { class: "match-info" },
        h("div", { class: "seat-chips" }, names),
        h("div", { class: "muted small" }, t("lobby.seated", { n: seated, total: m.players.length }), " · ",
          h("span", { class: "pill " + (m.started ? "jade" : "") }, status))),
      h("div", { class: "row" }, buttons));
  };

  /** @type {(g: CatalogEntry, body: CreateBody) => Promise<boolean>} */
  const doCreate = async (g, body) => {
    const name = needName();
    if (!name) return false;
    try {
      const { matchID } = await api.create(g.name, body);
      const res = await api.join(g.name, matchID, { playerName: name, playerID: "0" });
      setSeat(matchID, { playerID: res.playerID, credentials: res.playerCredentials, name }, g.name);
      navigate(roomPath(g.name, matchID));
      return true;
    } catch (e) {
      toastError(e);
      return false;
    }
  };

  let joining = false; // one join at a time: a double click must not take two seats
  const doJoin = async (g, m) => {
    const name = needName();
    if (!name || joining) return;
    joining = true;
    try {
      const res = await api.join(g.name, m.matchID, { playerName: name });
      setSeat(m.matchID, { playerID: res.playerID, credentials: res.playerCredentials, name }, g.name);
      navigate(roomPath(g.name, m.matchID));
    } catch (e) {
      toastError(e);
      refresh();
    } finally {
      joining = false;
    }
  };

  const refresh = async () => {
    if (!games) return;
    const mineDone = mine.refresh(games);
    await Promise.all(games.map(async (g) => {
      try {
        matches.set(g.name, await api.listMatches(g.name));
      } catch (e) {
        matches.set(g.name, e);
      }
    }));
    if (!alive) return;
    // Redraw only the match lists, so a half-filled create form survives.
    for (const g of games) {
      const card = el.querySelector(`.game-card[data-game="${g.name}"]`);
      const old = card && card.querySelector(".match-list, .subhead + p");
      if (old) old.replaceWith(matchList(g));
    }
    await mineDone;
  };

  const load = async () => {
    failed = null;
    draw();
    try {
      games = (await api.catalog()) || [];
    } catch (e) {
      failed = e;
    }
    draw();
    if (games) {
      await refresh();
      const tick = async () => {
        if (!alive) return;
        if (!document.hidden) await refresh();
        if (alive) timer = setTimeout(tick, REFRESH_MS);
      };
      timer = setTimeout(tick, REFRESH_MS);
    }
  };

  const offLang = onLangChange(draw);
  load();
  return () => {
    alive = false;
    clearTimeout(timer);
    offLang();
  };
}
