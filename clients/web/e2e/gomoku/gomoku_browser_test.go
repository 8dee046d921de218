package gomoku_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestGomokuInBrowser: A creates a match in the lobby, copies the invite
// link, B opens it and sits, a spectator opens it; they play until black
// has five in a row, and all three see the result. Then A asks to play
// again and B follows the "join the next match" link into the same seat.
func TestGomokuInBrowser(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann, bob, sam := b.NewPage("ann"), b.NewPage("bob"), b.NewPage("spectator")

	invite := browsertest.CreateGomoku(ann, base, "Ann")
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
	if n := browsertest.Eval[int](sam, `document.querySelectorAll('[data-action="sit"]').length`); n != 0 {
		sam.Fail("a full match offers %d free seats", n)
	}

	// Black plays x=3..7 on row 7, white x=3..6 on row 8: black's fifth wins.
	for i := 0; i < 4; i++ {
		browsertest.PlaceStone(ann, 2*i, 3+i, 7)
		browsertest.PlaceStone(bob, 2*i+1, 3+i, 8)
	}
	browsertest.PlaceStone(ann, 8, 7, 7)

	for _, p := range []*browsertest.Page{ann, bob, sam} {
		p.WaitText(".gomoku-status", "Black wins with five in a row")
		p.WaitText(".gameover .result", "Ann wins!")
		if n := browsertest.Eval[int](p, `window.__chaguan.state.G.winLine.length`); n != 5 {
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
	first := browsertest.Eval[string](ann, `location.pathname`)
	ann.Click(`[data-action="play-again"]`)
	ann.WaitJS("Ann in the next match", fmt.Sprintf(`location.pathname !== %s && !!window.__chaguan && window.__chaguan.you === "0"`, browsertest.JSString(first)))
	bob.Click(`[data-action="join-next"]`)
	bob.WaitJS("Bob in the next match", fmt.Sprintf(`location.pathname !== %s && !!window.__chaguan && window.__chaguan.you === "1"`, browsertest.JSString(first)))
	bob.WaitText(".gomoku-status", "Black to move")
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	sam.WaitJS("the spectator is offered the next match", `!!document.querySelector('[data-action="join-next"]')`)
	for _, p := range []*browsertest.Page{ann, bob, sam} {
		p.NoJSErrors()
	}
}

// TestGomokuBotFromRoom: a seated player fills the empty seat with a bot
// from the room page; the match starts and the bot answers a move.
func TestGomokuBotFromRoom(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.CreateGomoku(ann, base, "Ann")
	ann.WaitJS("a free seat with a bot chooser", `!!document.querySelector('[data-action="add-bot"][data-seat="1"]')`)
	ann.Do("choose the easy bot", browsertest.SetSelect(`.seat[data-seat="1"] select`, "easy"))
	ann.Click(`[data-action="add-bot"][data-seat="1"]`)
	ann.WaitText(`.seat[data-seat="1"]`, "bot · easy")
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	browsertest.PlaceStone(ann, 0, 7, 7)
	ann.WaitJS("the bot's answer", browsertest.GomokuMovesIs(2))
	ann.WaitText(".gomoku-status", "Your turn (Black)")

	// The keyboard plays too: from the last stone, up to the top edge, Enter.
	// The mouse leaves the board first: the cursor starts where the mouse
	// rests, if it rests on the board (PlaceStone left it on 7,7).
	ann.HoverXY(1, 1)
	x := browsertest.Eval[int](ann, `window.__chaguan.state.G.last[0]`)
	ann.Do("focus the board", chromedp.Focus(chromedp.CSS("canvas[data-board=gomoku]")),
		chromedp.KeyEvent(strings.Repeat(kb.ArrowUp, 15)), chromedp.KeyEvent(kb.Enter))
	ann.WaitJS("a stone placed from the keyboard", fmt.Sprintf(`window.__chaguan.state.G.board[0][%d] === "B"`, x))
	ann.NoJSErrors()
}

// BenchmarkRoomOpen measures opening an invite link until the board shows
// the first state: page load, modules, WebSocket hello and first render.
func BenchmarkRoomOpen(b *testing.B) {
	base := browsertest.StartServer(b)
	br := browsertest.Start(b)
	ann := br.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
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
	base := browsertest.StartServer(b)
	br := browsertest.Start(b)
	ann := br.NewPage("ann")
	ann.Poll = 2 * time.Millisecond
	for b.Loop() {
		b.StopTimer()
		browsertest.CreateGomoku(ann, base, "Ann")
		ann.Do("choose the easy bot", browsertest.SetSelect(`.seat[data-seat="1"] select`, "easy"))
		ann.Click(`[data-action="add-bot"][data-seat="1"]`)
		ann.WaitJS("started", `window.__chaguan.state.ctx.started`)
		b.StartTimer()
		browsertest.PlaceStone(ann, 0, 7, 7)
		ann.WaitJS("the bot's answer", browsertest.GomokuMovesIs(2))
	}
}
