package site_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// takeoverTexts are what the page says, by language.
var takeoverTexts = map[string]struct{ timeout, told, yourTurn, youWin, youLose, bot, toBot string }{
	"en": {"You ran out of time", "Your time ran out three times", "Your turn", "You win", "You lose", "bot", "Your seat passed to a bot"},
	"zh": {"你超时了", "你连续三次超时", "轮到你", "你赢了", "你输了", "机器人", "你的座位已交给机器人"},
}

// TestClockTakeoverInBrowser: Ann sits in a Gomoku match against a bot
// (moving after 0.4 s) with a 5 s clock and no time a move, and plays
// nothing. Her clock runs
// out three times in a row and the bot takes her seat for good. Her page
// becomes a spectator's at once, as after a Leave: the seat list shows
// the bot in her seat and no "you", the board has no "your turn" and no
// controls, the page tells her why (a toast and the status line), and
// when the bots have finished the match it announces the winner without
// "You win!" or "You lose." for her.
//
// With $CHAGUAN_SHOTS set it does the same at 1280x800 and 390x844, in
// English and Chinese, and saves a screenshot of each page after the
// takeover and at the end there.
func TestClockTakeoverInBrowser(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	type size struct {
		name   string
		w, h   int64
		mobile bool
	}
	runs := []struct {
		lang string
		size *size
	}{{"en", nil}}
	dir := os.Getenv("CHAGUAN_SHOTS")
	if dir != "" {
		runs = runs[:0]
		for _, sz := range []size{{"desk", 1280, 800, false}, {"phone", 390, 844, true}} {
			for _, lang := range []string{"en", "zh"} {
				runs = append(runs, struct {
					lang string
					size *size
				}{lang, &sz})
			}
		}
	}
	for _, run := range runs {
		name := "ann-" + run.lang
		if run.size != nil {
			name += "-" + run.size.name
		}
		p := b.NewPage(name)
		if sz := run.size; sz != nil {
			p.Do("size", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: sz.w, Height: sz.h, DeviceScaleFactor: 1, Mobile: sz.mobile,
				})
				return err
			}))
		}
		shot := func(what string) {
			if dir == "" {
				return
			}
			time.Sleep(700 * time.Millisecond) // let the toasts and fades settle
			ctx, cancel := context.WithTimeout(p.Context(), 10*time.Second)
			defer cancel()
			png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
			if err != nil {
				t.Logf("%s: %v", what, err)
				return
			}
			f := filepath.Join(dir, fmt.Sprintf("takeover-%s-%s.png", name, what))
			if err := os.WriteFile(f, png, 0o644); err != nil {
				t.Logf("%s: %v", what, err)
			}
		}
		clockTakeover(t, p, base, run.lang, shot)
	}
}

// clockTakeover plays TestClockTakeoverInBrowser's match on p in lang;
// shot saves a screenshot named after what it shows.
func clockTakeover(t *testing.T, p *browsertest.Page, base, lang string, shot func(what string)) {
	t.Helper()
	tx := takeoverTexts[lang]
	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"},
		"clock": map[string]any{"bank": 5, "perMove": 0}, "botDelayMs": 400})
	p.Open(fmt.Sprintf("%s/m/gomoku/%s?lang=%s", base, id, lang))
	p.Type(`[data-field="name"]`, "Ann")
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJS("seated", `window.__chaguan && window.__chaguan.you === "0"`)
	// Her turn, with her controls, until her clock runs out.
	p.WaitJS("her turn", fmt.Sprintf(`(() => { const s = document.querySelector(".gomoku-status");
		return !!s && s.classList.contains("mine") && s.textContent.includes(%s); })()`, browsertest.JSString(tx.yourTurn)))
	p.WaitJS("her controls", `!!document.querySelector('[data-move="resign"]')`)

	// Three timeouts in a row (the first told to her as hers): the bot
	// takes the seat, and the page is a spectator's while the bots play on.
	p.WaitText(".toasts", tx.timeout)
	p.WaitJSFor("the takeover", `window.__chaguan.you === "" && window.__chaguan.state.you === ""`, 30*time.Second)
	p.WaitText(".toasts", tx.told)
	p.WaitJS("the status line says why", fmt.Sprintf(`(() => { const s = document.querySelector(".host-status");
		return !!s && !s.hidden && s.dataset.demoted === "clock.youTimedOut" && s.textContent.includes(%s); })()`, browsertest.JSString(tx.told)))
	p.WaitJS("the seat list shows the bot in her seat", fmt.Sprintf(`(() => {
		const row = document.querySelector('.seat[data-seat="0"]');
		return !!row && row.textContent.includes("Ann") && [...row.querySelectorAll(".pill")].some((e) => e.textContent.includes(%s))
			&& !document.querySelector(".seat.mine") && !document.querySelector('[data-action="leave"], [data-action="autoplay"]');
	})()`, browsertest.JSString(tx.bot)))
	p.WaitJS("the board is a spectator's", fmt.Sprintf(`(() => { const s = document.querySelector(".gomoku-status");
		return !!s && !s.classList.contains("mine") && !s.textContent.includes(%s) && !document.querySelector("[data-move]")
			&& !document.querySelector(".gomoku-you") && !document.title.startsWith("●"); })()`, browsertest.JSString(tx.yourTurn)))
	p.Do("top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
	shot("takeover")

	// The bots finish the match: the winner is announced, not to her.
	p.WaitJSFor("the end", `!!window.__chaguan.state.ctx.gameover && !!document.querySelector(".gameover")`, 120*time.Second)
	p.WaitJS("the end is told", `document.querySelector(".gomoku-status").classList.contains("over")`)
	body := browsertest.Eval[string](p, `document.body.innerText`)
	for _, s := range []string{tx.youWin, tx.youLose, tx.yourTurn} {
		if strings.Contains(body, s) {
			p.Fail("the page says %q after the takeover:\n%s", s, body)
		}
	}
	if browsertest.Eval[bool](p, `!!document.querySelector('[data-action="play-again"]')`) {
		p.Fail("the end card offers her to play again")
	}
	p.Do("top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
	shot("end")
	p.NoJSErrors()

	// The lobby's "my matches" says once that the seat passed to a bot,
	// as it does for a seat left from elsewhere.
	p.Open(base + "/?lang=" + lang)
	p.WaitJS("my matches says the seat passed to a bot", fmt.Sprintf(`(() => { const row = document.querySelector('.my-matches [data-match=%s]');
		return !!row && row.textContent.includes(%s); })()`, browsertest.JSString(id), browsertest.JSString(tx.toBot)))
}
