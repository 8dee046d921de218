package threemonks_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
	"github.com/chaguan/chaguan/server/servertest"
)

// tmG is a JS expression for the page's latest Three Monks view.
const tmG = `window.__chaguan.state.G`

// tmNext is a JS expression naming what the viewer (seat 0) must do now:
// "over", "choose", a decision kind, or "" while others act. It also waits
// for the plugin to have drawn the buttons for it.
const tmNext = `(() => {
	const s = window.__chaguan && window.__chaguan.state;
	if (!s || !s.G || !s.G.monks) return "";
	const g = s.G;
	if (s.ctx.gameover) return "over";
	if (g.pending) return g.pending.seat === 0 && document.querySelector("[data-ask]:not([disabled])") ? g.pending.kind : "";
	const me = g.players && g.players["0"];
	return g.phase === "choose" && me && !me.choice && document.querySelector("[data-card]:not([disabled])") ? "choose" : "";
})()`

// createThreeMonks creates a 3-seat match over HTTP with a normal bot in
// seat 1 and an easy bot in seat 2, and returns its ID.
func createThreeMonks(t *testing.T, base string) string {
	t.Helper()
	return browsertest.CreateMatch(t, base, "threemonks", map[string]any{"numPlayers": 3, "bots": map[string]string{"1": "normal", "2": "easy"}})
}

// TestThreeMonksInBrowser: a person and two bots play a whole 3-seat game
// in the browser. Each round the person clicks an unlocked card (last
// round's card must be greyed and disabled), answers every in-phase
// question with a button, and the game ends with the winner banner; the
// table, the log and the status agree with the server's view.
func TestThreeMonksInBrowser(t *testing.T) {
	t.Parallel() // its own server and pages
	srv := servertest.Start(t, servertest.Options{Games: games.NewRegistry(threemonks.Game)})
	id := createThreeMonks(t, srv.URL)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	ann.Open(fmt.Sprintf("%s/m/threemonks/%s?lang=en", srv.URL, id))
	ann.Type(`[data-field="name"]`, "Ann")
	ann.Click(`[data-action="sit"][data-seat="0"]`)
	ann.WaitJS("seated", `window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`)
	ann.WaitJS("three monks on the table", `document.querySelectorAll("[data-table=threemonks] [data-monk]").length === 3`)

	prefer := []string{"drink", "fetch", "chant", "exchange", "rest"}
	choices, decisions := 0, 0
	for step := 0; ; step++ {
		if step > 1500 {
			ann.Fail("no end after %d steps", step)
		}
		ann.WaitJS("my move or the end", tmNext+` !== ""`)
		switch next := browsertest.Eval[string](ann, tmNext); next {
		case "over":
			checkThreeMonksEnd(ann, choices, decisions)
			return
		case "choose":
			round := browsertest.Eval[int](ann, tmG+`.round`)
			// While choosing, the page holds nobody's card but my own.
			if !browsertest.Eval[bool](ann, `!`+tmG+`.revealed && Object.keys(`+tmG+`.players).join() === "0"`) {
				ann.Fail("round %d: the view shows hidden cards: %s", round, browsertest.Eval[string](ann, `JSON.stringify(`+tmG+`)`))
			}
			locked := browsertest.Eval[string](ann, `(`+tmG+`.lastCards[0] || "")`)
			if locked != "" && !browsertest.Eval[bool](ann, fmt.Sprintf(`(() => { const b = document.querySelector('[data-card=%q]'); return b.disabled && b.classList.contains("locked"); })()`, locked)) {
				ann.Fail("round %d: last round's %s is not greyed out", round, locked)
			}
			for _, c := range prefer {
				if c != locked {
					ann.Click(fmt.Sprintf(`[data-card=%q]`, c))
					ann.WaitJS("choice "+c, fmt.Sprintf(`(%s.players["0"].choice === %q || %s.round > %d || !!window.__chaguan.state.ctx.gameover)`, tmG, c, tmG, round))
					break
				}
			}
			choices++
		default:
			// An in-phase decision: click the first (default) button.
			stateID := browsertest.Eval[int](ann, `window.__chaguan.state.stateID`)
			ann.Click(`[data-ask]`)
			ann.WaitJS("decision "+next, fmt.Sprintf(`window.__chaguan.state.stateID > %d`, stateID))
			decisions++
		}
	}
}

// checkThreeMonksEnd checks the finished page against the view.
func checkThreeMonksEnd(p *browsertest.Page, choices, decisions int) {
	p.T().Helper()
	// The banner waits until the last round's events have played out, one
	// animation after another: on a loaded machine that can take a while.
	p.WaitJSFor("the winner banner", `!!document.querySelector("[data-banner=threemonks]:not([hidden])")`, 90*time.Second)
	over := browsertest.Eval[map[string]any](p, `window.__chaguan.state.ctx.gameover`)
	banner := p.Text(`[data-banner=threemonks]`)
	status := p.Text(`[data-status=threemonks]`)
	switch {
	case over["draw"] == true:
		if !strings.Contains(banner, "draw") {
			p.Fail("draw but banner %q", banner)
		}
	case over["winner"] == "0":
		if !strings.Contains(banner, "You win") || !strings.Contains(status, "You win") {
			p.Fail("I won but banner %q, status %q", banner, status)
		}
	default:
		if !strings.Contains(banner, "wins with") {
			p.Fail("seat %v won but banner %q", over["winner"], banner)
		}
	}
	// The table shows every monk's water as the view has it.
	if !browsertest.Eval[bool](p, `[...document.querySelectorAll("[data-monk]")].every((m, i) =>
		Number(m.querySelector("[data-water]").dataset.water) === `+tmG+`.monks[i].water)`) {
		p.Fail("the water shown differs from the view")
	}
	// The log has a line for every event of this round once the queue drains.
	p.WaitJS("the log", `document.querySelectorAll("[data-log=threemonks] li[data-ev=win], [data-log=threemonks] li[data-ev=cap]").length === 1`)
	if choices < 2 {
		p.Fail("the game ended after %d choices", choices)
	}
	p.T().Logf("game over after %d choices and %d decisions: %s", choices, decisions, banner)
}
