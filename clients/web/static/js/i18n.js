// @ts-check
// i18n: the host's English and Chinese strings, plugin string merging, and
// the current language (from localStorage "chaguan:lang", else the browser).

/** @typedef {import("./types.js").Strings} Strings */
/** @typedef {import("./types.js").Label} Label */

const LANG_KEY = "chaguan:lang";

const tables = {
  en: {
    "app.title": "Chaguan",
    "app.tagline": "A teahouse for board games: play with friends or bots, in your browser.",
    "lang.switched": "Language: English",
    "common.cancel": "Cancel",
    "common.ok": "OK",
    "common.close": "Close",
    "common.loading": "Loading…",
    "common.you": "you",
    "common.retry": "Retry",
    "name.label": "Your name",
    "name.placeholder": "e.g. Lu Yu",
    "name.needed": "Please enter your name first.",
    "lobby.games": "Games",
    "lobby.players": "{min}–{max} players",
    "lobby.playersOne": "{min} players",
    "lobby.new": "New match",
    "lobby.open": "Open matches",
    "lobby.none": "No open matches yet — start one!",
    "lobby.seated": "{n}/{total} seated",
    "lobby.waiting": "waiting",
    "lobby.started": "in play",
    "lobby.over": "finished",
    "lobby.join": "Join",
    "lobby.resume": "Resume",
    "sound.mute": "Sounds on (click to mute)",
    "sound.unmute": "Sounds off (click to turn on)",
    "replay.open": "Replay",
    "replay.title": "{game} · replay",
    "replay.backMatch": "Back to the match",
    "replay.first": "First move",
    "replay.back": "Step back (←)",
    "replay.play": "Play (space)",
    "replay.pause": "Pause (space)",
    "replay.forward": "Step forward (→)",
    "replay.last": "Last move",
    "replay.step": "Step {n} of {total}",
    "replay.unavailable": "No replay for this match",
    "replay.noMoves": "This is a replay: moves are not played here.",
    "replay.failed": "The replay could not be loaded. Try again in a moment.",
    "create.clock": "Turn clock",
    "create.clockNone": "No clock",
    "create.clockChoice": "{bank} + {perMove} s a move",
    "create.minutes": "{n} min",
    "create.seconds": "{n} s",
    "clock.timeout": "{name} ran out of time: the bot played the turn.",
    "clock.timeoutLeft": "{name} ran out of time three turns in a row: the bot takes the seat.",
    "clock.youTimeout": "You ran out of time: the bot played your turn.",
    "clock.youTimedOut": "Your time ran out three times: the bot plays your seat now. You are watching.",
    "mine.title": "My matches",
    "mine.vs": "with",
    "mine.and": ", ",
    "mine.yourTurn": "your move",
    "mine.theirTurn": "waiting for {names}",
    "mine.inPlay": "in play",
    "mine.waiting": "waiting for {n} more",
    "mine.over": "finished",
    "mine.back": "Back in",
    "mine.view": "View",
    "mine.expired": "This match has expired and leaves your list.",
    "mine.toBot": "Your seat passed to a bot; the match leaves your list.",
    "mine.unknown": "Could not reach the server just now.",
    "lobby.watch": "Watch",
    "lobby.catalogFailed": "Could not load the game list.",
    "create.title": "New {game} match",
    "create.numPlayers": "Players",
    "create.seats": "Seats",
    "create.seat": "Seat {n}",
    "create.seatYou": "Seat 1 — you",
    "create.person": "Person",
    "create.bot": "Bot: {level}",
    "create.options": "Options",
    "create.unlisted": "Unlisted (only people with the link can find it)",
    "create.submit": "Create and sit",
    "create.creating": "Creating…",
    "bot.name": "Bot ({level})",
    "bot.nameSeat": "Bot ({level})\u00a0{n}",
    "create.fillBots": "Fill every empty seat with:",
    "create.ownLLM": "Bot: your own LLM",
    "llm.title": "Your own LLM",
    "llm.privacy": "Saved in this browser only. The key goes to the server just for a match you create or a test, and the server keeps it in memory for that match only.",
    "llm.empty": "No configuration yet. Add one: any OpenAI-compatible endpoint (DeepSeek, Qwen, OpenAI, a local Ollama…).",
    "llm.add": "Add a configuration",
    "llm.addFirst": "Set one up…",
    "llm.manage": "Manage…",
    "llm.none": "Your own LLM needs a configuration.",
    "llm.plays": "Played by",
    "llm.done": "Done",
    "llm.edit": "Edit",
    "llm.delete": "Delete",
    "llm.deleteConfirm": "Really delete?",
    "llm.test": "Test",
    "llm.testing": "Testing: one real move on a sample board…",
    "llm.tryOK": "Works: answered in {ms} ms, chose {choice}",
    "llm.tryTokens": " ({n} tokens)",
    "llm.tryTile": "a tile at ({x},{y}) turned {rot}°",
    "llm.tryOption": "option {n}",
    "llm.tryFailed": "Failed: {why}",
    "llm.addTitle": "New configuration",
    "llm.editTitle": "Edit configuration",
    "llm.name": "Name",
    "llm.namePlaceholder": "e.g. DeepSeek",
    "llm.baseURL": "Base URL",
    "llm.baseHint": "Requests go to this URL + /chat/completions.",
    "llm.model": "Model",
    "llm.key": "API key",
    "llm.keyHint": "Leave empty for an endpoint that needs none.",
    "llm.noKey": "no key",
    "llm.showKey": "Show",
    "llm.hideKey": "Hide",
    "llm.save": "Save",
    "llm.required": "A name, a base URL and a model are needed.",
    "llm.badURL": "The base URL must start with http:// or https://.",
    "fallback.key_gone": "{who}'s key is gone: the server restarted",
    "bot.easy": "easy",
    "bot.normal": "normal",
    "bot.hard": "hard",
    "bot.llm": "LLM",
    "bot.llmNamed": "LLM · {name}",
    "bot.llmNameSeat": "{name}\u00a0{n}",
    "bot.thinking": "thinking",
    "thinking.secs": "{n} s",
    "room.thinking": "{name} is thinking…",
    "bot.reasonTitle": "Why, in the bot's own words",
    "fallback.played": "played by the {level} bot: {why}",
    "fallback.timeout": "{who} did not answer in time",
    "fallback.error": "{who} gave no usable answer",
    "fallback.busy": "{who} was too busy to answer",
    "fallback.panic": "{who} broke down",
    "fallback.illegal": "{who} chose a move that is not allowed",
    "fallback.other": "{who} could not move",
    "fallback.who.llm": "the LLM",
    "fallback.who.gnugo": "GNU Go",
    "fallback.who.bot": "the bot",
    "room.invite": "Invite link",
    "room.copy": "Copy",
    "room.copied": "Copied!",
    "room.copyFailed": "Copy failed; select the link and copy it.",
    "room.seats": "Seats",
    "room.emptySeat": "Empty seat",
    "room.seatN": "Seat {n}",
    "room.sit": "Sit here",
    "room.addBot": "Add bot",
    "room.bot": "bot",
    "room.autoplay": "autoplay",
    "room.autoplayToggle": "Let the bot play for me",
    "room.leave": "Leave seat",
    "room.leaveConfirm": "Leave your seat? After the start a bot takes it over for the rest of the match.",
    "room.spectating": "You are watching. Pick a free seat to play.",
    "room.watching": "Watching",
    "room.waitingPlayers": "Waiting for players: {n} free seat(s).",
    "room.gameOver": "Game over",
    "room.winner": "{name} wins!",
    "room.draw": "It is a draw.",
    "room.playAgain": "Play again",
    "room.joinNext": "Join the next match",
    "room.noPlugin": "This game has no board in the web client yet; here is the raw view.",
    "room.notFound": "This match does not exist or has expired.",
    "room.backLobby": "Back to the lobby",
    "room.connecting": "Connecting…",
    "room.lostSeat": "Your seat is no longer yours; you are now watching.",
    "room.joined": "You sat at seat {n}.",
    "room.botAdded": "A bot sits at seat {n}.",
    "room.connected": "online",
    "room.offline": "offline",
    "room.matchId": "Match {id}",
    "chat.title": "Chat",
    "chat.placeholder": "Say something…",
    "chat.send": "Send",
    "chat.spectator": "spectator",
    "chat.empty": "No messages yet.",
    "chat.tooLong": "At most 500 characters.",
    "conn.reconnecting": "Reconnecting…",
    "conn.disconnected": "Not connected; the move was not sent.",
    "conn.lost": "The connection dropped; the move may not have been made.",
    "notfound.title": "Page not found",
    "error.network": "The server cannot be reached.",
    "game.gomoku.desc": "Five in a row on a 15×15 board. Black moves first.",
    "game.weiqi.desc": "Go: surround territory, capture stones, area scoring.",
    "game.gongzhu.desc": "Chinese hearts: avoid the pig, catch the sheep.",
    "game.threemonks.desc": "Three monks and no water: fetch, trade and drink to 10.",
    "game.carcassonne.desc": "Lay tiles, build cities, roads and fields, place meeples.",
  },
  zh: {
    "app.title": "茶馆",
    "app.tagline": "以棋会友：和朋友或机器人在浏览器里对弈。",
    "lang.switched": "语言：中文",
    "common.cancel": "取消",
    "common.ok": "确定",
    "common.close": "关闭",
    "common.loading": "加载中…",
    "common.you": "你",
    "common.retry": "重试",
    "name.label": "你的名字",
    "name.placeholder": "例如：陆羽",
    "name.needed": "请先填写你的名字。",
    "lobby.games": "游戏",
    "lobby.players": "{min}–{max} 人",
    "lobby.playersOne": "{min} 人",
    "lobby.new": "新开一局",
    "lobby.open": "等待中的对局",
    "lobby.none": "暂无对局——开一局吧！",
    "lobby.seated": "已入座 {n}/{total}",
    "lobby.waiting": "等人中",
    "lobby.started": "进行中",
    "lobby.over": "已结束",
    "lobby.join": "加入",
    "lobby.resume": "回到对局",
    "sound.mute": "声音已开（点按静音）",
    "sound.unmute": "已静音（点按开声）",
    "replay.open": "复盘",
    "replay.title": "{game} · 复盘",
    "replay.backMatch": "回到对局",
    "replay.first": "第一步",
    "replay.back": "后退一步（←）",
    "replay.play": "播放（空格）",
    "replay.pause": "暂停（空格）",
    "replay.forward": "前进一步（→）",
    "replay.last": "最后一步",
    "replay.step": "第 {n} / {total} 步",
    "replay.unavailable": "此对局无法复盘",
    "replay.noMoves": "这是复盘，不能在这里落子。",
    "replay.failed": "复盘暂时无法载入，请稍后再试。",
    "create.clock": "对局计时",
    "create.clockNone": "不计时",
    "create.clockChoice": "{bank}，每步加 {perMove} 秒",
    "create.minutes": "{n} 分钟",
    "create.seconds": "{n} 秒",
    "clock.timeout": "{name} 超时：这一手由机器人代下。",
    "clock.timeoutLeft": "{name} 连续三次超时：座位交给机器人。",
    "clock.youTimeout": "你超时了：这一手由机器人代下。",
    "clock.youTimedOut": "你连续三次超时：你的座位已交给机器人，现在你在观战。",
    "mine.title": "我的对局",
    "mine.vs": "对手",
    "mine.and": "、",
    "mine.yourTurn": "轮到你",
    "mine.theirTurn": "等 {names}",
    "mine.inPlay": "进行中",
    "mine.waiting": "还差 {n} 人",
    "mine.over": "已结束",
    "mine.back": "回到对局",
    "mine.view": "查看",
    "mine.expired": "此对局已过期，已从列表移除。",
    "mine.toBot": "你的座位已交给机器人，此对局已从列表移除。",
    "mine.unknown": "暂时连不上服务器。",
    "lobby.watch": "观战",
    "lobby.catalogFailed": "无法加载游戏列表。",
    "create.title": "新开一局{game}",
    "create.numPlayers": "人数",
    "create.seats": "座位",
    "create.seat": "{n} 号座",
    "create.seatYou": "1 号座——你",
    "create.person": "真人",
    "create.bot": "机器人：{level}",
    "create.options": "选项",
    "create.unlisted": "不公开（只有拿到链接的人能找到）",
    "create.submit": "创建并入座",
    "create.creating": "创建中…",
    "bot.name": "机器人（{level}）",
    "bot.nameSeat": "机器人（{level}）\u2060{n}号",
    "create.fillBots": "把所有空位设为：",
    "create.ownLLM": "机器人：你自己的大模型",
    "llm.title": "你自己的大模型",
    "llm.privacy": "只保存在这个浏览器里。密钥只在你创建对局或测试连接时发给服务器，服务器只在这局棋期间把它留在内存里。",
    "llm.empty": "还没有配置。添加一个：任何兼容 OpenAI 的接口都行（DeepSeek、通义千问、OpenAI、本地 Ollama……）。",
    "llm.add": "添加配置",
    "llm.addFirst": "去配置……",
    "llm.manage": "管理……",
    "llm.none": "你自己的大模型需要先配置。",
    "llm.plays": "由谁来下",
    "llm.done": "完成",
    "llm.edit": "编辑",
    "llm.delete": "删除",
    "llm.deleteConfirm": "确定删除？",
    "llm.test": "测试",
    "llm.testing": "测试中：在示例棋盘上真下一步……",
    "llm.tryOK": "可用：{ms} 毫秒回答，选了 {choice}",
    "llm.tryTokens": "（{n} 个 token）",
    "llm.tryTile": "在 ({x},{y}) 放板块，旋转 {rot}°",
    "llm.tryOption": "第 {n} 项",
    "llm.tryFailed": "失败：{why}",
    "llm.addTitle": "新配置",
    "llm.editTitle": "编辑配置",
    "llm.name": "名称",
    "llm.namePlaceholder": "例如 DeepSeek",
    "llm.baseURL": "接口地址（Base URL）",
    "llm.baseHint": "请求发往这个地址 + /chat/completions。",
    "llm.model": "模型",
    "llm.key": "API 密钥",
    "llm.keyHint": "接口不需要密钥就留空。",
    "llm.noKey": "无密钥",
    "llm.showKey": "显示",
    "llm.hideKey": "隐藏",
    "llm.save": "保存",
    "llm.required": "名称、接口地址和模型都要填。",
    "llm.badURL": "接口地址要以 http:// 或 https:// 开头。",
    "fallback.key_gone": "{who}的密钥已丢失：服务器重启过",
    "bot.easy": "简单",
    "bot.normal": "普通",
    "bot.hard": "困难",
    "bot.llm": "大模型",
    "bot.llmNamed": "大模型 · {name}",
    "bot.llmNameSeat": "{name}\u2060{n}号",
    "bot.thinking": "思考中",
    "thinking.secs": "{n} 秒",
    "room.thinking": "{name} 思考中…",
    "bot.reasonTitle": "机器人自己说的理由",
    "fallback.played": "由{level}机器人代下：{why}",
    "fallback.timeout": "{who}没有及时回答",
    "fallback.error": "{who}没有给出可用的回答",
    "fallback.busy": "{who}太忙，没能回答",
    "fallback.panic": "{who}出了故障",
    "fallback.illegal": "{who}选了不合规则的一步",
    "fallback.other": "{who}没能走这一步",
    "fallback.who.llm": "大模型",
    "fallback.who.gnugo": "GNU Go",
    "fallback.who.bot": "机器人",
    "room.invite": "邀请链接",
    "room.copy": "复制",
    "room.copied": "已复制！",
    "room.copyFailed": "复制失败，请手动选中链接复制。",
    "room.seats": "座位",
    "room.emptySeat": "空座",
    "room.seatN": "{n} 号座",
    "room.sit": "坐这里",
    "room.addBot": "加机器人",
    "room.bot": "机器人",
    "room.autoplay": "托管",
    "room.autoplayToggle": "托管：让机器人替我下",
    "room.leave": "离座",
    "room.leaveConfirm": "确定离座吗？开局后你的座位将由机器人接管到终局。",
    "room.spectating": "你正在观战。选一个空座即可加入。",
    "room.watching": "观战中",
    "room.waitingPlayers": "等待玩家：还有 {n} 个空座。",
    "room.gameOver": "对局结束",
    "room.winner": "{name} 获胜！",
    "room.draw": "平局。",
    "room.playAgain": "再来一局",
    "room.joinNext": "加入下一局",
    "room.noPlugin": "网页端暂未提供该游戏的棋盘，以下是原始视图。",
    "room.notFound": "对局不存在或已过期。",
    "room.backLobby": "返回大厅",
    "room.connecting": "连接中…",
    "room.lostSeat": "你的座位已失效，现在是观战。",
    "room.joined": "你已坐在 {n} 号座。",
    "room.botAdded": "{n} 号座已由机器人入座。",
    "room.connected": "在线",
    "room.offline": "离线",
    "room.matchId": "对局 {id}",
    "chat.title": "聊天",
    "chat.placeholder": "说点什么…",
    "chat.send": "发送",
    "chat.spectator": "观众",
    "chat.empty": "还没有消息。",
    "chat.tooLong": "最多 500 个字。",
    "conn.reconnecting": "重新连接中…",
    "conn.disconnected": "未连接，这步棋没有发出。",
    "conn.lost": "连接中断，这步棋可能没有生效。",
    "notfound.title": "页面不存在",
    "error.network": "无法连接服务器。",
    "game.gomoku.desc": "15×15 棋盘，先连成五子者胜，黑先。",
    "game.weiqi.desc": "围棋：围地吃子，数子法计胜负。",
    "game.gongzhu.desc": "拱猪：躲开猪，抓住羊。",
    "game.threemonks.desc": "三个和尚没水喝：挑水、换物、喝到十。",
    "game.carcassonne.desc": "卡卡颂：拼版图，建城修路占草地。",
  },
};

