package site_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestCreateFormOptions renders the create form of a made-up catalog entry
// with every kind of setup option and checks the request body it builds:
// options typed as the catalog says, bots only for the seats that chose one.
func TestCreateFormOptions(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	p.Open(base + "/?lang=en")
	p.Do("render the form", browsertest.EvalVoid(`(async () => {
		const { createForm } = await import("/assets/js/create.js");
		const entry = {
			name: "fake", title: {en: "Fake", zh: "假"}, minPlayers: 2, maxPlayers: 4, bots: ["easy", "hard"],
			setupOptions: {
				size: {label: {en: "Board size", zh: "棋盘"}, type: "enum", default: 19, choices: [9, 13, 19]},
				komi: {label: {en: "Komi", zh: "贴目"}, type: "float", default: 7.5, min: 0, max: 20},
				rounds: {label: {en: "Rounds", zh: "局数"}, type: "int", default: 3, min: 1, max: 9},
				open: {label: {en: "Open hands", zh: "明牌"}, type: "bool", default: false},
			},
		};
		const form = createForm(entry, { onCreate: async (body) => { window.__body = body; return true; } });
		form.id = "fake-form";
		document.getElementById("view").prepend(form);
	})()`))
	p.WaitText("#fake-form", "Board size")
	p.WaitText("#fake-form", "Komi")
	p.Do("three players", browsertest.SetSelect(`#fake-form select[name="numPlayers"]`, "3"))
	p.Do("a hard bot in seat 3", browsertest.SetSelect(`#fake-form select[data-seat="2"]`, "hard"))
	p.Do("size 13", browsertest.SetSelect(`#fake-form select[name="opt-size"]`, "13"))
	p.Type(`#fake-form input[name="opt-komi"]`, "6.5")
	p.Type(`#fake-form input[name="opt-rounds"]`, "5")
	p.Click(`#fake-form input[name="opt-open"]`)
	p.Click(`#fake-form input[name="unlisted"]`)
	p.Click(`#fake-form [data-action="create"]`)
	p.WaitJS("the create body", `!!window.__body`)

	got := browsertest.Eval[string](p, `JSON.stringify(window.__body)`)
	var body map[string]any
	if err := json.Unmarshal([]byte(got), &body); err != nil {
		p.Fail("body %s: %v", got, err)
	}
	want := map[string]any{
		"numPlayers": 3.0,
		"unlisted":   true,
		"bots":       map[string]any{"2": "hard"},
		"setupData":  map[string]any{"size": 13.0, "komi": 6.5, "rounds": 5.0, "open": true},
	}
	if !reflect.DeepEqual(body, want) {
		p.Fail("create body\n got %s\nwant %v", got, want)
	}
}

// TestI18n checks the string tables through the module itself: placeholders,
// the English fallback, plugin strings merged without overriding the host's,
// and the language switch with its listeners.
func TestI18n(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	p.Open(base + "/?lang=en")
	got := browsertest.Eval[map[string]string](p, `(async () => {
		const i = await import("/assets/js/i18n.js");
		const out = {};
		i.merge({ en: { "x.hello": "Hello {name}", "room.copy": "HIJACK", "x.only": "only English" }, zh: { "x.hello": "你好，{name}" } });
		out.en = i.t("x.hello", { name: "Ann" });
		out.missingParam = i.t("x.hello", {});
		out.hostKept = i.t("room.copy");
		out.unknown = i.t("no.such.key");
		let heard = "";
		const off = i.onLangChange((l) => { heard = l; });
		i.setLang("zh");
		out.heard = heard;
		out.zh = i.t("x.hello", { name: "安" });
		out.fallback = i.t("x.only");
		out.stored = localStorage.getItem("chaguan:lang");
		out.pick = i.pick({ en: "Go", zh: "围棋" });
		off();
		i.setLang("en");
		out.heardAfterOff = heard;
		out.bogus = (i.setLang("fr"), i.lang());
		return out;
	})()`, chromedp.EvalAwaitPromise)
	want := map[string]string{
		"en": "Hello Ann", "missingParam": "Hello {name}", "hostKept": "Copy", "unknown": "no.such.key",
		"heard": "zh", "zh": "你好，安", "fallback": "only English", "stored": "zh", "pick": "围棋",
		"heardAfterOff": "zh", "bogus": "en",
	}
	if !reflect.DeepEqual(got, want) {
		p.Fail("i18n\n got %v\nwant %v", got, want)
	}
}

