package newplayer_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// TestNotFoundAndBackToLobby: a mistyped path shows the app's own not-found
// page with a way to the lobby, API paths keep their JSON errors, and a
// match page has a "back to the lobby" control.
func TestNotFoundAndBackToLobby(t *testing.T) {
	base := browsertest.StartServer(t)
	resp, err := http.Get(base + "/games/gomoku/nosuchmatch")
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&body)
	resp.Body.Close()
	if resp.StatusCode != 404 || body["error"] == nil {
		t.Fatalf("API 404: status %d body %v, want a JSON error", resp.StatusCode, body)
	}

	b := browsertest.Start(t)
	p := b.NewPage("ann")
	for _, tc := range []struct{ lang, title, back string }{{"en", "Page not found", "Back to the lobby"}, {"zh", "页面不存在", "返回大厅"}} {
		p.Open(base + "/no/such/page?lang=" + tc.lang)
		p.WaitText("#view h1", tc.title)
		p.WaitText("#view a.btn", tc.back)
		if got := p.Text("body"); strings.Contains(got, `"error"`) {
			p.Fail("the not-found page shows JSON: %s", got)
		}
	}
	p.Click(`#view a.btn`)
	p.WaitJS("the lobby", `location.pathname === "/" && !!document.querySelector(".game-card")`)

	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2})
	p.Open(fmt.Sprintf("%s/m/gomoku/%s?lang=en", base, id))
	p.WaitText(`[data-action="back-lobby"]`, "Back to the lobby")
	p.Click(`[data-action="back-lobby"]`)
	p.WaitJS("the lobby", `location.pathname === "/" && !!document.querySelector(".game-card")`)
	p.NoJSErrors()
}

// TestCreateFormFillsBots: Gong Zhu's form starts at four players; one
// click puts a bot of a level in every empty seat whatever the table size;
// the bots are then told apart by seat number in the room; and "open
// matches" lists only matches with a free seat.
func TestCreateFormFillsBots(t *testing.T) {
	base := browsertest.StartServer(t)
	full := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
	if resp, err := http.Post(base+"/games/gomoku/"+full+"/join", "application/json", strings.NewReader(`{"playerName":"Bo","playerID":"0"}`)); err != nil || resp.StatusCode != 200 {
		t.Fatalf("join the full match: %v %v", resp, err)
	}
	open := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2})

	b := browsertest.Start(t)
	p := b.NewPage("ann")
	p.Open(base + "/?lang=en")
	p.WaitJS("the open gomoku match", fmt.Sprintf(`!!document.querySelector('.game-card[data-game="gomoku"] [data-match=%q]')`, open))
	if n := browsertest.Eval[int](p, fmt.Sprintf(`document.querySelectorAll('[data-match=%q]').length`, full)); n != 0 {
		p.Fail("the full match %s is listed as open", full)
	}
	p.Type("#name-input", "Ann")

	p.Click(`.game-card[data-game="gongzhu"] [data-action="new"]`)
	if got := browsertest.Eval[string](p, `document.querySelector('[data-create="gongzhu"] select[name="numPlayers"]').value`); got != "4" {
		p.Fail("Gong Zhu's form starts at %s players, want 4", got)
	}
	p.Click(`.game-card[data-game="gongzhu"] [data-action="new"]`) // close it

	p.Click(`.game-card[data-game="threemonks"] [data-action="new"]`)
	form := `[data-create="threemonks"]`
	p.Do("eight monks", browsertest.SetSelect(form+` select[name="numPlayers"]`, "8"))
	p.Click(form + ` [data-fill="easy"]`)
	got := browsertest.Eval[[]string](p, `[...document.querySelectorAll('[data-create="threemonks"] select[data-seat]')].map((s) => s.value)`)
	if len(got) != 7 || strings.Join(got, ",") != strings.Repeat("easy,", 6)+"easy" {
		p.Fail("after one click the seats are %v, want seven easy bots", got)
	}
	p.Click(form + ` [data-action="create"]`)
	p.WaitJS("the room, started", `location.pathname.startsWith("/m/threemonks/") && window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
	p.WaitJS("the seats named by number", `(() => {
		const names = [...document.querySelectorAll(".seats .seat-name")].map((e) => e.textContent.replace(/\u00a0/g, " "));
		return names.length === 8 && names.slice(1).every((n, i) => n === "Bot (easy) " + (i + 2));
	})()`)
	// A name is never cut where its seat number would go.
	p.WaitJSFor("no cut bot name", `[...document.querySelectorAll(".seat-name")].every((e) => e.scrollWidth <= e.clientWidth + 1)`, 5*time.Second)
	p.Click(`#lang-zh`)
	p.WaitJS("Chinese bot names", `document.querySelector(".seats").textContent.replace(/\u2060/g, "").includes("机器人（简单）8号")`)
	p.NoJSErrors()
}

