package web_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/server/servertest"
)

// ccG is a JS expression for the view the page shows.
const ccG = `window.__chaguan.state.G`

// ccSit opens match id as a person named name and takes seat 0.
func ccSit(p *Page, base, id, lang, name string) {
	p.t.Helper()
	p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, lang))
	p.Type(`[data-field="name"]`, name)
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJSFor("seated and started", `!!window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`, 60*time.Second)
	p.WaitJS("the board", `!!document.querySelector("svg[data-board=carcassonne] .cc-tile")`)
}

// ccCentre returns the viewport centre of the element matching sel inside
// the board, after scrolling the board into view; it fails unless the
// point is on the board (not under the zoom buttons).
func ccCentre(p *Page, sel string) (float64, float64) {
	p.t.Helper()
	xy := Eval[[]float64](p, fmt.Sprintf(`(async () => {
		const svg = document.querySelector("svg[data-board=carcassonne]");
		let e = null, r = null, prev = "";
		for (let i = 0; i < 40; i++) {
			svg.scrollIntoView({block: "center"});
			await new Promise((ok) => setTimeout(ok, 80));
			e = svg.querySelector(%s);
			if (!e) continue;
			r = e.getBoundingClientRect();
			const key = [r.left, r.top, r.width].join();
			if (key === prev) break;
			prev = key;
		}
		if (!e || !r) return [];
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		if (!hit || hit.closest("svg") !== svg) return [];
		return [x, y];
	})()`, jsString(sel)), chromedp.EvalAwaitPromise)
	if len(xy) != 2 {
		p.Fail("no clickable %s on the board", sel)
	}
	return xy[0], xy[1]
}

// ccMyTurn waits until the page shows seat 0's tile step.
func ccMyTurn(p *Page, what string) {
	p.t.Helper()
	p.WaitJSFor(what, ccG+`.phase === "over" || (`+ccG+`.phase === "tile" && `+ccG+`.current === 0 && !!document.querySelector(".cc-cand"))`, 90*time.Second)
}

// ccScoresShown checks that the scores shown are the view's.
func ccScoresShown(p *Page) {
	p.t.Helper()
	p.WaitJS("the scores shown are the view's", `(() => {
		const g = `+ccG+`;
		return g.scores.every((s, i) => { const e = document.querySelector('[data-score="' + i + '"]'); return !!e && e.textContent === String(s); });
	})()`)
}

