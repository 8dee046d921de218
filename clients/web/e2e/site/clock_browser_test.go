package site_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// TestClockTimeoutAndReplay: a Gomoku match against a bot with a 15 s
// clock (2 s a move). The countdown runs beside Ann's seat and turns red
// under 10 s; she lets one turn run out, the bot plays it and the page says
// so; her bot then finishes the match, and the end card's replay steps
// through it, the timeout move included.
func TestClockTimeoutAndReplay(t *testing.T) {
	t.Parallel() // its own server and pages
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"},
		"clock": map[string]any{"bank": 15, "perMove": 2}})
	browsertest.TakeSeat0(ann, base, "gomoku", id, "Ann")
	ann.WaitJS("Ann's clock runs", `(() => { const c = document.querySelector('.seat[data-seat="0"] .seat-clock');
		return !!c && !c.hidden && c.classList.contains("running") && /^0:1[0-5]$/.test(c.textContent); })()`)
	ann.WaitJS("the bot's clock stands", `(() => { const c = document.querySelector('.seat[data-seat="1"] .seat-clock');
		return !!c && !c.classList.contains("running") && c.textContent === "0:15"; })()`)
	browsertest.PlaceStone(ann, 0, 7, 7)

	// Her clock (her bank less the time so far, plus 2 s) runs down: red
	// under 10 s, then the bot plays her turn.
	ann.WaitJSFor("red under 10 s", `(() => { const c = document.querySelector('.seat[data-seat="0"] .seat-clock');
		return !!c && c.classList.contains("low") && Number(c.dataset.ms) < 10000; })()`, 20*time.Second)
	ann.WaitJSFor("the bot played Ann's turn", `window.__chaguan.state.log.some((e) => e.playerID === "0" && e.text === "timeout")`, 20*time.Second)
	ann.WaitText(".toasts", "ran out of time")
	timeoutAt := browsertest.Eval[int](ann, `window.__chaguan.state.log.findIndex((e) => e.text === "timeout") + 1`)

	// Her bot finishes the match; the replay shows the timeout move.
	ann.Click(`[data-action="autoplay"]`)
	ann.WaitJSFor("the end card", `!!document.querySelector('.gameover [data-action="replay"]')`, 60*time.Second)
	ann.Click(`.gameover [data-action="replay"]`)
	ann.WaitJS("the replay", `!!window.__chaguanReplay && window.__chaguanReplay.at() === window.__chaguanReplay.steps - 1`)
	ann.Click(`[data-action="first"]`)
	ann.WaitJS("first step", `window.__chaguanReplay.at() === 0`)
	for i := 1; i <= timeoutAt; i++ {
		ann.Click(`[data-action="forward"]`)
		ann.WaitJS(fmt.Sprintf("step %d", i), fmt.Sprintf(`window.__chaguanReplay.at() === %d`, i))
	}
	ann.WaitText(".gomoku-status", fmt.Sprintf("move %d", timeoutAt+1))
	ann.NoJSErrors()
}
