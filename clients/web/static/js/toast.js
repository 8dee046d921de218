// @ts-check
// toast: short notices at the bottom of the screen, and a styled confirm
// dialog that replaces window.confirm.

import { h } from "./dom.js";
import { t, lang } from "./i18n.js";

/**
 * toast shows text for a few seconds. kind: "info" (default), "ok" or
 * "error". Errors stay longer and can be dismissed by a click.
 * @param {string} text
 * @param {"info" | "ok" | "error"} [kind]
 */
export function toast(text, kind = "info") {
  const box = document.getElementById("toasts");
  if (!box || !text) return;
  const el = h("div", { class: "toast " + kind, role: kind === "error" ? "alert" : "status" }, text);
  el.addEventListener("click", () => el.remove());
  box.appendChild(el);
  while (box.children.length > 4) box.firstChild.remove();
  setTimeout(() => el.classList.add("leaving"), kind === "error" ? 5500 : 3000);
  setTimeout(() => el.remove(), kind === "error" ? 6000 : 3500);
}

/**
 * errorText picks the message of a server error ({message, messageZh}) in the
 * current language.
 * @param {any} err an ApiError, an error message or any thrown value
 * @returns {string}
 */
export function errorText(err) {
  if (!err) return "";
  if (lang() === "zh" && err.messageZh) return err.messageZh;
  return err.message || err.code || String(err);
}

/**
 * toastError shows a server error in the current language.
 * @param {any} err
 */
export function toastError(err) { toast(errorText(err), "error"); }

/**
 * confirmDialog shows text with OK and Cancel and resolves true on OK.
 * Escape and a click outside cancel. opts.danger marks a destructive
 * action (resign, leave): its button is seal red instead of jade, and
 * Cancel has the focus, so a stray Enter does not confirm it.
 * @param {string} text
 * @param {string} [okLabel]
 * @param {{danger?: boolean}} [opts]
 * @returns {Promise<boolean>} true when confirmed
 */
export function confirmDialog(text, okLabel, opts = {}) {
  const danger = !!(opts && opts.danger);
  return new Promise((resolve) => {
    const done = (v) => {
      document.removeEventListener("keydown", onKey);
      overlay.remove();
      resolve(v);
    };
    const onKey = (e) => { if (e.key === "Escape") done(false); };
    const ok = h("button", { class: danger ? "btn danger solid" : "btn primary", type: "button", "data-confirm": "ok", onclick: () => done(true) }, okLabel || t("common.ok"));
    const cancel = h("button", { class: "btn", type: "button", "data-confirm": "cancel", onclick: () => done(false) }, t("common.cancel"));
    const overlay = h("div", { class: "overlay", onclick: (e) => { if (e.target === overlay) done(false); } },
      h("div", { class: "dialog card" + (danger ? " danger" : ""), role: danger ? "alertdialog" : "dialog", "aria-modal": "true", "data-kind": danger ? "danger" : "confirm" },
        h("p", null, text),
        h("div", { class: "row end" }, cancel, ok)));
    document.addEventListener("keydown", onKey);
    document.body.appendChild(overlay);
    (danger ? cancel : ok).focus();
  });
}
