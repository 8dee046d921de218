package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// gomokuPoint returns the viewport coordinates of board point (x, y) of the
// gomoku canvas on p, after scrolling it into view. It mirrors the plugin's
// layout: cell = width / (n - 1 + 2.2), margin = 1.1 cell.
func gomokuPoint(p *Page, x, y int) (float64, float64) {
	p.t.Helper()
	xy := Eval[[]float64](p, fmt.Sprintf(`(() => {
		const c = document.querySelector("canvas[data-board=gomoku]");
		c.scrollIntoView({block: "center"});
		const r = c.getBoundingClientRect();
		const cell = r.width / (15 - 1 + 2.2), pad = cell * 1.1;
		return [r.left + pad + %d * cell, r.top + pad + %d * cell];
	})()`, x, y))
	if len(xy) != 2 {
		p.Fail("board point %d,%d: got %v", x, y, xy)
	}
	return xy[0], xy[1]
}

// movesIs is a JS condition: the page's latest state has n moves.
func movesIs(n int) string {
	return fmt.Sprintf(`window.__chaguan && window.__chaguan.state && window.__chaguan.state.G.moves.length === %d`, n)
}

// place waits until it is p's turn after n moves, clicks (x, y) on the
// canvas and waits for a state with more than n moves (a bot with no delay
// may already have answered).
func place(p *Page, n, x, y int) {
	p.t.Helper()
	p.WaitJS(fmt.Sprintf("my turn after %d moves", n), movesIs(n)+` && window.__chaguan.state.G.toMove === window.__chaguan.you`)
	landed := fmt.Sprintf(`window.__chaguan.state.G.moves.length > %d && window.__chaguan.state.G.board[%d][%d] !== "."`, n, y, x)
	// A click that lands while the page redraws the board (a state, a
	// seat's clock) can be lost on a loaded machine: click again, up to
	// three times, before waiting the full time.
	for try := 0; try < 3; try++ {
		cx, cy := gomokuPoint(p, x, y)
		p.ClickXY(cx, cy)
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if Eval[bool](p, landed) {
				return
			}
		}
	}
	p.WaitJS(fmt.Sprintf("move %d at %d,%d", n+1, x, y), landed)
}

// createGomoku makes a gomoku match from p's lobby as name, in English, and
// waits for the room; it returns the invite link shown in the room.
func createGomoku(p *Page, base, name string) string {
	p.t.Helper()
	return createGomokuIn(p, base, name, "en")
}

// createGomokuIn is createGomoku in language lang ("en" or "zh").
func createGomokuIn(p *Page, base, name, lang string) string {
	p.t.Helper()
	p.Open(base + "/?lang=" + lang)
	p.Type("#name-input", name)
	p.Click(`.game-card[data-game="gomoku"] [data-action="new"]`)
	p.Click(`form[data-create="gomoku"] [data-action="create"]`)
	p.WaitJS("the room", `location.pathname.startsWith("/m/gomoku/") && !!window.__chaguan && window.__chaguan.you === "0"`)
	p.WaitText(".room-title", map[string]string{"en": "Gomoku", "zh": "五子棋"}[lang])
	invite := Eval[string](p, `document.querySelector("[data-field=invite]").value`)
	if want := Eval[string](p, `location.origin + location.pathname`); invite != want {
		p.Fail("invite link %q, want %q", invite, want)
	}
	return invite
}

