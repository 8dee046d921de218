// @ts-check
// Three Monks plugin: bilingual strings and the event narration.
// Contract: clients/web/PLUGINS.md. View G and events: docs/threemonks.md.

/** @type {import("../js/types.js").Strings} */
export const strings = {
  en: {
    "tm.round": "Round {n}",
    "tm.phase.choose": "choosing", "tm.phase.chant": "chanting", "tm.phase.fetch": "fetching",
    "tm.phase.exchange": "exchanging", "tm.phase.drink": "drinking", "tm.phase.over": "game over",
    "tm.card.chant": "Chant", "tm.card.fetch": "Fetch", "tm.card.exchange": "Exchange", "tm.card.drink": "Drink", "tm.card.rest": "Rest",
    "tm.cardhelp.chant": "the last chanter takes the fish token",
    "tm.cardhelp.fetch": "fetching items pay water; the fewer fetch, the more flows",
    "tm.cardhelp.exchange": "non-chanters pass their items on",
    "tm.cardhelp.drink": "everyone drinks from the centre and their item",
    "tm.cardhelp.rest": "skip fetching",
    "tm.item.bucket": "Bucket", "tm.item.woodenBarrel": "Wooden barrel", "tm.item.bigBarrel": "Big barrel",
    "tm.item.pole": "Carrying pole", "tm.item.ladle": "Ladle", "tm.item.fish": "Wooden fish", "tm.item.vase": "Vase",
    "tm.item.bowl": "Big bowl", "tm.item.mouse": "Mouse", "tm.item.vat": "Water vat",
    "tm.itemhelp.bucket": "fetching costs 1", "tm.itemhelp.woodenBarrel": "fetching is free with company",
    "tm.itemhelp.bigBarrel": "drink any amount from it", "tm.itemhelp.pole": "spills into the centre when exchanged",
    "tm.itemhelp.ladle": "scoops 1 from the centre after fetching", "tm.itemhelp.fish": "takes the token at round end",
    "tm.itemhelp.vase": "chanting adds 1 water", "tm.itemhelp.bowl": "refill 1 from the centre if not drunk from",
    "tm.itemhelp.mouse": "chanting steals 1 from a neighbour's item", "tm.itemhelp.vat": "+1 water when it drinks; drinks only if it plays Drink",
    "tm.seat": "Seat {n}", "tm.you": "You", "tm.bot": "bot",
    "tm.resolving": "Round {n}: the cards are played out…",
    "tm.itemOf": "{name}'s item", "tm.yourItem": "Your item", "tm.itemWater": "{n} water in it",
    "tm.itemFetching": "Fetching item: in the fetch phase its monk (unless resting) puts 2 of their water on it; the supply then pours (players − fetchers) into the centre.",
    "tm.rule.bucket": "Fetching item. When fetching, put only 1 of your water in the bucket.",
    "tm.rule.woodenBarrel": "Fetching item. If another monk also fetches, you put no water in the barrel.",
    "tm.rule.bigBarrel": "Fetching item. When drinking, you may drink any amount from the barrel.",
    "tm.rule.pole": "Fetching item. When it is exchanged, the water on the pole goes back to the centre.",
    "tm.rule.ladle": "Fetching item. After fetching, put 1 water from the centre in the ladle.",
    "tm.rule.fish": "At the end of each round, you take the fish token.",
    "tm.rule.vase": "When you chant, put 1 water on the vase.",
    "tm.rule.bowl": "When drinking, if you drank nothing from the bowl, you may put 1 water from the centre on it.",
    "tm.rule.mouse": "When you chant, you may move 1 water from a neighbour's item onto the mouse.",
    "tm.rule.vat": "When drinking, take 1 extra water from the supply. You drink only if you played Drink yourself.",
    "tm.centre": "Centre", "tm.supply": "Supply", "tm.taken": "taken {n}", "tm.token": "Fish token",
    "tm.log": "Log", "tm.hand": "Your cards", "tm.locked": "locked", "tm.chosen": "chosen",
    "tm.chooseNow": "Round {n}: choose a card (not last round's).",
    "tm.waitChoose": "You chose {card}. Waiting for {k} more…",
    "tm.othersChoose": "Round {n}: {k} monks still choosing.",
    "tm.askDrink": "Drink from your {item}: how much?", "tm.drinkN": "Drink {n}",
    "tm.askMouse": "Your mouse: rob whose item?", "tm.robFrom": "Rob {name} ({n})",
    "tm.askBowl": "Move 1 water from the centre onto your big bowl?", "tm.bowlYes": "Fill the bowl", "tm.bowlNo": "Leave it",
    "tm.waitDecide": "Waiting for {name}: {what}.",
    "tm.what.drink": "how much to drink", "tm.what.mouse": "whom the mouse robs", "tm.what.bowl": "whether to fill the bowl",
    "tm.wins": "{name} wins with {n} water!", "tm.youWin": "You win with {n} water!", "tm.draw": "No winner after 200 rounds: a draw.",
    "tm.waiting": "Waiting for players…", "tm.watching": "Watching",
    "tm.ev.reveal": "Cards revealed.",
    "tm.ev.phase": "{phase} phase: {who}.", "tm.ev.nobody": "nobody",
    "tm.ev.vase": "{name}'s vase takes 1 water from the supply.",
    "tm.ev.mouse": "{name}'s mouse steals 1 water from {other}'s item.",
    "tm.ev.mouseIdle": "{name}'s mouse finds no water.",
    "tm.ev.token.chant": "{name} takes the fish token (last chanter).",
    "tm.ev.token.fish": "{name} takes the fish token (wooden fish).",
    "tm.ev.pay": "{name} puts {n} water on the {item}.",
    "tm.ev.noPay": "{name} cannot pay {n} water.",
    "tm.ev.supply": "{n} water flows from the supply to the centre.",
    "tm.ev.ladle": "{name}'s ladle scoops 1 from the centre.",
    "tm.ev.pole": "{name}'s carrying pole spills {n} into the centre.",
    "tm.ev.pass": "{name} passes the {item} ({n}) to {other}.",
    "tm.ev.centre": "{name} drinks 1 from the centre.",
    "tm.ev.vat": "{name}'s water vat gives 1 more.",
    "tm.ev.drink": "{name} drinks {n} from the {item}.",
    "tm.ev.bowl": "{name} puts 1 water from the centre on the big bowl.",
    "tm.ev.win": "{name} has {n} water and wins!",
    "tm.ev.cap": "200 rounds without a winner: a draw.",
  },
  zh: {
    "tm.round": "第 {n} 轮",
    "tm.phase.choose": "出牌", "tm.phase.chant": "念经", "tm.phase.fetch": "挑水",
    "tm.phase.exchange": "交换", "tm.phase.drink": "喝水", "tm.phase.over": "游戏结束",
    "tm.card.chant": "念经", "tm.card.fetch": "挑水", "tm.card.exchange": "交换", "tm.card.drink": "喝水", "tm.card.rest": "休息",
    "tm.cardhelp.chant": "最后念经者得木鱼标记",
    "tm.cardhelp.fetch": "挑水道具付水；挑的人越少水越多",
    "tm.cardhelp.exchange": "未念经者传出道具",
    "tm.cardhelp.drink": "人人从中央和自己道具喝水",
    "tm.cardhelp.rest": "不参与挑水",
    "tm.item.bucket": "水桶", "tm.item.woodenBarrel": "木桶", "tm.item.bigBarrel": "大桶",
    "tm.item.pole": "扁担", "tm.item.ladle": "水瓢", "tm.item.fish": "木鱼", "tm.item.vase": "净瓶",
    "tm.item.bowl": "大碗", "tm.item.mouse": "老鼠", "tm.item.vat": "水缸",
    "tm.itemhelp.bucket": "挑水只需1个水", "tm.itemhelp.woodenBarrel": "有人同挑则免费",
    "tm.itemhelp.bigBarrel": "喝水不限口数", "tm.itemhelp.pole": "被交换时水回中央",
    "tm.itemhelp.ladle": "挑水后从中央舀1个水", "tm.itemhelp.fish": "轮末获得木鱼标记",
    "tm.itemhelp.vase": "念经时得1个水", "tm.itemhelp.bowl": "未从碗里喝水可从中央添1个",
    "tm.itemhelp.mouse": "念经时偷邻座道具1个水", "tm.itemhelp.vat": "喝水多得1口；须自己提议喝水",
    "tm.seat": "{n} 号座", "tm.you": "你", "tm.bot": "机器人",
    "tm.resolving": "第 {n} 轮：结算中…",
    "tm.itemOf": "{name}的道具", "tm.yourItem": "你的道具", "tm.itemWater": "里面有 {n} 个水",
    "tm.itemFetching": "挑水道具：挑水阶段，持有者（没有休息时）将 2 个自己的水放在道具上；再从供应堆拿（人数 − 参与人数）个水放入中央。",
    "tm.rule.bucket": "挑水道具。挑水时只需将 1 个自己的水放在桶里。",
    "tm.rule.woodenBarrel": "挑水道具。若有其他玩家参与挑水，无需将水放在桶里。",
    "tm.rule.bigBarrel": "挑水道具。喝水时可从桶里喝任意口水。",
    "tm.rule.pole": "挑水道具。被交换时，将扁担上的水放回桌面中央。",
    "tm.rule.ladle": "挑水道具。挑水后，从中央将一个水放在瓢里。",
    "tm.rule.fish": "一轮结束时，获得木鱼标记。",
    "tm.rule.vase": "念经时，在净瓶上放一个水标记。",
    "tm.rule.bowl": "喝水时若未从大碗里喝到水，可从桌面中央将 1 个水标记放在大碗上。",
    "tm.rule.mouse": "念经时，可从两侧玩家的道具上将一个水移动到老鼠上。",
    "tm.rule.vat": "喝水时从供应堆额外获得一口水。必须自己提议喝水才能参与喝水。",
    "tm.centre": "中央", "tm.supply": "供应堆", "tm.taken": "已取 {n}", "tm.token": "木鱼标记",
    "tm.log": "记录", "tm.hand": "你的手牌", "tm.locked": "已锁定", "tm.chosen": "已出",
    "tm.chooseNow": "第 {n} 轮：选一张牌（不能出上一轮的牌）。",
    "tm.waitChoose": "你出了{card}，等待另外 {k} 人…",
    "tm.othersChoose": "第 {n} 轮：还有 {k} 人在选牌。",
    "tm.askDrink": "从你的{item}喝几口？", "tm.drinkN": "喝 {n} 口",
    "tm.askMouse": "你的老鼠偷哪一边？", "tm.robFrom": "偷 {name}（{n}）",
    "tm.askBowl": "从中央放 1 个水到大碗上吗？", "tm.bowlYes": "放", "tm.bowlNo": "不放",
    "tm.waitDecide": "等待 {name}：{what}。",
    "tm.what.drink": "决定喝几口", "tm.what.mouse": "决定老鼠偷谁", "tm.what.bowl": "决定是否添碗",
    "tm.wins": "{name} 喝到 {n} 口水，获胜！", "tm.youWin": "你喝到 {n} 口水，获胜！", "tm.draw": "200 轮无人获胜：平局。",
    "tm.waiting": "等待玩家入座…", "tm.watching": "观战中",
    "tm.ev.reveal": "亮牌。",
    "tm.ev.phase": "{phase}阶段：{who}。", "tm.ev.nobody": "无人参与",
    "tm.ev.vase": "{name} 的净瓶从供应堆得到 1 个水。",
    "tm.ev.mouse": "{name} 的老鼠从 {other} 的道具上偷走 1 个水。",
    "tm.ev.mouseIdle": "{name} 的老鼠没找到水。",
    "tm.ev.token.chant": "{name} 获得木鱼标记（最后念经）。",
    "tm.ev.token.fish": "{name} 获得木鱼标记（持有木鱼）。",
    "tm.ev.pay": "{name} 将 {n} 个水放在{item}上。",
    "tm.ev.noPay": "{name} 的水不足 {n} 个，不放水。",
    "tm.ev.supply": "从供应堆拿 {n} 个水放入中央。",
    "tm.ev.ladle": "{name} 的水瓢从中央舀起 1 个水。",
    "tm.ev.pole": "{name} 的扁担将 {n} 个水倒回中央。",
    "tm.ev.pass": "{name} 将{item}（{n}）交给 {other}。",
    "tm.ev.centre": "{name} 从中央喝到 1 口水。",
    "tm.ev.vat": "{name} 的水缸额外给 1 口水。",
    "tm.ev.drink": "{name} 从{item}喝了 {n} 口水。",
    "tm.ev.bowl": "{name} 从中央放 1 个水到大碗上。",
    "tm.ev.win": "{name} 喝到 {n} 口水，获胜！",
    "tm.ev.cap": "200 轮无人获胜：平局。",
  },
};

