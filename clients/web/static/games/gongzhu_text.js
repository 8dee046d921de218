// @ts-check
// The Gong Zhu plugin's strings (keys prefixed "gongzhu."), merged into the
// host's i18n tables, and the helpers that name cards and scores.

/** @typedef {import("../js/types.js").Strings} Strings */

/** @type {Strings} the plugin's en/zh texts */
export const strings = {
  en: {
    "gongzhu.waiting": "Waiting for players…",
    "gongzhu.notYourTurn": "Not your turn yet: wait for {name}.",
    "gongzhu.roundTrick": "Round {round} · trick {trick}/{total}",
    "gongzhu.yourLeadOpening": "Your turn: lead {card}",
    "gongzhu.yourLead": "Your turn: lead any card",
    "gongzhu.yourFollow": "Your turn: follow {suit}",
    "gongzhu.yourVoid": "Your turn: no {suit} left, play any card",
    "gongzhu.othersLeadOpening": "{name} leads {card}",
    "gongzhu.othersTurn": "{name} to play",
    "gongzhu.led": "Led {suit}",
    "gongzhu.seat": "Seat {n}",
    "gongzhu.you": "You",
    "gongzhu.yourHand": "Your hand · tap a raised card to play it",
    "gongzhu.watching": "Watching: hands stay hidden",
    "gongzhu.roundOver": "Round {n} over",
    "gongzhu.youScored": "You scored {score}",
    "gongzhu.result": "Round {n} result",
    "gongzhu.noResult": "No round finished yet.",
    "gongzhu.board": "Scoreboard",
    "gongzhu.player": "Player",
    "gongzhu.team": "Team",
    "gongzhu.teamName": "Team {t}",
    "gongzhu.last": "Last",
    "gongzhu.total": "Total",
    "gongzhu.cards": "Cards taken",
    "gongzhu.score": "Score",
    "gongzhu.teamA": "A",
    "gongzhu.teamB": "B",
    "gongzhu.allHearts": "all hearts",
    "gongzhu.slam": "grand slam",
    "gongzhu.doubled": "×2",
    "gongzhu.pig": "pig",
    "gongzhu.sheep": "sheep",
    "gongzhu.transformer": "×2",
    "gongzhu.bot": "bot",
    "gongzhu.took": "{name} takes the trick",
    "gongzhu.lastTrick": "Last trick",
    "gongzhu.lastTrickTitle": "Trick {n} · {name} took it",
    "gongzhu.rounds": "Round by round",
    "gongzhu.roundCol": "Round",
    "gongzhu.roundsCapped": "Only the latest {n} rounds are kept (from round {first}); the totals count every round.",
    "gongzhu.totalsAfter": "Totals after this round: {totals}",
    "gongzhu.pigName": "Took the pig (♠Q)",
    "gongzhu.sheepName": "Took the sheep (♦J)",
    "gongzhu.transformerName": "Took the transformer (♣10)",
    "gongzhu.allHeartsName": "Took all 13 hearts",
    "gongzhu.allHeartsMark": "all♥",
    "gongzhu.marksLegend": "♠Q pig · ♦J sheep · ♣10 transformer · all♥ all hearts: who took them",
  },
  zh: {
    "gongzhu.notYourTurn": "还没轮到你：等待 {name} 出牌。",
    "gongzhu.waiting": "等待玩家入座…",
    "gongzhu.roundTrick": "第 {round} 局 · 第 {trick}/{total} 墩",
    "gongzhu.yourLeadOpening": "轮到你：请首出{card}",
    "gongzhu.yourLead": "轮到你：出任意一张牌",
    "gongzhu.yourFollow": "轮到你：请跟{suit}",
    "gongzhu.yourVoid": "轮到你：{suit}已无，可垫任意牌",
    "gongzhu.othersLeadOpening": "{name} 首出{card}",
    "gongzhu.othersTurn": "等待 {name} 出牌",
    "gongzhu.led": "领出 {suit}",
    "gongzhu.seat": "{n} 号座",
    "gongzhu.you": "你",
    "gongzhu.yourHand": "你的手牌 · 点击抬起的牌出牌",
    "gongzhu.watching": "观战中：看不到手牌",
    "gongzhu.roundOver": "第 {n} 局结束",
    "gongzhu.youScored": "你本局得分 {score}",
    "gongzhu.result": "第 {n} 局结算",
    "gongzhu.noResult": "还没有结束的牌局。",
    "gongzhu.board": "榜",
    "gongzhu.player": "玩家",
    "gongzhu.team": "队",
    "gongzhu.teamName": "{t} 队",
    "gongzhu.last": "上局",
    "gongzhu.total": "总分",
    "gongzhu.cards": "吃到的分牌",
    "gongzhu.score": "得分",
    "gongzhu.teamA": "甲",
    "gongzhu.teamB": "乙",
    "gongzhu.allHearts": "全红",
    "gongzhu.slam": "满贯",
    "gongzhu.doubled": "×2",
    "gongzhu.pig": "猪",
    "gongzhu.sheep": "羊",
    "gongzhu.transformer": "变",
    "gongzhu.bot": "机器人",
    "gongzhu.took": "{name} 收下这一墩",
    "gongzhu.lastTrick": "上一墩",
    "gongzhu.lastTrickTitle": "第 {n} 墩 · {name} 收下",
    "gongzhu.rounds": "每局得分",
    "gongzhu.roundCol": "局",
    "gongzhu.roundsCapped": "只保留最近 {n} 局（从第 {first} 局起）；总分计入每一局。",
    "gongzhu.totalsAfter": "本局后总分：{totals}",
    "gongzhu.pigName": "吃到猪（♠Q）",
    "gongzhu.sheepName": "吃到羊（♦J）",
    "gongzhu.transformerName": "吃到变压器（♣10）",
    "gongzhu.allHeartsName": "全红：吃齐 13 张红心",
    "gongzhu.allHeartsMark": "全红",
    "gongzhu.marksLegend": "♠Q 猪 · ♦J 羊 · ♣10 变压器 · 全红：标在吃到的人那一格",
  },
};

/** SUIT maps a suit letter to its symbol. */
export const SUIT = { S: "♠", H: "♥", D: "♦", C: "♣" };

/**
 * rankLabel names a rank letter ("T" is "10").
 * @param {string} r
 * @returns {string}
 */
export const rankLabel = (r) => (r === "T" ? "10" : r);

/**
 * isRed says whether a card ("QH", "TD") is a heart or a diamond.
 * @param {string} code
 * @returns {boolean}
 */
export const isRed = (code) => code[1] === "H" || code[1] === "D";

/**
 * label names a card with its suit symbol first: "QS" is "♠Q".
 * @param {string} code
 * @returns {string}
 */
export const label = (code) => SUIT[code[1]] + rankLabel(code[0]);

/** @type {Record<string, string>} SPECIAL is the string key of each special card's nickname. */
export const SPECIAL = { QS: "gongzhu.pig", JD: "gongzhu.sheep", TC: "gongzhu.transformer" };

/**
 * signed writes a score with its sign: +5, -200, 0.
 * @param {number} n
 * @returns {string}
 */
export const signed = (n) => (n > 0 ? "+" + n : String(n));

/**
 * signClass is a score cell's class: "num pos", "num neg" or "num".
 * @param {number} n
 * @returns {string}
 */
export const signClass = (n) => (n > 0 ? "num pos" : n < 0 ? "num neg" : "num");
