// botname: how a bot is named on screen. The server calls every bot
// "Bot (level)"; the client says it in the reader's language and adds the
// seat number: "Bot (normal) 3", "机器人（普通）3号".

import { t, botLevel } from "./i18n.js";

const BOT_RE = /^Bot \((\w+)\)$/;

/** botDisplayName is the name to show for player p at seat index i. */
export function botDisplayName(p, i) {
  if (!p || !p.name) return p ? p.name : "";
  const m = p.isBot && BOT_RE.exec(p.name);
  if (!m) return p.name;
  return t("bot.nameSeat", { level: botLevel(m[1]), n: i + 1 });
}