// ccPlayTurn plays one tile of seat 0 by clicking: a highlighted position
// (the one with the most rotations among the clickable ones), optionally
// rotating (by button or R key), then Place or a second click. It returns
// the placement. When meeple is set and the meeple step comes, it clicks a
// meeple spot (not a field if it can) and returns the feature; otherwise
// it skips.
func ccPlayTurn(t *testing.T, p *Page, turn int, meeple bool) (x, y, rot int, feature string) {
	t.Helper()
	n := Eval[int](p, ccG+`.board.length`)
	// The candidate with the most rotations that is clickable.
	cand := Eval[[]int](p, `(() => {
		const g = `+ccG+`;
		const svg = document.querySelector("svg[data-board=carcassonne]");
		const ps = [...g.placements].sort((a, b) => b.rotations.length - a.rotations.length);
		for (const pl of ps) {
			const e = svg.querySelector('[data-cand="' + pl.x + ',' + pl.y + '"]');
			if (!e) continue;
			const r = e.getBoundingClientRect();
			if (r.width < 12) continue;
			return [pl.x, pl.y, pl.rotations.length];
		}
		return [];
	})()`)
	if len(cand) != 3 {
		p.Fail("turn %d: no highlighted position to click", turn)
	}
	x, y = cand[0], cand[1]
	cx, cy := ccCentre(p, fmt.Sprintf(`[data-cand="%d,%d"]`, x, y))
	p.ClickXY(cx, cy)
	p.WaitJS("the selection", fmt.Sprintf(`!!document.querySelector('[data-sel="%d,%d"]')`, x, y))
	before := Eval[string](p, `document.querySelector(".cc-tile-preview").dataset.rotation`)
	if cand[2] > 1 {
		if turn%2 == 0 {
			p.Click(`[data-action="rotate"]`)
		} else {
			p.Do("press R", chromedp.KeyEvent("r"))
		}
		p.WaitJS("the preview turned", fmt.Sprintf(`document.querySelector(".cc-tile-preview").dataset.rotation !== %q`, before))
	}
	rotStr := Eval[string](p, `document.querySelector(".cc-tile-preview").dataset.rotation`)
	fmt.Sscan(rotStr, &rot)
	if turn%2 == 0 {
		p.Click(`[data-action="place"]`)
	} else {
		cx, cy = ccCentre(p, fmt.Sprintf(`[data-sel="%d,%d"]`, x, y))
		p.ClickXY(cx, cy)
	}
	p.WaitJSFor("the tile placed", fmt.Sprintf(`%s.board.length > %d && %s.board.some((b) => b.x === %d && b.y === %d && b.rotation === %d)`, ccG, n, ccG, x, y, rot), 30*time.Second)
	// The tile is drawn where it was placed.
	p.WaitJS("the tile drawn", fmt.Sprintf(`!!document.querySelector('svg[data-board=carcassonne] [data-tile="%d,%d"]')`, x, y))
	inMeeple := Eval[bool](p, ccG+`.phase === "meeple" && `+ccG+`.current === 0`)
	if !inMeeple {
		return x, y, rot, ""
	}
	p.WaitJS("the meeple spots", `document.querySelectorAll(".cc-spot.live").length === `+ccG+`.meepleOptions.length`)
	if !meeple {
		p.Click(`[data-action="skip"]`)
		p.WaitJSFor("the meeple step over", fmt.Sprintf(`%s.phase !== "meeple" || %s.current !== 0 || %s.board.length > %d`, ccG, ccG, ccG, n+1), 30*time.Second)
		return x, y, rot, ""
	}
	feature = Eval[string](p, `(() => { const o = `+ccG+`.meepleOptions; const f = o.find((q) => q.kind !== "field") || o[0]; return f.feature; })()`)
	cx, cy = ccCentre(p, fmt.Sprintf(`.cc-spot[data-feature="%s"]`, feature))
	p.ClickXY(cx, cy)
	// The meeple event is in the log (the meeple may already be home if
	// the tile closed its feature).
	p.WaitJSFor("the meeple placed", fmt.Sprintf(`(%s.events || []).some((e) => e.kind === "meeple" && e.seat === 0 && e.x === %d && e.y === %d && e.feature === %q)`, ccG, x, y, feature), 30*time.Second)
	return x, y, rot, feature
}

