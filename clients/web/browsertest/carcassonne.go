package browsertest

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// CarcassonneG is a JS expression for the view the page shows.
const CarcassonneG = `window.__chaguan.state.G`

// CarcassonneSit opens match id as a person named name and takes seat 0.
func CarcassonneSit(p *Page, base, id, lang, name string) {
	p.t.Helper()
	p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, lang))
	p.Type(`[data-field="name"]`, name)
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJSFor("seated and started", `!!window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`, 60*time.Second)
	p.WaitJS("the board", `!!document.querySelector("svg[data-board=carcassonne] .cc-tile")`)
}

// CarcassonneCentre returns the viewport centre of the element matching sel inside
// the board, after scrolling the board into view; it fails unless the
// point is on the board (not under the zoom buttons).
func CarcassonneCentre(p *Page, sel string) (float64, float64) {
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
	})()`, JSString(sel)), chromedp.EvalAwaitPromise)
	if len(xy) != 2 {
		p.Fail("no clickable %s on the board", sel)
	}
	return xy[0], xy[1]
}

// CarcassonneMyTurn waits until the page shows seat 0's tile step.
func CarcassonneMyTurn(p *Page, what string) {
	p.t.Helper()
	p.WaitJSFor(what, CarcassonneG+`.phase === "over" || (`+CarcassonneG+`.phase === "tile" && `+CarcassonneG+`.current === 0 && !!document.querySelector(".cc-cand"))`, 90*time.Second)
}

// CarcassonnePlayTurn plays one tile of seat 0 by clicking: a highlighted position
// (the one with the most rotations among the clickable ones), optionally
// rotating (by button or R key), then Place or a second click. It returns
// the placement. When meeple is set and the meeple step comes, it clicks a
// meeple spot (not a field if it can) and returns the feature; otherwise
// it skips.
func CarcassonnePlayTurn(t *testing.T, p *Page, turn int, meeple bool) (x, y, rot int, feature string) {
	t.Helper()
	n := Eval[int](p, CarcassonneG+`.board.length`)
	// The candidate with the most rotations that is clickable.
	cand := Eval[[]int](p, `(() => {
		const g = `+CarcassonneG+`;
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
	cx, cy := CarcassonneCentre(p, fmt.Sprintf(`[data-cand="%d,%d"]`, x, y))
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
		cx, cy = CarcassonneCentre(p, fmt.Sprintf(`[data-sel="%d,%d"]`, x, y))
		p.ClickXY(cx, cy)
	}
	p.WaitJSFor("the tile placed", fmt.Sprintf(`%s.board.length > %d && %s.board.some((b) => b.x === %d && b.y === %d && b.rotation === %d)`, CarcassonneG, n, CarcassonneG, x, y, rot), 30*time.Second)
	// The tile is drawn where it was placed.
	p.WaitJS("the tile drawn", fmt.Sprintf(`!!document.querySelector('svg[data-board=carcassonne] [data-tile="%d,%d"]')`, x, y))
	inMeeple := Eval[bool](p, CarcassonneG+`.phase === "meeple" && `+CarcassonneG+`.current === 0`)
	if !inMeeple {
		return x, y, rot, ""
	}
	p.WaitJS("the meeple spots", `document.querySelectorAll(".cc-spot.live").length === `+CarcassonneG+`.meepleOptions.length`)
	if !meeple {
		p.Click(`[data-action="skip"]`)
		p.WaitJSFor("the meeple step over", fmt.Sprintf(`%s.phase !== "meeple" || %s.current !== 0 || %s.board.length > %d`, CarcassonneG, CarcassonneG, CarcassonneG, n+1), 30*time.Second)
		return x, y, rot, ""
	}
	feature = Eval[string](p, `(() => { const o = `+CarcassonneG+`.meepleOptions; const f = o.find((q) => q.kind !== "field") || o[0]; return f.feature; })()`)
	cx, cy = CarcassonneCentre(p, fmt.Sprintf(`.cc-spot[data-feature="%s"]`, feature))
	p.ClickXY(cx, cy)
	// The meeple event is in the log (the meeple may already be home if
	// the tile closed its feature).
	p.WaitJSFor("the meeple placed", fmt.Sprintf(`(%s.events || []).some((e) => e.kind === "meeple" && e.seat === 0 && e.x === %d && e.y === %d && e.feature === %q)`, CarcassonneG, x, y, feature), 30*time.Second)
	return x, y, rot, feature
}
