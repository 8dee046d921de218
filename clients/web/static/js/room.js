// @ts-check
// room: the match page at /m/{game}/{matchID}: header and invite link,
// seats, the game plugin's area, the game-over banner with "play again",
// and chat. One Conn per identity: sitting down or leaving reconnects and
// remounts the plugin; a seat the server takes away (the bot's, after three
// timeouts) remounts it on the same Conn, which then watches.

import { h, replace } from "./dom.js";
import { t, lang, pick, merge, onLangChange } from "./i18n.js";
import * as api from "./api.js";
import { Conn } from "./conn.js";
import { getName, setName, getSeat, setSeat, forgetSeat } from "./store.js";
import { toast, toastError, errorText, confirmDialog } from "./toast.js";
import { navigate, roomPath } from "./nav.js";
import { renderSeats, botSelectFor } from "./seats.js";
import { createChat } from "./chat.js";
import { inviteBox } from "./invite.js";
import { createPluginHost, loadPlugin } from "./pluginhost.js";
import { botDisplayName } from "./botname.js";
import { createPacer, after, needsWait } from "./pacer.js";
import { createAttention } from "./attention.js";
import { replayPath } from "./replay.js";
import { setClock } from "./clock.js";
import { thinkingOf, thinkingSecs } from "./thinking.js";

const NEXT_POLL_MS = 3000; // how often a finished match is asked for nextMatchID
// TIMEOUT_LEFT is the log text of the third timeout in a row, which passes
// the seat to the bot (the server's rooms.TimeoutLeftText).
const TIMEOUT_LEFT = "timeout: the seat passes to the bot";

/**
 * mountRoom renders the room into el and returns its destroy function.
 * @param {HTMLElement} el
 * @param {string} game
 * @param {string} matchID
 * @returns {() => void}
 */
