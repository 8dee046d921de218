// @ts-check
// seats: the room's seat list: names, bot badges, connection dots, "you";
// "Sit here" on free seats for a visitor, "Add bot" for a seated player,
// and the seated player's autoplay and leave controls.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { botBadges, isLLM, levelLabel } from "./botname.js";
import { seatClock } from "./clock.js";

/** @typedef {import("./types.js").Player} Player */

/**
 * What renderSeats draws from: the seats, the viewer ("" for a visitor),
 * the bot levels, whose turn it is, and the room's persistent inputs and
 * handlers.
 * @typedef {object} SeatsView
 * @property {Player[]} players
 * @property {string} you
 * @property {string[]} bots
 * @property {string} [current] the seat to move, "" when none
 * @property {boolean} over
 * @property {HTMLInputElement} nameInput
 * @property {(i: number) => HTMLSelectElement} botSelect
 * @property {(i: number) => void} onSit
 * @property {(i: number) => void} onBot
 * @property {() => void} onLeave
 * @property {(on: boolean) => void} onAutoplay
 */

/**
 * renderSeats builds the seats card.
 * r: {players, you ("" or an id), bots (levels), started, over,
 *     nameInput (a persistent <input>), botSelect(i) (a persistent <select>),
 *     onSit(i), onBot(i), onLeave(), onAutoplay(on)}
 * @param {SeatsView} r
 * @returns {HTMLElement}
 */
export function renderSeats(r) {
  const seated = r.you !== "";
  const rows = r.players.map((p, i) => seatRow(r, p, i, seated));
  const free = r.players.filter((p) => !p.name).length;
  const parts = [h("h3", null, t("room.seats")), h("ul", { class: "seats" }, rows)];
  if (!seated && free > 0 && !r.over) {
    parts.push(h("p", { class: "muted small" }, t("room.spectating")));
    parts.push(h("label", { class: "field" }, h("span", null, t("name.label")), r.nameInput));
  }
  if (seated) {
    const me = r.players[Number(r.you)] || {};
    const box = h("input", {
      type: "checkbox", "data-action": "autoplay", checked: !!me.autoplay,
      disabled: r.over, onchange: () => r.onAutoplay(box.checked),
    });
    parts.push(h("div", { class: "seat-controls" },
      h("label", { class: "check switch" }, box, h("span", null, t("room.autoplayToggle"))),
      r.over ? null : h("button", { class: "btn small danger", type: "button", "data-action": "leave", onclick: r.onLeave }, t("room.leave"))));
  }
  return h("section", { class: "card seats-card" }, parts);
}

function seatRow(r, p, i, seated) {
  const id = String(i);
  const mine = r.you === id;
  const online = p.isBot || p.isConnected;
  const name = p.name
    ? h("span", { class: "seat-name" }, p.name)
    : h("span", { class: "seat-name empty" }, t("room.emptySeat"));
  const badges = [];
  badges.push(...botBadges(p, isLLM(p) && r.current === id && !r.over));
  if (p.autoplay) badges.push(h("span", { class: "pill" }, t("room.autoplay")));
  if (mine) badges.push(h("span", { class: "pill jade" }, t("common.you")));
  const actions = [];
  if (!p.name && !r.over) {
    if (!seated) {
      actions.push(h("button", { class: "btn small primary", type: "button", "data-action": "sit", "data-seat": id, onclick: () => r.onSit(i) }, t("room.sit")));
    } else if (r.bots && r.bots.length) {
      actions.push(r.botSelect(i));
      actions.push(h("button", { class: "btn small", type: "button", "data-action": "add-bot", "data-seat": id, onclick: () => r.onBot(i) }, t("room.addBot")));
    }
  }
  const dotTitle = p.name ? (online ? t("room.connected") : t("room.offline")) : "";
  return h("li", { class: "seat" + (mine ? " mine" : "") + (r.current === id ? " current" : ""), "data-seat": id },
    h("span", { class: "seat-no" }, String(i + 1)),
    h("span", { class: "dot " + (p.name ? (online ? "on" : "off") : "none"), title: dotTitle, "aria-label": dotTitle }),
    h("span", { class: "seat-main" }, name, badges),
    p.name ? seatClock(i) : null,
    actions.length ? h("span", { class: "seat-actions" }, actions) : null);
}

/**
 * botSelectFor makes the level chooser for a free seat.
 * @param {string[]} levels
 * @returns {HTMLSelectElement}
 */
export function botSelectFor(levels) {
  const sel = h("select", { class: "input small" },
    levels.map((b) => h("option", { value: b }, levelLabel(b))));
  if (levels.includes("normal")) sel.value = "normal";
  return sel;
}