const listeners = new Set();

function detect() {
  try {
    // "?lang=zh" or "?lang=en" in the address wins (handy for shared links).
    const q = new URLSearchParams(location.search).get("lang");
    if (q === "en" || q === "zh") {
      localStorage.setItem(LANG_KEY, q);
      return q;
    }
  } catch (_) { /* storage disabled */ }
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === "en" || saved === "zh") return saved;
  } catch (_) { /* storage disabled */ }
  const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  for (const l of langs) {
    const s = String(l).toLowerCase();
    if (s.startsWith("zh")) return "zh";
    if (s.startsWith("en")) return "en";
  }
  return "en";
}

let current = detect();

/**
 * lang returns the current language, "en" or "zh".
 * @returns {string} "en" or "zh"
 */
export function lang() { return current; }

/**
 * setLang switches the language, remembers it in localStorage and calls every
 * onLangChange listener. Unknown languages are ignored.
 * @param {string} l
 */
export function setLang(l) {
  if ((l !== "en" && l !== "zh") || l === current) return;
  current = l;
  try { localStorage.setItem(LANG_KEY, l); } catch (_) { /* storage disabled */ }
  document.documentElement.lang = l === "zh" ? "zh-CN" : "en";
  for (const fn of [...listeners]) {
    try { fn(l); } catch (e) { console.error(e); }
  }
}

