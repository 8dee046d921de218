package newplayer_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// What a new player stumbles on in the web client, each at 1280x800 and on
// a 390x844 phone, in English and Chinese: the weiqi end card that gave the
// result away during the evolution, the scoring preview that did not say
// the count comes after it, Carcassonne's final breakdown, zoom buttons
// and hints on a touch screen, the replay of a match that does not exist,
// the end card's layout on a phone, the red confirm of a resignation, and
// the AudioContext a spectator's page made before any gesture.

// npView is one page size and language the checks run at.
type npView struct {
	name   string
	w, h   int64
	mobile bool
	lang   string
}

// open opens a page of v's size on b, a touch screen when v is a phone
// and touch is asked for.
func (v npView) open(b *browsertest.Browser, touch bool) *browsertest.Page {
	p := b.NewPage(v.name)
	browsertest.SizePage(p, v.w, v.h, v.mobile)
	if touch && v.mobile {
		touchScreen(p)
	}
	return p
}

var npViews = []npView{
	{"desk-en", 1280, 800, false, "en"},
	{"desk-zh", 1280, 800, false, "zh"},
	{"phone-en", 390, 844, true, "en"},
	{"phone-zh", 390, 844, true, "zh"},
}

// touchScreen makes p a touch screen: taps dispatch touch events (and the
// pointer events of a finger).
func touchScreen(p *browsertest.Page) {
	p.T().Helper()
	p.Do("touch", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetTouchEmulationEnabled, emulation.SetTouchEmulationEnabledParams{Enabled: true, MaxTouchPoints: 5})
		return err
	}))
}

// touchTap taps one finger at viewport point (x, y).
func touchTap(p *browsertest.Page, x, y float64) {
	p.T().Helper()
	id := 1.0
	touch := func(typ input.DispatchTouchEventType, pts []*input.TouchPoint) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts})
			return err
		})
	}
	p.Do(fmt.Sprintf("tap at %.0f,%.0f", x, y),
		touch(input.DispatchTouchEventTypeTouchStart, []*input.TouchPoint{{X: x, Y: y, ID: &id}}),
		touch(input.DispatchTouchEventTypeTouchEnd, []*input.TouchPoint{}))
}

// centreOf scrolls the first element matching sel to the middle of the
// screen and returns its centre; it fails unless the element is what a
// finger there would touch.
func centreOf(p *browsertest.Page, sel string) (float64, float64) {
	p.T().Helper()
	xy := browsertest.Eval[[]float64](p, fmt.Sprintf(`(async () => {
		const e = document.querySelector(%s);
		if (!e) return [];
		e.scrollIntoView({block: "center", behavior: "instant"});
		await new Promise((ok) => setTimeout(ok, 120));
		const r = e.getBoundingClientRect();
		const x = r.left + r.width / 2, y = r.top + r.height / 2;
		const hit = document.elementFromPoint(x, y);
		return hit && (hit === e || e.contains(hit)) ? [x, y] : [];
	})()`, browsertest.JSString(sel)), chromedp.EvalAwaitPromise)
	if len(xy) != 2 {
		p.Fail("%s is not on the screen to touch", sel)
	}
	return xy[0], xy[1]
}

// tapSel taps the middle of the element matching sel.
func tapSel(p *browsertest.Page, sel string) {
	p.T().Helper()
	x, y := centreOf(p, sel)
	touchTap(p, x, y)
}

// npShot saves what p shows (for a person to look at, see browsertest.LookShot) once
// the fade-ins of cards and dialogs are over.
func npShot(p *browsertest.Page, name string) {
	if os.Getenv("CHAGUAN_SHOTS") == "" {
		return
	}
	time.Sleep(500 * time.Millisecond)
	browsertest.LookShot(p, name)
}

