// @ts-check
// The weiqi plugin's strings (keys prefixed "weiqi.") and the helpers that
// turn the view's codes into words: coordinates, results.

/** COLS are the column letters from the left: A-T without I. */
export const COLS = "ABCDEFGHJKLMNOPQRST";

/**
 * coordOf names board point (x, y) (y = 0 is the top row) like "D4".
 * @param {number} x
 * @param {number} y
 * @param {number} n the board's size
 * @returns {string}
 */
export const coordOf = (x, y, n) => COLS[x] + String(n - y);

/**
 * pointOf reads "D4" back into {x, y}, or null (a pass, a bad name).
 * @param {string | null | undefined} c
 * @param {number} n
 * @returns {{x: number, y: number} | null}
 */
export function pointOf(c, n) {
  if (!c || c === "pass") return null;
  const x = COLS.indexOf(c[0].toUpperCase());
  const row = Number(c.slice(1));
  if (x < 0 || x >= n || !Number.isInteger(row) || row < 1 || row > n) return null;
  return { x, y: n - row };
}

/**
 * colourKey is the string key of a seat's colour.
 * @param {string} seat
 * @returns {string}
 */
export const colourKey = (seat) => (seat === "0" ? "weiqi.black" : "weiqi.white");

/**
 * resultText says a result code ("B+3.5", "W+R", "Draw") in words, or ""
 * for null. t is the plugin api's lookup.
 * @param {string | null | undefined} code
 * @param {(key: string, params?: Record<string, any>) => string} t
 * @returns {string}
 */
export function resultText(code, t) {
  if (!code) return "";
  if (code === "Draw" || code === "0" || code === "B+0" || code === "W+0") return t("weiqi.result.draw");
  const m = /^([BW])\+(.+)$/.exec(code);
  if (!m) return code;
  const colour = t(m[1] === "B" ? "weiqi.winB" : "weiqi.winW");
  if (m[2] === "R") return t("weiqi.result.resign", { colour });
  if (m[2] === "T") return t("weiqi.result.time", { colour });
  if (m[2] === "F") return t("weiqi.result.forfeit", { colour });
  return t("weiqi.result.points", { colour, n: m[2] });
}

/**
 * fmt prints a score: integers plain, halves with one decimal.
 * @param {any} v
 * @returns {string}
 */
export const fmt = (v) => (typeof v === "number" ? (Number.isInteger(v) ? String(v) : v.toFixed(1)) : String(v ?? "—"));

/** EVOLUTION_GENS is how many generations the end's evolution runs (docs/weiqi.md). */
export const EVOLUTION_GENS = 5;

/** KEYS are the help overlay's rows: [keys, string key]. */
export const KEYS = [
  ["← ↑ ↓ →  h j k l", "weiqi.key.move"],
  ["Enter  Space", "weiqi.key.play"],
  ["p", "weiqi.key.pass"],
  ["u", "weiqi.key.undo"],
  ["r → y", "weiqi.key.resign"],
  ["e", "weiqi.key.score"],
  ["d", "weiqi.key.dead"],
  ["?", "weiqi.key.help"],
  ["Esc  q", "weiqi.key.esc"],
];

