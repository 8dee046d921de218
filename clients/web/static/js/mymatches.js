// @ts-check
// mymatches: the lobby's "my matches", every seat this browser holds (see
// store.js), newest first: the game, the other players, whose move it is
// or that it is over, and one click back in. A match that expired, or
// whose seat passed to a bot, says so once and leaves the list.

import { h, replace } from "./dom.js";
import { t, pick } from "./i18n.js";
import * as api from "./api.js";
import { listSeats, setSeat, forgetSeat } from "./store.js";
import { roomPath } from "./nav.js";
import { botDisplayName } from "./botname.js";

/** @typedef {import("./types.js").CatalogEntry} CatalogEntry */

/**
 * SHOWN is how many of the newest seats the lobby lists.
 * @type {number}
 */
export const SHOWN = 8;

/**
 * createMyMatches returns {el, refresh(games), redraw()}: el is the
 * section (hidden while there is nothing to list); refresh(games) asks
 * the server about each remembered seat, games being the catalog.
 * @returns {{el: HTMLElement, refresh: (games: CatalogEntry[]) => Promise<void>, redraw: () => void}}
 */
export function createMyMatches() {
  const el = h("section", { class: "my-matches", "data-section": "my-matches", hidden: true });
  let rows = []; // {seat, match?, gone?: "expired"|"bot", error?}
  let catalog = [];
  const gone = new Map(); // matchID -> row: said once, kept until the lobby closes

  const title = (game) => {
    const g = catalog.find((x) => x.name === game);
    return g ? pick(g.title) : game;
  };

  const status = (seat, m) => {
    if (m.gameover) return { text: t("mine.over"), cls: "" };
    if (!m.started) {
      const free = m.players.filter((p) => !p.name).length;
      return { text: t("mine.waiting", { n: free }), cls: "" };
    }
    const toMove = m.toMove || [];
    if (toMove.includes(seat.playerID)) return { text: t("mine.yourTurn"), cls: "jade your-turn" };
    const names = toMove.map((id) => {
      const p = m.players[Number(id)];
      return p ? botDisplayName(p, Number(id)) || t("room.seatN", { n: Number(id) + 1 }) : id;
    });
    return { text: names.length ? t("mine.theirTurn", { names: names.join(t("mine.and")) }) : t("mine.inPlay"), cls: "" };
  };

  const row = ({ seat, match: m, gone: why, error }) => {
    const head = h("div", { class: "mine-game" }, h("strong", null, title(seat.game || (m && m.gameName) || "")));
    if (why) {
      return h("li", { class: "match-row mine-row gone", "data-match": seat.matchID, "data-gone": why },
        h("div", { class: "match-info" }, head, h("div", { class: "muted small" }, t(why === "bot" ? "mine.toBot" : "mine.expired"))));
    }
    const link = h("a", { class: "btn small primary", href: roomPath(seat.game, seat.matchID), "data-link": true, "data-action": "resume" },
      m && m.gameover ? t("mine.view") : t("mine.back"));
    if (!m) {
      return h("li", { class: "match-row mine-row", "data-match": seat.matchID },
        h("div", { class: "match-info" }, head, h("div", { class: "muted small" }, error ? t("mine.unknown") : t("common.loading"))),
        h("div", { class: "row" }, link));
    }
    const others = m.players.map((p, i) => ({ p, i })).filter(({ i }) => String(i) !== seat.playerID)
      .map(({ p, i }) => h("span", { class: "seat-chip" + (p.name ? "" : " free") + (p.isBot ? " bot" : "") }, p.name ? botDisplayName(p, i) : "·"));
    const st = status(seat, m);
    return h("li", { class: "match-row mine-row" + (st.cls.includes("your-turn") ? " your-turn" : ""), "data-match": seat.matchID, "data-game": seat.game },
      h("div", { class: "match-info" }, head,
        h("div", { class: "seat-chips" }, h("span", { class: "muted small" }, t("mine.vs")), others),
        h("div", { class: "small" }, h("span", { class: "pill " + st.cls, "data-status": "status" }, st.text))),
      h("div", { class: "row" }, link));
  };

  const redraw = () => {
    const list = [...rows, ...[...gone.values()].filter((g) => !rows.some((r) => r.seat.matchID === g.seat.matchID))];
    el.hidden = list.length === 0;
    if (el.hidden) { replace(el); return; }
    replace(el, h("h2", { class: "section-title" }, t("mine.title")),
      h("ul", { class: "match-list mine-list" }, list.map(row)));
  };

  /** check asks the server about one seat; old seats learn their game. */
  const check = async (seat) => {
    const names = seat.game ? [seat.game] : catalog.map((g) => g.name);
    let notFound = 0;
    for (const game of names) {
      try {
        const m = await api.getMatch(game, seat.matchID);
        if (!seat.game) setSeat(seat.matchID, seat, game);
        seat = { ...seat, game };
        const p = m.players[Number(seat.playerID)];
        if (p && p.isBot) return { seat, gone: "bot" };
        return { seat, match: m };
      } catch (e) {
        if (e.status === 404) { notFound++; continue; }
        return { seat, error: e };
      }
    }
    return notFound === names.length && names.length > 0 ? { seat, gone: "expired" } : { seat, error: true };
  };

  const refresh = async (games) => {
    catalog = games || catalog;
    const seats = listSeats().slice(0, SHOWN);
    if (rows.length === 0) rows = seats.map((seat) => ({ seat }));
    const checked = await Promise.all(seats.map(check));
    for (const r of checked) {
      if (r.gone) {
        forgetSeat(r.seat.matchID);
        gone.set(r.seat.matchID, r);
      }
    }
    rows = checked.filter((r) => !r.gone);
    redraw();
  };

  return { el, refresh, redraw };
}
