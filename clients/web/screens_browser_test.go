package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/server/servertest"
)

// TestScreens saves viewport screenshots of the lobby and the three games'
// rooms at a laptop (1280x800) and a phone (390x844) size, in both
// languages, into $CHAGUAN_SHOTS, for a person to look at. Skipped unless
// that variable names a directory. $CHAGUAN_SHOTS_JS_<game>, when set, is
// run on the room after the first shot and a second "-extra" shot taken
// (e.g. open the last trick, or an item's card).
func TestScreens(t *testing.T) {
	dir := os.Getenv("CHAGUAN_SHOTS")
	if dir == "" {
		t.Skip("CHAGUAN_SHOTS not set")
	}
	base := servertest.Start(t, servertest.Options{BotDelay: 30 * time.Millisecond}).URL
	b := StartBrowser(t)
	sizes := []struct {
		name   string
		w, h   int64
		mobile bool
	}{{"desk", 1280, 800, false}, {"phone", 390, 844, true}}
	shot := func(p *Page, name string) {
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Logf("%s: %v", name, err)
			return
		}
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
		w := Eval[float64](p, `document.documentElement.scrollWidth`)
		hh := Eval[float64](p, `document.documentElement.scrollHeight`)
		t.Logf("%s: page %vx%v", name, w, hh)
	}
	games := []struct {
		game string
		body map[string]any
	}{
		{"gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}}},
		{"gongzhu", map[string]any{"numPlayers": 4, "bots": map[string]string{"1": "normal", "2": "normal", "3": "normal"}}},
		{"threemonks", map[string]any{"numPlayers": 8, "bots": map[string]string{"1": "normal", "2": "normal", "3": "normal", "4": "normal", "5": "normal", "6": "normal", "7": "normal"}}},
	}
	for _, sz := range sizes {
		for _, lang := range []string{"en", "zh"} {
			p := b.NewPage(sz.name + "-" + lang)
			p.Do("size", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: sz.w, Height: sz.h, DeviceScaleFactor: 1, Mobile: sz.mobile,
				})
				return err
			}))
			p.Open(base + "/nope?lang=" + lang)
			p.WaitJS("notfound", `!!document.querySelector("#view h1")`)
			shot(p, fmt.Sprintf("%s-%s-notfound", sz.name, lang))
			p.Open(base + "/?lang=" + lang)
			p.WaitJS("lobby", `!!document.querySelector(".game-card")`)
			p.Click(`.game-card[data-game="threemonks"] [data-action="new"]`)
			p.Click(`[data-create="threemonks"] [data-fill="normal"]`)
			p.Do("scroll", evalVoid(`document.querySelector('[data-create="threemonks"]').scrollIntoView()`))
			shot(p, fmt.Sprintf("%s-%s-create", sz.name, lang))
			for _, g := range games {
				id := createMatch(t, base, g.game, g.body)
				p.Open(fmt.Sprintf("%s/m/%s/%s?lang=%s", base, g.game, id, lang))
				p.Type(`[data-field="name"]`, "Ann")
				p.Click(`[data-action="sit"][data-seat="0"]`)
				p.WaitJS("seated", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
				time.Sleep(2500 * time.Millisecond)
				p.Do("top", evalVoid(`window.scrollTo(0, 0)`))
				shot(p, fmt.Sprintf("%s-%s-%s", sz.name, lang, g.game))
				if extra := os.Getenv("CHAGUAN_SHOTS_JS_" + g.game); extra != "" {
					p.Do("extra", evalVoid(extra))
					time.Sleep(8000 * time.Millisecond)
					shot(p, fmt.Sprintf("%s-%s-%s-extra", sz.name, lang, g.game))
				}
			}
		}
	}
}