/**
 * onLangChange registers fn(lang); it returns a function that unregisters it.
 * @param {(lang: string) => void} fn
 * @returns {() => void}
 */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * t looks key up in the current language, then English, then returns the key
 * itself; "{name}" placeholders are replaced from params.
 * @param {string} key
 * @param {Record<string, any>} [params]
 * @returns {string}
 */
export function t(key, params) {
  let s = tables[current][key];
  if (s === undefined) s = tables.en[key];
  if (s === undefined) s = key;
  if (params) {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (params[k] === undefined || params[k] === null ? m : String(params[k])));
  }
  return s;
}

/**
 * has reports whether key exists in either table.
 * @param {string} key
 * @returns {boolean}
 */
export function has(key) { return key in tables.en || key in tables.zh; }

/**
 * merge adds a plugin's {en:{…}, zh:{…}} strings. Host keys are not
 * overwritten, so a plugin cannot change the host's texts by accident.
 * @param {Strings} strings
 */
export function merge(strings) {
  if (!strings || typeof strings !== "object") return;
  for (const l of ["en", "zh"]) {
    const src = strings[l];
    if (!src || typeof src !== "object") continue;
    for (const [k, v] of Object.entries(src)) {
      if (typeof v === "string" && !(k in hostKeys[l])) tables[l][k] = v;
    }
  }
}

const hostKeys = { en: { ...tables.en }, zh: { ...tables.zh } };

/**
 * pick chooses from a server text {en, zh} in the current language.
 * @param {Label | string | null | undefined} text
 * @returns {string}
 */
export function pick(text) {
  if (text === null || text === undefined) return "";
  if (typeof text === "string") return text;
  return text[current] || text.en || text.zh || "";
}

/**
 * botLevel names a bot level in the current language.
 * @param {string} level
 * @returns {string}
 */
export function botLevel(level) {
  const k = "bot." + level;
  return has(k) ? t(k) : level;
}

document.documentElement.lang = current === "zh" ? "zh-CN" : "en";
