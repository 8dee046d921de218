package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/server/servertest"
)

// fakeChat is an OpenAI-compatible chat-completions endpoint (POST
// /v1/chat/completions) for the LLM bot level "llm-test": it answers the
// first listed option, and while held it keeps every request until the
// test lets go, so the page can be seen while the bot thinks.
type fakeChat struct {
	*httptest.Server
	arrived chan struct{} // a held request came in

	mu       sync.Mutex
	gate     chan struct{} // closed to let held requests go; nil: answer at once
	requests int
	reason   string // sent beside the option when set
}

// setReason makes the endpoint give reason with its answers.
func (f *fakeChat) setReason(reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reason = reason
}

var firstOptionRE = regexp.MustCompile(`N from (-?\d+) to`)

func newFakeChat(t *testing.T) *fakeChat {
	t.Helper()
	f := &fakeChat{arrived: make(chan struct{}, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.serve)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(func() { f.letGo(); f.Close() })
	return f
}

// hold makes the endpoint keep the requests that come from now on.
func (f *fakeChat) hold() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gate == nil {
		f.gate = make(chan struct{})
	}
}

// letGo answers the held requests and every later one at once.
func (f *fakeChat) letGo() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gate != nil {
		close(f.gate)
		f.gate = nil
	}
}

func (f *fakeChat) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *fakeChat) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	f.mu.Lock()
	f.requests++
	gate, reason := f.gate, f.reason
	f.mu.Unlock()
	if gate != nil {
		f.arrived <- struct{}{}
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
	}
	option := "1"
	if m := firstOptionRE.FindStringSubmatch(req.Messages[len(req.Messages)-1].Content); m != nil {
		option = m[1]
	}
	content := `{"option": ` + option + `}`
	if reason != "" {
		r, _ := json.Marshal(reason)
		content = `{"option": ` + option + `, "reason": ` + string(r) + `}`
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-web", "object": "chat.completion", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": content}}},
	})
}

// startLLMServer starts a test server (memory store, bots with no delay)
// whose Carcassonne has the bot level "llm-test" backed by the fake
// endpoint f, and returns its base URL.
func startLLMServer(t *testing.T, f *fakeChat) string {
	t.Helper()
	return startLLMServerTimeout(t, f, time.Minute)
}

// startLLMServerTimeout is startLLMServer with the level's decision limit.
func startLLMServerTimeout(t *testing.T, f *fakeChat, timeout time.Duration) string {
	t.Helper()
	p, err := llm.New(llm.Endpoint{Name: "test", BaseURL: f.URL + "/v1", Model: "fake", Timeout: timeout}, "", f.Client())
	if err != nil {
		t.Fatal(err)
	}
	players := map[string]map[string]rooms.EngineLevel{llm.Game: {p.Level(): p.PlayerLevel()}}
	return servertest.Start(t, servertest.Options{Players: players}).URL
}

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
	f := newFakeChat(t)
	base := startLLMServer(t, f)
	b := StartBrowser(t)
	ann := b.NewPage("ann")
	id := createMatch(t, base, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "llm-test"}})
	ccSit(ann, base, id, "en", "Ann")
	// Spectators: a phone in Chinese and in English, a laptop in Chinese.
	var watchers []*Page
	for _, w := range []struct {
		name, lang string
		w, h       int64
	}{{"phone-zh", "zh", 390, 844}, {"phone-en", "en", 390, 844}, {"desk-zh", "zh", 1280, 800}} {
		p := b.NewPage(w.name)
		sizePage(p, w.w, w.h, w.w < 500)
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

	ccMyTurn(ann, "my first turn")
	if got := Eval[[]bool](ann, llmThinking); got[0] || got[1] || got[2] || got[3] {
		ann.Fail("thinking shown on my turn: %v", got)
	}
	f.hold()
	n := Eval[int](ann, ccG+`.board.length`)
	ccPlayTurn(t, ann, 0, false)
	select {
	case <-f.arrived:
	case <-time.After(60 * time.Second):
		ann.Fail("the LLM seat sent no request")
	}
	ann.WaitJS("thinking on seat 1, in the status and the seats list", `(() => { const s = `+llmThinking+`; return s[0] && s[1] && s[2] && !s[3]; })()`)
	ann.WaitText(".cc-status", "test\u00a02 (LLM) is\u00a0thinking")
	for _, p := range watchers {
		p.WaitJS("thinking for the spectator", `(() => { const s = `+llmThinking+`; return s[0] && s[1] && s[2] && !s[3]; })()`)
		lookShot(p, "llm-thinking-"+p.name)
		if os.Getenv("CHAGUAN_SHOTS") != "" && strings.HasPrefix(p.name, "phone") {
			p.Do("scroll to the players", evalVoid(`document.querySelector(".cc-players").scrollIntoView({block: "center"})`))
			lookShot(p, "llm-thinking-"+p.name+"-players")
			p.Do("scroll to the seats", evalVoid(`document.querySelector(".seats").scrollIntoView({block: "center"})`))
			lookShot(p, "llm-thinking-"+p.name+"-seats")
		}
	}
	lookShot(ann, "llm-thinking-desk-en")
	bob.WaitText(".cc-status", "思考中")
	bob.WaitText(`.seats [data-seat="1"] [data-thinking]`, "思考中")
	// Held, the LLM has not moved: the board is as the person left it.
	if got := Eval[int](ann, `window.__chaguan.latest.G.board.length`); got != n+1 {
		ann.Fail("the board has %d tiles while the LLM thinks, want %d", got, n+1)
	}

	f.letGo()
	ccMyTurn(ann, "my turn after the LLM's")
	if got := Eval[int](ann, ccG+`.board.length`); got < n+2 {
		ann.Fail("the board has %d tiles after the LLM's turn, want %d", got, n+2)
	}
	ann.WaitJS("no thinking on my turn", `!document.querySelector("[data-thinking]")`)
	for _, p := range watchers {
		p.WaitJS("no thinking for the spectator", `!document.querySelector("[data-thinking]")`)
		p.NoJSErrors()
	}
	ann.WaitText(`.cc-player[data-seat="1"] [data-llm="llm-test"]`, "LLM · test")
	if f.count() == 0 {
		ann.Fail("the endpoint got no request")
	}
	ann.NoJSErrors()
}

// lookShot saves what p shows into $CHAGUAN_SHOTS, when set, for a person
// to look at.
func lookShot(p *Page, name string) {
	dir := os.Getenv("CHAGUAN_SHOTS")
	if dir == "" {
		return
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("%s: %v", name, err)
		return
	}
	_ = os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644)
}
