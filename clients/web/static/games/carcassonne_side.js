// @ts-check
// The Carcassonne plugin's side panel: status, the drawn tile with Rotate
// and Place, the meeple choices with Skip, the players (score, meeples
// left; an LLM bot's badge, and "thinking… 3 s" while it decides), tiles
// left, the final scoring per feature (each seat's number always shown),
// and the log (with a bot's own reason for its move, and a move the
// fallback level played for it marked so).

import { h } from "/assets/js/dom.js";
import { DEFS, tileSVG, meepleSVG, SEAT_COLOURS } from "./carcassonne_tiles.js";
import { nameText } from "./carcassonne_text.js";
import { isLLM, botBadges, thinkingMark } from "/assets/js/botname.js";
import { thinkingOf, thinkingSecs, fallbackText } from "/assets/js/thinking.js";

const NS = "http://www.w3.org/2000/svg";
const svgOf = (cls, vb, inner) => {
  const s = document.createElementNS(NS, "svg");
  s.setAttribute("class", cls);
  s.setAttribute("viewBox", vb);
  s.innerHTML = inner;
  return s;
};
const meepleIcon = (seat, off) => svgOf("cc-micon" + (off ? " off" : ""), "-12 -12 24 22", meepleSVG(seat, 0, 0, 1));

/**
 * createSide builds the panel; on: {rotate, place, meeple(f), skip,
 * highlight(cells), show(cells), hot(feature)}. It returns {el,
 * render(s), setTouch(touch)}.
 * @param {import("../js/types.js").PluginApi} api
 * @param {Record<string, (...args: any[]) => any>} on
 */
