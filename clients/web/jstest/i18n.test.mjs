// Tests of static/js/i18n.js (the host's zh and en strings, t, merge,
// pick, the language and its default) with node's own test runner:
// node --test clients/web/jstest/
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { install, fakeStorage, brokenStorage } from "./fakedom.mjs";

const env = install({ languages: ["en-GB", "en"] });
const i18n = await import("../static/js/i18n.js");
const { t, lang, setLang, onLangChange, has, merge, pick, botLevel } = i18n;

// The host's keys, read from the source of the tables (the module keeps
// them to itself); each is then checked through the module's own API.
function sourceKeys() {
  const src = readFileSync(new URL("../static/js/i18n.js", import.meta.url), "utf8");
  const start = src.indexOf("const tables = {");
  const end = src.indexOf("\n};", start);
  assert.ok(start >= 0 && end > start, "i18n.js holds its tables in const tables = {…};");
  const keys = new Set();
  for (const m of src.slice(start, end).matchAll(/^\s*"([^"]+)":\s*"/gm)) keys.add(m[1]);
  return [...keys];
}
const keys = sourceKeys();

// inHost reports whether the host's table of language l has key: merge
// adds a plugin's string only where the host has none, so a probe shows
// through exactly when the host table lacks the key.
const PROBE = "\u0000probe";
function inHost(l, key) {
  merge({ [l]: { [key]: PROBE } });
  const was = lang();
  setLang(l);
  const got = t(key);
  setLang(was);
  return got !== PROBE;
}

const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
function inLang(l, fn) {
  const was = lang();
  setLang(l);
  try { return fn(); } finally { setLang(was); }
}

test("the language defaults from the browser's languages: en here", () => {
  assert.equal(lang(), "en");
  assert.equal(env.document.documentElement.lang, "en");
});

test("every host key is in both the en and the zh table", () => {
  assert.ok(keys.length > 100, `read ${keys.length} keys from i18n.js`);
  for (const k of keys) assert.ok(has(k), `has(${k})`);
  const missing = [];
  for (const k of keys) {
    for (const l of ["en", "zh"]) if (!inHost(l, k)) missing.push(`${l}: ${k}`);
  }
  assert.deepEqual(missing, [], "keys missing from a table");
});

test("a key's en and zh strings have the same placeholders, and say different things", () => {
  const mismatched = [];
  const same = [];
  for (const k of keys) {
    const en = inLang("en", () => t(k));
    const zh = inLang("zh", () => t(k));
    if (placeholders(en).join() !== placeholders(zh).join()) mismatched.push(`${k}: en ${en} | zh ${zh}`);
    // The same English words in both: a string copied and not translated.
    // Names ("GNU Go") may stay as they are.
    if (en === zh && /\b[a-z]{3,}\b/.test(en)) same.push(`${k}: ${en}`);
    assert.ok(en.length > 0 && zh.length > 0, k);
  }
  assert.deepEqual(mismatched, []);
  assert.deepEqual(same, [], "zh strings left in English");
});

test("t replaces {name} placeholders from params, in the current language", () => {
  assert.equal(t("lobby.seated", { n: 2, total: 4 }), "2/4 seated");
  assert.equal(t("room.winner", { name: "Lu Yu" }), "Lu Yu wins!");
  assert.equal(t("replay.step", { n: 0, total: 10 }), "Step 0 of 10", "0 is a value");
  inLang("zh", () => {
    assert.equal(t("lobby.seated", { n: 2, total: 4 }), "已入座 2/4");
    assert.equal(t("room.winner", { name: "陆羽" }), "陆羽 获胜！");
  });
  // A missing or null parameter leaves its placeholder; extra ones are ignored.
  assert.equal(t("lobby.seated", { n: 1 }), "1/{total} seated");
  assert.equal(t("lobby.seated", { n: 1, total: null, x: 5 }), "1/{total} seated");
  // Without params nothing is replaced.
  assert.equal(t("lobby.seated"), "{n}/{total} seated");
  // A value that looks like a placeholder is not expanded again.
  assert.equal(t("room.winner", { name: "{name}" }), "{name} wins!");
  assert.equal(t("room.winner", { name: "$& $1" }), "$& $1 wins!", "replacement patterns are plain text");
});

test("t falls back to English, then to the key", () => {
  assert.equal(t("no.such.key"), "no.such.key");
  assert.equal(has("no.such.key"), false);
  merge({ en: { "test.onlyEn": "Only {x}" } });
  inLang("zh", () => assert.equal(t("test.onlyEn", { x: 1 }), "Only 1"));
});

test("merge adds a plugin's strings but never changes the host's", () => {
  merge({ en: { "app.title": "Hacked", "test.plugin": "Plugin" }, zh: { "app.title": "黑", "test.plugin": "插件" } });
  assert.equal(t("app.title"), "Chaguan");
  assert.equal(t("test.plugin"), "Plugin");
  inLang("zh", () => {
    assert.notEqual(t("app.title"), "黑");
    assert.equal(t("test.plugin"), "插件");
  });
  // A plugin may update its own strings.
  merge({ en: { "test.plugin": "Plugin 2" } });
  assert.equal(t("test.plugin"), "Plugin 2");
  // Junk is ignored.
  for (const junk of [null, undefined, "x", 5, { en: "x" }, { en: { "test.num": 5, "test.obj": {} } }]) merge(junk);
  assert.equal(has("test.num"), false);
  assert.equal(has("test.obj"), false);
});

