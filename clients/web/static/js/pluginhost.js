// pluginhost: mounts a game plugin (PLUGINS.md) into the room, hands it the
// api, forwards states and language changes, and falls back to the raw
// view when the game has no plugin or the plugin fails to mount.

import { h, replace } from "./dom.js";
import { t, lang } from "./i18n.js";
import { toast, toastError } from "./toast.js";

/**
 * createPluginHost returns {mount(plugin, you), update(state), lang(l),
 * unmount()} drawing into el. sendMove(name, args) must return the Conn's
 * move promise (or a rejected one when there is no connection).
 */
export function createPluginHost(el, sendMove) {
  let ctrl = null;
  let langFns = [];

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
     */
    update(state, opts) {
      if (!ctrl) return 0;
      try {
        const w = ctrl.update(state, opts || { behind: 0, sync: false });
        return w && typeof w.then === "function" ? w : Number(w) || 0;
      } catch (e) { console.error(e); return 0; }
    },
    lang(l) {
      for (const fn of [...langFns]) {
        try { fn(l); } catch (e) { console.error(e); }
      }
    },
  };
}
