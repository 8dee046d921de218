package browsertest

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/server/servertest"
	"github.com/gorilla/websocket"
)

// StartGongzhuServer serves Gong Zhu whether or not it is registered in
// games/all yet; bots wait botDelay before each card (0: at once).
func StartGongzhuServer(t *testing.T, botDelay time.Duration) *servertest.Server {
	t.Helper()
	return servertest.Start(t, servertest.Options{Games: games.NewRegistry(gongzhu.Game), BotDelay: botDelay})
}

// CreateGongzhu creates an n-seat match over HTTP with normal bots in every
// seat but 0 and returns its ID.
func CreateGongzhu(t *testing.T, base string, n int) string {
	t.Helper()
	bots := map[string]string{}
	for i := 1; i < n; i++ {
		bots[strconv.Itoa(i)] = gongzhu.LevelNormal
	}
	return CreateMatch(t, base, "gongzhu", map[string]any{"numPlayers": n, "bots": bots})
}

// SitGongzhu opens the room on p and takes seat 0 as name.
func SitGongzhu(p *Page, base, matchID, name, lang string) {
	p.t.Helper()
	p.Open(fmt.Sprintf("%s/m/gongzhu/%s?lang=%s", base, matchID, lang))
	p.Type(`[data-field="name"]`, name)
	p.Click(`[data-action="sit"][data-seat="0"]`)
	p.WaitJS("seated in seat 0", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
	p.WaitJS("the table", `!!document.querySelector("[data-table=gongzhu] [data-seat]")`)
}

// GongzhuG is a JS expression for the page's latest view.
const GongzhuG = `window.__chaguan.state.G`

// GongzhuMyTurn is a JS expression, true when the page's latest state has seat
// 0 (the person in these tests) to play.
const GongzhuMyTurn = `window.__chaguan.state.ctx.currentPlayer === "0"`

// GongzhuMyTurnToPlay is true when it is seat 0's turn and its hand shows
// a legal card to click.
const GongzhuMyTurnToPlay = GongzhuMyTurn + ` && document.querySelectorAll(".gz-hand.turn .gz-card.legal").length > 0`

// GongzhuHandAtRest is true when no card of the hand is moving (no CSS
// transition or animation running on it).
const GongzhuHandAtRest = `[...document.querySelectorAll(".gz-hand .gz-card")].every((c) => c.getAnimations().every((a) => a.playState !== "running"))`

// PlayLegalCard waits for the viewer's turn, then clicks a raised (legal)
// card of the hand at a point where it is really on top (the hand overlaps),
// and returns its code once the page has taken the click: the card is on
// its way (marked sending) or already out of the hand. A click that the
// page did not take (on a loaded machine the hand can move between the
// point's measure and the click, and the click lands on a neighbour) is
// made again, a few times at most; none of this waits on a clock.
func PlayLegalCard(p *Page) string {
	p.t.Helper()
	for try := 1; ; try++ {
		p.WaitJS("my turn", GongzhuMyTurnToPlay)
		// Let the hand's transitions (the raise, a redraw) finish so the point
		// stays on the card: waited for, not timed, as a loaded machine may
		// take far longer than the transition's 200 ms.
		p.WaitJS("the hand at rest", GongzhuHandAtRest)
		code, x, y := GongzhuCardPoint(p, ".gz-hand.turn .gz-card.legal")
		if x < 0 {
			p.Fail("legal card %s has no visible point to click", code)
		}
		// A person's pointer rests on the card before the click: the card
		// rises under it (:hover), and the click lands where it now is.
		p.HoverXY(x, y)
		p.WaitJS("the hand at rest", GongzhuHandAtRest)
		sel := fmt.Sprintf(".gz-hand.turn .gz-card.legal[data-card=%q]", code)
		if _, x, y = GongzhuCardPoint(p, sel); x < 0 {
			p.Fail("legal card %s has no visible point to click once raised", code)
		}
		p.ClickXY(x, y)
		took := fmt.Sprintf(`(() => {
			const c = document.querySelector('.gz-hand .gz-card[data-card=%q]');
			return !c || c.classList.contains("sending") || !`+GongzhuG+`.players["0"] || !`+GongzhuG+`.players["0"].hand.includes(%q);
		})()`, code, code)
		if Eval[bool](p, took) {
			return code
		}
		if try == 4 {
			p.Fail("card %s was clicked %d times and the page never took it", code, try)
		}
		at := whatIsAt(p, x, y)
		p.t.Logf("the click on %s at %.0f,%.0f did not take (now there: %s); again", code, x, y, at)
	}
}

// PlayCard plays a legal card of seat 0's hand (PlayLegalCard makes sure
// the page took the click) and waits, on progress and not on a clock, until
// the server has it: the card out of the hand, or the round it was played
// in over (its last card ends the round, and the next deal refills the
// hand). n numbers the card in failure messages; it returns the card.
func PlayCard(p *Page, n int) string {
	p.t.Helper()
	// At seat 0's turn the round cannot end before it plays, so the round
	// read here is the one the card is played in.
	p.WaitJS("my turn", GongzhuMyTurnToPlay)
	round := Eval[int](p, GongzhuG+`.round`)
	code := PlayLegalCard(p)
	p.WaitJS(fmt.Sprintf("card %d (%s) played", n, code),
		fmt.Sprintf(`%s.round !== %d || !%s.players["0"].hand.includes(%q)`, GongzhuG, round, GongzhuG, code))
	return code
}

// whatIsAt describes, for a failure message, what is under viewport point
// x, y (the element, the card it belongs to) and the page's state then: the
// hand's classes, the scroll, the toasts, the state on show and the latest
// one, the connection's status.
func whatIsAt(p *Page, x, y float64) string {
	return Eval[string](p, fmt.Sprintf(`(() => {
		const e = document.elementFromPoint(%f, %f);
		const c = e && e.closest(".gz-card");
		const conn = document.querySelector("[data-conn]");
		return (e ? e.tagName + "." + [...e.classList].join(".") : "nothing") +
			(c ? " card " + c.dataset.card + " " + c.className : "") +
			" hand " + document.querySelector(".gz-hand").className +
			" scroll " + scrollY +
			" toasts " + [...document.querySelectorAll(".toast")].map((t) => t.textContent).join("|") +
			" shown " + window.__chaguan.state.stateID +
			" latest " + (window.__chaguan.latest && window.__chaguan.latest.stateID) +
			" status " + (conn ? conn.textContent : "?");
	})()`, x, y))
}

// GongzhuCardPoint finds the first card matching sel in p's hand, scrolls it
// into view and returns its code and a viewport point where the card
// itself (not a neighbour over it) takes a click; ("", -1, -1) without
// such a card, (code, -1, -1) when no point of it shows.
func GongzhuCardPoint(p *Page, sel string) (code string, x, y float64) {
	p.t.Helper()
	pt := Eval[[]any](p, `(() => {
		const c = document.querySelector(`+JSString(sel)+`);
		if (!c) return ["", -1, -1];
		c.scrollIntoView({block: "center"});
		const r = c.getBoundingClientRect();
		for (let y = r.top + 12; y < r.bottom - 4; y += 6)
			for (let x = r.left + 4; x < r.right - 2; x += 3) {
				const e = document.elementFromPoint(x, y);
				if (e && e.closest(".gz-card") === c) return [c.dataset.card, x, y];
			}
		return [c.dataset.card, -1, -1];
	})()`)
	code, _ = pt[0].(string)
	x, _ = pt[1].(float64)
	y, _ = pt[2].(float64)
	return code, x, y
}

func CreateGongzhuBotTable(t *testing.T, base string) string {
	t.Helper()
	var out struct {
		MatchID string `json:"matchID"`
	}
	PostJSON(t, base, "/games/gongzhu/create", map[string]any{"numPlayers": 4,
		"bots": map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}}, &out)
	return out.MatchID
}

// DialGongzhuWS opens a spectator's WebSocket and says hello.
func DialGongzhuWS(t *testing.T, base, id, hello string) *websocket.Conn {
	t.Helper()
	c, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/games/gongzhu/"+id+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.WriteMessage(websocket.TextMessage, []byte(hello)); err != nil {
		t.Fatal(err)
	}
	return c
}