// mouseTo moves the mouse to (x, y) without pressing a button.
func mouseTo(p *browsertest.Page, x, y float64) {
	p.T().Helper()
	p.Do(fmt.Sprintf("mouse to %.0f,%.0f", x, y), chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
}

// TestNewPlayerWeiqiEnd: a person plays a 9x9 game against the easy bot
// and asks to score, watched by three spectators (desk zh, phones en and
// zh). In scoring, every page says that the shading is a preview and that
// the count comes after the evolution, in its own language. When both
// approve, the room's end card (who won) appears on every page only once
// the evolution has reached its last generation, never while it plays.
func TestNewPlayerWeiqiEnd(t *testing.T) {
	t.Parallel() // its own server and pages
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	const limit = 60 * time.Second
	id := browsertest.CreateMatch(t, base, "weiqi", map[string]any{"numPlayers": 2, "setupData": map[string]any{"size": 9}, "bots": map[string]string{"1": "easy"}})

	ann := b.NewPage("desk-en")
	browsertest.SizePage(ann, 1280, 800, false)
	browsertest.SitIn(ann, base, "weiqi", id, "en")
	pages := []*browsertest.Page{ann}
	langs := map[*browsertest.Page]string{ann: "en"}
	for _, v := range npViews[1:] {
		p := v.open(b, false)
		p.Open(fmt.Sprintf("%s/m/weiqi/%s?lang=%s", base, id, v.lang))
		p.WaitJS("the board", `!!document.querySelector("canvas[data-board=weiqi]") && !!window.__chaguan`)
		pages = append(pages, p)
		langs[p] = v.lang
	}
	ann.WaitJS("the board", `!!document.querySelector("canvas[data-board=weiqi]") && `+browsertest.WeiqiG+`.size === 9`)

	// Two stones of Black's (the bot answers each), then Score.
	for _, pt := range [][2]int{{2, 2}, {6, 6}, {2, 6}, {6, 2}} {
		moves := browsertest.Eval[int](ann, browsertest.WeiqiG+`.moves.length`)
		if moves >= 4 {
			break
		}
		ann.WaitJSFor("my turn", fmt.Sprintf(`%s.toMove === "0" && %s.moves.length === %d`, browsertest.WeiqiG, browsertest.WeiqiG, moves), limit)
		if browsertest.Eval[string](ann, fmt.Sprintf(`%s.board[%d][%d]`, browsertest.WeiqiG, pt[1], pt[0])) != "." {
			continue
		}
		x, y := browsertest.WeiqiPoint(ann, pt[0], pt[1])
		ann.ClickXY(x, y)
		ann.WaitJSFor("the bot's answer", fmt.Sprintf(`%s.moves.length >= %d && %s.toMove === "0"`, browsertest.WeiqiG, moves+2, browsertest.WeiqiG), limit)
	}
	ann.Click(`[data-move="requestScoring"]`)

	// Scoring: the note says what happens to the count, on every page.
	notes := map[string][]string{
		"en": {"is a preview", "evolves for 5 generations", "counted then"},
		"zh": {"只是预览", "演化 5 代", "按演化后的局面计分"},
	}
	for _, p := range pages {
		p.WaitJSFor("scoring", browsertest.WeiqiG+`.phase === "scoring"`, limit)
		p.WaitJS("the note on the preview", `(() => { const e = document.querySelector(".wq-note"); return !!e && !e.hidden && e.getBoundingClientRect().height > 0; })()`)
		got := p.Text(".wq-note")
		for _, want := range notes[langs[p]] {
			if !strings.Contains(got, want) {
				p.Fail("the scoring note says %q, want it to say %q", got, want)
			}
		}
		p.Do("show the note", browsertest.EvalVoid(`document.querySelector(".wq-note").scrollIntoView({block: "center"})`))
		npShot(p, "np-weiqi-scoring-"+p.Name())
		// Watch when the end card appears, and which generations the
		// board shows.
		p.Do("watch the end", browsertest.EvalVoid(`(() => {
			window.__wqGens = [];
			window.__cardAt = null;
			const root = document.querySelector(".wq");
			new MutationObserver(() => { const g = root.dataset.gen; if (g && window.__wqGens[window.__wqGens.length - 1] !== g) window.__wqGens.push(g); })
				.observe(root, {attributes: true, attributeFilter: ["data-gen"]});
			new MutationObserver(() => {
				if (window.__cardAt || !document.querySelector(".gameover")) return;
				const r = document.querySelector(".wq");
				window.__cardAt = {gen: r.dataset.gen || "", evolving: r.dataset.evolving || "", status: document.querySelector(".wq-status").textContent};
			}).observe(document.body, {childList: true, subtree: true});
		})()`))
	}
	if browsertest.Eval[bool](ann, `!!document.querySelector(".gameover")`) {
		ann.Fail("an end card before the end")
	}

	// Approve until the game is over (the bot may mark stones or send the
	// game back to play: then score again).
	for i := 0; ; i++ {
		if i > 12 {
			ann.Fail("the game did not end by scoring")
		}
		ann.WaitJSFor("something to do", `(() => { const g = `+browsertest.WeiqiG+`;
			if (g.phase === "over" || g.result) return true;
			if (g.phase === "scoring") { const b = document.querySelector('[data-move="approve"]'); return !!b && !b.hidden && !b.disabled; }
			return g.toMove === "0" && g.scoringRequest == null && g.undoRequest == null;
		})()`, limit)
		phase := browsertest.Eval[string](ann, `window.__chaguan.latest.G.result ? "over" : `+browsertest.WeiqiG+`.phase`)
		if phase == "over" {
			break
		}
		stateID := browsertest.Eval[int](ann, `window.__chaguan.state.stateID`)
		if phase == "scoring" {
			ann.Click(`[data-move="approve"]`)
		} else {
			ann.Click(`[data-move="requestScoring"]`)
		}
		ann.WaitJSFor("the answer", fmt.Sprintf(`window.__chaguan.latest.stateID > %d`, stateID), limit)
	}
	ann.WaitJSFor("the end by scoring", `Array.isArray(window.__chaguan.latest.G.evolution)`, limit)

	for _, p := range pages {
		p.WaitJSFor("the end card", `!!window.__cardAt && !!document.querySelector(".gameover")`, limit)
		at := browsertest.Eval[map[string]string](p, `window.__cardAt`)
		gens := browsertest.Eval[[]string](p, `window.__wqGens`)
		if at["evolving"] != "0" || at["gen"] != "5" {
			p.Fail("the end card appeared at generation %q (evolving %q, status %q), want after the last generation, 5; generations shown %v", at["gen"], at["evolving"], at["status"], gens)
		}
		if len(gens) < 2 || gens[0] == "5" || gens[len(gens)-1] != "5" {
			p.Fail("the board showed generations %v, want the evolution played up to 5", gens)
		}
		p.WaitJS("the result in the panel", `(() => { const e = document.querySelector(".wq-result"); return !!e && !e.closest("[hidden]"); })()`)
		p.Do("top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
		npShot(p, "np-weiqi-end-"+p.Name())
		if p.Name() != "desk-en" {
			p.Do("show the card", browsertest.EvalVoid(`document.querySelector(".gameover").scrollIntoView({block: "center"})`))
			npShot(p, "np-weiqi-card-"+p.Name())
		}
		t.Logf("%s: card at %v after generations %v", p.Name(), at, gens)
		p.NoJSErrors()
	}
}

// ccFinishedGame opens a two-seat game of bots on every view and waits for
// its end and the final scoring.
func ccFinishedGame(t *testing.T, b *browsertest.Browser, base string, views []npView) map[string]*browsertest.Page {
	t.Helper()
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"0": "normal", "1": "easy"}})
	pages := map[string]*browsertest.Page{}
	for _, v := range views {
		p := v.open(b, true)
		p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, v.lang))
		pages[v.name] = p
	}
	for _, v := range views {
		p := pages[v.name]
		p.WaitJSFor("the end", `!!window.__chaguan && !!window.__chaguan.state.ctx.gameover && `+browsertest.CarcassonneG+`.phase === "over"`, 180*time.Second)
		p.WaitJS("the final scoring", `document.querySelectorAll(".cc-final:not([hidden]) .cc-breakdown li").length >= 2`)
	}
	return pages
}

