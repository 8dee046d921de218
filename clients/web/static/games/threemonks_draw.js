// @ts-check
// Three Monks' DOM drawing: the monks around the round table (name, water,
// item, card slot, the fish token), the centre and the supply, the item's
// card with its rule, the status line, the end banner, the log lines, and
// the animations of an event (water, items and the token flying between
// places, a pulse on a seat). Every renderer takes the element it fills,
// the board shown and a View context.

import { h, replace } from "/assets/js/dom.js";
import { strings, ITEM_ZH, FETCHING, CARD_ZH, narrate } from "./threemonks_text.js";
import { WIN, spotAt, statusOf, endText } from "./threemonks_state.js";

/** @typedef {import("./threemonks_state.js").T} T */
/** @typedef {import("./threemonks_state.js").Ev} Ev */
/**
 * What the renderers need: the i18n lookup and language, the viewer (you,
 * and me: the seat number, -1 for a spectator), the players, the seats'
 * names, whose item card is open, whether revealed cards flip in, and what
 * a tap on an item does.
 * @typedef {object} View
 * @property {T} t
 * @property {() => string} lang
 * @property {string | null} you
 * @property {number} me
 * @property {import("../js/types.js").Player[] | undefined} players
 * @property {(seat: number) => string} nameOf
 * @property {(seat: number) => string} logName
 * @property {number} infoSeat
 * @property {boolean} flipFresh
 * @property {(seat: number) => void} onItem
 */

/**
 * drops draws n water drops.
 * @param {number} n
 * @param {string} [cls]
 * @returns {HTMLElement[]}
 */
export const drops = (n, cls) => {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("span", { class: "tm-drop" + (cls ? " " + cls : "") }));
  return out;
};

/**
 * cardFace draws a revealed card (fresh: it flips in).
 * @param {string} card
 * @param {boolean} fresh
 * @param {T} t
 */
const cardFace = (card, fresh, t) => h("div", {
  class: "tm-cardface c-" + card + (fresh ? " flip" : ""), "data-revealed": card, title: t("tm.card." + card),
}, h("b", null, CARD_ZH[card]), h("small", null, t("tm.card." + card)));

/**
 * renderMonk draws one monk at its place on the table.
 * @param {any} g
 * @param {number} seat
 * @param {View} v
 * @returns {HTMLElement}
 */
function renderMonk(g, seat, v) {
  const t = v.t;
  const m = g.monks[seat];
  const pend = g.pending && g.pending.seat === seat;
  const choosing = g.phase === "choose" && !g.chosen.includes(String(seat));
  const won = g.winner === seat;
  const it = m.item || { kind: "", water: 0 };
  let slot;
  if (g.revealed && g.revealed[seat]) slot = cardFace(g.revealed[seat], v.flipFresh, t);
  else if (g.chosen.includes(String(seat))) slot = h("div", { class: "tm-cardback", "data-chosen": "" }, "僧");
  else slot = h("div", { class: "tm-cardslot" });
  const last = g.lastCards && g.lastCards[seat];
  const [x, y] = spotAt(seat, v.me, g.numPlayers);
  const p = v.players && v.players[seat];
  return h("div", {
    class: "tm-monk" + (seat === v.me ? " you" : "") + (pend || choosing ? " active" : "") + (won ? " winner" : ""),
    "data-monk": seat, style: `--x:${x.toFixed(1)}%;--y:${y.toFixed(1)}%`,
  },
  h("div", { class: "tm-head", "data-place": "seat:" + seat },
    h("span", { class: "tm-name" }, v.nameOf(seat)),
    p && p.isBot ? h("span", { class: "pill" }, t("tm.bot")) : null,
    g.holder === seat ? h("span", { class: "tm-token", title: t("tm.token"), "data-token": "" }, "鱼") : null),
  h("div", { class: "tm-water", "data-place": "water:" + seat, "data-water": m.water, title: m.water + "/" + WIN },
    drops(Math.min(m.water, WIN), "full"), drops(Math.max(0, WIN - m.water), "empty"),
    h("span", { class: "tm-count" }, String(m.water))),
  h("div", { class: "tm-row" },
    h("div", {
      class: "tm-item" + (FETCHING.has(it.kind) ? " fetching" : "") + (v.infoSeat === seat ? " open" : ""), "data-place": "item:" + seat,
      "data-item": it.kind, title: t("tm.itemhelp." + it.kind), role: "button", tabindex: "0",
      "aria-label": t("tm.item." + it.kind) + ": " + t("tm.itemhelp." + it.kind),
      onclick: (/** @type {Event} */ e) => { e.stopPropagation(); v.onItem(seat); },
      onkeydown: (/** @type {KeyboardEvent} */ e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); v.onItem(seat); } },
    },
    h("span", { class: "tm-seal" }, ITEM_ZH[it.kind] || "?"),
    h("span", { class: "tm-item-name" }, t("tm.item." + it.kind)),
    h("span", { class: "tm-item-water", "data-item-water": it.water }, drops(Math.min(it.water, 6), "small"), it.water > 0 ? String(it.water) : "")),
    slot),
  last ? h("div", { class: "tm-last muted" }, "⟲ " + t("tm.card." + last)) : null);
}

