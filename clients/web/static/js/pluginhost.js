// @ts-check
// pluginhost: loads a game plugin (PLUGINS.md) with its stylesheet, mounts
// it into the room, hands it the api, forwards states and language
// changes, and falls back to the raw view when the game has no plugin or
// the plugin fails to mount.

import { h, replace } from "./dom.js";
import { t, lang } from "./i18n.js";
import { toast, toastError } from "./toast.js";

/** @typedef {import("./types.js").Plugin} Plugin */
/** @typedef {import("./types.js").PluginApi} PluginApi */
/** @typedef {import("./types.js").Controller} Controller */
/** @typedef {import("./types.js").State} State */
/** @typedef {import("./types.js").UpdateOptions} UpdateOptions */

/** @type {Map<string, Promise<void>>} a game's stylesheet, loading or loaded */
const sheets = new Map();

/**
 * loadGameCSS adds games/<game>.css to the page once (a <link
 * data-plugin=game>) and resolves when it has loaded, or failed: a plugin
 * without a stylesheet still mounts.
 * @param {string} game
 * @returns {Promise<void>}
 */
export function loadGameCSS(game) {
  let p = sheets.get(game);
  if (!p) {
    p = new Promise((done) => {
      const link = h("link", { rel: "stylesheet", href: `/assets/games/${game}.css`, "data-plugin": game });
      link.addEventListener("load", () => done());
      link.addEventListener("error", () => { console.warn("no stylesheet for", game); done(); });
      document.head.appendChild(link);
    });
    sheets.set(game, p);
  }
  return p;
}

/**
 * loadPlugin imports games/<game>.js and its stylesheet side by side and
 * resolves to the plugin (the module's default export) once both are in:
 * the board never mounts unstyled. It rejects when the module does not load.
 * @param {string} game
 * @returns {Promise<Plugin>}
 */
export async function loadPlugin(game) {
  const [mod] = await Promise.all([import(`/assets/games/${game}.js`), loadGameCSS(game)]);
  return mod.default;
}

/**
 * createPluginHost returns {mount(plugin, you), update(state), lang(l),
 * unmount()} drawing into el. sendMove(name, args) must return the Conn's
 * move promise (or a rejected one when there is no connection).
 * @param {HTMLElement} el
 * @param {(name: string, args: any[]) => Promise<any>} sendMove
 */
export function createPluginHost(el, sendMove) {
  /** @type {Controller | null} */
  let ctrl = null;
  /** @type {((lang: string) => void)[]} */
  let langFns = [];

  /** @type {(you: string | null) => PluginApi} */
  const api = (you) => ({
    you,
    lang,
    t,
    move: (name, args) => sendMove(name, args).catch((err) => {
      if (err.code === "disconnected") toast(t("conn.disconnected"), "error");
      else if (err.code === "lost" || err.code === "timeout") toast(t("conn.lost"), "error");
      else toastError(err);
      throw err;
    }),
    onLangChange: (fn) => { langFns.push(fn); },
  });

  const unmount = () => {
    if (ctrl) {
      try { ctrl.destroy(); } catch (e) { console.error(e); }
    }
    ctrl = null;
    langFns = [];
    replace(el);
  };

  /** @type {(plugin: Plugin | null | undefined, you: string | null) => void} */
  const mount = (plugin, you) => {
    unmount();
    if (plugin) {
      const box = h("div", { class: "plugin-root" });
      el.appendChild(box);
      try {
        ctrl = plugin.mount(box, api(you));
      } catch (e) {
        console.error(e);
        ctrl = null;
        replace(el);
      }
    }
    if (!ctrl) {
      const pre = h("pre", { class: "raw-view" });
      el.appendChild(h("div", { class: "card" }, h("p", { class: "muted small" }, t("room.noPlugin")), pre));
      ctrl = { update: (s) => { pre.textContent = JSON.stringify(s.G, null, 2); return 0; }, destroy() {} };
    }
  };

  return {
    mount,
    unmount,
    mounted: () => ctrl !== null,
    /**
     * update hands the plugin a state with {behind, sync} and returns how
     * long the plugin needs to show it: milliseconds or a Promise (0 when
     * it says nothing).
     * @param {State} state
     * @param {UpdateOptions} [opts]
     * @returns {number | Promise<unknown>}
     */
    update(state, opts) {
      if (!ctrl) return 0;
      try {
        const w = ctrl.update(state, opts || { behind: 0, sync: false });
        return w && typeof w.then === "function" ? w : Number(w) || 0;
      } catch (e) { console.error(e); return 0; }
    },
    /** @param {string} l */
    lang(l) {
      for (const fn of [...langFns]) {
        try { fn(l); } catch (e) { console.error(e); }
      }
    },
  };
}