// TestGongzhuIllegalCardSaysWhy: clicking a card the rules forbid shows the
// server's reason in the page's language, instead of doing nothing.
func TestGongzhuIllegalCardSaysWhy(t *testing.T) {
	srv := browsertest.StartGongzhuServer(t, 0)
	id := browsertest.CreateGongzhu(t, srv.URL, 4)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	browsertest.SitGongzhu(p, srv.URL, id, "安", "zh")
	for i := 0; i < 13; i++ {
		p.WaitJS("my turn", browsertest.GongzhuMyTurnToPlay)
		p.WaitJS("the hand at rest", browsertest.GongzhuHandAtRest)
		code, x, y := browsertest.GongzhuCardPoint(p, ".gz-hand.turn .gz-card:not(.legal)")
		if code == "" || x < 0 {
			browsertest.PlayCard(p, i+1)
			continue
		}
		p.ClickXY(x, y)
		p.WaitJS("the reason, in Chinese", `[...document.querySelectorAll("#toasts .toast.error")].some((e) => /必须/.test(e.textContent))`)
		if browsertest.Eval[bool](p, fmt.Sprintf(`!%s.players["0"].hand.includes(%q)`, browsertest.GongzhuG, code)) {
			p.Fail("the illegal card %s left the hand", code)
		}
		p.NoJSErrors()
		return
	}
	t.Skip("no illegal card came up in a whole round")
}

// TestGomokuFeedback: the first touch tap says "tap again to place"; an
// accepted undo is announced; a win is green and a loss red; the end card
// does not push the board down.
func TestGomokuFeedback(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann, bob := b.NewPage("ann"), b.NewPage("bob")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	bob.Open(invite + "?lang=en")
	bob.Type(`[data-field="name"]`, "Bob")
	bob.Click(`[data-action="sit"][data-seat="1"]`)
	ann.WaitText(".gomoku-status", "Your turn (Black)")

	// A touch tap arms the point and says so; it does not place.
	x, y := browsertest.GomokuPoint(ann, 3, 7)
	ann.Do("touch tap", browsertest.EvalVoid(fmt.Sprintf(`document.querySelector("canvas[data-board=gomoku]").dispatchEvent(new PointerEvent("pointerup", {pointerType: "touch", clientX: %f, clientY: %f, bubbles: true}))`, x, y)))
	ann.WaitText(".gomoku-status", "Tap again to place")
	if n := browsertest.Eval[int](ann, `window.__chaguan.state.G.moves.length`); n != 0 {
		ann.Fail("the first tap placed a stone")
	}

	browsertest.PlaceStone(ann, 0, 3, 7)
	browsertest.PlaceStone(bob, 1, 3, 8)
	// Bob asks to take his stone back; Ann accepts; both are told.
	bob.Click(`[data-move="requestUndo"]`)
	ann.Click(`[data-move="accept-undo"]`)
	bob.WaitJS("undo accepted, said to Bob", `[...document.querySelectorAll("#toasts .toast")].some((e) => e.textContent.includes("Undo accepted"))`)
	ann.WaitJS("undo accepted, said to Ann", `[...document.querySelectorAll("#toasts .toast")].some((e) => e.textContent.includes("You accepted the undo"))`)
	bob.WaitJS("one move left", browsertest.GomokuMovesIs(1))

	for i := 0; i < 4; i++ {
		if i > 0 {
			browsertest.PlaceStone(ann, 2*i, 3+i, 7)
		}
		browsertest.PlaceStone(bob, 2*i+1, 3+i, 8)
	}
	top := browsertest.Eval[float64](ann, `document.querySelector("canvas[data-board=gomoku]").getBoundingClientRect().top + scrollY`)
	browsertest.PlaceStone(ann, 8, 7, 7)
	ann.WaitText(".gameover .result", "Ann wins!")
	bob.WaitText(".gameover .result", "Ann wins!")
	bg := func(p *browsertest.Page) string {
		return browsertest.Eval[string](p, `getComputedStyle(document.querySelector(".gomoku-status")).backgroundColor`)
	}
	win, loss := bg(ann), bg(bob)
	// jade #2e8b6a-ish for the winner, seal red for the loser.
	if win == loss || !strings.HasPrefix(win, "rgb(") {
		ann.Fail("win %s and loss %s look alike", win, loss)
	}
	if browsertest.Eval[bool](ann, `document.querySelector(".gomoku-status").classList.contains("win")`) != true ||
		browsertest.Eval[bool](bob, `document.querySelector(".gomoku-status").classList.contains("loss")`) != true {
		ann.Fail("the status bars lack their win / loss classes")
	}
	if after := browsertest.Eval[float64](ann, `document.querySelector("canvas[data-board=gomoku]").getBoundingClientRect().top + scrollY`); after != top {
		ann.Fail("the end card moved the board from %v to %v", top, after)
	}
	ann.NoJSErrors()
	bob.NoJSErrors()
}

