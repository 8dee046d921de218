package site_test

import (
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/web/browsertest"
	"github.com/chromedp/chromedp"
)

// TestLanguageSwitch: the visible switch changes the texts at once, the
// choice survives a reload, and the room's plugin follows it too.
func TestLanguageSwitch(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	ann.Open(base + "/?lang=en")
	ann.WaitText(".hero h1", "Chaguan")
	ann.WaitText(`.game-card[data-game="gomoku"] h3`, "Gomoku")
	ann.Click("#lang-zh")
	ann.WaitText(".hero h1", "茶馆")
	ann.WaitText(`.game-card[data-game="gomoku"] h3`, "五子棋")
	ann.Open(base + "/")
	ann.WaitText(".hero h1", "茶馆")
	if got := browsertest.Eval[string](ann, `document.documentElement.lang`); got != "zh-CN" {
		ann.Fail("html lang %q, want zh-CN", got)
	}
	browsertest.CreateGomokuIn(ann, base, "Ann", "zh")
	ann.WaitText(".gomoku-status", "等待玩家入座")
	ann.Click("#lang-en")
	ann.WaitText(".gomoku-status", "Waiting for players")
	ann.WaitText(".seats-card h3", "Seats")
}

// TestUndoAndErrorToasts: a refused move shows the server's reason as a
// toast in the viewer's language (messageZh in Chinese); an undo request
// shows Accept/Decline to the opponent, and accepting takes the moves back.
func TestUndoAndErrorToasts(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	bob := browsertest.SeatBob(b, invite, "zh")

	browsertest.PlaceStone(ann, 0, 7, 7)
	bob.WaitJS("Ann's first move", browsertest.GomokuMovesIs(1))
	bob.Click(`[data-move="requestUndo"]`)
	bob.WaitText("#toasts", "你还没有可以悔的棋")
	browsertest.PlaceStone(bob, 1, 8, 8)

	ann.WaitJS("Bob's move", browsertest.GomokuMovesIs(2))
	ann.Click(`[data-move="requestUndo"]`)
	ann.WaitText(".gomoku-status", "Waiting for an answer")
	bob.WaitText(".gomoku-status", "Ann 请求悔棋")
	bob.Click(`[data-move="accept-undo"]`)
	for _, p := range []*browsertest.Page{ann, bob} {
		p.WaitJS("the moves taken back", browsertest.GomokuMovesIs(0))
	}
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	ann.NoJSErrors()
	bob.NoJSErrors()
}

// TestLobbyJoin: a waiting match appears in another person's lobby, and
// "Join" seats them and opens the room.
func TestLobbyJoin(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.CreateGomoku(ann, base, "Ann")
	id := browsertest.Eval[string](ann, `window.__chaguan.matchID`)

	bob := b.NewPage("bob")
	bob.Open(base + "/?lang=en")
	row := `.match-row[data-match="` + id + `"]`
	bob.WaitText(row, "Ann")
	bob.WaitText(row, "1/2 seated")
	bob.Type("#name-input", "Bob")
	bob.Click(row + ` [data-action="join"]`)
	bob.WaitJS("Bob in the room", `!!window.__chaguan && window.__chaguan.you === "1"`)
	ann.WaitText(`.seat[data-seat="1"]`, "Bob")
	ann.WaitText(".gomoku-status", "Your turn (Black)")
}

// TestReconnect: when the socket drops, the banner says so, the client
// reconnects by itself with the same seat, and play goes on.
func TestReconnect(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	bob := browsertest.SeatBob(b, invite, "en")
	browsertest.PlaceStone(ann, 0, 7, 7)

	// Record whether the banner ever showed: it may be up for only a moment.
	ann.Do("watch the banner", browsertest.EvalVoid(`(() => {
		const b = document.getElementById("banner");
		window.__bannerSeen = "";
		new MutationObserver(() => { if (!b.hidden) window.__bannerSeen = b.textContent; })
			.observe(b, {attributes: true, childList: true, characterData: true, subtree: true});
		window.__chaguan.drop();
	})()`))
	ann.WaitJS("the reconnect banner", `window.__bannerSeen === "Reconnecting…"`)
	ann.WaitJS("the banner gone", `document.getElementById("banner").hidden`)
	ann.WaitJS("seat kept", `window.__chaguan.you === "0"`)
	browsertest.PlaceStone(bob, 1, 8, 8)
	browsertest.PlaceStone(ann, 2, 6, 6)
	bob.WaitJS("Ann's move after reconnecting", browsertest.GomokuMovesIs(3))
	ann.NoJSErrors()
}

// TestAutoplay: the seated player's autoplay switch lets the server's bot
// play for them, and the seat shows it.
func TestAutoplay(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	browsertest.CreateGomoku(ann, base, "Ann")
	ann.Do("choose the easy bot", browsertest.SetSelect(`.seat[data-seat="1"] select`, "easy"))
	ann.Click(`[data-action="add-bot"][data-seat="1"]`)
	ann.WaitText(".gomoku-status", "Your turn (Black)")
	ann.Click(`[data-action="autoplay"]`)
	ann.WaitText(`.seat[data-seat="0"]`, "autoplay")
	ann.WaitJS("the bot playing for Ann", `window.__chaguan.state.G.moves.length >= 4 || !!window.__chaguan.state.ctx.gameover`)
}

