package carcassonne_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// ccScale is a JS expression for the board camera's scale.
const ccScale = `(() => {
	const m = /scale\(([-\d.e]+)\)/.exec(document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform") || "");
	return m ? Number(m[1]) : 0;
})()`

// pinch dispatches a two-finger touch gesture on p: both fingers down at
// from px either side of (cx, cy), moved in steps to to px apart, lifted.
func pinch(p *browsertest.Page, cx, cy, from, to float64) {
	p.T().Helper()
	fingers := func(d float64) []*input.TouchPoint {
		a, b := 1.0, 2.0
		return []*input.TouchPoint{{X: cx - d/2, Y: cy, ID: &a}, {X: cx + d/2, Y: cy, ID: &b}}
	}
	touch := func(typ input.DispatchTouchEventType, pts []*input.TouchPoint) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	actions := []chromedp.Action[chromedp.Void]{touch(input.DispatchTouchEventTypeTouchStart, fingers(from))}
	const steps = 8
	for i := 1; i <= steps; i++ {
		actions = append(actions, touch(input.DispatchTouchEventTypeTouchMove, fingers(from+(to-from)*float64(i)/steps)))
	}
	actions = append(actions, touch(input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}))
	p.Do(fmt.Sprintf("pinch %.0f→%.0f px", from, to), actions...)
}

// TestCarcassonnePinchZoom: on a 390x844 touch phone, pinching two
// fingers together on the board zooms out (the camera's scale shrinks),
// spreading them zooms in, and neither selects a position or throws.
func TestCarcassonnePinchZoom(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.SizePage(ann, 390, 844, true)
	ann.Do("touch", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5})
		return err
	}))
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "normal"}})
	browsertest.CarcassonneSit(ann, base, id, "en", "Ann")
	browsertest.CarcassonneMyTurn(ann, "my turn")
	mid := browsertest.Eval[[]float64](ann, `(() => {
		const svg = document.querySelector("svg[data-board=carcassonne]");
		svg.scrollIntoView({block: "center"});
		const r = svg.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2, r.width];
	})()`)
	cx, cy := mid[0], mid[1]
	if mid[2] > 390 {
		ann.Fail("the board is %.0f px wide on a 390 px phone", mid[2])
	}
	// Out first, then in: the camera's limits (22 to 160 px a tile) leave
	// room for both from wherever the board was fitted.
	s0 := browsertest.Eval[float64](ann, ccScale)
	pinch(ann, cx, cy, 200, 70)
	ann.WaitJS("zoomed out by the pinch", fmt.Sprintf(`%s < %v / 1.5`, ccScale, s0))
	s1 := browsertest.Eval[float64](ann, ccScale)
	pinch(ann, cx, cy, 60, 200)
	ann.WaitJS("zoomed in by the spread", fmt.Sprintf(`%s > %v * 1.5`, ccScale, s1))
	if browsertest.Eval[bool](ann, `!!document.querySelector("[data-sel]")`) {
		ann.Fail("a pinch selected a position")
	}
	t.Logf("scale %.3f → %.3f → %.3f", s0, s1, browsertest.Eval[float64](ann, ccScale))
	ann.NoJSErrors()
}

// TestCarcassonneFinalSeatNumbers: at the end of a five-seat game of bots
// (one of them the LLM level, whose names are long) every column of the
// final scoring shows its seat, "Seat N" / "N号座" (not "#N", which reads
// as a rank), whole and inside the table's box, at 1280x800 and at
// 390x844, in English and Chinese.
func TestCarcassonneFinalSeatNumbers(t *testing.T) {
	f := browsertest.NewFakeChat(t)
	base := browsertest.StartLLMServer(t, f)
	b := browsertest.Start(t)
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 5,
		"bots": map[string]string{"0": "normal", "1": "easy", "2": "llm-test", "3": "normal", "4": "easy"}})
	for _, sz := range []struct {
		name   string
		w, h   int64
		mobile bool
		lang   string
	}{{"desk", 1280, 800, false, "en"}, {"desk-zh", 1280, 800, false, "zh"}, {"phone", 390, 844, true, "zh"}, {"phone-en", 390, 844, true, "en"}} {
		p := b.NewPage(sz.name)
		browsertest.SizePage(p, sz.w, sz.h, sz.mobile)
		p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, sz.lang))
		p.WaitJSFor("the end", `!!window.__chaguan && !!window.__chaguan.state.ctx.gameover && `+browsertest.CarcassonneG+`.phase === "over"`, 180*time.Second)
		p.WaitJS("the final scoring", `!!document.querySelector(".cc-final:not([hidden]) th[data-final-seat]")`)
		p.Do("show the table", browsertest.EvalVoid(`document.querySelector(".cc-final").scrollIntoView({block: "center"})`))
		cols := browsertest.Eval[[]string](p, `(() => {
			const wrap = document.querySelector(".cc-final .cc-table-wrap").getBoundingClientRect();
			return [...document.querySelectorAll(".cc-final th[data-final-seat]")].map((th) => {
				const no = th.querySelector(".cc-seatno");
				if (!no) return "no seat number|" + th.innerText;
				const r = no.getBoundingClientRect();
				const whole = no.scrollWidth <= no.clientWidth + 1 && r.width > 0;
				const inside = r.left >= wrap.left - 1 && r.right <= wrap.right + 1;
				return [th.dataset.finalSeat, no.textContent, whole, inside, th.innerText.replace(/\s+/g, " ")].join("|");
			});
		})()`)
		if len(cols) != 5 {
			p.Fail("%d columns in the final scoring, want 5: %v", len(cols), cols)
		}
		for i, c := range cols {
			seat := "Seat " + strconv.Itoa(i+1)
			if sz.lang == "zh" {
				seat = strconv.Itoa(i+1) + "号座"
			}
			parts := strings.Split(c, "|")
			if len(parts) != 5 || parts[0] != strconv.Itoa(i) || parts[1] != seat || parts[2] != "true" || parts[3] != "true" {
				p.Fail("column %d: %q; want its seat %q whole and inside the table (seat|text|whole|inside|shown)", i, c, seat)
			}
			if !strings.Contains(parts[4], seat) {
				p.Fail("column %d shows %q, without %q", i, parts[4], seat)
			}
		}
		t.Logf("%s: %v", sz.name, cols)
		browsertest.LookShot(p, "cc-final-"+sz.name)
		p.NoJSErrors()
	}
}