// Item glyphs: the Chinese name, drawn as a seal.
export const ITEM_ZH = {
  bucket: "水桶", woodenBarrel: "木桶", bigBarrel: "大桶", pole: "扁担", ladle: "水瓢",
  fish: "木鱼", vase: "净瓶", bowl: "大碗", mouse: "老鼠", vat: "水缸",
};
export const FETCHING = new Set(["bucket", "woodenBarrel", "bigBarrel", "pole", "ladle"]);
export const CARDS = ["chant", "fetch", "exchange", "drink", "rest"];
export const CARD_ZH = { chant: "念", fetch: "挑", exchange: "换", drink: "喝", rest: "休" };

/**
 * seatOf returns the seat a "water:2" / "item:2" / "seat:2" place names, or -1.
 * @param {string | null | undefined} place
 * @returns {number}
 */
export function seatOf(place) {
  const i = String(place || "").indexOf(":");
  return i < 0 ? -1 : Number(place.slice(i + 1));
}

/**
 * narrate turns one event into a log line in the current language.
 * @param {any} e
 * @param {(key: string, params?: Record<string, any>) => string} t
 * @param {(seat: number) => string} nameOf
 * @returns {string}
 */
export function narrate(e, t, nameOf) {
  const name = e.seat >= 0 ? nameOf(e.seat) : "";
  const item = e.item ? t("tm.item." + e.item).toLowerCase() : ""; // mid-sentence in English; a no-op in Chinese
  switch (e.kind) {
    case "phase": {
      const who = (e.seats || []).map(nameOf).join(", ") || t("tm.ev.nobody");
      return t("tm.ev.phase", { phase: t("tm.card." + e.phase), who });
    }
    case "reveal": return t("tm.ev.reveal") + " " + (e.cards || []).map((c, i) => nameOf(i) + " " + t("tm.card." + c)).join(" · ");
    case "token": return t("tm.ev.token." + (e.reason || "chant"), { name });
    case "mouse": return t("tm.ev.mouse", { name, other: nameOf(seatOf(e.from)) });
    case "pass": return t("tm.ev.pass", { name, item, n: e.n || 0, other: nameOf(seatOf(e.to)) });
    default: return t("tm.ev." + e.kind, { name, item, n: e.n || 0 });
  }
}