test("setLang switches, remembers, tells listeners once, and ignores unknown languages", () => {
  const heard = [];
  const off = onLangChange((l) => heard.push(l));
  setLang("zh");
  assert.equal(lang(), "zh");
  assert.equal(env.localStorage.getItem("chaguan:lang"), "zh");
  assert.equal(env.document.documentElement.lang, "zh-CN");
  assert.equal(t("common.cancel"), "取消");
  setLang("zh");
  setLang("fr");
  setLang("");
  assert.equal(lang(), "zh");
  assert.deepEqual(heard, ["zh"]);
  setLang("en");
  assert.deepEqual(heard, ["zh", "en"]);
  assert.equal(env.document.documentElement.lang, "en");
  assert.equal(t("common.cancel"), "Cancel");
  off();
  setLang("zh");
  setLang("en");
  assert.deepEqual(heard, ["zh", "en"], "an unregistered listener hears nothing");
});

test("a listener that throws does not stop the others", () => {
  const errors = [];
  const realError = console.error;
  console.error = (e) => errors.push(e);
  const heard = [];
  const off1 = onLangChange(() => { throw new Error("bad listener"); });
  const off2 = onLangChange((l) => heard.push(l));
  try {
    setLang("zh");
    setLang("en");
  } finally {
    off1(); off2();
    console.error = realError;
  }
  assert.deepEqual(heard, ["zh", "en"]);
  assert.equal(errors.length, 2);
});

test("pick chooses a server text in the current language", () => {
  const text = { en: "Black wins", zh: "黑方胜" };
  assert.equal(pick(text), "Black wins");
  inLang("zh", () => assert.equal(pick(text), "黑方胜"));
  inLang("zh", () => assert.equal(pick({ en: "only en" }), "only en"));
  assert.equal(pick({ zh: "只有中文" }), "只有中文");
  assert.equal(pick("plain"), "plain");
  assert.equal(pick(null), "");
  assert.equal(pick(undefined), "");
  assert.equal(pick({}), "");
});

test("botLevel names the built-in levels in the current language, others as given", () => {
  assert.equal(botLevel("normal"), "normal");
  assert.equal(botLevel("hard"), "hard");
  inLang("zh", () => {
    assert.equal(botLevel("easy"), "简单");
    assert.equal(botLevel("normal"), "普通");
    assert.equal(botLevel("mystery"), "mystery");
  });
});

// load imports a fresh copy of i18n.js under the given browser, so its
// language is chosen again as on a page load.
let loads = 0;
async function load(opts) {
  const e = install(opts);
  const mod = await import(`../static/js/i18n.js?load=${++loads}`);
  return { ...e, mod };
}

test("the default language follows navigator.languages: the first zh or en one", async () => {
  const cases = [
    [{ languages: ["zh-CN", "en-US"] }, "zh"],
    [{ languages: ["zh-TW"] }, "zh"],
    [{ languages: ["ZH-hk"] }, "zh"],
    [{ languages: ["en-US", "zh-CN"] }, "en"],
    [{ languages: ["fr-FR", "zh", "en"] }, "zh"],
    [{ languages: ["fr-FR", "de"] }, "en"],
    [{ languages: [], language: "zh-SG" }, "zh"],
    [{ languages: [], language: "" }, "en"],
  ];
  for (const [opts, want] of cases) {
    const { mod, document } = await load(opts);
    assert.equal(mod.lang(), want, JSON.stringify(opts));
    assert.equal(document.documentElement.lang, want === "zh" ? "zh-CN" : "en");
  }
});

test("a remembered language wins over the browser's; a bad one is ignored", async () => {
  let r = await load({ languages: ["zh-CN"], storage: fakeStorage({ "chaguan:lang": "en" }) });
  assert.equal(r.mod.lang(), "en");
  r = await load({ languages: ["en-US"], storage: fakeStorage({ "chaguan:lang": "zh" }) });
  assert.equal(r.mod.lang(), "zh");
  assert.equal(r.mod.t("common.cancel"), "取消");
  r = await load({ languages: ["zh-CN"], storage: fakeStorage({ "chaguan:lang": "de" }) });
  assert.equal(r.mod.lang(), "zh");
});

test("?lang= in the address wins over everything and is remembered", async () => {
  let r = await load({ languages: ["en-US"], search: "?lang=zh", storage: fakeStorage({ "chaguan:lang": "en" }) });
  assert.equal(r.mod.lang(), "zh");
  assert.equal(r.localStorage.getItem("chaguan:lang"), "zh");
  r = await load({ languages: ["zh-CN"], search: "?x=1&lang=en" });
  assert.equal(r.mod.lang(), "en");
  assert.equal(r.localStorage.getItem("chaguan:lang"), "en");
  r = await load({ languages: ["zh-CN"], search: "?lang=fr" });
  assert.equal(r.mod.lang(), "zh");
  assert.equal(r.localStorage.getItem("chaguan:lang"), null);
});

test("with storage disabled the browser's language is used and switching still works", async () => {
  const r = await load({ languages: ["zh-CN"], storage: brokenStorage() });
  assert.equal(r.mod.lang(), "zh");
  r.mod.setLang("en");
  assert.equal(r.mod.lang(), "en");
  assert.equal(r.mod.t("common.cancel"), "Cancel");
});