/**
 * renderTable draws the monks, the centre and the supply.
 * @param {{table: HTMLElement, seats: HTMLElement, centre: HTMLElement, supply: HTMLElement}} els
 * @param {any} g
 * @param {View} v
 */
export function renderTable(els, g, v) {
  const t = v.t;
  els.table.dataset.round = g.round;
  replace(els.seats, ...Array.from({ length: g.numPlayers }, (_, i) => renderMonk(g, i, v)));
  replace(els.centre, h("span", { class: "tm-label" }, t("tm.centre")),
    h("div", { class: "tm-pool" }, drops(Math.min(g.centre, 12)), h("b", { "data-centre": g.centre }, String(g.centre))));
  replace(els.supply, h("span", { class: "tm-well" }, "井"), h("span", { class: "tm-label" }, t("tm.supply")),
    h("small", { class: "muted", "data-taken": g.supplyTaken }, t("tm.taken", { n: g.supplyTaken })));
}

/**
 * renderInfo fills the item card of seat v.infoSeat; it returns false (and
 * hides the card) when that seat has no item to show.
 * @param {HTMLElement} info
 * @param {any} g
 * @param {View} v
 * @returns {boolean}
 */
export function renderInfo(info, g, v) {
  const t = v.t;
  const m = g && v.infoSeat >= 0 && g.monks[v.infoSeat];
  if (!m || !m.item || !m.item.kind) { info.hidden = true; replace(info); return false; }
  const it = m.item;
  const other = v.lang() === "zh" ? strings.en["tm.item." + it.kind] : ITEM_ZH[it.kind];
  info.hidden = false;
  replace(info,
    h("div", { class: "tm-info-head" },
      h("span", { class: "tm-seal" + (FETCHING.has(it.kind) ? " fetching" : "") }, ITEM_ZH[it.kind] || "?"),
      h("div", null, h("b", null, t("tm.item." + it.kind)), other ? h("span", { class: "muted small" }, " · " + other) : null,
        h("div", { class: "muted small" }, (v.infoSeat === v.me ? t("tm.yourItem") : t("tm.itemOf", { name: v.nameOf(v.infoSeat) })) + " · " + t("tm.itemWater", { n: it.water }))),
      h("button", { class: "btn small", type: "button", "data-action": "close-info", "aria-label": t("common.close"), onclick: () => v.onItem(-1) }, "✕")),
    h("p", { class: "tm-info-rule", "data-item-rule": it.kind }, t("tm.rule." + it.kind)),
    FETCHING.has(it.kind) ? h("p", { class: "muted small" }, t("tm.itemFetching")) : null);
  return true;
}

