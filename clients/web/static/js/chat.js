// @ts-check
// chat: the room's chat panel. Lines carry the sender's name; spectators
// are marked. Text is at most 500 characters (the server's limit).

import { h, replace } from "./dom.js";
import { t, lang } from "./i18n.js";
import { toast } from "./toast.js";

/** @typedef {import("./types.js").ChatMessage} ChatMessage */

const MAX_CHAT = 500;
const KEEP = 200; // lines kept in the panel

/**
 * createChat returns {el, add(msg), redraw(), setYou(id)}. send(text) must
 * return true when the line went out.
 * @param {{send: (text: string) => boolean}} opts
 * @returns {{el: HTMLElement, add: (msg: ChatMessage) => void, redraw: () => void, setYou: (id: string | null | undefined) => void}}
 */
export function createChat({ send }) {
  const lines = [];
  let you = "";
  const list = h("ol", { class: "chat-lines", "aria-live": "polite" });
  const input = h("input", {
    class: "input", maxlength: MAX_CHAT, "data-chat": "input", autocomplete: "off",
  });
  const counter = h("span", { class: "chat-count muted small" });
  const button = h("button", { class: "btn primary", type: "submit", "data-chat": "send" });
  const title = h("h3", null);
  const form = h("form", { class: "chat-form" }, input, button);
  const el = h("section", { class: "card chat" }, title, list, form, counter);

  const updateCount = () => {
    const n = [...input.value].length;
    counter.textContent = n > MAX_CHAT - 100 ? `${n}/${MAX_CHAT}` : "";
  };
  input.addEventListener("input", updateCount);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if ([...text].length > MAX_CHAT) {
      toast(t("chat.tooLong"), "error");
      return;
    }
    if (send(text)) {
      input.value = "";
      updateCount();
    } else {
      toast(t("conn.disconnected"), "error");
    }
  });

  const line = (m) => {
    const spectator = !m.from;
    const when = m.at ? new Date(m.at) : new Date();
    const hhmm = when.toLocaleTimeString(lang() === "zh" ? "zh-CN" : "en-GB", { hour: "2-digit", minute: "2-digit" });
    return h("li", { class: "chat-line" + (!spectator && m.from === you ? " mine" : "") },
      h("span", { class: "chat-meta" },
        h("b", { class: "chat-name" }, m.name || "?"),
        spectator ? h("span", { class: "pill small-pill" }, t("chat.spectator")) : null,
        h("time", { class: "muted" }, hhmm)),
      h("span", { class: "chat-text" }, m.text));
  };

  const redraw = () => {
    title.textContent = t("chat.title");
    input.placeholder = t("chat.placeholder");
    button.textContent = t("chat.send");
    if (lines.length === 0) replace(list, h("li", { class: "muted small empty" }, t("chat.empty")));
    else replace(list, lines.map(line));
    list.scrollTop = list.scrollHeight;
  };

  const add = (m) => {
    if (!m || typeof m.text !== "string") return;
    lines.push(m);
    if (lines.length > KEEP) lines.splice(0, lines.length - KEEP);
    if (lines.length === 1) replace(list);
    list.appendChild(line(m));
    list.scrollTop = list.scrollHeight;
  };

  redraw();
  return { el, add, redraw, setYou: (id) => { you = id || ""; } };
}