// TestCarcassonneAgainstBot: a person plays a two-player game against the
// normal bot for several turns by clicking highlighted positions, rotating
// (button and R), placing (button and second click) and putting a meeple
// on a spot on the tile; the board grows, the meeple is drawn on its
// feature, the scores shown are the view's, and no script error occurs.
func TestCarcassonneAgainstBot(t *testing.T) {
	base := startServer(t)
	b := StartBrowser(t)
	ann := b.NewPage("ann")
	id := createMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "normal"}})
	ccSit(ann, base, id, "en", "Ann")

	placedMeeple := false
	rotated := 0
	const turns = 4
	for turn := 0; turn < turns; turn++ {
		ccMyTurn(ann, fmt.Sprintf("my turn %d", turn+1))
		if Eval[bool](ann, ccG+`.phase === "over"`) {
			ann.Fail("the game ended after %d turns", turn)
		}
		ann.WaitText(".cc-status", "Your turn")
		ccScoresShown(ann)
		n := Eval[int](ann, ccG+`.board.length`)
		x, y, rot, feature := ccPlayTurn(t, ann, turn, !placedMeeple)
		if rot != 0 {
			rotated++
		}
		if got := Eval[int](ann, ccG+`.board.length`); got <= n {
			ann.Fail("turn %d: the board has %d tiles, had %d", turn, got, n)
		}
		if feature != "" {
			placedMeeple = true
			// While the meeple is on the board, it is drawn on its feature.
			key := fmt.Sprintf("0:%d,%d:%s", x, y, feature)
			// While the meeple is on the board (a later move of the bot may
			// close its feature and send it home), it is drawn on its tile:
			// its centre inside the tile's square, once its drop is over.
			ann.WaitJS("the meeple "+key+" drawn on its tile", fmt.Sprintf(`(() => {
				const on = %s.meeples.some((m) => m.seat === 0 && m.x === %d && m.y === %d && m.feature === %q);
				if (!on) return true;
				const m = document.querySelector('[data-meeple="%s"]'), t = document.querySelector('[data-tile="%d,%d"]');
				if (!m || !t) return false;
				const a = m.getBoundingClientRect(), b = t.getBoundingClientRect();
				const cx = a.left + a.width / 2, cy = a.top + a.height / 2;
				return cx > b.left && cx < b.right && cy > b.top && cy < b.bottom;
			})()`, ccG, x, y, feature, key, x, y))
			ann.WaitJS("meeples left shown", `document.querySelector('[data-seat="0"] .cc-meeples').dataset.left === String(`+ccG+`.meeplesLeft[0])`)
		}
		t.Logf("turn %d: tile at %d,%d turned %d, meeple %q", turn+1, x, y, rot, feature)
	}
	if !placedMeeple {
		ann.Fail("no meeple was placed in %d turns", turns)
	}
	if rotated == 0 {
		ann.Fail("no tile was placed rotated")
	}
	// The bot answered: both seats placed tiles.
	ccMyTurn(ann, "my next turn")
	if n := Eval[int](ann, ccG+`.board.length`); n < 1+2*turns {
		ann.Fail("the board has %d tiles after %d turns each, want at least %d", n, turns, 1+2*turns)
	}
	ccScoresShown(ann)
	ann.WaitJS("tiles left shown", `document.querySelector("[data-tiles-left]").textContent === String(`+ccG+`.tilesLeft)`)
	if n := Eval[int](ann, `document.querySelectorAll(".cc-log li").length`); n < 2*turns {
		ann.Fail("the log shows %d events", n)
	}
	// Pan and zoom: the wheel zooms, a mouse drag pans (and selects
	// nothing), the fit button brings the whole board back.
	camera := func() string {
		return Eval[string](ann, `document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform")`)
	}
	mid := Eval[[]float64](ann, `(() => {
		const svg = document.querySelector("svg[data-board=carcassonne]");
		svg.scrollIntoView({block: "center"});
		const r = svg.getBoundingClientRect();
		return [r.left + r.width / 2, r.top + r.height / 2];
	})()`)
	cx, cy := mid[0], mid[1]
	before := camera()
	// deltaX 0 would be left out of the message, and chromium wants both.
	ann.Do("wheel", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseWheel, cx, cy, func(p *input.DispatchMouseEventParams) { p.DeltaX, p.DeltaY = 1, -300 }))
	ann.WaitJS("zoomed in", fmt.Sprintf(`document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform") !== %q`, before))
	zoomed := camera()
	ann.Do("drag", chromedp.MouseEvent(input.DispatchMouseEventTypeMousePressed, cx, cy, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, cx+30, cy+20, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, cx+60, cy+40, chromedp.ButtonLeft),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseReleased, cx+60, cy+40, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	ann.WaitJS("panned", fmt.Sprintf(`document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform") !== %q`, zoomed))
	if Eval[bool](ann, `!!document.querySelector("[data-sel]")`) {
		ann.Fail("a drag selected a position")
	}
	ann.Click(`[data-zoom="fit"]`)
	ann.WaitJS("fitted", fmt.Sprintf(`document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform") === %q`, before))
	ann.NoJSErrors()

	// A spectator of a finished game of bots sees the final scoring per
	// feature, the view's totals, and no buttons.
	end := createMatch(t, base, "carcassonne", map[string]any{"numPlayers": 3, "bots": map[string]string{"0": "normal", "1": "normal", "2": "easy"}})
	bob := b.NewPage("bob")
	bob.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=zh", base, end))
	bob.WaitJSFor("the end", `!!window.__chaguan && !!window.__chaguan.state.ctx.gameover && `+ccG+`.phase === "over"`, 120*time.Second)
	bob.WaitJS("the final scoring", `!!document.querySelector(".cc-final:not([hidden]) td[data-final]")`)
	totals := Eval[[]string](bob, `[...document.querySelectorAll(".cc-final td[data-final]")].map((e) => e.textContent)`)
	want := Eval[[]int](bob, ccG+`.final.scores`)
	if len(totals) != len(want) {
		bob.Fail("final totals shown %v, view's %v", totals, want)
	}
	for i := range want {
		if totals[i] != fmt.Sprint(want[i]) {
			bob.Fail("final totals shown %v, view's %v", totals, want)
		}
	}
	ccScoresShown(bob)
	if n, m := Eval[int](bob, `document.querySelectorAll(".cc-breakdown li").length`), Eval[int](bob, ccG+`.final.breakdown.length`); n != m {
		bob.Fail("the breakdown lists %d features, the view %d", n, m)
	}
	if n := Eval[int](bob, `[...document.querySelectorAll(".cc button[data-action]")].filter((e) => e.offsetParent !== null).length`); n != 0 {
		bob.Fail("a spectator sees %d game buttons", n)
	}
	bob.WaitText(".cc-status", "获胜")
	bob.NoJSErrors()
}