export function mountRoom(el, game, matchID) {
  const r = {
    info: null, plugin: undefined, seat: getSeat(matchID), conn: null, state: null,
    needMount: true, nextMatchID: "", alive: true, pollTimer: null,
  };
  const nameInput = h("input", { class: "input", maxlength: 40, value: getName(), "data-field": "name",
    oninput: () => setName(nameInput.value) });
  const botSelects = new Map();
  const chat = createChat({ send: (text) => !!r.conn && r.conn.chat(text) });
  // Sounds and the tab's your-move marks follow what is on show.
  const attention = createAttention(game);
  // A seat remembered before seats named their game learns it here, so
  // that "my matches" can list it.
  if (r.seat && !r.seat.game) setSeat(matchID, r.seat, game);

  const title = h("h1", { class: "room-title" });
  const subtitle = h("div", { class: "muted small room-id" });
  const invite = inviteBox(location.origin + roomPath(game, matchID));
  const over = h("div", { class: "gameover-slot" });
  const hostStatus = h("div", { class: "host-status" });
  const pluginEl = h("div", { class: "plugin-area", "data-game": game });
  const seatsSlot = h("div", { class: "seats-slot" });
  // Every match page has its way back: the brand in the top bar is not
  // obviously a link to a newcomer.
  const back = h("a", { href: "/", "data-link": true, class: "btn small back-lobby", "data-action": "back-lobby" });
  // The end card sits beside the board (above the seats), so it never
  // pushes the board down when the match ends.
  replace(el, h("div", { class: "room" },
    h("section", { class: "card room-head" }, back, h("div", { class: "room-titles" }, title, subtitle), invite.el),
    h("div", { class: "room-grid" },
      h("div", { class: "room-main" }, hostStatus, pluginEl),
      h("aside", { class: "room-side" }, over, seatsSlot, chat.el))));

  const you = () => (r.state ? r.state.you || "" : "");
  const banner = document.getElementById("banner");

  const drawHead = () => {
    back.textContent = "← " + t("room.backLobby");
    title.textContent = r.info ? pick(r.info.title) : game;
    const other = r.info ? (lang() === "zh" ? r.info.title.en : r.info.title.zh) : "";
    subtitle.textContent = (other ? other + " · " : "") + t("room.matchId", { id: matchID.slice(0, 8) });
    const s = r.state;
    const mine = s && you() && s.ctx.started && !s.ctx.gameover &&
      (s.ctx.activePlayers ? you() in s.ctx.activePlayers : s.ctx.currentPlayer === you());
    // A mark in the tab title tells a player in another tab that it is their move.
    document.title = `${mine ? "● " : ""}${title.textContent} · ${t("app.title")}`;
    invite.redraw();
  };

  const drawStatus = () => {
    const s = r.state;
    if (!s) {
      hostStatus.textContent = t("room.connecting");
      hostStatus.hidden = false;
      return;
    }
    // Only what the plugin and the banner do not already say: that the
    // viewer is watching, and that seats are still free.
    const free = s.players.filter((p) => !p.name).length;
    let text = !s.ctx.started && !s.ctx.gameover ? t("room.waitingPlayers", { n: free }) : "";
    // A page whose seat the server took says why it now only watches.
    const told = !you() && r.demoted ? t(r.demoted) : "";
    if (!you()) text = (told || t("room.watching")) + (text ? " · " + text : "");
    // A bot that takes a while (GNU Go), unless the plugin says so itself.
    const th = r.plugin && r.plugin.showsThinking ? null : thinkingOf(s);
    const thinker = th && s.players[Number(th.playerID)];
    if (thinker) text = (text ? text + " · " : "") + t("room.thinking", { name: thinker.name || t("room.seatN", { n: Number(th.playerID) + 1 }) });
    hostStatus.textContent = text;
    if (thinker) hostStatus.append(" ", thinkingSecs(th));
    hostStatus.hidden = text === "";
    hostStatus.classList.toggle("waiting", !s.ctx.started);
    hostStatus.classList.toggle("demoted", !!told);
    if (told) hostStatus.dataset.demoted = r.demoted;
    else delete hostStatus.dataset.demoted;
  };

  const drawSeats = () => {
    const s = r.state;
    if (!s) { replace(seatsSlot); return; }
    replace(seatsSlot, renderSeats({
      players: s.players, you: you(), bots: (r.info && r.info.bots) || [], current: s.ctx.started && !s.ctx.gameover ? s.ctx.currentPlayer : "",
      over: !!s.ctx.gameover, nameInput,
      botSelect: (i) => {
        if (!botSelects.has(i)) botSelects.set(i, botSelectFor((r.info && r.info.bots) || []));
        return botSelects.get(i);
      },
      onSit: sit, onBot: addBot, onLeave: leave, onAutoplay: (on) => { if (!r.conn.autoplay(on)) toast(t("conn.disconnected"), "error"); },
    }));
  };

  const drawOver = () => {
    const s = r.state;
    if (!s || !s.ctx.gameover) { delete over.dataset.key; replace(over); return; }
    const g = s.ctx.gameover;
    let result = "";
    if (g.draw) result = t("room.draw");
    else if (g.winner !== undefined && g.winner !== "") {
      const p = s.players[Number(g.winner)];
      result = t("room.winner", { name: (p && p.name) || t("room.seatN", { n: Number(g.winner) + 1 }) });
    }
    const actions = [];
    if (you() && r.seat) actions.push(h("button", { class: "btn primary", type: "button", "data-action": "play-again", onclick: playAgain }, t("room.playAgain")));
    if (r.nextMatchID) {
      actions.push(h("a", { class: "btn" + (actions.length ? "" : " primary"), href: roomPath(game, r.nextMatchID), "data-action": "join-next",
        onclick: (e) => { e.preventDefault(); joinNext(r.nextMatchID); } }, t("room.joinNext")));
    }
    actions.push(h("a", { class: "btn", href: replayPath(game, matchID), "data-link": true, "data-action": "replay" }, t("replay.open")));
    // Redraw only when what it says changes: the card fades in when it
    // appears, and later states (presence, a bot's seat) must not replay that.
    const key = JSON.stringify([result, !!(you() && r.seat), r.nextMatchID || "", lang()]);
    if (over.dataset.key === key && over.firstChild) return;
    over.dataset.key = key;
    replace(over, h("section", { class: "gameover card", role: "status" },
      h("span", { class: "seal-stamp", "aria-hidden": "true" }, lang() === "zh" ? "终局" : "FIN"),
      h("div", null, h("h2", null, t("room.gameOver")), h("p", { class: "result" }, result)),
      h("div", { class: "row" }, actions)));
  };

  const drawAll = () => { drawHead(); drawStatus(); drawSeats(); drawOver(); chat.redraw(); };

  // --- connection and plugin -------------------------------------------
  const host = createPluginHost(pluginEl, (name, args) => (r.conn
    ? r.conn.move(name, args)
    : Promise.reject({ code: "disconnected", message: t("conn.disconnected") })));

  // The server names bots "Bot (level)" in English; show them in the
  // reader's language, with the seat number so that four bots of one level
  // are told apart everywhere (seats, table, scores, end card). Other names
  // are people's own and stay as they are.
  const localize = (s) => ({
    ...s,
    players: (s.players || []).map((p, i) => {
      const name = botDisplayName(p, i);
      return name === p.name ? p : { ...p, name };
    }),
  });

  // The pacer shows the states in order at the plugin's pace; the host
  // draws its parts from the state on show. The end card waits until the
  // plugin has shown how the match ended.
  let cancelOver = () => {};
  const pacer = createPacer((raw, opts) => {
    const s = localize(raw);
    r.shownRaw = raw;
    r.state = s;
    // A read-only window for tests and curious people (state: the one on
    // show; latest: the newest to arrive); drop() closes the socket as a
    // network failure would, to exercise the reconnect path.
    window.__chaguan = { state: s, latest: r.latestState, you: s.you || "", matchID, drop: () => r.conn && r.conn.drop() };
    chat.setYou(s.you || "");
    // A new identity (sat down, left) gets a fresh plugin on its first
    // state; until then the old board stays, so nothing flickers. The
    // identity is the state's own: a spectator's state still queued from
    // before a sit must not mount the board without the seat for good.
    const who = s.you || null;
    if (r.needMount || !host.mounted() || who !== r.mountedAs) {
      r.needMount = false;
      r.mountedAs = who;
      host.mount(r.plugin, who);
    }
    const wait = host.update(s, opts);
    attention.show(s, opts);
    if (!opts.sync) sayTimeout(s);
    drawHead(); drawStatus(); drawSeats();
    cancelOver();
    if (s.ctx.gameover && needsWait(wait)) cancelOver = after(wait, () => { if (r.alive) drawOver(); });
    else drawOver();
    if (s.ctx.gameover) pollNext();
    return wait;
  });

  // A turn the bot played because the seat's clock ran out says so.
  const sayTimeout = (s) => {
    const e = s.log && s.log[s.log.length - 1];
    if (!e || !e.text || !e.text.startsWith("timeout") || r.toldTimeout === s.stateID) return;
    r.toldTimeout = s.stateID;
    const i = Number(e.playerID);
    const p = s.players[i];
    const name = (p && p.name) || t("room.seatN", { n: i + 1 });
    if (e.playerID === you() && e.text === "timeout") toast(t("clock.youTimeout"), "info");
    else toast(t(e.text === "timeout" ? "clock.timeout" : "clock.timeoutLeft", { name }), "info");
  };

  // The server no longer counts this page's connection as the seat's (a
  // state says you ""): the bot took the seat after three timeouts in a
  // row, or the player left it from another tab. The page becomes a
  // spectator's at once, as after its own Leave: the page forgets the seat, the
  // plugin mounts again without a seat (no controls, no "You win!"), and
  // the page says why, in a toast and in the status line. The stored seat
  // stays, so that the lobby's "my matches" says once that it passed to a
  // bot (as for a seat left from another tab) before it drops it.
  const demote = (raw) => {
    const seat = r.seat.playerID;
    const timedOut = (raw.log || []).some((e) => e.playerID === seat && e.text === TIMEOUT_LEFT);
    r.demoted = timedOut ? "clock.youTimedOut" : "room.lostSeat";
    // The toast for everyone ("Ann ran out of time…") would say it in the
    // third person: this page says it to the player instead.
    if (timedOut) r.toldTimeout = raw.stateID;
    r.seat = null;
    r.conn.spectate();
    r.needMount = true;
    toast(t(r.demoted), "error");
  };

  const onState = (raw) => {
    if (!r.alive) return;
    if (r.seat && !raw.you && r.conn && r.conn.opts.seat && !r.leaving) demote(raw);
    r.raw = raw;
    setClock(raw.clock);
    const s = localize(raw);
    r.latestState = s;
    if (window.__chaguan) window.__chaguan.latest = s;
    // The first state of a connection (a new seat, a reconnect) is a sync:
    // it is shown at once, without replaying what was missed.
    const sync = r.needMount || r.syncNext || !host.mounted();
    r.syncNext = false;
    pacer.push(raw, { sync });
  };

  const setBanner = (status) => {
    const show = status === "reconnecting";
    banner.hidden = !show;
    banner.textContent = show ? t("conn.reconnecting") : "";
    banner.dataset.status = status;
  };

  const connect = () => {
    if (r.conn) r.conn.close();
    r.needMount = true;
    r.conn = new Conn({
      game, matchID, seat: r.seat,
      onState,
      onError: (err) => { if (err.ref === undefined || err.ref === null) toastError(err); },
      onChat: (m) => chat.add(m),
      onStatus: (st) => {
        if (!r.alive) return;
        setBanner(st);
        if (st === "reconnecting") checkGone();
        else if (st === "open") { r.failures = 0; r.syncNext = true; }
      },
      onUnauthorized: () => {
        forgetSeat(matchID);
        r.seat = null;
        toast(t("room.lostSeat"), "error");
        connect();
      },
    });
    r.conn.start();
    drawStatus();
  };

  // After a few failed connections, ask the lobby whether the match still
  // exists (a restarted server with the memory store, an expired match):
  // if not, say so instead of retrying forever.
  const checkGone = async () => {
    r.failures = (r.failures || 0) + 1;
    if (r.failures < 3 || r.failures % 3 !== 0) return;
    try {
      await api.getMatch(game, matchID);
    } catch (e) {
      if (e.status === 404 && r.alive) showNotFound();
    }
  };

  const showNotFound = () => {
    if (r.conn) r.conn.close();
    host.unmount();
    setBanner("closed");
    replace(el, h("section", { class: "card narrow center" }, h("h1", null, t("room.notFound")),
      h("a", { href: "/", "data-link": true, class: "btn primary" }, t("room.backLobby"))));
  };

  // --- seat actions ----------------------------------------------------
  // once wraps an action so a double click cannot run it twice at a time
  // (two joins would take two seats, or fail confusingly on the second).
  let busy = false;
  const once = (fn) => async (...args) => {
    if (busy) return;
    busy = true;
    try { await fn(...args); } finally { busy = false; }
  };
  const needName = () => {
    const n = nameInput.value.trim() || getName();
    if (n) { setName(n); return n; }
    toast(t("name.needed"), "error");
    nameInput.focus();
    return "";
  };

  const sit = once(async function sit(i) {
    const name = needName();
    if (!name) return;
    try {
      const res = await api.join(game, matchID, { playerName: name, playerID: String(i) });
      r.seat = { playerID: res.playerID, credentials: res.playerCredentials, name };
      r.demoted = "";
      setSeat(matchID, r.seat, game);
      toast(t("room.joined", { n: Number(res.playerID) + 1 }), "ok");
      connect();
    } catch (e) { toastError(e); }
  });

  const addBot = once(async function addBot(i) {
    if (!r.seat) return;
    const level = botSelects.has(i) ? botSelects.get(i).value : ((r.info && r.info.bots) || [])[0];
    try {
      await api.addBot(game, matchID, r.seat, i, level);
      botSelects.delete(i);
      toast(t("room.botAdded", { n: i + 1 }), "ok");
    } catch (e) { toastError(e); }
  });

  const leave = once(async function leave() {
    if (!r.seat || !(await confirmDialog(t("room.leaveConfirm"), t("room.leave"), { danger: true }))) return;
    // The state that shows the seat left may come before the answer: it
    // is this Leave, not a seat taken away (demote).
    r.leaving = true;
    try {
      await api.leave(game, matchID, r.seat);
    } catch (e) {
      if (e.status !== 403 && e.status !== 404) { toastError(e); return; }
    } finally {
      r.leaving = false;
    }
    forgetSeat(matchID);
    r.seat = null;
    connect();
  });

  const playAgain = once(async function playAgain() {
    if (!r.seat) return;
    try {
      const { nextMatchID } = await api.playAgain(game, matchID, r.seat);
      r.nextMatchID = nextMatchID;
      await joinNextMatch(nextMatchID);
    } catch (e) { toastError(e); }
  });

  /** joinNextMatch takes the same seat number in the next match, then goes there. */
  async function joinNextMatch(nextID) {
    const name = (r.seat && r.seat.name) || getName();
    const wanted = r.seat ? r.seat.playerID : (you() || null);
    if (wanted !== null && name && !getSeat(nextID)) {
      try {
        const res = await api.join(game, nextID, { playerName: name, playerID: wanted });
        setSeat(nextID, { playerID: res.playerID, credentials: res.playerCredentials, name }, game);
      } catch (e) {
        if (e.status !== 409) toastError(e);
      }
    }
    navigate(roomPath(game, nextID));
  }
  const joinNext = once(joinNextMatch);

  function pollNext() {
    if (r.nextMatchID || r.pollTimer || !r.alive) return;
    const tick = async () => {
      r.pollTimer = null;
      if (!r.alive || r.nextMatchID) return;
      try {
        const m = await api.getMatch(game, matchID);
        if (m && m.nextMatchID) {
          r.nextMatchID = m.nextMatchID;
          drawOver();
          return;
        }
      } catch (_) { /* try again */ }
      if (r.alive) r.pollTimer = setTimeout(tick, NEXT_POLL_MS);
    };
    tick();
  }

  // --- start -----------------------------------------------------------
  const offLang = onLangChange(() => {
    // Redraw the state on show in the new language (names of bots too).
    if (r.shownRaw) {
      r.state = localize(r.shownRaw);
      host.update(r.state, { behind: 0, sync: false, redraw: true });
    }
    drawAll();
    host.lang(lang());
  });

  (async () => {
    drawAll();
    // The catalog, the match and the plugin load side by side.
    const plugin = loadPlugin(game).then((p) => p, (e) => {
      console.warn("no plugin for", game, e);
      return null;
    });
    try {
      [r.info] = await Promise.all([api.gameInfo(game), api.getMatch(game, matchID)]);
    } catch (e) {
      if (!r.alive) return;
      if (e.status === 404) {
        showNotFound();
        return;
      }
      toast(errorText(e), "error");
    }
    r.plugin = await plugin;
    if (r.plugin && r.plugin.strings) merge(r.plugin.strings);
    if (!r.alive) return;
    drawAll();
    connect();
  })();

  return () => {
    r.alive = false;
    pacer.destroy();
    attention.destroy();
    setClock(null);
    cancelOver();
    clearTimeout(r.pollTimer);
    offLang();
    if (r.conn) r.conn.close();
    host.unmount();
    setBanner("closed");
    window.__chaguan = undefined;
  };
}