// TestFit: at 1280x800 the Gomoku board with its buttons, the Three Monks
// table with your cards (the log beside it) and the Gong Zhu round result
// fit without scrolling; on a 390 px phone the Gong Zhu hand stays inside
// the screen and the page is not wider than it.
func TestFit(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	for _, lang := range []string{"en", "zh"} {
		p := b.NewPage("laptop-" + lang)
		browsertest.SizePage(p, 1280, 800, false)
		bottom := func(sel string) float64 {
			return browsertest.Eval[float64](p, fmt.Sprintf(`(() => { scrollTo(0, 0); const e = document.querySelector(%s); return e ? e.getBoundingClientRect().bottom : 1e9; })()`, browsertest.JSString(sel)))
		}
		id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
		browsertest.SitIn(p, base, "gomoku", id, lang)
		p.WaitJS("the buttons", `!!document.querySelector('[data-move="resign"]')`)
		time.Sleep(300 * time.Millisecond) // the board's resize observer
		if y := bottom(`[data-move="resign"]`); y > 800 {
			p.Fail("gomoku: Resign ends at y=%v, below the 800 px screen", y)
		}

		id = browsertest.CreateMatch(t, base, "threemonks", map[string]any{"numPlayers": 5, "bots": map[string]string{"1": "easy", "2": "easy", "3": "easy", "4": "easy"}})
		browsertest.SitIn(p, base, "threemonks", id, lang)
		p.WaitJS("the hand", `!!document.querySelector(".tm-hand .tm-card")`)
		if y := bottom(".tm-hand .tm-card"); y > 800 {
			p.Fail("threemonks: your cards end at y=%v, below the 800 px screen", y)
		}
		if !browsertest.Eval[bool](p, `(() => { const l = document.querySelector(".tm-side").getBoundingClientRect(), tb = document.querySelector(".tm-table").getBoundingClientRect(); return l.left >= tb.right - 1 && l.top < tb.bottom; })()`) {
			p.Fail("threemonks: the log is not beside the table")
		}

		id = browsertest.CreateGongzhu(t, base, 4)
		browsertest.SitIn(p, base, "gongzhu", id, lang)
		p.WaitJS("the result", `!!document.querySelector("[data-result=gongzhu]")`)
		if y := bottom("[data-result=gongzhu]"); y > 800 {
			p.Fail("gongzhu: the round result ends at y=%v, below the 800 px screen", y)
		}
		if n := browsertest.Eval[int](p, `document.querySelectorAll("[data-counter]").length`); n != 1 {
			p.Fail("gongzhu: the round/trick counter shows %d times", n)
		}
		if !browsertest.Eval[bool](p, `(() => { const e = document.querySelector("[data-counter]"); return e.getClientRects().length === 1; })()`) {
			p.Fail("gongzhu: the round/trick counter wraps")
		}
		p.NoJSErrors()

		ph := b.NewPage("phone-" + lang)
		browsertest.SizePage(ph, 390, 844, true)
		id = browsertest.CreateGongzhu(t, base, 4)
		browsertest.SitIn(ph, base, "gongzhu", id, lang)
		ph.WaitJS("the hand", `document.querySelectorAll(".gz-hand .gz-card").length === 13`)
		ph.WaitJS("the hand dealt and at rest", browsertest.GongzhuHandAtRest)
		if w := browsertest.Eval[float64](ph, `document.documentElement.scrollWidth`); w > 390 {
			ph.Fail("gongzhu on a phone: the page is %v px wide", w)
		}
		// Bots play at once, so the hand may be moving again (its turn's
		// raise, a redraw): the fan must come to rest inside the screen.
		ph.WaitJS("the hand fan at rest inside the screen", browsertest.GongzhuHandAtRest+
			` && [...document.querySelectorAll(".gz-hand .gz-card")].every((c) => { const r = c.getBoundingClientRect(); return r.left >= 0 && r.right <= 390; })`)
		ph.NoJSErrors()
	}
}

