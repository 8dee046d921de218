package browsertest

import (
	"fmt"
	"math"
)

// gomokuCanvas selects the gomoku board.
const gomokuCanvas = "canvas[data-board=gomoku]"

// gomokuGrid is the plugin's layout of a board drawn in box (Box): the
// side of a cell, and the top-left point's viewport coordinates (the
// margin is 1.1 cells: cell = width / (n - 1 + 2.2)).
func gomokuGrid(box []float64) (cell, left, top float64) {
	cell = box[2] / (15 - 1 + 2.2)
	return cell, box[0] + 1.1*cell, box[1] + 1.1*cell
}

// GomokuPoint returns the viewport coordinates of board point (x, y) of the
// gomoku canvas on p, once the canvas is centred and has stopped moving
// (SettledBox), so a page still laying itself out (a status line that
// just changed, a connection's first state, on a loaded machine) is not
// clicked where the board was a moment before.
func GomokuPoint(p *Page, x, y int) (float64, float64) {
	p.t.Helper()
	cell, left, top := gomokuGrid(SettledBox(p, gomokuCanvas))
	return left + float64(x)*cell, top + float64(y)*cell
}

// gomokuPointAt reports whether viewport point (cx, cy) is on board point
// (x, y) of the gomoku canvas as it is laid out now.
func gomokuPointAt(p *Page, cx, cy float64, x, y int) bool {
	p.t.Helper()
	cell, left, top := gomokuGrid(Box(p, gomokuCanvas))
	return math.Round((cx-left)/cell) == float64(x) && math.Round((cy-top)/cell) == float64(y)
}

// GomokuMovesIs is a JS condition: the page's latest state has n moves.
func GomokuMovesIs(n int) string {
	return fmt.Sprintf(`window.__chaguan && window.__chaguan.state && window.__chaguan.state.G.moves.length === %d`, n)
}

// PlaceStone waits until it is p's turn after n moves, clicks (x, y) on the
// canvas and waits for a state with more than n moves (a bot with no delay
// may already have answered). The mouse stays on the point afterwards, as
// a person's does: the board's hover, and a keyboard cursor, start there.
// A click the page did not take (one that lands while the page redraws
// the board can be lost on a loaded machine) is made again, at most three
// times; a click that sent a move is never repeated, however long its
// state takes to come: a second click could play a second stone.
func PlaceStone(p *Page, n, x, y int) {
	p.t.Helper()
	p.WaitJS(fmt.Sprintf("my turn after %d moves", n), GomokuMovesIs(n)+` && window.__chaguan.state.G.toMove === window.__chaguan.you`)
	landed := fmt.Sprintf(`window.__chaguan.state.G.moves.length > %d && window.__chaguan.state.G.board[%d][%d] !== "."`, n, y, x)
	for try := 1; ; try++ {
		before := Eval[int](p, countMovesSent)
		cx, cy := GomokuPoint(p, x, y)
		// The mouse comes to rest over the point first; if the board
		// moved under it meanwhile, measure again rather than click.
		p.HoverXY(cx, cy)
		if !gomokuPointAt(p, cx, cy, x, y) {
			if try == 3 {
				p.Fail("the board kept moving under the point %d,%d", x, y)
			}
			continue
		}
		p.ClickXY(cx, cy)
		if Eval[int](p, countMovesSent) > before || Eval[bool](p, landed) {
			break
		}
		if try == 3 {
			p.Fail("the click on %d,%d was made %d times and sent no move", x, y, try)
		}
	}
	// Once the move is in, a stone elsewhere is a click that missed its
	// point: say where it went rather than wait for the point.
	p.WaitJS(fmt.Sprintf("move %d", n+1), fmt.Sprintf(`window.__chaguan.state.G.moves.length > %d`, n))
	if !Eval[bool](p, landed) {
		p.Fail("move %d was meant for %d,%d and went to %v", n+1, x, y, Eval[[]int](p, `window.__chaguan.state.G.moves[`+fmt.Sprint(n)+`]`))
	}
}

// countMovesSent is a JS expression: how many move messages the page has
// sent on its WebSockets since the first time it was evaluated there (it
// wraps WebSocket.prototype.send once to count them).
const countMovesSent = `(() => {
	if (window.__movesSent === undefined) {
		window.__movesSent = 0;
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) {
			if (typeof d === "string" && d.startsWith('{"type":"move"')) window.__movesSent++;
			return send.call(this, d);
		};
	}
	return window.__movesSent;
})()`

// CreateGomoku makes a gomoku match from p's lobby as name, in English, and
// waits for the room; it returns the invite link shown in the room.
func CreateGomoku(p *Page, base, name string) string {
	p.t.Helper()
	return CreateGomokuIn(p, base, name, "en")
}

// CreateGomokuIn is createGomoku in language lang ("en" or "zh").
func CreateGomokuIn(p *Page, base, name, lang string) string {
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
