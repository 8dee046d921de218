package site_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/chromedp"
)

// mineRow is a JS expression for the "my matches" row of match id.
func mineRow(id string) string {
	return fmt.Sprintf(`document.querySelector('.my-matches [data-match=%s]')`, browsertest.JSString(id))
}

// TestMyMatchesAfterReload: the lobby lists every seat the browser holds
// after a reload, with the game, the opponents and whose move it is; one
// click goes back in. A match whose seat passed to a bot, and one that
// expired, say so once and leave the list.
func TestMyMatchesAfterReload(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")

	gomoku := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
	weiqi := browsertest.CreateMatch(t, base, "weiqi", map[string]any{"numPlayers": 2, "setupData": map[string]any{"size": 9}})
	left := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
	browsertest.TakeSeat0(ann, base, "gomoku", gomoku, "Ann")
	browsertest.TakeSeat0(ann, base, "weiqi", weiqi, "Ann")
	browsertest.TakeSeat0(ann, base, "gomoku", left, "Ann")
	// Ann's seat in the third match passes to a bot (she left it from
	// elsewhere); a fourth seat is for a match the server no longer has.
	creds := browsertest.Eval[string](ann, fmt.Sprintf(`JSON.parse(localStorage.getItem("chaguan:seat:" + %s)).credentials`, browsertest.JSString(left)))
	var answer map[string]any
	browsertest.PostJSON(t, base, "/games/gomoku/"+left+"/leave", map[string]string{"playerID": "0", "credentials": creds}, &answer)
	ann.Do("a seat in an expired match", browsertest.EvalVoid(`localStorage.setItem("chaguan:seat:gone-match", JSON.stringify(
		{playerID: "1", credentials: "x", name: "Ann", game: "gomoku", at: 1}))`))

	ann.Open(base + "/?lang=en")
	ann.WaitJS("my matches listed", mineRow(gomoku)+` && `+mineRow(weiqi)+` && !!`+mineRow(left)+` && !!`+mineRow("gone-match"))
	ann.WaitText(".my-matches h2", "My matches")
	ann.WaitJS("whose move", mineRow(gomoku)+`.textContent.includes("your move") && `+mineRow(gomoku)+`.classList.contains("your-turn")`)
	if s := browsertest.Eval[string](ann, mineRow(gomoku)+`.textContent`); !strings.Contains(s, "Gomoku") || !strings.Contains(s, "Bot (easy)") {
		ann.Fail("gomoku row %q lacks the game or the opponent", s)
	}
	if s := browsertest.Eval[string](ann, mineRow(weiqi)+`.textContent`); !strings.Contains(s, "Weiqi") || !strings.Contains(s, "waiting for 1 more") {
		ann.Fail("weiqi row %q: want the game and the free seat", s)
	}
	if s := browsertest.Eval[string](ann, mineRow(left)+`.textContent`); !strings.Contains(s, "passed to a bot") {
		ann.Fail("left match row %q does not say the seat passed to a bot", s)
	}
	if s := browsertest.Eval[string](ann, mineRow("gone-match")+`.textContent`); !strings.Contains(s, "expired") {
		ann.Fail("expired match row %q does not say so", s)
	}
	if n := browsertest.Eval[int](ann, `document.querySelectorAll('.my-matches [data-action="resume"]').length`); n != 2 {
		ann.Fail("%d back-in links, want 2 (the live matches only)", n)
	}

	// In Chinese too.
	ann.Click("#lang-zh")
	ann.WaitText(".my-matches h2", "我的对局")
	ann.WaitJS("轮到你", mineRow(gomoku)+`.textContent.includes("轮到你")`)

	// Said once: after another reload the two are gone.
	ann.Open(base + "/")
	ann.WaitJS("listed again", `!!`+mineRow(gomoku))
	ann.WaitJS("the gone matches left the list", `!`+mineRow(left)+` && !`+mineRow("gone-match"))

	// A long name waiting for its move stays inside a phone's screen.
	long := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2})
	var seat map[string]any
	browsertest.PostJSON(t, base, "/games/gomoku/"+long+"/join", map[string]any{"playerName": strings.Repeat("长", 20) + strings.Repeat("W", 20), "playerID": "0"}, &seat)
	ann.Open(base + "/m/gomoku/" + long + "?lang=en")
	ann.Click(`[data-action="sit"][data-seat="1"]`)
	ann.WaitJS("seated", `window.__chaguan && window.__chaguan.you === "1"`)
	browsertest.SizePage(ann, 390, 844, true)
	ann.Open(base + "/?lang=en")
	ann.WaitJS("waiting for the long name", mineRow(long)+` && `+mineRow(long)+`.textContent.includes("waiting for")`)
	if w := browsertest.Eval[int](ann, `document.documentElement.scrollWidth`); w > 390 {
		ann.Fail("the lobby is %d px wide on a 390 px phone", w)
	}
	browsertest.SizePage(ann, 1280, 800, false)

	// One click goes back in, to the seat.
	ann.Click(fmt.Sprintf(`.my-matches [data-match=%s] [data-action="resume"]`, browsertest.JSString(gomoku)))
	ann.WaitJS("back in the gomoku match", fmt.Sprintf(`location.pathname === "/m/gomoku/" + %s && !!window.__chaguan && window.__chaguan.you === "0"`, browsertest.JSString(gomoku)))

	ann.NoJSErrors()
}