// TestFollowsBrowserLanguage: with nothing remembered, a browser whose
// languages start with Chinese gets Chinese, and an English one English.
func TestFollowsBrowserLanguage(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	for _, tc := range []struct{ accept, title string }{
		{"zh-CN,zh;q=0.9,en;q=0.8", "茶馆"},
		{"en-GB,en;q=0.9", "Chaguan"},
		{"fr-FR,zh-TW;q=0.8", "茶馆"},
	} {
		t.Run(tc.accept, func(t *testing.T) {
			p := b.NewPage("visitor")
			p.SetT(t)
			p.Do("emulate "+tc.accept, chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetUserAgentOverride, emulation.SetUserAgentOverrideParams{
					UserAgent: "Mozilla/5.0 Chaguan test", AcceptLanguage: tc.accept,
				})
				return err
			}))
			p.Open(base + "/")
			p.WaitText(".hero h1", tc.title)
		})
	}
}

// createFormOverflowJS lists the elements of the open create form that
// stick out of its game card or of the viewport, and the page's width
// when it is wider than the viewport.
const createFormOverflowJS = `(() => {
	const form = document.querySelector(".create-form");
	if (!form) return ["no create form"];
	const card = form.closest(".game-card").getBoundingClientRect();
	const vw = document.documentElement.clientWidth;
	const out = [];
	if (document.documentElement.scrollWidth > vw) out.push("the page is " + document.documentElement.scrollWidth + " px wide");
	for (const e of [form, ...form.querySelectorAll("*")]) {
		const r = e.getBoundingClientRect();
		if (r.width === 0) continue;
		if (r.left < card.left - 0.5 || r.right > card.right + 0.5 || r.right > vw + 0.5 || r.width > vw) {
			const name = e.tagName.toLowerCase() + (e.className ? "." + String(e.className).trim().replace(/\s+/g, ".") : "") +
				(e.getAttribute("name") ? "[name=" + e.getAttribute("name") + "]" : "") + (e.dataset.seat ? "[seat " + e.dataset.seat + "]" : "");
			out.push(name + " spans " + r.left.toFixed(0) + ".." + r.right.toFixed(0) + ", its card " + card.left.toFixed(0) + ".." + card.right.toFixed(0));
		}
	}
	return out;
})()`

// TestLobbyCreateFormFits: on a 390 px phone and a 1280 px laptop, in zh
// and en, no element of any game's create form is wider than its card or
// the screen, even with long option texts: a saved own-LLM configuration
// with a long name and model shown in Carcassonne's form.
func TestLobbyCreateFormFits(t *testing.T) {
	base := browsertest.StartOwnServer(t)
	b := browsertest.Start(t)
	for _, size := range [][2]int64{{390, 844}, {1280, 800}} {
		for _, lang := range []string{"zh", "en"} {
			p := b.NewPage(fmt.Sprintf("%dpx-%s", size[0], lang))
			browsertest.SizePage(p, size[0], size[1], size[0] < 600)
			p.Open(base + "/?lang=" + lang)
			p.Do("a saved configuration with long texts", browsertest.EvalVoid(`localStorage.setItem("chaguan:llmConfigs", JSON.stringify([{
				id: "c1", name: "My OpenRouter account for the weekends", baseURL: "https://openrouter.ai/api/v1",
				model: "meta-llama/llama-3.3-70b-instruct:free", key: "k"}]))`))
			p.Open(base + "/?lang=" + lang)
			p.WaitJS("the games", `document.querySelectorAll(".game-card [data-action=new]").length > 0`)
			names := browsertest.Eval[[]string](p, `[...document.querySelectorAll(".game-card")].map((c) => c.dataset.game)`)
			for _, g := range names {
				form := fmt.Sprintf(`form[data-create=%q]`, g)
				p.Click(fmt.Sprintf(`.game-card[data-game=%q] [data-action="new"]`, g))
				p.WaitJS("the form of "+g, `!!document.querySelector('`+form+`')`)
				if g == "carcassonne" {
					p.Do("seat 2: your own LLM", browsertest.SetSelect(form+` select[data-seat="1"]`, "llm-own"))
					p.WaitJS("the configuration's row", `!!document.querySelector('`+form+` [data-own-select]')`)
				}
				if bad := browsertest.Eval[[]string](p, createFormOverflowJS); len(bad) > 0 {
					p.Fail("%s's create form overflows:\n%s", g, strings.Join(bad, "\n"))
				}
			}
			p.NoJSErrors()
		}
	}
}