/**
 * renderStatus fills the status line (statusOf).
 * @param {HTMLElement} status
 * @param {any} g
 * @param {{started: boolean, animating: boolean, gameover: any}} o
 * @param {View} v
 */
export function renderStatus(status, g, o, v) {
  const s = statusOf(g, { ...o, you: v.you, me: v.me }, v.t, v.nameOf);
  status.classList.remove("mine", "over");
  if (s.cls) status.classList.add(s.cls);
  status.textContent = s.text;
}

/**
 * renderBanner shows the end's seal and who won, once the table has told
 * everything (not while animating).
 * @param {HTMLElement} banner
 * @param {any} g the state on show
 * @param {any} over ctx.gameover
 * @param {boolean} animating
 * @param {View} v
 */
export function renderBanner(banner, g, over, animating, v) {
  if (!over || animating) { banner.hidden = true; return; }
  banner.hidden = false;
  replace(banner, h("div", { class: "tm-banner-seal" }, over.draw ? "和" : "胜"),
    h("p", null, endText(g, over, v.you, v.t, v.nameOf)));
}

/**
 * logLine is one event's line in the log.
 * @param {Ev} x
 * @param {View} v
 * @returns {HTMLElement}
 */
export const logLine = (x, v) => h("li", { class: "ev-" + x.e.kind, "data-ev": x.e.kind },
  x.e.kind === "reveal" ? h("b", null, v.t("tm.round", { n: x.round }) + " ") : null, narrate(x.e, v.t, v.logName));

/**
 * animateEvent runs an event's animation over the table for ms: an item,
 * the token or water drops fly from place to place, or a seat pulses.
 * @param {HTMLElement} table
 * @param {HTMLElement} fx the layer flying things cross
 * @param {Ev} x
 * @param {number} ms
 */
export function animateEvent(table, fx, x, ms) {
  const placeEl = (/** @type {string} */ place) => /** @type {HTMLElement | null} */ (table.querySelector(`[data-place="${place}"]`));
  const fly = (/** @type {string} */ from, /** @type {string} */ to, /** @type {HTMLElement} */ node) => {
    const a = placeEl(from), b = placeEl(to);
    if (!a || !b || !node.animate) return;
    const box = table.getBoundingClientRect(), ra = a.getBoundingClientRect(), rb = b.getBoundingClientRect();
    const ax = ra.left + ra.width / 2 - box.left, ay = ra.top + ra.height / 2 - box.top;
    const bx = rb.left + rb.width / 2 - box.left, by = rb.top + rb.height / 2 - box.top;
    node.style.left = "0px"; node.style.top = "0px";
    fx.appendChild(node);
    const anim = node.animate([
      { transform: `translate(${ax}px, ${ay}px) scale(.8)`, opacity: 0.2 },
      { transform: `translate(${(ax + bx) / 2}px, ${Math.min(ay, by) - 30}px) scale(1.2)`, opacity: 1, offset: 0.5 },
      { transform: `translate(${bx}px, ${by}px) scale(1)`, opacity: 0.9 },
    ], { duration: ms, easing: "ease-in-out" });
    anim.onfinish = () => node.remove();
  };
  const pulse = (/** @type {string} */ place) => {
    const e = placeEl(place);
    if (e && e.animate) e.animate([{ boxShadow: "0 0 0 0 rgba(184,50,42,.7)" }, { boxShadow: "0 0 0 10px rgba(184,50,42,0)" }], { duration: 600 });
  };
  const e = x.e;
  if (e.kind === "pass") fly(e.from, e.to, h("span", { class: "tm-fly-item" }, ITEM_ZH[e.item] || ""));
  else if (e.kind === "token") fly(e.from, e.to, h("span", { class: "tm-token tm-fly" }, "鱼"));
  else if (e.from && e.to) {
    for (let i = 0; i < Math.min(e.n || 1, 4); i++) setTimeout(() => fly(e.from, e.to, h("span", { class: "tm-drop tm-fly" })), i * 60);
  } else if (e.seat >= 0) pulse("seat:" + e.seat);
}