// TestGomokuInBrowser: A creates a match in the lobby, copies the invite
// link, B opens it and sits, a spectator opens it; they play until black
// has five in a row, and all three see the result. Then A asks to play
// again and B follows the "join the next match" link into the same seat.
func TestGomokuInBrowser(t *testing.T) {
	base := startServer(t)
	b := StartBrowser(t)
	ann, bob, sam := b.NewPage("ann"), b.NewPage("bob"), b.NewPage("spectator")

	invite := createGomoku(ann, base, "Ann")
	ann.Click(`[data-action="copy-invite"]`)
	ann.WaitText(`[data-action="copy-invite"]`, "Copied")
	ann.WaitText(".gomoku-status", "Waiting for players")

	bob.Open(invite + "?lang=en")
	bob.WaitText(".host-status", "Watching")
	bob.Type(`[data-field="name"]`, "Bob")
	bob.Click(`[data-action="sit"][data-seat="1"]`)
	bob.WaitJS("Bob seated", `window.__chaguan && window.__chaguan.you === "1"`)
	bob.WaitText(".gomoku-status", "Black to move")
	ann.WaitText(".gomoku-status", "Your turn (Black)")

	sam.Open(invite + "?lang=en")
	sam.WaitText(".host-status", "Watching")
	sam.WaitText(".seats", "Ann")
	sam.WaitText(".seats", "Bob")
	if n := Eval[int](sam, `document.querySelectorAll('[data-action="sit"]').length`); n != 0 {
		sam.Fail("a full match offers %d free seats", n)
	}

	// Black plays x=3..7 on row 7, white x=3..6 on row 8: black's fifth wins.
	for i := 0; i < 4; i++ {
		place(ann, 2*i, 3+i, 7)
		place(bob, 2*i+1, 3+i, 8)
	}
	place(ann, 8, 7, 7)

	for _, p := range []*Page{ann, bob, sam} {
		p.WaitText(".gomoku-status", "Black wins with five in a row")
		p.WaitText(".gameover .result", "Ann wins!")
		if n := Eval[int](p, `window.__chaguan.state.G.winLine.length`); n != 5 {
			p.Fail("win line has %d stones, want 5", n)
		}
	}
	if s := ann.Text(".gomoku-status"); !strings.Contains(s, "You win") {
		ann.Fail("winner's status %q lacks \"You win\"", s)
	}
	if s := bob.Text(".gomoku-status"); !strings.Contains(s, "You lose") {
		bob.Fail("loser's status %q lacks \"You lose\"", s)
	}
	if s := sam.Text(".gomoku-status"); strings.Contains(s, "You win") || strings.Contains(s, "You lose") {
		sam.Fail("spectator's status %q speaks to a player", s)
	}

	// Play again: Ann goes to the next match in seat 0; Bob follows the link.
	first := Eval[string](ann, `location.pathname`)
	ann.Click(`[data-action="play-again"]`)
	ann.WaitJS("Ann in the next match", fmt.Sprintf(`location.pathname !== %s && !!window.__chaguan && window.__chaguan.you === "0"`, jsString(first)))
	bob.Click(`[data-action="join-next"]`)
	bob.WaitJS("Bob in the next match", fmt.Sprintf(`location.pathname !== %s && !!window.__chaguan && window.__chaguan.you === "1"`, jsString(first)))
	bob.WaitText(".gomoku-status", "Black to move")
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	sam.WaitJS("the spectator is offered the next match", `!!document.querySelector('[data-action="join-next"]')`)
	for _, p := range []*Page{ann, bob, sam} {
		p.NoJSErrors()
	}
}

// TestGomokuBotFromRoom: a seated player fills the empty seat with a bot
// from the room page; the match starts and the bot answers a move.
func TestGomokuBotFromRoom(t *testing.T) {
	base := startServer(t)
	b := StartBrowser(t)
	ann := b.NewPage("ann")
	createGomoku(ann, base, "Ann")
	ann.WaitJS("a free seat with a bot chooser", `!!document.querySelector('[data-action="add-bot"][data-seat="1"]')`)
	ann.Do("choose the easy bot", setSelect(`.seat[data-seat="1"] select`, "easy"))
	ann.Click(`[data-action="add-bot"][data-seat="1"]`)
	ann.WaitText(`.seat[data-seat="1"]`, "bot · easy")
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	place(ann, 0, 7, 7)
	ann.WaitJS("the bot's answer", movesIs(2))
	ann.WaitText(".gomoku-status", "Your turn (Black)")

	// The keyboard plays too: from the last stone, up to the top edge, Enter.
	x := Eval[int](ann, `window.__chaguan.state.G.last[0]`)
	ann.Do("focus the board", chromedp.Focus(chromedp.CSS("canvas[data-board=gomoku]")),
		chromedp.KeyEvent(strings.Repeat(kb.ArrowUp, 15)), chromedp.KeyEvent(kb.Enter))
	ann.WaitJS("a stone placed from the keyboard", fmt.Sprintf(`window.__chaguan.state.G.board[0][%d] === "B"`, x))
	ann.NoJSErrors()
}

// BenchmarkRoomOpen measures opening an invite link until the board shows
// the first state: page load, modules, WebSocket hello and first render.
func BenchmarkRoomOpen(b *testing.B) {
	base := startServer(b)
	br := StartBrowser(b)
	ann := br.NewPage("ann")
	invite := createGomoku(ann, base, "Ann")
	sam := br.NewPage("spectator")
	sam.Poll = 2 * time.Millisecond
	b.ResetTimer()
	for b.Loop() {
		sam.Open(invite + "?lang=en")
		sam.WaitJS("the first state drawn", `!!window.__chaguan && !!document.querySelector(".gomoku-status") && document.querySelector(".gomoku-status").textContent !== ""`)
	}
}

// BenchmarkMoveRoundTrip measures one move against an instant bot: click on
// the canvas until the state with the bot's answer is drawn.
func BenchmarkMoveRoundTrip(b *testing.B) {
	base := startServer(b)
	br := StartBrowser(b)
	ann := br.NewPage("ann")
	ann.Poll = 2 * time.Millisecond
	for b.Loop() {
		b.StopTimer()
		createGomoku(ann, base, "Ann")
		ann.Do("choose the easy bot", setSelect(`.seat[data-seat="1"] select`, "easy"))
		ann.Click(`[data-action="add-bot"][data-seat="1"]`)
		ann.WaitJS("started", `window.__chaguan.state.ctx.started`)
		b.StartTimer()
		place(ann, 0, 7, 7)
		ann.WaitJS("the bot's answer", movesIs(2))
	}
}