/** @type {import("../js/types.js").Strings} strings are the plugin's en/zh texts. */
export const strings = {
  en: {
    "weiqi.black": "Black",
    "weiqi.white": "White",
    "weiqi.winB": "Black",
    "weiqi.winW": "White",
    "weiqi.waiting": "Waiting for players…",
    "weiqi.toMove": "{colour} to move",
    "weiqi.yourTurn": "Your turn ({colour})",
    "weiqi.moveNo": "move {n}",
    "weiqi.passedHint": "{colour} passed — another pass starts scoring",
    "weiqi.undoAsked": "{name} asks to take back a move.",
    "weiqi.undoWaiting": "Waiting for an answer to your undo request…",
    "weiqi.undoPending": "{name} asked to take back a move.",
    "weiqi.scoringAsked": "{name} asks to count the game.",
    "weiqi.scoringWaiting": "Waiting for an answer to your scoring request…",
    "weiqi.scoringPending": "{name} asked to count the game.",
    "weiqi.scoring": "Scoring: mark the dead groups, then both approve",
    "weiqi.scoringYou": "Scoring: click dead groups, then approve",
    "weiqi.approvedWait": "You approved — waiting for your opponent",
    "weiqi.evolving": "Evolution · generation {g}/{last}",
    "weiqi.evolveSkip": "a key or click skips",
    "weiqi.youWin": "You win!",
    "weiqi.youLose": "You lose.",
    "weiqi.result.points": "{colour} wins by {n}",
    "weiqi.result.resign": "{colour} wins by resignation",
    "weiqi.result.time": "{colour} wins on time",
    "weiqi.result.forfeit": "{colour} wins by forfeit",
    "weiqi.result.draw": "Draw (jigo)",
    "weiqi.pass": "Pass",
    "weiqi.undo": "Undo",
    "weiqi.resign": "Resign",
    "weiqi.score": "Score",
    "weiqi.accept": "Accept",
    "weiqi.refuse": "Refuse",
    "weiqi.approve": "Approve",
    "weiqi.resume": "Resume play",
    "weiqi.resignConfirm": "Resign this game? Your opponent wins.",
    "weiqi.resignKey": "Resign? Press y to confirm, any other key to cancel.",
    "weiqi.captures": "captured",
    "weiqi.approved": "approved",
    "weiqi.notApproved": "not yet",
    "weiqi.seal": "Seal pool",
    "weiqi.lastMove": "last move",
    "weiqi.noMove": "no move yet",
    "weiqi.passMove": "pass",
    "weiqi.passShort": "pass",
    "weiqi.answerNeeded": "Your answer, please",
    "weiqi.sealPass": "Pass",
    "weiqi.record": "Record",
    "weiqi.recordEmpty": "The board is empty.",
    "weiqi.komi": "Komi",
    "weiqi.size": "Board",
    "weiqi.phase": "Phase",
    "weiqi.phase.play": "playing",
    "weiqi.phase.scoring": "scoring",
    "weiqi.phase.over": "finished",
    "weiqi.dead": "dead",
    "weiqi.edits": "marks changed {n}×",
    "weiqi.scoreTitle": "Area count",
    "weiqi.stones": "stones",
    "weiqi.territory": "territory",
    "weiqi.komiShort": "komi",
    "weiqi.total": "total",
    "weiqi.sgf": "SGF",
    "weiqi.sgfTitle": "Download the game record (SGF)",
    "weiqi.replay": "Replay evolution",
    "weiqi.helpTitle": "Keys",
    "weiqi.helpHint": "? keys",
    "weiqi.help.close": "Esc or ? closes",
    "weiqi.key.move": "move the cursor",
    "weiqi.key.play": "play at the cursor (scoring: approve)",
    "weiqi.key.pass": "pass",
    "weiqi.key.undo": "ask to undo",
    "weiqi.key.resign": "resign (y confirms)",
    "weiqi.key.score": "ask to score (scoring: approve; evolution: finish)",
    "weiqi.key.dead": "scoring: mark the group under the cursor dead/alive",
    "weiqi.key.help": "this help",
    "weiqi.key.esc": "close · cancel · leave scoring",
    "weiqi.tapAgain": "Tap again to play there.",
    "weiqi.previewNote": "The shading is a preview. After both approve, the board evolves for {n} generations and is counted then: the score may differ.",
  },
  zh: {
    "weiqi.black": "黑方",
    "weiqi.white": "白方",
    "weiqi.winB": "黑",
    "weiqi.winW": "白",
    "weiqi.waiting": "等待玩家入座…",
    "weiqi.toMove": "轮到{colour}",
    "weiqi.yourTurn": "轮到你了（{colour}）",
    "weiqi.moveNo": "第 {n} 手",
    "weiqi.passedHint": "{colour}停了一手 — 再停一手即进入结算",
    "weiqi.undoAsked": "{name} 请求悔棋。",
    "weiqi.undoWaiting": "已请求悔棋，等待对方答复…",
    "weiqi.undoPending": "{name} 请求悔棋。",
    "weiqi.scoringAsked": "{name} 请求结算。",
    "weiqi.scoringWaiting": "已请求结算，等待对方答复…",
    "weiqi.scoringPending": "{name} 请求结算。",
    "weiqi.scoring": "结算中：标记死子，双方确认后计分",
    "weiqi.scoringYou": "结算中：点棋子标记死子，再确认",
    "weiqi.approvedWait": "你已确认，等待对方确认",
    "weiqi.evolving": "演化终局 · 第 {g}/{last} 代",
    "weiqi.evolveSkip": "按键或点击跳过",
    "weiqi.youWin": "你赢了！",
    "weiqi.youLose": "你输了。",
    "weiqi.result.points": "{colour}胜 {n} 目",
    "weiqi.result.resign": "{colour}中盘胜（对方认输）",
    "weiqi.result.time": "{colour}超时胜",
    "weiqi.result.forfeit": "{colour}判胜",
    "weiqi.result.draw": "和棋",
    "weiqi.pass": "停一手",
    "weiqi.undo": "悔棋",
    "weiqi.resign": "认输",
    "weiqi.score": "结算",
    "weiqi.accept": "同意",
    "weiqi.refuse": "拒绝",
    "weiqi.approve": "确认结算",
    "weiqi.resume": "继续对局",
    "weiqi.resignConfirm": "确定认输吗？对方将获胜。",
    "weiqi.resignKey": "认输？按 y 确认，按其他键取消。",
    "weiqi.captures": "提子",
    "weiqi.approved": "已确认",
    "weiqi.notApproved": "未确认",
    "weiqi.seal": "印池",
    "weiqi.lastMove": "上一手",
    "weiqi.noMove": "尚未落子",
    "weiqi.passMove": "停一手",
    "weiqi.passShort": "停",
    "weiqi.answerNeeded": "请答复对方的请求",
    "weiqi.sealPass": "停",
    "weiqi.record": "落子记录",
    "weiqi.recordEmpty": "棋盘尚空。",
    "weiqi.komi": "贴目",
    "weiqi.size": "棋盘",
    "weiqi.phase": "阶段",
    "weiqi.phase.play": "对局中",
    "weiqi.phase.scoring": "结算中",
    "weiqi.phase.over": "已终局",
    "weiqi.dead": "死子",
    "weiqi.edits": "已改标记 {n} 次",
    "weiqi.scoreTitle": "数子计分",
    "weiqi.stones": "活子",
    "weiqi.territory": "领地",
    "weiqi.komiShort": "贴目",
    "weiqi.total": "合计",
    "weiqi.sgf": "下载棋谱 SGF",
    "weiqi.sgfTitle": "下载本局棋谱（SGF）",
    "weiqi.replay": "重放演化",
    "weiqi.helpTitle": "按键",
    "weiqi.helpHint": "? 按键",
    "weiqi.help.close": "按 Esc 或 ? 关闭",
    "weiqi.key.move": "移动光标",
    "weiqi.key.play": "在光标处落子（结算中 = 确认结算）",
    "weiqi.key.pass": "停一手",
    "weiqi.key.undo": "悔棋",
    "weiqi.key.resign": "认输（再按 y 确认）",
    "weiqi.key.score": "请求结算（结算中 = 确认；演化中 = 立即完成）",
    "weiqi.key.dead": "结算中：切换光标处整群的死/活",
    "weiqi.key.help": "按键帮助",
    "weiqi.key.esc": "关闭浮层 · 取消 · 退出结算",
    "weiqi.tapAgain": "再点一次在此落子。",
    "weiqi.previewNote": "阴影领地只是预览。双方确认后，棋盘会先演化 {n} 代，再按演化后的局面计分，结果可能与预览不同。",
  },
};
