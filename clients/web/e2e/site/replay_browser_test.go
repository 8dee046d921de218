package site_test

import (
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// TestReplayPage: a finished match's end card opens its replay; the page
// opens on the last step, and first / forward / back / last, the arrow
// keys, the slider and play all move through the steps, each drawn on the
// game's own board as a spectator saw it, also when the server answers
// fewer steps than asked (a page cut at its byte bound).
func TestReplayPage(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
	browsertest.TakeSeat0(ann, base, "gomoku", id, "Ann")
	// Ann lets her bot play until the end.
	ann.Click(`[data-action="autoplay"]`)
	ann.WaitJSFor("the end card", `!!document.querySelector('.gameover [data-action="replay"]')`, 60e9)
	total := browsertest.Eval[int](ann, `window.__chaguan.state.stateID`) - 1
	// The server cuts a page of big steps (a long match's) short at about
	// 1 MiB and says where the rest start (next). Cut every page of this
	// small match at 7 steps, as a long match's would be, so the page must
	// follow next to have every step.
	ann.Do("short replay pages", browsertest.EvalVoid(`(() => {
		const f = window.fetch;
		window.__replayCalls = 0;
		window.fetch = async (url, opts) => {
			const res = await f(url, opts);
			if (!String(url).includes("/replay?") || !res.ok) return res;
			window.__replayCalls++;
			const body = await res.json();
			if (body.steps.length > 7) {
				body.steps = body.steps.slice(0, 7);
				body.next = body.steps[6].stateID + 1;
			}
			return new Response(JSON.stringify(body), {status: 200, headers: {"Content-Type": "application/json"}});
		};
	})()`))
	ann.Click(`.gameover [data-action="replay"]`)
	ann.WaitJS("the replay page", fmt.Sprintf(`location.pathname === "/m/gomoku/" + %s + "/replay" && !!window.__chaguanReplay`, browsertest.JSString(id)))
	if n := browsertest.Eval[int](ann, `window.__chaguanReplay.steps`); n != total+1 {
		ann.Fail("%d steps, want %d", n, total+1)
	}
	at := func(what string, n int) {
		ann.T().Helper()
		ann.WaitJS(what, fmt.Sprintf(`window.__chaguanReplay.at() === %d && document.querySelector("[data-field=counter]").textContent === "Step %d of %d" &&
			document.querySelector("[data-field=step]").value === "%d"`, n, n, total, n))
	}
	at("opens on the last step", total)
	ann.WaitText(".room-title", "Gomoku · replay")
	if n := browsertest.Eval[int](ann, `document.querySelectorAll("canvas[data-board=gomoku]").length`); n != 1 {
		ann.Fail("%d gomoku boards on the replay page", n)
	}
	ann.Click(`[data-action="first"]`)
	at("first", 0)
	// Every step is there, at its own stateID, from pages of 7 steps.
	ann.WaitJS("every step loaded", fmt.Sprintf(`Array.from({length: %d}, (_, i) => i).every((i) => window.__chaguanReplay.stateID(i) === i + 1)`, total+1))
	if calls := browsertest.Eval[int](ann, `window.__replayCalls`); calls < (total+1)/7 {
		ann.Fail("%d replay requests for %d steps in pages of 7", calls, total+1)
	}
	ann.Click(`[data-action="forward"]`)
	at("forward", 1)
	ann.Do("arrow right", browsertest.EvalVoid(`document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}))`))
	at("arrow right", 2)
	ann.Do("arrow left", browsertest.EvalVoid(`document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft", bubbles: true}))`))
	at("arrow left", 1)
	ann.Click(`[data-action="back"]`)
	at("back", 0)
	ann.Do("slider", browsertest.EvalVoid(`(() => { const s = document.querySelector("[data-field=step]"); s.value = "3"; s.dispatchEvent(new Event("input", {bubbles: true})); })()`))
	at("slider", 3)
	// The board is the spectator's at that step: three stones down, White
	// to play the fourth.
	ann.WaitText(".gomoku-status", "White to move · move 4")
	ann.Click(`[data-action="play"]`)
	ann.WaitJS("playing", `window.__chaguanReplay.playing() && window.__chaguanReplay.at() > 3`)
	ann.Click(`[data-action="play"]`)
	ann.WaitJS("paused", `!window.__chaguanReplay.playing()`)
	ann.Click(`[data-action="last"]`)
	at("last", total)

	// In Chinese, and back to the match.
	ann.Click("#lang-zh")
	ann.WaitText(".room-title", "五子棋 · 复盘")
	ann.WaitText("[data-field=counter]", fmt.Sprintf("第 %d / %d 步", total, total))
	ann.Click(`[data-action="back-match"]`)
	ann.WaitJS("back in the room", `!!window.__chaguan && window.__chaguan.you === "0"`)
	ann.NoJSErrors()
}