export function createSide(api, on) {
  const t = api.t;
  let last = null; // the last render's argument, for setTouch
  let pinned = -1; // the final breakdown's entry a tap keeps lit (-1: none)
  let pinnedCells = null;
  const statusEl = h("div", { class: "status-bar cc-status", "data-status": "carcassonne" });
  const preview = svgOf("cc-tile-preview", "-4 -4 108 108", DEFS + `<g class="cc-pv"></g>`);
  // The drawn tile turns when it is clicked or tapped, as the hint says.
  preview.addEventListener("click", () => { if (last && last.myTile) on.rotate(); });
  const pv = preview.querySelector(".cc-pv");
  const tileName = h("div", { class: "cc-tile-name" });
  const tileHint = h("div", { class: "cc-tile-hint" });
  const bRotate = h("button", { class: "btn small", type: "button", "data-action": "rotate", onclick: on.rotate });
  const bPlace = h("button", { class: "btn small primary", type: "button", "data-action": "place", onclick: on.place });
  const tileBtns = h("div", { class: "row cc-tile-btns" }, bRotate, bPlace);
  const tileBox = h("div", { class: "cc-tilebox", "data-box": "tile" }, preview, h("div", { class: "cc-tile-info" }, tileName, tileHint, tileBtns));
  const meepleTitle = h("div", { class: "cc-h" });
  const meepleHint = h("div", { class: "cc-tile-hint" });
  const meepleList = h("div", { class: "cc-options" });
  const bSkip = h("button", { class: "btn small", type: "button", "data-action": "skip", onclick: on.skip });
  const meepleBox = h("div", { class: "cc-meeplebox", "data-box": "meeple" }, meepleTitle, meepleHint, meepleList, bSkip);
  const players = h("div", { class: "cc-players" });
  const info = h("div", { class: "cc-info" });
  const finalBox = h("div", { class: "cc-final", "data-box": "final" });
  const logTitle = h("div", { class: "cc-h" });
  const log = h("ol", { class: "cc-log", "data-log": "carcassonne" });
  const el = h("aside", { class: "cc-side" }, statusEl, tileBox, meepleBox, players, info, finalBox, logTitle, log);

  const names = (st, n) => Array.from({ length: n }, (_, i) => {
    const p = st && st.players && st.players[i];
    return (p && p.name) || t("carcassonne.player", { n: i });
  });
  // A bot's pill: "bot", or an LLM bot's "LLM · NAME".
  const botPill = (p) => (isLLM(p) ? botBadges(p, false) : p && p.isBot ? h("span", { class: "pill" }, t("room.bot")) : null);
  const evText = (e, nm) => nameText((e.text && (e.text[api.lang()] || e.text.en)) || e.kind, nm);

  // hint: what the line under the drawn tile says. On a touch screen it
  // speaks of taps and of no R key.
  const hint = (s) => {
    const g = s.g;
    const r = s.myTile ? s.rot : 0;
    const bad = s.myTile && s.sel && !(s.legal || []).includes(r);
    const fitsHere = (g.placements || []).filter((p) => p.rotations.includes(r)).length;
    if (!s.myTile) return t("carcassonne.spots", { n: (g.placements || []).length });
    if (bad) return t("carcassonne.illegal");
    // Turned as shown, the tile may fit no square: picking one turns it
    // to fit (a newcomer reads "fits nowhere" as "cannot be placed").
    if (!s.sel && !fitsHere) return t(s.touch ? "carcassonne.noFitTouch" : "carcassonne.noFit");
    if (!s.sel) return t(s.touch ? "carcassonne.pickSpotTouch" : "carcassonne.pickSpot");
    return t(s.touch ? "carcassonne.rotateHintTouch" : "carcassonne.rotateHint");
  };

  // The final breakdown: hovering an entry lights its cells on the board
  // for a moment; a click or tap keeps them lit (and brings the board into
  // sight) until another entry is tapped or the same one again.
  const pin = (i, cells) => {
    if (pinned === i) { pinned = -1; pinnedCells = null; }
    else { pinned = i; pinnedCells = cells; }
    for (const li of el.querySelectorAll(".cc-breakdown li")) {
      const on = Number(li.dataset.entry) === pinned;
      li.classList.toggle("pinned", on);
      li.setAttribute("aria-pressed", on ? "true" : "false");
    }
    on.highlight(pinnedCells);
    if (pinnedCells) on.show(pinnedCells);
  };

  return {
    el,
    setTouch(touch) {
      if (!last || !last.g || tileBox.hidden) return;
      last = { ...last, touch };
      tileHint.textContent = hint(last);
    },
    render(s) {
      last = s;
      const { g, state: st } = s;
      const n = g ? g.numPlayers || 2 : 2;
      const nm = names(st, n);
      const seated = api.you !== null && api.you !== "";
      // Status. An LLM seat on turn is thinking until its move arrives
      // (in either step: it decides the meeple too); once the server says
      // it is (state.thinking: the decision takes a while), the seconds
      // count beside it.
      const playing = !!(g && s.started && !s.over && st.players);
      const th = playing ? thinkingOf(st) : null;
      const thinker = th ? Number(th.playerID) : playing && isLLM(st.players[g.current]) ? Number(g.current) : -1;
      const llm = thinker >= 0 && isLLM(st.players[thinker]);
      const mark = (cls) => {
        const m = thinkingMark(cls);
        if (th) m.append("\u00a0", thinkingSecs(th));
        return m;
      };
      const { text, cls } = statusOf(t, s, nm, seated ? String(api.you) : null, llm);
      statusEl.replaceChildren(llm ? mark() : text);
      if (llm) statusEl.firstChild.prepend(text);
      else if (th) statusEl.append(" ", thinkingSecs(th));
      statusEl.className = "status-bar cc-status" + (cls ? " " + cls : "");

      // The drawn tile.
      const showTile = !!(g && s.started && !s.over && g.phase === "tile" && g.tile);
      tileBox.hidden = !showTile;
      if (showTile) {
        const r = s.myTile ? s.rot : 0;
        const bad = s.myTile && s.sel && !(s.legal || []).includes(r);
        pv.innerHTML = tileSVG(g.tile, r) + (bad ? `<path d="M20,20 L80,80 M80,20 L20,80" stroke="#b8322a" stroke-width="7" stroke-linecap="round" opacity=".85"/>` : "");
        preview.dataset.rotation = String(r);
        preview.dataset.type = g.tile;
        tileName.textContent = `${t("carcassonne.tile")} ${g.tile}` + (s.myTile ? ` · ${r}°` : "");
        tileHint.textContent = hint(s);
        tileHint.classList.toggle("bad", !!bad);
        preview.classList.toggle("live", !!s.myTile);
        if (s.myTile) preview.setAttribute("aria-label", t("carcassonne.rotate"));
        else preview.removeAttribute("aria-label");
        tileBtns.hidden = !seated || !s.myTile;
        bRotate.textContent = t("carcassonne.rotate");
        bPlace.textContent = t("carcassonne.place");
        bRotate.disabled = s.pending || (s.sel && (s.legal || []).length < 2);
        bPlace.disabled = s.pending || !s.sel || bad;
      }

      // The meeple step.
      const showMeeple = !!(s.myMeeple && g && Array.isArray(g.meepleOptions));
      meepleBox.hidden = !showMeeple;
      if (showMeeple) {
        meepleTitle.textContent = t("carcassonne.meepleTitle");
        meepleHint.textContent = t("carcassonne.meepleHint");
        const lang = api.lang();
        meepleList.replaceChildren(...g.meepleOptions.map((o) => h("button", {
          class: "btn small cc-opt cc-k-" + o.kind, type: "button", "data-option": o.feature, disabled: s.pending,
          onclick: () => on.meeple(o.feature),
          onmouseenter: () => on.hot(o.feature), onmouseleave: () => on.hot(null),
        }, (o.label && (o.label[lang] || o.label.en)) || o.feature)));
        bSkip.textContent = t("carcassonne.skip");
        bSkip.disabled = s.pending;
      }

      // Players.
      players.replaceChildren(...(g ? nm.map((name, i) => {
        const p = st.players && st.players[i];
        const active = s.started && !s.over && Number(g.current) === i;
        const won = s.over && g.final && (g.final.winners || []).includes(i);
        const left = g.meeplesLeft ? g.meeplesLeft[i] : 7;
        const icons = [];
        for (let k = 0; k < 7; k++) icons.push(meepleIcon(i, k >= left));
        return h("div", { class: "cc-player" + (active ? " active" : "") + (won ? " won" : ""), "data-seat": String(i), style: `--seat:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` },
          h("div", { class: "cc-pline" },
            h("span", { class: "cc-dot" }),
            h("span", { class: "cc-pname" }, name),
            String(api.you) === String(i) ? h("span", { class: "pill jade" }, t("common.you")) : null,
            botPill(p),
            h("b", { class: "cc-score", "data-score": String(i), title: t("carcassonne.scores") }, String(g.scores ? g.scores[i] : 0))),
          h("div", { class: "cc-pline2" },
            h("div", { class: "cc-meeples", title: `${t("carcassonne.meeplesLeft")}: ${left}`, "data-left": String(left) }, icons),
            thinker === i ? mark("cc-think") : null));
      }) : []));

      // Tiles left, turn.
      info.replaceChildren(...(g ? [
        h("span", null, h("small", null, t("carcassonne.tilesLeft")), h("b", { "data-tiles-left": "" }, String(g.tilesLeft))),
        h("span", null, h("small", null, t("carcassonne.turn")), h("b", null, String(g.turn || 0))),
        (g.removed || []).length ? h("span", null, h("small", null, t("carcassonne.removed")), h("b", null, g.removed.map((r) => r.type || r.tile || r).join(" "))) : null,
      ].filter(Boolean) : []));

      // Final scoring.
      const f = g && s.over ? g.final : null;
      finalBox.hidden = !f;
      if (!f) { pinned = -1; pinnedCells = null; }
      if (f) {
        // One column per seat, one row per kind of feature: fits 5 seats.
        const kinds = t("carcassonne.kinds").split(",");
        const won = (i) => ((f.winners || []).includes(i) ? "won" : "");
        // The name may be cut short; the seat ("Seat 1", never "#1",
        // which reads as a rank) never is.
        const head = h("tr", null, h("th"), nm.map((name, i) => h("th", { class: won(i), title: name, "data-final-seat": String(i) },
          h("span", { class: "cc-dot", style: `--seat:${SEAT_COLOURS[i % SEAT_COLOURS.length]}` }),
          h("span", { class: "cc-short" }, name), h("span", { class: "cc-seatno" }, t("carcassonne.seat", { n: i + 1 })))));
        const row = (label, val, cls) => h("tr", { class: cls || "" }, h("th", null, label), nm.map((_, i) => h("td", { class: won(i) + (cls ? " " + cls : ""), "data-final": cls ? String(i) : null }, String(val(i)))));
        const bk = (i) => (f.byKind && f.byKind[i]) || [0, 0, 0, 0];
        const total = (i) => (f.scores ? f.scores[i] : 0);
        const rows = [
          row(t("carcassonne.ingame"), (i) => total(i) - bk(i).reduce((x, y) => x + y, 0)),
          ...kinds.map((k, j) => row(k, (i) => bk(i)[j])),
          row(t("carcassonne.total"), total, "cc-total"),
        ];
        const items = (f.breakdown || []).map((e, i) => h("li", {
          class: "cc-k-" + (e.what || "") + (i === pinned ? " pinned" : ""), "data-entry": String(i),
          role: "button", tabindex: "0", "aria-pressed": i === pinned ? "true" : "false",
          onpointerenter: (ev) => { if (ev.pointerType === "mouse") on.highlight(e.cells || null); },
          onpointerleave: (ev) => { if (ev.pointerType === "mouse") on.highlight(pinnedCells); },
          onclick: () => pin(i, e.cells || null),
          onkeydown: (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); pin(i, e.cells || null); } },
        }, h("b", null, "+" + (e.points || 0)), " ", evText(e, nm)));
        finalBox.replaceChildren(h("div", { class: "cc-h" }, t("carcassonne.final")),
          h("div", { class: "cc-table-wrap" }, h("table", null, h("thead", null, head), h("tbody", null, rows))),
          h("ol", { class: "cc-breakdown" }, items));
      }

      // The log, newest first; under a bot's placement (or meeple), its
      // own reason and whether the fallback level played it.
      logTitle.textContent = t("carcassonne.log");
      const evs = (g && g.events) || [];
      const notes = botNotes(st, evs);
      // A note of the meeple step shown under the placement (no meeple
      // was placed) says so first.
      const step = (n) => (n.skip ? h("span", { class: "cc-note-step" }, t("carcassonne.noMeeple") + " · ") : null);
      const noteEls = (e) => (notes.get(`${e.turn}:${e.seat}:${e.kind}`) || []).map((n) => (n.reason
        ? h("div", { class: "cc-note cc-reason", "data-bot-reason": "", title: t("bot.reasonTitle") }, step(n), `“${n.reason}”`)
        : h("div", { class: "cc-note cc-fallback", "data-fallback": n.fallback.reason }, step(n), fallbackText(n.fallback, st.players && st.players[n.seat]))));
      log.replaceChildren(...evs.slice().reverse().filter((e) => e.kind !== "final").map((e) => h("li", {
        class: "cc-ev cc-ev-" + e.kind, style: e.seat >= 0 ? `--seat:${SEAT_COLOURS[e.seat % SEAT_COLOURS.length]}` : "",
      }, e.kind === "score" ? h("b", { class: "cc-pts" }, "+" + e.points) : null, evText(e, nm), noteEls(e))));
    },
  };
}

