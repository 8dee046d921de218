// @ts-check
// create: the create-match form of one catalog entry: number of players,
// a person or a bot level for every seat but the creator's, the game's
// setupOptions rendered as inputs, and "unlisted".

import { h } from "./dom.js";
import { t, pick } from "./i18n.js";
import { levelLabel } from "./botname.js";
import { CLOCK_CHOICES } from "./clock.js";
import { loadConfigs, chosenConfig, setChosen, openLLMDialog, wire } from "./llmconfigs.js";

/** @typedef {import("./types.js").CatalogEntry} CatalogEntry */
/** @typedef {import("./types.js").CreateBody} CreateBody */
/** @typedef {import("./types.js").SetupOption} SetupOption */

// OWN is the bot level of a seat played by the player's own LLM endpoint,
// offered where the catalog says the server allows it (ownLLM).
const OWN = "llm-own";

// The usual table size where it is not the smallest one: Gong Zhu is a
// four-player game that also works with three.
const DEFAULT_PLAYERS = { gongzhu: 4 };

/**
 * createForm returns a <form> for game g. onCreate(body) receives the
 * create request body {numPlayers, setupData, unlisted, bots, llm?} and
 * resolves true when the match was made. Where the server allows it
 * (g.ownLLM), a seat may be "your own LLM": the chosen configuration of
 * the browser's (llmconfigs.js) goes with the request as llm.
 * @param {CatalogEntry} g
 * @param {{onCreate: (body: CreateBody) => Promise<boolean>}} opts
 * @returns {HTMLFormElement}
 */
export function createForm(g, { onCreate }) {
  const min = g.minPlayers, max = g.maxPlayers;
  const numSel = h("select", { class: "input", name: "numPlayers" });
  for (let n = min; n <= max; n++) numSel.appendChild(h("option", { value: String(n) }, String(n)));
  numSel.value = String(Math.min(max, Math.max(min, DEFAULT_PLAYERS[g.name] || min)));
  const seatsBox = h("div", { class: "seat-choices" });
  const seatChoice = new Map(); // seat index -> "" (person) or level
  const usesOwn = () => {
    for (let i = 1; i < Number(numSel.value); i++) if (seatChoice.get(i) === OWN) return true;
    return false;
  };
  // The own-LLM row: which saved configuration plays, and the dialog.
  const ownBox = h("div", { class: "own-llm", "data-own-llm": "", hidden: true });
  const drawOwn = () => {
    ownBox.hidden = !usesOwn();
    if (ownBox.hidden) return;
    const list = loadConfigs();
    const chosen = chosenConfig();
    const manage = h("button", { class: "btn small", type: "button", "data-own-manage": "",
      onclick: () => openLLMDialog({ onChange: drawOwn }) }, list.length ? t("llm.manage") : t("llm.addFirst"));
    if (!list.length) {
      ownBox.replaceChildren(h("span", { class: "own-llm-label" }, t("llm.none")), manage);
      return;
    }
    const sel = h("select", { class: "input", name: "own-llm", "data-own-select": "", onchange: () => setChosen(sel.value) },
      list.map((c) => h("option", { value: c.id }, c.name + " · " + c.model)));
    sel.value = chosen ? chosen.id : list[0].id;
    ownBox.replaceChildren(h("label", { class: "own-llm-pick" }, h("span", { class: "own-llm-label" }, t("llm.plays")), sel), manage);
  };

  // One click sets every seat but the creator's, for any table size: an
  // eight-monk game should not need seven dropdowns.
  const fill = (level) => {
    for (let i = 1; i < max; i++) seatChoice.set(i, level);
    drawSeats();
  };
  const levels = (g.bots || []).concat(g.ownLLM ? [OWN] : []);
  const levelText = (b) => b === OWN ? t("create.ownLLM") : t("create.bot", { level: levelLabel(b) });
  const fillRow = (g.bots || []).length === 0 ? null : h("div", { class: "fill-bots" },
    h("span", { class: "muted small" }, t("create.fillBots")),
    (g.bots || []).map((b) => h("button", { class: "btn small", type: "button", "data-fill": b, onclick: () => fill(b) },
      t("create.bot", { level: levelLabel(b) }))),
    h("button", { class: "btn small", type: "button", "data-fill": "", onclick: () => fill("") }, t("create.person")));

  const drawSeats = () => {
    const n = Number(numSel.value);
    const rows = [h("div", { class: "seat-choice" }, h("span", null, t("create.seatYou")))];
    for (let i = 1; i < n; i++) {
      const sel = h("select", { class: "input", "data-seat": String(i), onchange: () => { seatChoice.set(i, sel.value); drawOwn(); } },
        h("option", { value: "" }, t("create.person")),
        levels.map((b) => h("option", { value: b }, levelText(b))));
      sel.value = seatChoice.get(i) || "";
      rows.push(h("label", { class: "seat-choice" }, h("span", null, t("create.seat", { n: i + 1 })), sel));
    }
    seatsBox.replaceChildren(...rows);
    drawOwn();
  };
  numSel.addEventListener("change", drawSeats);
  drawSeats();

  const optInputs = [];
  const opts = Object.entries(g.setupOptions || {}).sort(([a], [b]) => a.localeCompare(b));
  const optFields = opts.map(([key, o]) => {
    const input = optionInput(key, o);
    optInputs.push([key, o, input]);
    if (o.type === "bool") {
      return h("label", { class: "check" }, input, h("span", null, pick(o.label) || key));
    }
    return h("label", { class: "field" }, h("span", null, pick(o.label) || key), input);
  });

  // A turn clock, Fischer-style: a bank and a few seconds more per move.
  const clockSel = h("select", { class: "input", name: "clock" },
    h("option", { value: "" }, t("create.clockNone")),
    CLOCK_CHOICES.map(([perMove, bank]) => h("option", { value: `${perMove}/${bank}` },
      t("create.clockChoice", { bank: bank >= 60 ? t("create.minutes", { n: bank / 60 }) : t("create.seconds", { n: bank }), perMove }))));
  const unlisted = h("input", { type: "checkbox", name: "unlisted" });
  const submit = h("button", { class: "btn primary", type: "submit", "data-action": "create" }, t("create.submit"));
  const form = h("form", { class: "create-form", "data-create": g.name, novalidate: true },
    h("label", { class: "field" }, h("span", null, t("create.numPlayers")), numSel),
    h("fieldset", null, h("legend", null, t("create.seats")), fillRow, seatsBox, ownBox),
    optFields.length ? h("fieldset", null, h("legend", null, t("create.options")), optFields) : null,
    h("label", { class: "field" }, h("span", null, t("create.clock")), clockSel),
    h("label", { class: "check" }, unlisted, h("span", null, t("create.unlisted"))),
    h("div", { class: "row" }, submit));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const n = Number(numSel.value);
    const bots = {};
    for (let i = 1; i < n; i++) {
      const lvl = seatChoice.get(i);
      if (lvl) bots[String(i)] = lvl;
    }
    const setupData = {};
    for (const [key, o, input] of optInputs) setupData[key] = readOption(o, input);
    const body = { numPlayers: n, setupData, unlisted: unlisted.checked };
    if (Object.keys(bots).length) body.bots = bots;
    if (Object.values(bots).includes(OWN)) {
      const c = chosenConfig();
      if (!c) {
        openLLMDialog({ onChange: drawOwn });
        return;
      }
      body.llm = wire(c);
    }
    if (clockSel.value) {
      const [perMove, bank] = clockSel.value.split("/").map(Number);
      body.clock = { perMove, bank };
    }
    submit.disabled = true;
    submit.textContent = t("create.creating");
    const ok = await onCreate(body);
    if (!ok && form.isConnected) {
      submit.disabled = false;
      submit.textContent = t("create.submit");
    }
  });
  return form;
}