// TestCarcassonneScreens saves screenshots (1280x800 and 390x844, en and
// zh) of a game in play, in the meeple step and at the end into
// $CHAGUAN_SHOTS for a person to look at. Skipped unless it is set.
func TestCarcassonneScreens(t *testing.T) {
	dir := os.Getenv("CHAGUAN_SHOTS")
	if dir == "" {
		t.Skip("CHAGUAN_SHOTS not set")
	}
	base := servertest.Start(t, servertest.Options{BotDelay: 20 * time.Millisecond}).URL
	b := StartBrowser(t)
	shot := func(p *Page, name string) {
		time.Sleep(900 * time.Millisecond)
		ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
		defer cancel()
		png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Logf("%s: %v", name, err)
			return
		}
		_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
	}
	sizes := []struct {
		name   string
		w, h   int64
		mobile bool
	}{{"desk", 1280, 800, false}, {"phone", 390, 844, true}}
	for _, sz := range sizes {
		for _, lang := range []string{"en", "zh"} {
			p := b.NewPage(sz.name + "-" + lang)
			p.Do("size", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
				_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
					Width: sz.w, Height: sz.h, DeviceScaleFactor: 1, Mobile: sz.mobile,
				})
				return err
			}))
			id := createMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "normal"}})
			ccSit(p, base, id, lang, "Ann")
			for turn := 0; turn < 3; turn++ {
				ccMyTurn(p, "my turn")
				ccPlayTurn(t, p, turn, false)
			}
			ccMyTurn(p, "my turn")
			p.Do("top", evalVoid(`window.scrollTo(0, 0)`))
			shot(p, fmt.Sprintf("cc-%s-%s-play", sz.name, lang))
			cx, cy := ccCentre(p, `.cc-cand`)
			p.ClickXY(cx, cy)
			shot(p, fmt.Sprintf("cc-%s-%s-selected", sz.name, lang))
			// Keep playing until a meeple step.
			for turn := 3; turn < 12; turn++ {
				ccMyTurn(p, "my turn")
				n := Eval[int](p, ccG+`.board.length`)
				c2x, c2y := ccCentre(p, `.cc-cand`)
				p.ClickXY(c2x, c2y)
				p.Click(`[data-action="place"]`)
				p.WaitJSFor("placed", fmt.Sprintf(`%s.board.length > %d`, ccG, n), 30*time.Second)
				if Eval[bool](p, ccG+`.phase === "meeple" && `+ccG+`.current === 0`) {
					p.WaitJS("spots", `!!document.querySelector(".cc-spot.live")`)
					p.Do("top", evalVoid(`window.scrollTo(0, 0)`))
					shot(p, fmt.Sprintf("cc-%s-%s-meeple", sz.name, lang))
					p.Click(`[data-option]`)
					break
				}
			}
			// A finished game of two bots, spectated.
			end := createMatch(t, base, "carcassonne", map[string]any{"numPlayers": 3, "bots": map[string]string{"0": "normal", "1": "normal", "2": "easy"}})
			p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, end, lang))
			p.WaitJSFor("the end", `!!window.__chaguan && !!window.__chaguan.state.ctx.gameover`, 120*time.Second)
			p.WaitJS("the final box", `!!document.querySelector(".cc-final:not([hidden])")`)
			p.Do("top", evalVoid(`window.scrollTo(0, 0)`))
			shot(p, fmt.Sprintf("cc-%s-%s-end", sz.name, lang))
			p.Do("scroll", evalVoid(`document.querySelector(".cc-final").scrollIntoView()`))
			shot(p, fmt.Sprintf("cc-%s-%s-end2", sz.name, lang))
			p.NoJSErrors()
		}
	}
}
