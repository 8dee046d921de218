// @ts-check
// Carcassonne's drawing: the board's SVG as one string (tiles, the last
// placed tile's frame, legal cells in pink, the selected one green with
// the drawn tile previewed on it, the final breakdown's highlight,
// meeples, the meeple choices as circles, the points scored floating up).

import { tileSVG, spotOf, meepleSVG, SEAT_COLOURS, esc } from "./carcassonne_tiles.js";
import { legalAt, meepleKey } from "./carcassonne_state.js";

/** @typedef {import("../js/types.js").Point} Point */
/** @typedef {import("./carcassonne_state.js").Fresh} Fresh */

/**
 * What boardSVG draws besides the view: whether this drawing animates
 * what is fresh, the selected cell and the preview's rotation, the cells
 * highlighted, whose step it is, whether the game is over, the language.
 * @typedef {object} Marks
 * @property {boolean} anim
 * @property {Fresh} fresh
 * @property {Point | null} sel
 * @property {number} rot
 * @property {[number, number][] | null} hl
 * @property {boolean} myTile
 * @property {boolean} myMeeple
 * @property {boolean} over
 * @property {string} lang
 */

/**
 * boardSVG is the SVG of the world layer for view g.
 * @param {any} g
 * @param {Marks} m
 * @returns {string}
 */
export function boardSVG(g, m) {
  const out = [];
  const board = g.board || [];
  const { anim, fresh, sel, rot } = m;
  for (const b of board) {
    const key = `${b.x},${b.y}`;
    const cls = "cc-tile" + (anim && fresh.tile === key ? " cc-new" : "");
    out.push(`<g class="${cls}" data-tile="${key}" data-type="${b.type}" transform="translate(${b.x * 100} ${b.y * 100})"><g class="cc-in">${tileSVG(b.type, b.rotation)}</g></g>`);
  }
  const lp = g.lastPlaced;
  if (lp && !m.over) out.push(`<rect class="cc-last" x="${lp.x * 100 + 1.5}" y="${lp.y * 100 + 1.5}" width="97" height="97"/>`);
  // Legal positions: pink; the selected one green with the tile on it.
  if (g.phase === "tile" && Array.isArray(g.placements)) {
    const me = m.myTile;
    for (const p of g.placements) {
      const isSel = me && sel && sel.x === p.x && sel.y === p.y;
      if (isSel) continue;
      const fits = p.rotations.includes(rot);
      out.push(`<rect class="cc-cand${me && !fits ? " dim" : ""}${me ? "" : " watch"}" data-cand="${p.x},${p.y}" x="${p.x * 100 + 3}" y="${p.y * 100 + 3}" width="94" height="94" rx="6"/>`);
    }
    if (me && sel && g.tile) {
      const ok = (legalAt(g, sel) || []).includes(rot);
      out.push(`<g class="cc-preview" transform="translate(${sel.x * 100} ${sel.y * 100})"><g opacity=".9">${tileSVG(g.tile, rot)}</g>` +
        `<rect class="cc-sel${ok ? "" : " bad"}" data-sel="${sel.x},${sel.y}" x="1.5" y="1.5" width="97" height="97" rx="3"/></g>`);
    }
  }
  if (m.hl) for (const [x, y] of m.hl) out.push(`<rect class="cc-hl" x="${x * 100 + 2}" y="${y * 100 + 2}" width="96" height="96"/>`);
  for (const mp of g.meeples || []) {
    const b = board.find((/** @type {any} */ q) => q.x === mp.x && q.y === mp.y);
    if (!b) continue;
    const [sx, sy] = spotOf(b.type, b.rotation, mp.feature);
    const key = meepleKey(mp);
    const lying = mp.kind === "field" ? ` data-field="1"` : "";
    out.push(`<g class="cc-mwrap${anim && fresh.meeples.has(key) ? " cc-new" : ""}" data-meeple="${key}"${lying} transform="translate(${mp.x * 100 + sx} ${mp.y * 100 + sy})"><g class="cc-in">${meepleSVG(mp.seat, 0, 0, 1.05, mp.kind === "field" ? ` transform="rotate(-90)"` : "")}</g></g>`);
  }
  // The meeple step: the choices as circles on the tile just placed.
  if (g.phase === "meeple" && lp && Array.isArray(g.meepleOptions)) {
    for (const o of g.meepleOptions) {
      const [sx, sy] = spotOf(lp.type, lp.rotation, o.feature);
      const label = (o.label && (o.label[m.lang] || o.label.en)) || o.feature;
      const col = SEAT_COLOURS[Number(g.current) % SEAT_COLOURS.length];
      out.push(`<g class="cc-spot${m.myMeeple ? " live" : ""}" data-feature="${esc(o.feature)}" data-kind="${esc(o.kind)}" transform="translate(${lp.x * 100 + sx} ${lp.y * 100 + sy})">` +
        `<title>${esc(label)}</title><circle r="9" fill="rgba(255,255,255,.6)" stroke="${col}" stroke-width="2.4"/><circle r="2.8" fill="${col}"/></g>`);
    }
  }
  for (const sc of anim ? fresh.scores : []) {
    for (const [x, y] of sc.cells || []) out.push(`<rect class="cc-scored" x="${x * 100 + 2}" y="${y * 100 + 2}" width="96" height="96"/>`);
    const col = SEAT_COLOURS[(sc.seats && sc.seats[0]) % SEAT_COLOURS.length] || "#333";
    out.push(`<g class="cc-float" transform="translate(${sc.x * 100 + 50} ${sc.y * 100 + 40})"><text text-anchor="middle" fill="${col}">+${sc.points}</text></g>`);
  }
  return out.join("");
}
