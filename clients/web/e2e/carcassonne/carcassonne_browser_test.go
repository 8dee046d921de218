package carcassonne_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// ccScoresShown checks that the scores shown are the view's.
func ccScoresShown(p *browsertest.Page) {
	p.T().Helper()
	p.WaitJS("the scores shown are the view's", `(() => {
		const g = `+browsertest.CarcassonneG+`;
		return g.scores.every((s, i) => { const e = document.querySelector('[data-score="' + i + '"]'); return !!e && e.textContent === String(s); });
	})()`)
}

// TestCarcassonneAgainstBot: a person plays a two-player game against the
// normal bot for several turns by clicking highlighted positions, rotating
// (button and R), placing (button and second click) and putting a meeple
// on a spot on the tile; the board grows, the meeple is drawn on its
// feature, the scores shown are the view's, and no script error occurs.
func TestCarcassonneAgainstBot(t *testing.T) {
	t.Parallel() // its own server and pages
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "normal"}})
	browsertest.CarcassonneSit(ann, base, id, "en", "Ann")

	placedMeeple := false
	rotated := 0
	const turns = 4
	for turn := 0; turn < turns; turn++ {
		browsertest.CarcassonneMyTurn(ann, fmt.Sprintf("my turn %d", turn+1))
		if browsertest.Eval[bool](ann, browsertest.CarcassonneG+`.phase === "over"`) {
			ann.Fail("the game ended after %d turns", turn)
		}
		ann.WaitText(".cc-status", "Your turn")
		ccScoresShown(ann)
		n := browsertest.Eval[int](ann, browsertest.CarcassonneG+`.board.length`)
		x, y, rot, feature := browsertest.CarcassonnePlayTurn(t, ann, turn, !placedMeeple)
		if rot != 0 {
			rotated++
		}
		if got := browsertest.Eval[int](ann, browsertest.CarcassonneG+`.board.length`); got <= n {
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
			})()`, browsertest.CarcassonneG, x, y, feature, key, x, y))
			ann.WaitJS("meeples left shown", `document.querySelector('[data-seat="0"] .cc-meeples').dataset.left === String(`+browsertest.CarcassonneG+`.meeplesLeft[0])`)
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
	browsertest.CarcassonneMyTurn(ann, "my next turn")
	if n := browsertest.Eval[int](ann, browsertest.CarcassonneG+`.board.length`); n < 1+2*turns {
		ann.Fail("the board has %d tiles after %d turns each, want at least %d", n, turns, 1+2*turns)
	}
	ccScoresShown(ann)
	ann.WaitJS("tiles left shown", `document.querySelector("[data-tiles-left]").textContent === String(`+browsertest.CarcassonneG+`.tilesLeft)`)
	if n := browsertest.Eval[int](ann, `document.querySelectorAll(".cc-log li").length`); n < 2*turns {
		ann.Fail("the log shows %d events", n)
	}
	// Pan and zoom: the wheel zooms, a mouse drag pans (and selects
	// nothing), the fit button brings the whole board back.
	camera := func() string {
		return browsertest.Eval[string](ann, `document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform")`)
	}
	mid := browsertest.Eval[[]float64](ann, `(() => {
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
	if browsertest.Eval[bool](ann, `!!document.querySelector("[data-sel]")`) {
		ann.Fail("a drag selected a position")
	}
	ann.Click(`[data-zoom="fit"]`)
	ann.WaitJS("fitted", fmt.Sprintf(`document.querySelector("svg[data-board=carcassonne] .cc-world").getAttribute("transform") === %q`, before))
	ann.NoJSErrors()

	// A spectator of a finished game of bots sees the final scoring per
	// feature, the view's totals, and no buttons.
	end := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 3, "bots": map[string]string{"0": "normal", "1": "normal", "2": "easy"}})
	bob := b.NewPage("bob")
	bob.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=zh", base, end))
	bob.WaitJSFor("the end", `!!window.__chaguan && !!window.__chaguan.state.ctx.gameover && `+browsertest.CarcassonneG+`.phase === "over"`, 120*time.Second)
	bob.WaitJS("the final scoring", `!!document.querySelector(".cc-final:not([hidden]) td[data-final]")`)
	totals := browsertest.Eval[[]string](bob, `[...document.querySelectorAll(".cc-final td[data-final]")].map((e) => e.textContent)`)
	want := browsertest.Eval[[]int](bob, browsertest.CarcassonneG+`.final.scores`)
	if len(totals) != len(want) {
		bob.Fail("final totals shown %v, view's %v", totals, want)
	}
	for i := range want {
		if totals[i] != fmt.Sprint(want[i]) {
			bob.Fail("final totals shown %v, view's %v", totals, want)
		}
	}
	ccScoresShown(bob)
	if n, m := browsertest.Eval[int](bob, `document.querySelectorAll(".cc-breakdown li").length`), browsertest.Eval[int](bob, browsertest.CarcassonneG+`.final.breakdown.length`); n != m {
		bob.Fail("the breakdown lists %d features, the view %d", n, m)
	}
	if n := browsertest.Eval[int](bob, `[...document.querySelectorAll(".cc button[data-action]")].filter((e) => e.offsetParent !== null).length`); n != 0 {
		bob.Fail("a spectator sees %d game buttons", n)
	}
	bob.WaitText(".cc-status", "获胜")
	bob.NoJSErrors()
}
