package browsertest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// LookShot saves what p shows into $CHAGUAN_SHOTS, when set, for a person
// to look at.
func LookShot(p *Page, name string) {
	dir := os.Getenv("CHAGUAN_SHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("%s: %v", name, err)
		return
	}
	_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
}

// TakeSeat0 opens a match's invite link on p and takes seat 0 as name
// (SitIn also waits for the start).
func TakeSeat0(p *Page, base, game, id, name string) {
	p.t.Helper()
	p.Open(base + "/m/" + game + "/" + id + "?lang=en")
	p.Type(`[data-field="name"]`, name)
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJS("seated in "+game, `window.__chaguan && window.__chaguan.you === "0"`)
}

// SizePage sets p's viewport, as a phone (mobile) or a laptop.
func SizePage(p *Page, w, h int64, mobile bool) {
	p.t.Helper()
	p.Do("size", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
			Width: w, Height: h, DeviceScaleFactor: 1, Mobile: mobile,
		})
		return err
	}))
}

// SitIn opens a match's room on p in lang and takes seat 0.
func SitIn(p *Page, base, game, id, lang string) {
	p.t.Helper()
	p.Open(fmt.Sprintf("%s/m/%s/%s?lang=%s", base, game, id, lang))
	p.Type(`[data-field="name"]`, "Ann")
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJS("seated, started", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
}

// InstallWatch starts sampling expr (a JS function body returning a
// violation string or "") into window.__viol.
func InstallWatch(p *Page, body string) {
	p.t.Helper()
	p.Do("install the watcher", EvalVoid(`(() => {
		window.__viol = [];
		const check = () => { try { `+body+` } catch (e) { return ""; } };
		setInterval(() => { const v = check(); if (v && window.__viol.length < 20) window.__viol.push(v); }, 25);
	})()`))
}

// CheckWatch fails the test if the watcher InstallWatch started saw a
// violation.
func CheckWatch(p *Page) {
	p.t.Helper()
	if v := Eval[[]string](p, `window.__viol`); len(v) > 0 {
		p.Fail("the page showed and asked different states:\n%s", strings.Join(v, "\n"))
	}
}

// SeatBob opens invite on a fresh page as Bob (language lang) and sits in
// seat 1.
func SeatBob(b *Browser, invite, lang string) *Page {
	bob := b.NewPage("bob")
	bob.Open(invite + "?lang=" + lang)
	bob.Type(`[data-field="name"]`, "Bob")
	bob.Click(`[data-action="sit"][data-seat="1"]`)
	bob.WaitJS("Bob seated", `window.__chaguan && window.__chaguan.you === "1" && window.__chaguan.state.ctx.started`)
	return bob
}
