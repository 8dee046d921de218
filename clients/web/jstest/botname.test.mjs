// Tests of static/js/botname.js (how bots are named and badged on screen)
// with node's own test runner: node --test clients/web/jstest/
import { test, afterEach } from "node:test";
import assert from "node:assert/strict";
import { install } from "./fakedom.mjs";

install({ languages: ["en-US"] });
const { setLang } = await import("../static/js/i18n.js");
const { llmName, isLLM, levelLabel, botDisplayName, botBadges, thinkingMark } = await import("../static/js/botname.js");

afterEach(() => setLang("en"));

const NBSP = "\u00a0", WJ = "\u2060";
const bot = (level, extra = {}) => ({ name: `Bot (${level})`, isBot: true, botLevel: level, ...extra });

test("a built-in bot is named by its level and seat number, in the reader's language", () => {
  assert.equal(botDisplayName(bot("normal"), 2), `Bot (normal)${NBSP}3`);
  assert.equal(botDisplayName(bot("easy"), 0), `Bot (easy)${NBSP}1`);
  setLang("zh");
  assert.equal(botDisplayName(bot("normal"), 2), `机器人（普通）${WJ}3号`);
  assert.equal(botDisplayName(bot("hard"), 0), `机器人（困难）${WJ}1号`);
  // A level the client does not know keeps its own name.
  assert.equal(botDisplayName(bot("gnugo-10"), 1), `机器人（gnugo-10）${WJ}2号`);
});

test("an LLM bot is named after its endpoint", () => {
  assert.equal(botDisplayName(bot("llm-deepseek"), 2), `deepseek${NBSP}3`);
  assert.equal(botDisplayName(bot("llm"), 0), `LLM${NBSP}1`);
  setLang("zh");
  assert.equal(botDisplayName(bot("llm-deepseek"), 2), `deepseek${WJ}3号`);
  assert.equal(botDisplayName(bot("llm"), 0), `大模型${WJ}1号`);
});

test("only bots named by the server are renamed", () => {
  // A person who calls themselves "Bot (hard)" keeps that name.
  assert.equal(botDisplayName({ name: "Bot (hard)", isBot: false }, 0), "Bot (hard)");
  assert.equal(botDisplayName({ name: "Lu Yu", isBot: true, botLevel: "easy" }, 0), "Lu Yu");
  assert.equal(botDisplayName({ name: "Bot (a b)", isBot: true }, 0), "Bot (a b)");
  assert.equal(botDisplayName({ name: "xBot (easy)", isBot: true }, 0), "xBot (easy)");
  assert.equal(botDisplayName({ name: "Lu Yu", isBot: false }, 4), "Lu Yu");
  assert.equal(botDisplayName(null, 0), "");
  assert.equal(botDisplayName(undefined, 0), "");
  assert.equal(botDisplayName({ name: "" }, 0), "");
});

test("llmName and isLLM tell an LLM level from the others", () => {
  assert.equal(llmName("llm"), "");
  assert.equal(llmName("llm-deepseek"), "deepseek");
  assert.equal(llmName("llm-my-model_2"), "my-model_2");
  for (const l of ["easy", "normal", "hard", "", null, undefined, "llmx", "xllm", "llm-", "llm-a b", "LLM"]) {
    assert.equal(llmName(l), null, String(l));
  }
  assert.equal(isLLM(bot("llm-qwen")), true);
  assert.equal(isLLM(bot("llm")), true);
  assert.equal(isLLM(bot("hard")), false);
  assert.equal(isLLM({ name: "Ann", isBot: false, botLevel: "llm" }), false, "only a bot is an LLM bot");
  assert.equal(isLLM(null), false);
});

test("levelLabel names a level for the create form and the seats", () => {
  assert.equal(levelLabel("easy"), "easy");
  assert.equal(levelLabel("llm"), "LLM");
  assert.equal(levelLabel("llm-deepseek"), "LLM · deepseek");
  assert.equal(levelLabel("other"), "other");
  setLang("zh");
  assert.equal(levelLabel("easy"), "简单");
  assert.equal(levelLabel("llm"), "大模型");
  assert.equal(levelLabel("llm-deepseek"), "大模型 · deepseek");
});

test("a bot's badges: its level, or the LLM's name and, on its turn, the thinking mark", () => {
  assert.deepEqual(botBadges({ name: "Ann", isBot: false }, true), []);
  assert.deepEqual(botBadges(null, false), []);

  const [pill, ...rest] = botBadges(bot("normal"), true);
  assert.equal(rest.length, 0, "a built-in bot never shows the thinking mark");
  assert.equal(pill.className, "pill");
  assert.equal(pill.textContent, "bot · normal");
  assert.equal(botBadges({ name: "Bot", isBot: true }, false)[0].textContent, "bot");

  const idle = botBadges(bot("llm-deepseek"), false).filter(Boolean);
  assert.equal(idle.length, 1);
  assert.ok(idle[0].classList.contains("llm"));
  assert.equal(idle[0].dataset.llm, "llm-deepseek");
  assert.equal(idle[0].textContent, "LLM · deepseek");

  setLang("zh");
  const busy = botBadges(bot("llm-deepseek"), true).filter(Boolean);
  assert.equal(busy.length, 2);
  assert.equal(busy[0].textContent, "大模型 · deepseek");
  assert.ok("thinking" in busy[1].dataset);
  assert.equal(busy[1].getAttribute("role"), "status");
  assert.equal(busy[1].textContent, "思考中...");
  assert.equal(botBadges(bot("hard"), false)[0].textContent, "机器人 · 困难");
});

test("the thinking mark says thinking, with three dots", () => {
  const m = thinkingMark();
  assert.equal(m.className, "thinking");
  assert.equal(m.textContent, "thinking...");
  const dots = m.children[0];
  assert.equal(dots.getAttribute("aria-hidden"), "true");
  assert.equal(dots.children.length, 3);
  assert.equal(thinkingMark("pill").className, "thinking pill");
});