/**
 * botNotes maps the game's events to the bot notes of the moves behind
 * them (the state's log entries' botReason and fallback): a tile's
 * placement to its "place" event, a meeple step to its "meeple" event
 * (or, when none was placed, the turn's "place"). Keys are
 * "turn:seat:kind"; values lists of {seat, skip, reason} or {seat, skip,
 * fallback}, skip set for a meeple step shown under the placement.
 */
function botNotes(st, evs) {
  const out = new Map();
  for (const e of (st && st.log) || []) {
    if (!e || (!e.botReason && !(e.fallback && e.fallback.reason))) continue;
    const seat = Number(e.playerID);
    const kinds = e.move === "placeTile" ? ["place"] : ["meeple", "place"];
    const kind = kinds.find((k) => evs.some((x) => x.turn === e.turn && x.seat === seat && x.kind === k));
    if (!kind) continue;
    const key = `${e.turn}:${seat}:${kind}`;
    const skip = e.move !== "placeTile" && kind === "place";
    if (!out.has(key)) out.set(key, []);
    if (e.botReason) out.get(key).push({ seat, skip, reason: String(e.botReason) });
    if (e.fallback && e.fallback.reason) out.get(key).push({ seat, skip, fallback: e.fallback });
  }
  return out;
}

/**
 * statusOf is what the status line says, and its class: the result when
 * over, whose turn it is in play ("thinking" for an LLM seat, the status
 * then ends in the animated word). nm: the seats' names; you: the
 * viewer's seat or null.
 */