// TestThreeMonksItemCard: on a phone, a tap on an item opens a card with
// its rule, in the page's language; a tap elsewhere closes it.
func TestThreeMonksItemCard(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	p := b.NewPage("phone")
	browsertest.SizePage(p, 390, 844, true)
	id := browsertest.CreateMatch(t, base, "threemonks", map[string]any{"numPlayers": 3, "bots": map[string]string{"1": "easy", "2": "easy"}})
	browsertest.SitIn(p, base, "threemonks", id, "zh")
	p.WaitJS("items", `!!document.querySelector('.tm-monk[data-monk="1"] [data-item]')`)
	kind := browsertest.Eval[string](p, `document.querySelector('.tm-monk[data-monk="1"] [data-item]').dataset.item`)
	p.Click(`.tm-monk[data-monk="1"] [data-item]`)
	p.WaitJS("the item card", fmt.Sprintf(`(() => {
		const c = document.querySelector("[data-item-info]");
		if (!c || c.hidden) return false;
		const r = c.getBoundingClientRect();
		return r.top >= 0 && r.bottom <= innerHeight && !!c.querySelector('[data-item-rule=%q]') && /[\u4e00-\u9fff]/.test(c.textContent);
	})()`, kind))
	p.Click(`.tm-status`)
	p.WaitJS("closed", `document.querySelector("[data-item-info]").hidden`)
	p.NoJSErrors()
}

// TestGongzhuHistory: the last trick can be reviewed, and the 榜 keeps every
// finished round's scores, summing to the totals.
func TestGongzhuHistory(t *testing.T) {
	// Bots at 0 ms with autoplay flood the page with states; 40 ms a card
	// still plays a round in a few seconds.
	srv := browsertest.StartGongzhuServer(t, 40*time.Millisecond)
	id := browsertest.CreateGongzhu(t, srv.URL, 4)
	b := browsertest.Start(t)
	p := b.NewPage("ann")
	browsertest.SitGongzhu(p, srv.URL, id, "Ann", "en")
	p.Click(`[data-action="last-trick"]`) // disabled before the first trick: nothing happens
	if browsertest.Eval[bool](p, `!document.querySelector("[data-last-trick]").hidden`) {
		p.Fail("a last trick shows before any trick was played")
	}
	// Let the bot play for Ann: rounds go by at the bots' speed.
	p.Click(`[data-action="autoplay"]`)
	p.WaitJSFor("two rounds in the 榜", `!!document.querySelector('[data-round-row="1"]') && !!document.querySelector('[data-round-row="2"]')`, 90*time.Second)
	p.Do("autoplay off", browsertest.EvalVoid(`document.querySelector('[data-action="autoplay"]').click()`))
	p.WaitJS("autoplay off", `!window.__chaguan.state.players[0].autoplay`)
	ok := browsertest.Eval[bool](p, `(() => {
		const rows = [...document.querySelectorAll("[data-rounds] tbody tr")].map((tr) => [...tr.children].slice(1).map((td) => Number(td.textContent)));
		const tot = [...document.querySelectorAll("[data-rounds] tfoot td")].slice(1).map((td) => Number(td.textContent));
		return rows.length >= 2 && tot.every((v, s) => rows.reduce((a, r) => a + r[s], 0) === v);
	})()`)
	if !ok {
		p.Fail("the round-by-round 榜 does not add up to the totals")
	}
	p.WaitJS("a trick to review", `!document.querySelector('[data-action="last-trick"]').disabled`)
	p.Click(`[data-action="last-trick"]`)
	p.WaitJS("the last trick", `(() => { const e = document.querySelector("[data-last-trick]"); return !e.hidden && e.querySelectorAll(".gz-card").length === 4 && e.textContent.includes("took it"); })()`)
	p.Click(`[data-last-trick]`)
	p.WaitJS("closed", `document.querySelector("[data-last-trick]").hidden`)
	p.NoJSErrors()
}
