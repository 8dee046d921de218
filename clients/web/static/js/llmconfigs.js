// @ts-check
// llmconfigs: the player's own LLM endpoints (docs/llm.md, "Your own
// endpoint"), kept in this browser's localStorage only: a name, a base URL,
// a model and an API key each. The dialog adds, edits, deletes and tests
// them (POST /llm/try); the create form sends the chosen one with a match
// that seats the bot level "llm-own". The server keeps the key in memory
// for that match only and never sends it back.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { tryLLM } from "./api.js";

/** @typedef {import("./types.js").LLMConfig} LLMConfig */
/** @typedef {import("./types.js").OwnLLMWire} OwnLLMWire */

const STORE_KEY = "chaguan:llmConfigs";
const CHOSEN_KEY = "chaguan:llmChosen";

/**
 * loadConfigs returns the saved configurations [{id, name, baseURL, model, key}].
 * @returns {LLMConfig[]}
 */
export function loadConfigs() {
  try {
    const list = JSON.parse(localStorage.getItem(STORE_KEY) || "[]");
    return Array.isArray(list) ? list.filter((c) => c && typeof c.id === "string") : [];
  } catch (_) {
    return [];
  }
}

function saveConfigs(list) {
  try { localStorage.setItem(STORE_KEY, JSON.stringify(list)); } catch (_) { /* private mode: kept for this page only */ }
}

/**
 * chosenConfig returns the configuration the create form uses, or null.
 * @returns {LLMConfig | null}
 */
export function chosenConfig() {
  const list = loadConfigs();
  let id = "";
  try { id = localStorage.getItem(CHOSEN_KEY) || ""; } catch (_) { /* none */ }
  return list.find((c) => c.id === id) || list[0] || null;
}

/**
 * setChosen makes the configuration with id the one the create form uses.
 * @param {string} id
 */
export function setChosen(id) {
  try { localStorage.setItem(CHOSEN_KEY, id); } catch (_) { /* none */ }
}

/**
 * wire is a configuration as the server takes it (protocol.OwnLLM).
 * @param {LLMConfig} c
 * @returns {OwnLLMWire}
 */
export function wire(c) {
  return { name: c.name, baseURL: c.baseURL, model: c.model, key: c.key || "" };
}

function hostOf(url) {
  try { return new URL(url).host; } catch (_) { return url; }
}

function newID() {
  return Date.now().toString(36) + Math.random().toString(36).slice(2, 8);
}

/**
 * moveText describes the move a test answer chose in the page's language,
 * from its move's args (the server's choice line is English): a tile at
 * (x,y) with its rotation, else the option's number.
 * @param {any} b
 * @returns {string}
 */
function moveText(b) {
  const a = b && b.move && Array.isArray(b.move.args) ? b.move.args[0] : null;
  if (a && typeof a === "object" && Number.isInteger(a.x) && Number.isInteger(a.y)) {
    return t("llm.tryTile", { x: a.x, y: a.y, rot: Number.isInteger(a.rotation) ? a.rotation : 0 });
  }
  return t("llm.tryOption", { n: b && b.option != null ? b.option : "?" });
}

/** tryText describes a test's outcome: {ok, text}. */
function tryText(res) {
  if (!res) return { ok: false, text: t("llm.tryFailed", { why: t("error.network") }) };
  const b = res.body || {};
  if (res.status === 200 && b.ok) {
    const usage = b.usage && b.usage.total ? t("llm.tryTokens", { n: b.usage.total }) : "";
    return { ok: true, text: t("llm.tryOK", { ms: b.latencyMs, choice: moveText(b) }) + usage };
  }
  const why = b.error || b.message || "HTTP " + res.status;
  return { ok: false, text: t("llm.tryFailed", { why }) };
}

/**
 * openLLMDialog shows the configurations dialog. onChange() is called
 * after every change (add, edit, delete, choice); the returned promise
 * resolves when the dialog closes.
 * @param {{onChange?: () => void}} [opts]
 * @returns {Promise<void>}
 */