/**
 * optionInput is the input of setup option key: a checkbox, a select of
 * its choices, or a number.
 * @param {string} key
 * @param {SetupOption} o
 * @returns {HTMLInputElement | HTMLSelectElement}
 */
function optionInput(key, o) {
  const name = "opt-" + key;
  if (o.type === "bool") return h("input", { type: "checkbox", name, checked: !!o.default });
  if (o.type === "enum" || (o.choices && o.choices.length)) {
    const sel = h("select", { class: "input", name },
      (o.choices || []).map((c) => h("option", { value: JSON.stringify(c) }, choiceLabel(c))));
    sel.value = JSON.stringify(o.default);
    return sel;
  }
  const attrs = { class: "input", type: "number", name, value: o.default === undefined ? "" : String(o.default) };
  if (o.min !== undefined && o.min !== null) attrs.min = o.min;
  if (o.max !== undefined && o.max !== null) attrs.max = o.max;
  attrs.step = o.type === "int" ? 1 : "any";
  return h("input", attrs);
}

/**
 * @param {any} c an enum choice: a value, or {label, …}
 * @returns {string}
 */
function choiceLabel(c) {
  if (c && typeof c === "object") return pick(c.label || c) || JSON.stringify(c);
  return String(c);
}

/**
 * readOption is the value of an option's input, as the option's type says.
 * @param {SetupOption} o
 * @param {HTMLInputElement | HTMLSelectElement} input
 * @returns {any}
 */
function readOption(o, input) {
  if (o.type === "bool") return input.checked;
  if (input.tagName === "SELECT") {
    try { return JSON.parse(input.value); } catch (_) { return input.value; }
  }
  const v = Number(input.value);
  if (input.value === "" || !Number.isFinite(v)) return o.default;
  return o.type === "int" ? Math.trunc(v) : v;
}
