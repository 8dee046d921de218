package gongzhu_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// gzFitJS lists what sticks out: an element of the table, scoreboard or
// round result past the viewport or past its card (the felt's seats may
// ride its rim, so they are held to the viewport only), or a page wider
// than the screen. Empty when everything fits.
const gzFitJS = `(() => {
	const bad = [];
	if (document.documentElement.scrollWidth > innerWidth + 1) bad.push("page " + document.documentElement.scrollWidth + " > " + innerWidth);
	for (const sel of ["[data-table=gongzhu]", "[data-scoreboard=gongzhu]", "[data-result=gongzhu]"]) {
		const card = document.querySelector(sel);
		if (!card) { bad.push(sel + " missing"); continue; }
		const c = card.getBoundingClientRect();
		if (c.left < -1 || c.right > innerWidth + 1) bad.push(sel + " past the viewport");
		for (const e of card.querySelectorAll("*")) {
			const r = e.getBoundingClientRect();
			if (r.width === 0 && r.height === 0) continue;
			const moving = e.closest(".gz-trick-card");
			if (moving && moving.getAnimations().length > 0) continue; // a card on its way to a seat
			const inCard = sel === "[data-table=gongzhu]" || (r.left >= c.left - 1 && r.right <= c.right + 1);
			if (!inCard || r.left < -1 || r.right > innerWidth + 1) {
				bad.push(sel + " " + e.tagName.toLowerCase() + "." + [...e.classList].join(".") + " [" + Math.round(r.left) + "," + Math.round(r.right) + "] outside [" + Math.round(c.left) + "," + Math.round(c.right) + "]");
				if (bad.length > 8) return bad.join("; ");
			}
		}
	}
	return bad.join("; ");
})()`

// TestGongzhuLongNamesFit: a name of 40 Chinese characters, or one long
// word, plays a round with three bots; at a phone's and a laptop's width,
// in Chinese and English, the felt, the scoreboard and the round result
// stay inside their cards and the screen.
func TestGongzhuLongNamesFit(t *testing.T) {
	t.Parallel() // each has its own server and pages; they wait mostly on the page's animations
	srv := browsertest.StartGongzhuServer(t, 0)
	b := browsertest.Start(t)
	for _, v := range []struct{ lang, name string }{
		{"zh", strings.Repeat("张三李四", 10)},
		{"en", "Bartholomew_the_Magnificent_of_Teahouse"},
	} {
		id := browsertest.CreateGongzhu(t, srv.URL, 4)
		p := b.NewPage("fit-" + v.lang)
		browsertest.SitGongzhu(p, srv.URL, id, v.name, v.lang)
		for i := 0; i < 13; i++ {
			browsertest.PlayCard(p, i+1)
		}
		p.WaitJS("round 1 over", browsertest.GongzhuG+`.round === 2 && !!document.querySelector("[data-result=gongzhu]")`)
		for _, w := range []struct {
			w, h   int64
			mobile bool
		}{{390, 844, true}, {1280, 800, false}} {
			browsertest.SizePage(p, w.w, w.h, w.mobile)
			p.WaitJS("laid out at the new width", fmt.Sprintf(`innerWidth === %d`, w.w))
			browsertest.LookShot(p, fmt.Sprintf("gongzhu-fit-%s-%d", v.lang, w.w))
			if bad := browsertest.Eval[string](p, gzFitJS); bad != "" {
				p.Fail("%s at %d px: %s", v.lang, w.w, bad)
			}
		}
		p.NoJSErrors()
	}
}
