package browsertest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// FakeChat is an OpenAI-compatible chat-completions endpoint (POST
// /v1/chat/completions) for the LLM bot level "llm-test": it answers the
// first listed option, and while held it keeps every request until the
// test lets go, so the page can be seen while the bot thinks.
type FakeChat struct {
	*httptest.Server
	Arrived chan struct{} // a held request came in

	mu       sync.Mutex
	gate     chan struct{} // closed to let held requests go; nil: answer at once
	requests int
	reason   string // sent beside the option when set
}

// SetReason makes the endpoint give reason with its answers.
func (f *FakeChat) SetReason(reason string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reason = reason
}

func NewFakeChat(t *testing.T) *FakeChat {
	t.Helper()
	f := &FakeChat{Arrived: make(chan struct{}, 16)}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.serve)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(func() { f.LetGo(); f.Close() })
	return f
}

// Hold makes the endpoint keep the requests that come from now on.
func (f *FakeChat) Hold() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gate == nil {
		f.gate = make(chan struct{})
	}
}

// LetGo answers the held requests and every later one at once.
func (f *FakeChat) LetGo() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.gate != nil {
		close(f.gate)
		f.gate = nil
	}
}

func (f *FakeChat) Count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *FakeChat) serve(w http.ResponseWriter, r *http.Request) {
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
		f.Arrived <- struct{}{}
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

// StartLLMServer starts a test server (memory store, bots with no delay)
// whose Carcassonne has the bot level "llm-test" backed by the fake
// endpoint f, and returns its base URL.
func StartLLMServer(t *testing.T, f *FakeChat) string {
	t.Helper()
	return StartLLMServerTimeout(t, f, time.Minute)
}

// StartLLMServerTimeout is startLLMServer with the level's decision limit.
func StartLLMServerTimeout(t *testing.T, f *FakeChat, timeout time.Duration) string {
	t.Helper()
	p, err := llm.New(llm.Endpoint{Name: "test", BaseURL: f.URL + "/v1", Model: "fake", Timeout: timeout}, "", f.Client())
	if err != nil {
		t.Fatal(err)
	}
	players := map[string]map[string]rooms.EngineLevel{llm.Game: {p.Level(): p.PlayerLevel()}}
	return servertest.Start(t, servertest.Options{Players: players}).URL
}

// StartOwnServer starts a test server that lets players bring their own
// LLM (private addresses allowed: the fake endpoint is on loopback).
func StartOwnServer(t *testing.T) string {
	t.Helper()
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: true}, Timeout: time.Minute})
	// No limit on connection tests: every page comes from one address.
	return servertest.Start(t, servertest.Options{Own: own, TryThrottle: server.Throttle{Rate: -1}}).URL
}

var firstOptionRE = regexp.MustCompile(`N from (-?\d+) to`)
