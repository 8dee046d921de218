package weiqi_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// weiqiCols are the column letters of a weiqi board: A-T without I.
const weiqiCols = "ABCDEFGHJKLMNOPQRST"

// weiqiName names point (x, y) of an n-line board, y = 0 the top row.
func weiqiName(x, y, n int) string { return fmt.Sprintf("%c%d", weiqiCols[x], n-y) }

// TestWeiqiAgainstBot: a person creates a 9x9 match against the normal bot
// in the lobby, plays stones by clicking the board, asks to score with the
// e key (the bot agrees), marks two of their own groups dead (a click, then
// the cursor keys and d), approves; the bot approves, the evolution plays
// generation by generation, and the count and the result shown are the
// server's. The SGF link points at the match's record.
func TestWeiqiAgainstBot(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	const limit = 60 * time.Second // generous: the machine may be busy

	ann.Open(base + "/?lang=en")
	ann.Type("#name-input", "Ann")
	ann.Click(`.game-card[data-game="weiqi"] [data-action="new"]`)
	ann.Do("choose 9x9 and the normal bot",
		chromedp.WaitVisible(chromedp.CSS(`form[data-create="weiqi"] select[name="opt-size"]`)),
		browsertest.SetSelect(`form[data-create="weiqi"] select[name="opt-size"]`, "9"),
		browsertest.SetSelect(`form[data-create="weiqi"] select[data-seat="1"]`, "normal"))
	ann.Click(`form[data-create="weiqi"] [data-action="create"]`)
	ann.WaitJSFor("the room, started", `location.pathname.startsWith("/m/weiqi/") && !!window.__chaguan && window.__chaguan.you === "0" && window.__chaguan.state.ctx.started`, limit)
	ann.WaitJS("the board", `!!document.querySelector("canvas[data-board=weiqi]") && `+browsertest.WeiqiG+`.size === 9`)
	ann.WaitText(".wq-status", "Your turn (Black)")

	// Black plays three stones (the first free of a few points each time),
	// clicking the canvas; the bot answers each.
	wants := [][2]int{{2, 2}, {6, 6}, {2, 6}, {6, 2}, {4, 4}, {1, 1}, {7, 7}, {1, 7}, {7, 1}}
	var mine [][2]int
	for len(mine) < 3 {
		moves := browsertest.Eval[int](ann, browsertest.WeiqiG+`.moves.length`)
		ann.WaitJSFor(fmt.Sprintf("my turn after %d moves", moves), fmt.Sprintf(`%s.moves.length === %d && %s.toMove === "0"`, browsertest.WeiqiG, moves, browsertest.WeiqiG), limit)
		var pt [2]int
		found := false
		for _, w := range wants {
			if browsertest.Eval[string](ann, fmt.Sprintf(`%s.board[%d][%d]`, browsertest.WeiqiG, w[1], w[0])) == "." {
				pt, found = w, true
				break
			}
		}
		if !found {
			ann.Fail("no free point left among %v", wants)
		}
		x, y := browsertest.WeiqiPoint(ann, pt[0], pt[1])
		ann.ClickXY(x, y)
		ann.WaitJSFor(fmt.Sprintf("black's move %d", moves+1), fmt.Sprintf(`%s.moves.length > %d`, browsertest.WeiqiG, moves), limit)
		if got, want := browsertest.Eval[string](ann, fmt.Sprintf(`%s.moves[%d]`, browsertest.WeiqiG, moves)), weiqiName(pt[0], pt[1], 9); got != want {
			ann.Fail("a click on %s played %s", want, got)
		}
		mine = append(mine, pt)
		// The seal pool names the last move.
		ann.WaitJSFor("the bot's answer", fmt.Sprintf(`%s.moves.length >= %d && %s.toMove === "0"`, browsertest.WeiqiG, moves+2, browsertest.WeiqiG), limit)
		ann.WaitJS("the seal pool shows the last move", fmt.Sprintf(`document.querySelector(".wq-chop").textContent === (%s.last === "pass" ? "Pass" : %s.last)`, browsertest.WeiqiG, browsertest.WeiqiG))
	}
	if n := browsertest.Eval[int](ann, `document.querySelectorAll(".wq-record li:not(.wq-empty)").length`); n < 6 {
		ann.Fail("the record lists %d moves, want at least 6", n)
	}

	// e asks to score; the bot agrees.
	ann.Do("press e", chromedp.KeyEvent("e"))
	ann.WaitJSFor("scoring", browsertest.WeiqiG+`.phase === "scoring"`, limit)
	ann.WaitText(".wq-status", "Scoring")

	// A click marks the first black group dead...
	first := weiqiName(mine[0][0], mine[0][1], 9)
	x, y := browsertest.WeiqiPoint(ann, mine[0][0], mine[0][1])
	ann.ClickXY(x, y)
	ann.WaitJSFor(first+" marked dead", fmt.Sprintf(`(%s.dead || []).includes(%q)`, browsertest.WeiqiG, first), limit)
	// ...and the keyboard the second: an arrow shows the cursor where the
	// click was, more arrows walk to the stone, d marks it.
	second := weiqiName(mine[1][0], mine[1][1], 9)
	keys := kb.ArrowRight // shows the cursor without moving it
	for dx := mine[1][0] - mine[0][0]; dx != 0; {
		if dx > 0 {
			keys += kb.ArrowRight
			dx--
		} else {
			keys += kb.ArrowLeft
			dx++
		}
	}
	for dy := mine[1][1] - mine[0][1]; dy != 0; {
		if dy > 0 {
			keys += "j"
			dy--
		} else {
			keys += "k"
			dy++
		}
	}
	ann.Do("walk the cursor and press d", chromedp.KeyEvent(keys), chromedp.KeyEvent("d"))
	ann.WaitJSFor(second+" marked dead", fmt.Sprintf(`(%s.dead || []).includes(%q) && (%s.dead || []).includes(%q)`, browsertest.WeiqiG, first, browsertest.WeiqiG, second), limit)

	// Watch the generation the board shows, then approve.
	ann.Do("watch the generations", browsertest.EvalVoid(`(() => {
		window.__wqGens = [];
		const root = document.querySelector(".wq");
		new MutationObserver(() => { const g = root.dataset.gen; if (g !== "" && window.__wqGens[window.__wqGens.length - 1] !== g) window.__wqGens.push(g); })
			.observe(root, {attributes: true, attributeFilter: ["data-gen"]});
	})()`))
	ann.WaitJSFor("the approve button", `(() => { const b = document.querySelector('[data-move="approve"]'); return !!b && !b.hidden && !b.disabled; })()`, limit)
	ann.Click(`[data-move="approve"]`)
	ann.WaitJSFor("the game over", browsertest.WeiqiG+`.phase === "over" && !!`+browsertest.WeiqiG+`.result && Array.isArray(`+browsertest.WeiqiG+`.evolution)`, limit)
	ann.WaitJSFor("the evolution finished", `document.querySelector(".wq").dataset.evolving === "0"`, limit)
	gens := browsertest.Eval[[]string](ann, `window.__wqGens`)
	if len(gens) < 2 || gens[0] == "5" || gens[len(gens)-1] != "5" {
		ann.Fail("the board showed generations %v, want several ending with 5", gens)
	}
	for i := 1; i < len(gens); i++ {
		if gens[i] <= gens[i-1] {
			ann.Fail("generations %v do not go forward", gens)
		}
	}

	// The count and the result are the server's.
	ann.WaitJSFor("the result shown", `(() => { const e = document.querySelector(".wq-result"); return !!e && !e.closest("[hidden]") && e.dataset.result === `+browsertest.WeiqiG+`.result; })()`, limit)
	result := browsertest.Eval[string](ann, browsertest.WeiqiG+`.result`)
	want := weiqiResultEn(result)
	if got := ann.Text(".wq-result"); got != want {
		ann.Fail("result text %q, want %q (server result %q)", got, want, result)
	}
	if got := ann.Text(".wq-status"); !strings.HasPrefix(got, want) {
		ann.Fail("status %q, want it to start with %q", got, want)
	}
	totals := browsertest.Eval[[]string](ann, `[...document.querySelectorAll(".wq-score .wq-total")].map((e) => e.textContent)`)
	server := browsertest.Eval[[]float64](ann, `[`+browsertest.WeiqiG+`.score.black.total, `+browsertest.WeiqiG+`.score.white.total]`)
	if len(totals) != 2 || totals[0] != fmt.Sprint(server[0]) || totals[1] != fmt.Sprint(server[1]) {
		ann.Fail("totals shown %v, server's %v", totals, server)
	}

	// The record downloads as SGF.
	matchID := browsertest.Eval[string](ann, `window.__chaguan.matchID`)
	href := browsertest.Eval[string](ann, `document.querySelector("a[data-sgf=weiqi]").getAttribute("href")`)
	if want := "/games/weiqi/" + matchID + "/sgf"; href != want {
		ann.Fail("SGF link %q, want %q", href, want)
	}
	if !browsertest.Eval[bool](ann, `document.querySelector("a[data-sgf=weiqi]").hasAttribute("download")`) {
		ann.Fail("the SGF link lacks the download attribute")
	}
	ann.NoJSErrors()
}

// weiqiResultEn is what the plugin says in English for a result code.
func weiqiResultEn(code string) string {
	colour := map[byte]string{'B': "Black", 'W': "White"}
	switch {
	case code == "Draw":
		return "Draw (jigo)"
	case strings.HasSuffix(code, "+R"):
		return colour[code[0]] + " wins by resignation"
	case len(code) > 2 && code[1] == '+':
		return colour[code[0]] + " wins by " + code[2:]
	}
	return code
}