// TestSoundsAndAttention: moves make sounds (a knock for a move, a chime
// when it comes round to you, the end), the mute switch silences them and
// is remembered across a reload, and while it is your move in a tab in
// the background the favicon says so.
func TestSoundsAndAttention(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	id := browsertest.CreateMatch(t, base, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"}})
	browsertest.TakeSeat0(ann, base, "gomoku", id, "Ann")
	ann.WaitJS("the sound switch", `!!document.querySelector("#mute svg")`)
	if got := browsertest.Eval[string](ann, `document.getElementById("mute").getAttribute("aria-pressed")`); got != "false" {
		ann.Fail("sound starts muted: aria-pressed %q", got)
	}

	ann.Do("forget earlier sounds", browsertest.EvalVoid(`window.__chaguanSounds = []`))
	browsertest.PlaceStone(ann, 0, 7, 7)
	ann.WaitJS("a move sound, then your turn", `(window.__chaguanSounds || []).some((s) => s.kind === "move" && !s.muted) &&
		window.__chaguanSounds.some((s) => s.kind === "turn" && !s.muted)`)

	// Your move in a background tab: the favicon turns jade with a dot.
	ann.WaitJS("Ann to move", `window.__chaguan.state.G.toMove === "0" && window.__chaguan.state.G.moves.length === 2`)
	ann.Do("hide the tab", browsertest.EvalVoid(`Object.defineProperty(document, "hidden", {configurable: true, get: () => true});
		document.dispatchEvent(new Event("visibilitychange"))`))
	ann.WaitJS("the favicon marks the move", `document.documentElement.dataset.yourTurn === "background" &&
		decodeURIComponent(document.querySelector('link[rel="icon"]').href).includes("#2f8f6f")`)
	ann.Do("show the tab", browsertest.EvalVoid(`Object.defineProperty(document, "hidden", {configurable: true, get: () => false});
		document.dispatchEvent(new Event("visibilitychange"))`))
	ann.WaitJS("the plain favicon", `decodeURIComponent(document.querySelector('link[rel="icon"]').href).includes("#b8322a")`)

	// Mute, reload: still muted, and the next sounds are silent.
	ann.Click("#mute")
	ann.WaitJS("muted", `document.getElementById("mute").getAttribute("aria-pressed") === "true"`)
	ann.Open(base + "/m/gomoku/" + id)
	ann.WaitJS("back in the room", `!!window.__chaguan && window.__chaguan.you === "0"`)
	if got := browsertest.Eval[string](ann, `document.getElementById("mute").getAttribute("aria-pressed")`); got != "true" {
		ann.Fail("mute not remembered: aria-pressed %q", got)
	}
	ann.Do("forget earlier sounds", browsertest.EvalVoid(`window.__chaguanSounds = []`))
	// The easy bot plays anywhere: take a point it left empty.
	xy := browsertest.Eval[[]int](ann, `(() => { const b = window.__chaguan.state.G.board;
		for (let y = 5; y < 10; y++) for (let x = 5; x < 10; x++) if (b[y][x] === ".") return [x, y]; })()`)
	browsertest.PlaceStone(ann, 2, xy[0], xy[1])
	ann.WaitJS("sounds muted", `(window.__chaguanSounds || []).length > 0 && window.__chaguanSounds.every((s) => s.muted)`)
	// Which sound each step makes, for the games' own "taken" moments.
	got := browsertest.Eval[string](ann, `(async () => {
		const { soundFor } = await import("/assets/js/attention.js");
		const st = (id, G, ctx) => ({ stateID: id, you: "0", G, ctx: { started: true, currentPlayer: "1", ...ctx } });
		return [
			soundFor("weiqi", st(1, { captures: [0, 0] }), st(2, { captures: [2, 0] }, { currentPlayer: "0" })),
			soundFor("weiqi", st(1, { captures: [0, 0] }), st(2, { captures: [0, 0] }, { currentPlayer: "0" })),
			soundFor("weiqi", st(1, { captures: [0, 0] }, { currentPlayer: "0" }), st(2, { captures: [0, 0] })),
			soundFor("gongzhu", st(1, { round: 1, tricks: [1] }), st(2, { round: 1, tricks: [1, 2] })),
			soundFor("carcassonne", st(1, { scores: [0, 3] }), st(2, { scores: [4, 3] })),
			soundFor("gomoku", st(1, {}), st(2, {}, { gameover: { winner: "1" } })),
			soundFor("gomoku", st(2, {}), st(2, {})),
		].join(",");
	})()`, chromedp.EvalAwaitPromise)
	if want := "capture,turn,move,capture,capture,end,"; got != want {
		ann.Fail("sounds %q, want %q", got, want)
	}

	ann.NoJSErrors()
}