// ccHighlit is a JS expression: the cells the board highlights, sorted,
// as "x,y" strings.
const ccHighlit = `[...document.querySelectorAll("svg[data-board=carcassonne] .cc-hl")].map((r) => [Math.round((Number(r.getAttribute("x")) - 2) / 100), Math.round((Number(r.getAttribute("y")) - 2) / 100)].join()).sort()`

// ccEntryCells is a JS expression for the cells of breakdown entry i.
func ccEntryCells(i int) string {
	return fmt.Sprintf(`(%s.final.breakdown[%d].cells || []).map((c) => c.join()).sort()`, browsertest.CarcassonneG, i)
}

// ccShowsEntry waits until the board highlights exactly entry i's cells
// (and the entry is marked), or nothing when i < 0.
func ccShowsEntry(p *browsertest.Page, i int, what string) {
	p.T().Helper()
	if i < 0 {
		p.WaitJS(what, `document.querySelectorAll(".cc-hl").length === 0 && !document.querySelector(".cc-breakdown li.pinned")`)
		return
	}
	p.WaitJS(what, fmt.Sprintf(`(() => {
		const want = %s, got = %s;
		const li = document.querySelector('.cc-breakdown li[data-entry="%d"]');
		return want.length > 0 && JSON.stringify(want) === JSON.stringify(got) && !!li && li.classList.contains("pinned") &&
			document.querySelectorAll(".cc-breakdown li.pinned").length === 1;
	})()`, ccEntryCells(i), ccHighlit, i))
}

// ccBoardInView reports whether the whole board is on the screen, below
// the top bar, with every highlighted cell inside the board's window.
const ccBoardInView = `(() => {
	const w = document.querySelector(".cc-boardwrap").getBoundingClientRect();
	const bar = document.querySelector(".topbar").getBoundingClientRect().bottom;
	if (w.top < bar - 1 || w.bottom > innerHeight + 1) return false;
	return [...document.querySelectorAll(".cc-hl")].every((e) => {
		const r = e.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
		return x > w.left && x < w.right && y > w.top && y < w.bottom;
	});
})()`