export function openLLMDialog({ onChange } = {}) {
  return new Promise((resolve) => {
    const changed = () => { if (onChange) onChange(); };
    const body = h("div", { class: "llm-body" });
    const close = () => {
      overlay.remove();
      document.removeEventListener("keydown", onKey);
      resolve();
    };
    const onKey = (e) => { if (e.key === "Escape") close(); };
    const titleID = "llm-dialog-title";
    const card = h("div", { class: "card dialog llm-dialog", role: "dialog", "aria-modal": "true", "aria-labelledby": titleID, "data-llm-dialog": "" },
      h("div", { class: "llm-head" },
        h("span", { class: "llm-mark", "aria-hidden": "true" }, "AI"),
        h("div", { class: "llm-titles" },
          h("h3", { id: titleID }, t("llm.title")),
          h("p", { class: "muted small" }, t("llm.privacy"))),
        h("button", { class: "btn small llm-close", type: "button", "aria-label": t("common.close"), "data-llm-close": "", onclick: close }, "×")),
      body);
    const overlay = h("div", { class: "overlay llm-overlay", onclick: (e) => { if (e.target === overlay) close(); } }, card);

    const showList = () => {
      const list = loadConfigs();
      const chosen = chosenConfig();
      const items = list.map((c) => {
        const result = h("div", { class: "llm-result", "data-llm-result": "", role: "status" });
        const testBtn = h("button", { class: "btn small", type: "button", "data-llm-test": c.id }, t("llm.test"));
        testBtn.addEventListener("click", async () => {
          testBtn.disabled = true;
          result.className = "llm-result pending";
          result.textContent = t("llm.testing");
          const r = tryText(await tryLLM(wire(c)).catch(() => null));
          result.className = "llm-result " + (r.ok ? "ok" : "bad");
          result.textContent = r.text;
          testBtn.disabled = false;
        });
        const isChosen = chosen && chosen.id === c.id;
        return h("li", { class: "llm-item" + (isChosen ? " chosen" : ""), "data-llm-item": c.id },
          h("label", { class: "llm-pick" },
            h("input", { type: "radio", name: "llm-chosen", checked: isChosen, "data-llm-use": c.id, onchange: () => { setChosen(c.id); changed(); showList(); } }),
            h("span", { class: "llm-names" },
              h("strong", { class: "llm-name" }, c.name),
              h("span", { class: "muted small llm-meta" }, c.model + " · " + hostOf(c.baseURL) + (c.key ? "" : " · " + t("llm.noKey"))))),
          h("div", { class: "row llm-actions" },
            testBtn,
            h("button", { class: "btn small", type: "button", "data-llm-edit": c.id, onclick: () => showForm(c) }, t("llm.edit")),
            deleteButton(c)),
          result);
      });
      body.replaceChildren(
        list.length ? h("ul", { class: "llm-list" }, items) : h("p", { class: "llm-empty muted" }, t("llm.empty")),
        h("div", { class: "row end llm-foot" },
          h("button", { class: "btn", type: "button", "data-llm-add": "", onclick: () => showForm(null) }, t("llm.add")),
          h("button", { class: "btn primary", type: "button", "data-llm-done": "", onclick: close }, t("llm.done"))));
    };

    // Delete asks once more on the button itself: a second click deletes.
    const deleteButton = (c) => {
      const btn = h("button", { class: "btn small danger", type: "button", "data-llm-delete": c.id }, t("llm.delete"));
      btn.addEventListener("click", () => {
        if (!btn.classList.contains("solid")) {
          btn.classList.add("solid");
          btn.textContent = t("llm.deleteConfirm");
          return;
        }
        saveConfigs(loadConfigs().filter((x) => x.id !== c.id));
        changed();
        showList();
      });
      return btn;
    };

    const showForm = (c) => {
      const field = (name, label, attrs, hint) => {
        const input = h("input", { class: "input", name, autocomplete: "off", spellcheck: "false", ...attrs });
        return [input, h("label", { class: "field" }, h("span", null, label), input, hint ? h("span", { class: "muted small" }, hint) : null)];
      };
      const [nameIn, nameF] = field("llm-name", t("llm.name"), { maxlength: 40, value: c ? c.name : "", placeholder: t("llm.namePlaceholder") });
      const [urlIn, urlF] = field("llm-base", t("llm.baseURL"), { type: "url", maxlength: 300, value: c ? c.baseURL : "", placeholder: "https://api.deepseek.com/v1" }, t("llm.baseHint"));
      const [modelIn, modelF] = field("llm-model", t("llm.model"), { maxlength: 100, value: c ? c.model : "", placeholder: "deepseek-chat" });
      const [keyIn, keyF] = field("llm-key", t("llm.key"), { type: "password", maxlength: 400, value: c ? c.key : "", placeholder: "sk-…" }, t("llm.keyHint"));
      const show = h("button", { class: "btn small llm-show", type: "button", "data-llm-show": "", onclick: () => {
        keyIn.type = keyIn.type === "password" ? "text" : "password";
        show.textContent = keyIn.type === "password" ? t("llm.showKey") : t("llm.hideKey");
      } }, t("llm.showKey"));
      keyF.insertBefore(h("span", { class: "llm-key-row" }, keyIn, show), keyF.children[1]);
      const msg = h("div", { class: "llm-result", role: "status", "data-llm-result": "" });
      const read = () => ({ name: nameIn.value.trim(), baseURL: urlIn.value.trim(), model: modelIn.value.trim(), key: keyIn.value.trim() });
      const check = (v) => {
        if (!v.name || !v.baseURL || !v.model) return t("llm.required");
        if (!/^https?:\/\/[^/\s]+/i.test(v.baseURL)) return t("llm.badURL");
        return "";
      };
      const testBtn = h("button", { class: "btn", type: "button", "data-llm-form-test": "" }, t("llm.test"));
      testBtn.addEventListener("click", async () => {
        const v = read();
        const bad = check(v);
        if (bad) { msg.className = "llm-result bad"; msg.textContent = bad; return; }
        testBtn.disabled = true;
        msg.className = "llm-result pending";
        msg.textContent = t("llm.testing");
        const r = tryText(await tryLLM(wire(v)).catch(() => null));
        msg.className = "llm-result " + (r.ok ? "ok" : "bad");
        msg.textContent = r.text;
        testBtn.disabled = false;
      });
      const form = h("form", { class: "llm-form", novalidate: true, "data-llm-form": "" },
        h("h4", { class: "subhead" }, c ? t("llm.editTitle") : t("llm.addTitle")),
        h("div", { class: "llm-grid" }, nameF, modelF, urlF, keyF),
        msg,
        h("div", { class: "row end llm-foot" },
          testBtn,
          h("button", { class: "btn", type: "button", "data-llm-cancel": "", onclick: showList }, t("common.cancel")),
          h("button", { class: "btn primary", type: "submit", "data-llm-save": "" }, t("llm.save"))));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        const v = read();
        const bad = check(v);
        if (bad) { msg.className = "llm-result bad"; msg.textContent = bad; return; }
        const list = loadConfigs();
        if (c) {
          const i = list.findIndex((x) => x.id === c.id);
          if (i >= 0) list[i] = { ...list[i], ...v };
          else list.push({ id: c.id, ...v });
        } else {
          const id = newID();
          list.push({ id, ...v });
          if (list.length === 1) setChosen(id);
        }
        saveConfigs(list);
        changed();
        showList();
      });
      body.replaceChildren(form);
      nameIn.focus();
    };

    document.addEventListener("keydown", onKey);
    document.body.appendChild(overlay);
    if (loadConfigs().length) showList();
    else showForm(null);
  });
}
