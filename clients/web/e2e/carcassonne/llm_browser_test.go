package carcassonne_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/web/browsertest"
)

// llmThinking is a JS expression: which places show "thinking" for seat
// 1, as [side panel seat, status, seats list, anywhere for seat 0].
const llmThinking = `[
	!!document.querySelector('.cc-player[data-seat="1"] [data-thinking]'),
	!!document.querySelector('.cc-status [data-thinking]'),
	!!document.querySelector('.seats [data-seat="1"] [data-thinking]'),
	!!document.querySelector('.cc-player[data-seat="0"] [data-thinking], .seats [data-seat="0"] [data-thinking]'),
]`

// TestCarcassonneLLMSeat: a person plays against the LLM level of an
// endpoint that answers only when the test lets it. The LLM seat wears
// the badge "LLM · test" in the side panel and the seats list (Chinese:
// "大模型 · test"); while its request is held, that seat, the status line
// and the seats list say it is thinking (for a spectator too); once the
// endpoint answers, the move is on the board and "thinking" is gone.
func TestCarcassonneLLMSeat(t *testing.T) {
	f := browsertest.NewFakeChat(t)
	base := browsertest.StartLLMServer(t, f)
	b := browsertest.Start(t)
	ann := b.NewPage("ann")
	id := browsertest.CreateMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "llm-test"}})
	browsertest.CarcassonneSit(ann, base, id, "en", "Ann")
	// Spectators: a phone in Chinese and in English, a laptop in Chinese.
	var watchers []*browsertest.Page
	for _, w := range []struct {
		name, lang string
		w, h       int64
	}{{"phone-zh", "zh", 390, 844}, {"phone-en", "en", 390, 844}, {"desk-zh", "zh", 1280, 800}} {
		p := b.NewPage(w.name)
		browsertest.SizePage(p, w.w, w.h, w.w < 500)
		p.Open(fmt.Sprintf("%s/m/carcassonne/%s?lang=%s", base, id, w.lang))
		badge := map[string]string{"en": "LLM · test", "zh": "大模型 · test"}[w.lang]
		p.WaitText(`.cc-player[data-seat="1"] [data-llm="llm-test"]`, badge)
		p.WaitText(`.seats [data-seat="1"] [data-llm="llm-test"]`, badge)
		watchers = append(watchers, p)
	}
	bob := watchers[0]

	ann.WaitText(`.cc-player[data-seat="1"] [data-llm="llm-test"]`, "LLM · test")
	ann.WaitText(`.seats [data-seat="1"] [data-llm="llm-test"]`, "LLM · test")
	ann.WaitText(`.cc-player[data-seat="1"] .cc-pname`, "test\u00a02")

	browsertest.CarcassonneMyTurn(ann, "my first turn")
	if got := browsertest.Eval[[]bool](ann, llmThinking); got[0] || got[1] || got[2] || got[3] {
		ann.Fail("thinking shown on my turn: %v", got)
	}
	f.Hold()
	n := browsertest.Eval[int](ann, browsertest.CarcassonneG+`.board.length`)
	browsertest.CarcassonnePlayTurn(t, ann, 0, false)
	select {
	case <-f.Arrived:
	case <-time.After(60 * time.Second):
		ann.Fail("the LLM seat sent no request")
	}
	ann.WaitJS("thinking on seat 1, in the status and the seats list", `(() => { const s = `+llmThinking+`; return s[0] && s[1] && s[2] && !s[3]; })()`)
	ann.WaitText(".cc-status", "test\u00a02 (LLM) is\u00a0thinking")
	for _, p := range watchers {
		p.WaitJS("thinking for the spectator", `(() => { const s = `+llmThinking+`; return s[0] && s[1] && s[2] && !s[3]; })()`)
		browsertest.LookShot(p, "llm-thinking-"+p.Name())
		if os.Getenv("CHAGUAN_SHOTS") != "" && strings.HasPrefix(p.Name(), "phone") {
			p.Do("scroll to the players", browsertest.EvalVoid(`document.querySelector(".cc-players").scrollIntoView({block: "center"})`))
			browsertest.LookShot(p, "llm-thinking-"+p.Name()+"-players")
			p.Do("scroll to the seats", browsertest.EvalVoid(`document.querySelector(".seats").scrollIntoView({block: "center"})`))
			browsertest.LookShot(p, "llm-thinking-"+p.Name()+"-seats")
		}
	}
	browsertest.LookShot(ann, "llm-thinking-desk-en")
	bob.WaitText(".cc-status", "思考中")
	bob.WaitText(`.seats [data-seat="1"] [data-thinking]`, "思考中")
	// Held, the LLM has not moved: the board is as the person left it.
	if got := browsertest.Eval[int](ann, `window.__chaguan.latest.G.board.length`); got != n+1 {
		ann.Fail("the board has %d tiles while the LLM thinks, want %d", got, n+1)
	}

	f.LetGo()
	browsertest.CarcassonneMyTurn(ann, "my turn after the LLM's")
	if got := browsertest.Eval[int](ann, browsertest.CarcassonneG+`.board.length`); got < n+2 {
		ann.Fail("the board has %d tiles after the LLM's turn, want %d", got, n+2)
	}
	ann.WaitJS("no thinking on my turn", `!document.querySelector("[data-thinking]")`)
	for _, p := range watchers {
		p.WaitJS("no thinking for the spectator", `!document.querySelector("[data-thinking]")`)
		p.NoJSErrors()
	}
	ann.WaitText(`.cc-player[data-seat="1"] [data-llm="llm-test"]`, "LLM · test")
	if f.Count() == 0 {
		ann.Fail("the endpoint got no request")
	}
	ann.NoJSErrors()
}