// TestNewPlayerCarcassonneBreakdown: at the end of a game, a tap on an
// entry of the final breakdown on a phone (the board above the list)
// brings the board into sight with the entry's cells lit, and they stay
// lit when the finger then touches the board, until the entry is tapped
// again or another one is. On a desk a click keeps them lit when the
// mouse goes to the board; hovering another entry shows it for a moment.
// The table's columns say "Seat N" / "N号座", not "#N". On a phone the
// zoom buttons lie outside the board.
func TestNewPlayerCarcassonneBreakdown(t *testing.T) {
	t.Parallel() // its own server and pages
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	pages := ccFinishedGame(t, b, base, npViews)
	second := 1

	for _, v := range npViews {
		p := pages[v.name]
		seat := map[string]string{"en": "Seat 2", "zh": "2号座"}[v.lang]
		if got := p.Text(`.cc-final th[data-final-seat="1"] .cc-seatno`); got != seat {
			p.Fail("the final table names seat 2 %q, want %q", got, seat)
		}
		if strings.Contains(p.Text(".cc-final thead"), "#") {
			p.Fail("the final table still numbers seats with #: %q", p.Text(".cc-final thead"))
		}
		if v.mobile {
			// The zoom buttons are under the board, not on it.
			if over := browsertest.Eval[bool](p, `(() => {
				const s = document.querySelector("svg[data-board=carcassonne]").getBoundingClientRect();
				return [...document.querySelectorAll(".cc-zoom-btn")].some((b) => { const r = b.getBoundingClientRect();
					return r.width === 0 || (r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top); });
			})()`); over {
				p.Fail("a zoom button lies over the board on a phone (or is not shown)")
			}
			// The list is below the board: out of sight once scrolled to.
			p.Do("show the list", browsertest.EvalVoid(`document.querySelector('.cc-breakdown li[data-entry="0"]').scrollIntoView({block: "center"})`))
			if browsertest.Eval[bool](p, ccBoardInView) {
				p.Fail("the board is in sight beside the breakdown on a phone: the test proves nothing")
			}
			tapSel(p, `.cc-breakdown li[data-entry="0"]`)
			ccShowsEntry(p, 0, "entry 0 lit after a tap")
			p.WaitJS("the board brought into sight", ccBoardInView)
			npShot(p, "np-cc-breakdown-"+v.name)
			// A touch on the board keeps it.
			sx, sy := centreOf(p, ".cc-boardwrap")
			touchTap(p, sx, sy)
			time.Sleep(300 * time.Millisecond) // what a stray clear would take
			ccShowsEntry(p, 0, "entry 0 still lit after a touch on the board")
			// The same entry again: off. Another one: that one.
			tapSel(p, `.cc-breakdown li[data-entry="0"]`)
			ccShowsEntry(p, -1, "nothing lit after a second tap")
			tapSel(p, `.cc-breakdown li[data-entry="0"]`)
			ccShowsEntry(p, 0, "entry 0 lit again")
			// Lighting an entry brings the board into sight: the next tap
			// is aimed once that scroll is over, or it lands elsewhere.
			p.WaitJS("the board brought into sight again", ccBoardInView)
			tapSel(p, fmt.Sprintf(`.cc-breakdown li[data-entry="%d"]`, second))
			ccShowsEntry(p, second, "the other entry lit")
		} else {
			p.Click(`.cc-breakdown li[data-entry="0"]`)
			ccShowsEntry(p, 0, "entry 0 lit after a click")
			p.WaitJS("the board in sight", ccBoardInView)
			sx, sy := centreOf(p, ".cc-boardwrap")
			mouseTo(p, sx, sy)
			time.Sleep(300 * time.Millisecond)
			ccShowsEntry(p, 0, "entry 0 still lit with the mouse on the board")
			npShot(p, "np-cc-breakdown-"+v.name)
			// Hovering another entry shows it while the mouse is there.
			hx, hy := centreOf(p, fmt.Sprintf(`.cc-breakdown li[data-entry="%d"]`, second))
			mouseTo(p, hx, hy)
			p.WaitJS("the hovered entry shown", fmt.Sprintf(`JSON.stringify(%s) === JSON.stringify(%s)`, ccHighlit, ccEntryCells(second)))
			mouseTo(p, sx, sy)
			ccShowsEntry(p, 0, "entry 0 back when the mouse leaves the other")
			p.Click(`.cc-breakdown li[data-entry="0"]`)
			ccShowsEntry(p, -1, "nothing lit after a second click")
			// The keyboard does the same.
			p.Do("focus an entry, Enter", browsertest.EvalVoid(`document.querySelector('.cc-breakdown li[data-entry="0"]').focus()`), chromedp.KeyEvent("\r"))
			ccShowsEntry(p, 0, "entry 0 lit by Enter")
		}
		p.NoJSErrors()
	}
}

// ccHint is the hint under the drawn tile.
func ccHint(p *browsertest.Page) string { return p.Text(".cc-tile-hint") }

// ccTexts are the hints under the drawn tile, by language.
var ccTexts = map[string]map[string]string{
	"en": {"pick": "Click a pink square on the board", "pickTouch": "Tap a pink square on the board",
		"rotate": "Click the tile or press R to turn it", "rotateTouch": "Tap the tile to turn it",
		"noFit":      "Turned like this the tile fits nowhere. Click a pink square: it turns to fit there.",
		"noFitTouch": "Turned like this the tile fits nowhere. Tap a pink square: it turns to fit there."},
	"zh": {"pick": "点击棋盘上的粉色格子", "pickTouch": "点一下棋盘上的粉色格子",
		"rotate": "点击板块或按 R 旋转", "rotateTouch": "点一下板块即可旋转",
		"noFit":      "当前方向哪里都放不下。点击粉色格子，板块会自动转到能放的方向。",
		"noFitTouch": "当前方向哪里都放不下。点一下粉色格子，板块会自动转到能放的方向。"},
}