// TestStaleSeat: a remembered seat whose credentials the server refuses is
// forgotten; the visitor is told and watches instead.
func TestStaleSeat(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	id := browsertest.Eval[string](ann, `window.__chaguan.matchID`)

	eve := b.NewPage("eve")
	eve.Open(base + "/?lang=en")
	eve.Do("remember a forged seat", browsertest.EvalVoid(`localStorage.setItem("chaguan:seat:" + `+browsertest.JSString(id)+`,
		JSON.stringify({playerID: "1", credentials: "not-the-credentials", name: "Eve"}))`))
	eve.Open(invite)
	eve.WaitText("#toasts", "no longer yours")
	eve.WaitText(".host-status", "Watching")
	eve.WaitJS("the forged seat forgotten", `localStorage.getItem("chaguan:seat:" + `+browsertest.JSString(id)+`) === null`)
	eve.WaitJS("seat 1 still free", `!!document.querySelector('[data-action="sit"][data-seat="1"]')`)
}

// TestLeave: leaving asks first; after the start (two seats taken) a bot
// takes the seat for good and the person watches from then on.
func TestLeave(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	bob := browsertest.SeatBob(b, invite, "en")
	ann.WaitText(`.seat[data-seat="1"]`, "Bob")

	bob.Click(`[data-action="leave"]`)
	bob.Click(`[data-confirm="cancel"]`)
	if you := browsertest.Eval[string](bob, `window.__chaguan.you`); you != "1" {
		bob.Fail("cancelled leave left the seat: you = %q", you)
	}
	bob.Click(`[data-action="leave"]`)
	bob.Click(`[data-confirm="ok"]`)
	bob.WaitJS("Bob watching", `window.__chaguan && window.__chaguan.you === ""`)
	bob.WaitText(".host-status", "Watching")
	ann.WaitText(`.seat[data-seat="1"]`, "bot")
	browsertest.PlaceStone(ann, 0, 7, 7)
	bob.WaitJS("the bot answers in Bob's place", browsertest.GomokuMovesIs(2))
	bob.NoJSErrors()
}

// TestChat: lines reach everyone with the sender's name, a spectator's
// lines are marked, and the input stops at 500 characters.
func TestChat(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	sam := b.NewPage("spectator")
	sam.Open(invite + "?lang=en")
	sam.WaitText(".host-status", "Watching")

	ann.Type(`[data-chat="input"]`, "Welcome to the teahouse")
	ann.Click(`[data-chat="send"]`)
	sam.WaitText(".chat-lines", "Welcome to the teahouse")
	sam.WaitText(".chat-lines .chat-name", "Ann")

	sam.Type(`[data-chat="input"]`, "好棋！")
	sam.Click(`[data-chat="send"]`)
	ann.WaitText(".chat-lines", "好棋！")
	ann.WaitJS("the spectator marked", `[...document.querySelectorAll(".chat-line")].some(l => l.textContent.includes("好棋！") && l.textContent.includes("spectator"))`)
	if n := browsertest.Eval[int](ann, `[...document.querySelectorAll(".chat-line")].filter(l => l.textContent.includes("Welcome") && l.textContent.includes("spectator")).length`); n != 0 {
		ann.Fail("a seated player's line is marked as a spectator's")
	}

	ann.Do("type 600 characters", browsertest.EvalVoid(`(() => { const e = document.querySelector('[data-chat="input"]'); e.focus(); })()`),
		chromedp.SendKeys(chromedp.CSS(`[data-chat="input"]`), strings.Repeat("x", 600)))
	if n := browsertest.Eval[int](ann, `document.querySelector('[data-chat="input"]').value.length`); n != 500 {
		ann.Fail("chat input holds %d characters, want at most 500", n)
	}
}

// TestUnknownMatch: an invite link to a match that does not exist says so
// and links back to the lobby; an address that is no route says "not found".
func TestUnknownMatch(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	p := b.NewPage("visitor")
	p.Open(base + "/m/gomoku/no-such-match?lang=en")
	p.WaitText("#view", "does not exist")
	p.Click(`#view a[href="/"]`)
	p.WaitText(".hero h1", "Chaguan")
	p.Do("an unknown path", browsertest.EvalVoid(`history.pushState(null, "", "/nowhere"); dispatchEvent(new PopStateEvent("popstate"))`))
	p.WaitText("#view", "Page not found")
}

// TestTurnInTitle: the tab title carries a mark while it is the viewer's
// move, so a player in another tab sees it.
func TestTurnInTitle(t *testing.T) {
	base := browsertest.StartServer(t)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	invite := browsertest.CreateGomoku(ann, base, "Ann")
	if title := browsertest.Eval[string](ann, `document.title`); strings.HasPrefix(title, "●") {
		ann.Fail("title %q marked before the match started", title)
	}
	bob := browsertest.SeatBob(b, invite, "en")
	ann.WaitJS("Ann's turn in the title", `document.title.startsWith("● Gomoku")`)
	if title := browsertest.Eval[string](bob, `document.title`); strings.HasPrefix(title, "●") {
		bob.Fail("title %q marked on the opponent's turn", title)
	}
	browsertest.PlaceStone(ann, 0, 7, 7)
	bob.WaitJS("Bob's turn in the title", `document.title.startsWith("● Gomoku")`)
	ann.WaitJS("Ann's mark gone", `!document.title.startsWith("●")`)
}