function statusOf(t, s, nm, you, llm) {
  const { g, state: st } = s;
  if (g && s.over) {
    const f = g.final || {};
    const win = f.winners || [];
    const pts = f.scores && win.length ? f.scores[win[0]] : "";
    let text = win.length > 1 ? t("carcassonne.tie", { names: win.map((w) => nm[w]).join(", "), points: pts }) : win.length ? t("carcassonne.wins", { name: nm[win[0]], points: pts }) : t("carcassonne.over");
    if (you !== null && win.length) text += " " + t(win.map(String).includes(you) ? "carcassonne.youWin" : "carcassonne.youLose");
    return { text, cls: "over" };
  }
  if (!g || !s.started) return { text: t("carcassonne.waiting"), cls: "" };
  const cur = nm[g.current];
  const p = st.players && st.players[g.current];
  if (llm) return { text: t("carcassonne.llmThinking", { name: cur }), cls: "thinking" };
  if (s.myTile) return { text: t("carcassonne.yourTile"), cls: "mine" };
  if (s.myMeeple) return { text: t("carcassonne.yourMeeple"), cls: "mine" };
  if (p && p.isBot && g.phase === "tile") return { text: t("carcassonne.thinking", { name: cur }), cls: "" };
  return { text: t(g.phase === "meeple" ? "carcassonne.theirMeeple" : "carcassonne.theirTile", { name: cur }), cls: "" };
}