// zoomOverBoard is a JS expression: a zoom button lies over the board (or
// is not shown).
const zoomOverBoard = `(() => {
	const s = document.querySelector("svg[data-board=carcassonne]").getBoundingClientRect();
	return [...document.querySelectorAll(".cc-zoom-btn")].some((b) => { const r = b.getBoundingClientRect();
		return r.width === 0 || (r.left < s.right && r.right > s.left && r.top < s.bottom && r.bottom > s.top); });
})()`

// TestNewPlayerCarcassonneHints: playing against the bot, the hints under
// the drawn tile speak of taps on a touch phone (no R key) and of clicks
// and R on a desk, in both languages; picking a square turns the tile to
// fit it; a tap or a click on the drawn tile turns it; on a phone the zoom
// buttons lie outside the board.
func TestNewPlayerCarcassonneHints(t *testing.T) {
	t.Parallel() // its own server and pages
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	for _, v := range npViews {
		p := v.open(b, true)
		touch := v.mobile
		tx := ccTexts[v.lang]
		id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
		browsertest.CarcassonneSit(p, base, id, v.lang, "Ann")
		tap := func(sel string) {
			if touch {
				tapSel(p, sel)
			} else {
				p.Click(sel)
			}
		}
		if touch && browsertest.Eval[bool](p, zoomOverBoard) {
			p.Fail("a zoom button lies over the board on a phone (or is not shown)")
		}
		for turn := 0; turn < 2; turn++ {
			browsertest.CarcassonneMyTurn(p, fmt.Sprintf("my turn %d", turn+1))
			if browsertest.Eval[bool](p, browsertest.CarcassonneG+`.phase === "over"`) {
				p.Fail("the game ended after %d turns", turn)
			}
			// Before a square is picked: the tap or click wording. A tap
			// or a click on the tile turns it a quarter.
			// (Or, when the tile as drawn fits nowhere, that picking a
			// square turns it to fit.)
			pick := map[bool]string{true: tx["pickTouch"], false: tx["pick"]}[touch]
			noFit := map[bool]string{true: tx["noFitTouch"], false: tx["noFit"]}[touch]
			p.WaitJS("the tile hint", fmt.Sprintf(`(() => {
				const e = document.querySelector(".cc-tile-hint"), r = Number(document.querySelector(".cc-tile-preview").dataset.rotation);
				const nowhere = `+browsertest.CarcassonneG+`.placements.every((p) => !p.rotations.includes(r));
				return !!e && e.textContent === (nowhere ? %s : %s);
			})()`, browsertest.JSString(noFit), browsertest.JSString(pick)))
			before := browsertest.Eval[string](p, `document.querySelector(".cc-tile-preview").dataset.rotation`)
			tap(".cc-tile-preview")
			p.WaitJS("the tile turned by a tap on it", fmt.Sprintf(`document.querySelector(".cc-tile-preview").dataset.rotation === String((%s + 90) %% 360)`, before))
			// Pick the square with the most rotations: the tile turns to
			// fit it, and the hint says how to turn it.
			cand := browsertest.Eval[[]int](p, `(() => {
				const g = `+browsertest.CarcassonneG+`, svg = document.querySelector("svg[data-board=carcassonne]");
				for (const pl of [...g.placements].sort((a, b) => b.rotations.length - a.rotations.length)) {
					const e = svg.querySelector('[data-cand="' + pl.x + ',' + pl.y + '"]');
					if (e && e.getBoundingClientRect().width >= 12) return [pl.x, pl.y, pl.rotations.length];
				}
				return [];
			})()`)
			if len(cand) != 3 {
				p.Fail("no square to pick")
			}
			cx, cy := browsertest.CarcassonneCentre(p, fmt.Sprintf(`[data-cand="%d,%d"]`, cand[0], cand[1]))
			if touch {
				touchTap(p, cx, cy)
			} else {
				p.ClickXY(cx, cy)
			}
			p.WaitJS("the square picked", fmt.Sprintf(`!!document.querySelector('[data-sel="%d,%d"]')`, cand[0], cand[1]))
			if !browsertest.Eval[bool](p, fmt.Sprintf(`(() => { const r = Number(document.querySelector(".cc-tile-preview").dataset.rotation);
				return `+browsertest.CarcassonneG+`.placements.some((p) => p.x === %d && p.y === %d && p.rotations.includes(r)); })()`, cand[0], cand[1])) {
				p.Fail("picking a square did not turn the tile to fit it")
			}
			want := map[bool]string{true: tx["rotateTouch"], false: tx["rotate"]}[touch]
			if got := ccHint(p); got != want {
				p.Fail("with a square picked the hint says %q, want %q", got, want)
			}
			if touch && strings.Contains(ccHint(p), "R") {
				p.Fail("a touch screen is told of the R key: %q", ccHint(p))
			}
			if turn == 0 {
				p.Do("show the tile", browsertest.EvalVoid(`document.querySelector(".cc-tilebox").scrollIntoView({block: "center"})`))
				npShot(p, "np-cc-hint-"+v.name)
			}
			if cand[2] > 1 {
				before := browsertest.Eval[string](p, `document.querySelector(".cc-tile-preview").dataset.rotation`)
				tap(".cc-tile-preview")
				p.WaitJS("the picked tile turned by a tap on it", fmt.Sprintf(`document.querySelector(".cc-tile-preview").dataset.rotation !== %q`, before))
			}
			n := browsertest.Eval[int](p, browsertest.CarcassonneG+`.board.length`)
			tap(`[data-action="place"]`)
			p.WaitJSFor("placed", fmt.Sprintf(`%s.board.length > %d`, browsertest.CarcassonneG, n), 30*time.Second)
			if browsertest.Eval[bool](p, browsertest.CarcassonneG+`.phase === "meeple" && `+browsertest.CarcassonneG+`.current === 0`) {
				tap(`[data-action="skip"]`)
				p.WaitJSFor("the meeple step over", browsertest.CarcassonneG+`.phase !== "meeple" || `+browsertest.CarcassonneG+`.current !== 0`, 30*time.Second)
			}
		}
		if touch {
			p.Do("top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
			npShot(p, "np-cc-play-"+v.name)
		}
		p.NoJSErrors()
	}
}

// TestNewPlayerCarcassonneNoFitHint: the plugin, mounted for seat 0 on a
// turn whose tile, turned as drawn, fits no highlighted square (the one
// square takes it turned a quarter): the hint says it fits nowhere turned
// like this and that picking a square turns it to fit; a click or a tap
// on the square does turn it, and the hint then says how to turn it. At
// every size, in both languages, by mouse and by touch.
func TestNewPlayerCarcassonneNoFitHint(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	for _, v := range npViews {
		p := v.open(b, true)
		touch := v.mobile
		tx := ccTexts[v.lang]
		p.Open(fmt.Sprintf("%s/?lang=%s", base, v.lang))
		p.Do("mount the plugin on a turn that fits nowhere as drawn", browsertest.EvalVoid(`(async () => {
			const i18n = await import("/assets/js/i18n.js");
			const mod = (await import("/assets/games/carcassonne.js")).default;
			i18n.merge(mod.strings);
			document.querySelector("#view").replaceChildren();
			const el = document.createElement("div");
			el.className = "plugin-area";
			document.querySelector("#view").appendChild(el);
			const api = { you: "0", lang: i18n.lang, t: i18n.t, move: () => new Promise(() => {}), onLangChange: () => {} };
			const ctrl = mod.mount(el, api);
			const G = { phase: "tile", current: 0, numPlayers: 2, tile: "D", tilesLeft: 70, turn: 1,
				board: [{ x: 0, y: 0, type: "D", rotation: 0 }], placements: [{ x: 1, y: 0, rotations: [90] }],
				scores: [0, 0], meeplesLeft: [7, 7], meeples: [], events: [] };
			ctrl.update({ matchID: "x", stateID: 2, G, ctx: { started: true, gameover: null, currentPlayer: "0" },
				players: [{ name: "Ann" }, { name: "Bob" }], log: [], you: "0" }, { behind: 0, sync: true });
			window.__npMounted = true;
		})()`))
		p.WaitJS("the plugin", `window.__npMounted === true && !!document.querySelector('.cc-cand[data-cand="1,0"]')`)
		want := map[bool]string{true: tx["noFitTouch"], false: tx["noFit"]}[touch]
		// A touch screen is known by its kind before any touch.
		if got := ccHint(p); got != want {
			p.Fail("the hint says %q, want %q", got, want)
		}
		if got := browsertest.Eval[string](p, `document.querySelector(".cc-tile-preview").dataset.rotation`); got != "0" {
			p.Fail("the tile is shown turned %s°, not as drawn", got)
		}
		p.Do("show the tile", browsertest.EvalVoid(`document.querySelector(".cc-tilebox").scrollIntoView({block: "center"})`))
		npShot(p, "np-cc-nofit-"+v.name)
		cx, cy := browsertest.CarcassonneCentre(p, `.cc-cand[data-cand="1,0"]`)
		if touch {
			touchTap(p, cx, cy)
		} else {
			p.ClickXY(cx, cy)
		}
		p.WaitJS("the square picked, the tile turned to fit", `!!document.querySelector('[data-sel="1,0"]') && document.querySelector(".cc-tile-preview").dataset.rotation === "90"`)
		rot := map[bool]string{true: tx["rotateTouch"], false: tx["rotate"]}[touch]
		if got := ccHint(p); got != rot {
			p.Fail("with the square picked the hint says %q, want %q", got, rot)
		}
		p.NoJSErrors()
	}
}

// TestNewPlayerReplayUnknownMatch: the replay of a match that does not
// exist says so in the page's language (no server English on a Chinese
// page), and links to the lobby, not to the missing match. A language
// switch on that page redraws it.
func TestNewPlayerReplayUnknownMatch(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	want := map[string][3]string{
		"en": {"No replay for this match", "This match does not exist or has expired.", "Back to the lobby"},
		"zh": {"此对局无法复盘", "对局不存在或已过期。", "返回大厅"},
	}
	for _, v := range npViews {
		p := v.open(b, false)
		p.Open(fmt.Sprintf("%s/m/weiqi/nosuchmatch/replay?lang=%s", base, v.lang))
		w := want[v.lang]
		p.WaitText("#view h1", w[0])
		p.WaitText("#view .replay-error p", w[1])
		links := browsertest.Eval[[]string](p, `[...document.querySelectorAll("#view a")].map((a) => a.getAttribute("href") + "|" + a.textContent)`)
		if len(links) != 1 || links[0] != "/|"+w[2] {
			p.Fail("the page links %v, want only the lobby (%q)", links, w[2])
		}
		if txt := p.Text("#view"); strings.Contains(txt, "no such match") || strings.Contains(txt, "not_found") {
			p.Fail("the page shows the server's words: %q", txt)
		}
		npShot(p, "np-replay-missing-"+v.name)
		other := map[string]string{"en": "zh", "zh": "en"}[v.lang]
		p.Click("#lang-" + other)
		p.WaitText("#view h1", want[other][0])
		p.WaitText("#view .replay-error p", want[other][1])
		p.Click(`#view a[href="/"]`)
		p.WaitJS("the lobby", `location.pathname === "/" && !!document.querySelector(".game-card")`)
		p.NoJSErrors()
	}
}

// npSeal is the computed colour of the seal red (--seal, #b8322a).
const npSeal = "rgb(184, 50, 42)"

// TestNewPlayerEndCardAndResign: on each view a person plays gomoku
// against the easy bot; the bot's chip shows its whole name; Resign asks
// in a red (danger) dialog whose Cancel has the focus; once resigned, the
// end card gives the winner's name and "wins!" whole lines, its buttons a
// line of their own.
func TestNewPlayerEndCardAndResign(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	botName := map[string]string{"en": "Bot (easy)\u00a02", "zh": "机器人（简单）\u20602号"}
	wins := map[string]string{"en": "wins!", "zh": "获胜！"}
	for _, v := range npViews {
		p := v.open(b, false)
		id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
		browsertest.SitIn(p, base, "gomoku", id, v.lang)
		p.WaitJS("the chips", `document.querySelectorAll(".gomoku-player").length === 2`)
		// The bot's chip: the whole name, on the screen.
		chip := browsertest.Eval[[]any](p, `(() => {
			const n = document.querySelectorAll(".gomoku-pname")[1], r = n.getBoundingClientRect();
			return [n.textContent, n.scrollWidth <= n.clientWidth + 1, r.left >= 0 && r.right <= innerWidth];
		})()`)
		if len(chip) != 3 || chip[0] != botName[v.lang] || chip[1] != true || chip[2] != true {
			p.Fail("the bot's chip %v, want %q whole and on the screen", chip, botName[v.lang])
		}
		p.Do("top", browsertest.EvalVoid(`window.scrollTo(0, 0)`))
		npShot(p, "np-gomoku-chips-"+v.name)

		// Resign: a red confirm, Cancel focused.
		p.Click(`[data-move="resign"]`)
		p.WaitJS("the dialog", `!!document.querySelector('.dialog [data-confirm="ok"]')`)
		dlg := browsertest.Eval[[]string](p, `(() => {
			const ok = document.querySelector('.dialog [data-confirm="ok"]'), cs = getComputedStyle(ok);
			return [ok.className, cs.backgroundColor, document.activeElement ? document.activeElement.dataset.confirm || "" : "", document.querySelector(".dialog").dataset.kind];
		})()`)
		if !strings.Contains(dlg[0], "danger") || strings.Contains(dlg[0], "primary") || dlg[1] != npSeal || dlg[2] != "cancel" || dlg[3] != "danger" {
			p.Fail("the resign confirm: class %q background %q focus %q kind %q; want a seal-red danger button (%s), Cancel focused", dlg[0], dlg[1], dlg[2], dlg[3], npSeal)
		}
		npShot(p, "np-resign-dialog-"+v.name)
		p.Click(`[data-confirm="ok"]`)
		p.WaitJSFor("the end card", `!!document.querySelector(".gameover .result")`, 30*time.Second)
		want := botName[v.lang] + " " + wins[v.lang]
		if got := p.Text(".gameover .result"); got != want {
			p.Fail("the end card says %q, want %q", got, want)
		}
		// The name on one line, "wins!" on one line, two lines at most,
		// and the buttons below the words.
		lay := browsertest.Eval[[]float64](p, fmt.Sprintf(`(() => {
			const e = document.querySelector(".gameover .result"), text = e.firstChild;
			const lines = (from, to) => { const r = document.createRange(); r.setStart(text, from); r.setEnd(text, to);
				return new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size; };
			const s = text.textContent, name = %s;
			const lh = parseFloat(getComputedStyle(e).lineHeight);
			const words = e.parentElement.getBoundingClientRect(), row = document.querySelector(".gameover > .row").getBoundingClientRect();
			return [lines(0, name.length), lines(s.length - %d, s.length), Math.round(e.getBoundingClientRect().height / lh), e.getBoundingClientRect().width, row.top >= words.bottom - 1 ? 1 : 0];
		})()`, browsertest.JSString(botName[v.lang]), len([]rune(wins[v.lang]))))
		if lay[0] != 1 || lay[1] != 1 || lay[2] > 2 || lay[4] != 1 {
			p.Fail("the end card's result: name on %v lines, %q on %v lines, %v lines in all, %vpx wide, buttons below: %v; want 1, 1, at most 2, below", lay[0], wins[v.lang], lay[1], lay[2], lay[3], lay[4] == 1)
		}
		p.Do("show the card", browsertest.EvalVoid(`document.querySelector(".gameover").scrollIntoView({block: "center"})`))
		npShot(p, "np-endcard-"+v.name)
		t.Logf("%s: result %v lines, %.0fpx wide", v.name, lay[2], lay[3])
		p.NoJSErrors()
	}
}

// waitNoGesture waits until expr is true on p, evaluating it as the page's
// own script would (WaitJS's polls run as user gestures, which would let
// audio start).
func waitNoGesture(p *browsertest.Page, what, expr string, limit time.Duration) {
	p.T().Helper()
	deadline := time.Now().Add(limit)
	for !browsertest.Eval[bool](p, expr) {
		if time.Now().After(deadline) {
			p.Fail("waiting for %s (%s): timed out", what, expr)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// TestNewPlayerSpectatorAudio: a spectator's page watching two bots makes
// no AudioContext (and the browser logs no warning about one) before the
// person touches the page; their first click makes it, running, and the
// sounds after it play. A context started without a gesture in a fresh
// page does log the warning: the watch for it works.
func TestNewPlayerSpectatorAudio(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	// countAudio counts the AudioContexts a page makes.
	const countAudio = `(() => {
		const A = window.AudioContext;
		if (!A) return;
		window.__acMade = 0;
		window.AudioContext = class extends A { constructor(...a) { super(...a); window.__acMade++; window.__ac = this; } };
	})()`
	// watch records the console's and the browser log's warnings about
	// audio on p.
	watch := func(p *browsertest.Page) func() []string {
		var mu sync.Mutex
		var seen []string
		err := chromedp.Listen(p.Context(), func(ev any) {
			var text string
			var args []*runtime.RemoteObject
			switch e := ev.(type) {
			case *cdplog.EventEntryAdded:
				text = e.Entry.Text
			case cdplog.EventEntryAdded:
				text = e.Entry.Text
			case *runtime.EventConsoleAPICalled:
				args = e.Args
			case runtime.EventConsoleAPICalled:
				args = e.Args
			}
			for _, a := range args {
				text += " " + string(a.Value) + a.Description
			}
			if strings.Contains(text, "AudioContext") {
				mu.Lock()
				seen = append(seen, text)
				mu.Unlock()
			}
		})
		if err != nil {
			p.Fail("listen: %v", err)
		}
		p.Do("count AudioContexts", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
			_, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countAudio})
			return err
		}))
		return func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), seen...) }
	}

	for _, v := range []npView{npViews[0], npViews[3]} {
		// The bots pause between moves as on a live server: with the test
		// server's default of no pause they could play the whole game the
		// moment the page connects, and a page catching up on a backlog
		// sounds only the end (attention.js), not the three the wait needs.
		id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "botDelayMs": 300, "bots": map[string]string{"0": "easy", "1": "easy"}})
		p := v.open(b, false)
		warnings := watch(p)
		p.Open(fmt.Sprintf("%s/m/gomoku/%s?lang=%s", base, id, v.lang))
		// Wait without WaitJS: its polls count as user gestures.
		waitNoGesture(p, "sounds while watching", `(window.__chaguanSounds || []).filter((s) => !s.muted).length >= 3`, 60*time.Second)
		if active := browsertest.Eval[bool](p, `navigator.userActivation.hasBeenActive`); active {
			p.Fail("the page counts as touched before the test touched it: the check proves nothing")
		}
		if made := browsertest.Eval[int](p, `window.__acMade`); made != 0 {
			p.Fail("the page made %d AudioContexts before any gesture", made)
		}
		time.Sleep(300 * time.Millisecond) // let a warning arrive, were there one
		if w := warnings(); len(w) > 0 {
			p.Fail("audio warnings before any gesture: %q", w)
		}
		// The first click makes the context, running; later sounds play.
		x, y := centreOf(p, ".room-title")
		p.ClickXY(x, y)
		p.WaitJS("one running AudioContext", `window.__acMade === 1 && window.__ac.state === "running"`)
		if w := warnings(); len(w) > 0 {
			p.Fail("audio warnings after the click: %q", w)
		}
		p.NoJSErrors()
	}

	// The watch sees the warning when there is one.
	q := b.NewPage("control")
	warnings := watch(q)
	q.Open(base + "/?lang=en")
	q.Do("a context without a gesture", browsertest.EvalVoid(`new AudioContext().resume().catch(() => {})`))
	deadline := time.Now().Add(10 * time.Second)
	for len(warnings()) == 0 && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if len(warnings()) == 0 {
		q.Fail("no warning for an AudioContext made without a gesture: the watch would miss one")
	}
}
