// @ts-check
// invite: the invite link with a copy button (navigator.clipboard, with a
// select-and-execCommand fallback) and "copied" feedback.

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { toast } from "./toast.js";

/**
 * inviteBox returns {el, redraw()} for url.
 * @param {string} url
 * @returns {{el: HTMLElement, redraw: () => void}}
 */
export function inviteBox(url) {
  const label = h("span", { class: "invite-label muted small" });
  const input = h("input", { class: "input invite-url", readonly: true, value: url, "data-field": "invite",
    onfocus: () => input.select() });
  const button = h("button", { class: "btn", type: "button", "data-action": "copy-invite" });
  let copiedUntil = 0;
  const redraw = () => {
    label.textContent = t("room.invite");
    button.textContent = Date.now() < copiedUntil ? "✓ " + t("room.copied") : t("room.copy");
    button.classList.toggle("copied", Date.now() < copiedUntil);
  };
  button.addEventListener("click", async () => {
    let ok = false;
    try {
      if (navigator.clipboard && window.isSecureContext) {
        await navigator.clipboard.writeText(url);
        ok = true;
      }
    } catch (_) { ok = false; }
    if (!ok) {
      input.focus();
      input.select();
      try { ok = document.execCommand("copy"); } catch (_) { ok = false; }
    }
    if (!ok) { toast(t("room.copyFailed"), "error"); return; }
    copiedUntil = Date.now() + 2000;
    redraw();
    setTimeout(redraw, 2100);
  });
  redraw();
  return { el: h("div", { class: "invite" }, label, h("div", { class: "invite-row" }, input, button)), redraw };
}
