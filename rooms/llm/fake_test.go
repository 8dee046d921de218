package llm

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// testKey is the API key of every test endpoint: unique, so finding it in
// a log, an error or a view is a leak.
const testKey = Key("sk-chaguan-test-7f3c9e1a-DO-NOT-LEAK")

// reply is what the fake endpoint answers to one prompt.
type reply struct {
	status  int           // default 200
	content string        // the assistant's text (status 200) or the body
	delay   time.Duration // before answering; the request's end cuts it short

	null        bool        // status 200: the content is JSON null
	reasoning   string      // status 200: a reasoning_content field beside the content
	refusal     string      // status 200: the message's refusal
	finish      string      // status 200: the finish_reason; default stop
	header      http.Header // added to the response
	contentType string      // of an error response; default application/json
}

// fakeLLM is an OpenAI-compatible chat-completions server over real HTTP
// (httptest), serving POST /v1/chat/completions as openai-go calls it.
type fakeLLM struct {
	*httptest.Server
	answer func(user string) reply
	// byBody, when set, answers instead of answer, from the whole request.
	byBody func(body map[string]any) reply

	mu      sync.Mutex
	bodies  []map[string]any // the request bodies received
	auth    []string         // the Authorization headers received
	prompts []string         // the user messages received
	models  []string
}

func newFake(t *testing.T, answer func(user string) reply) *fakeLLM {
	t.Helper()
	f := &fakeLLM{answer: answer}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.serve)
	f.Server = httptest.NewServer(mux)
	t.Cleanup(f.Close)
	return f
}

func (f *fakeLLM) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	user := req.Messages[len(req.Messages)-1].Content
	var body map[string]any
	_ = json.Unmarshal(b, &body)
	f.mu.Lock()
	f.bodies = append(f.bodies, body)
	f.auth = append(f.auth, r.Header.Get("Authorization"))
	f.prompts = append(f.prompts, user)
	f.models = append(f.models, req.Model)
	f.mu.Unlock()
	var a reply
	if f.byBody != nil {
		a = f.byBody(body)
	} else {
		a = f.answer(user)
	}
	for k, v := range a.header {
		w.Header()[k] = v
	}
	if a.delay > 0 {
		select {
		case <-time.After(a.delay):
		case <-r.Context().Done():
			return
		}
	}
	if a.status != 0 && a.status != http.StatusOK {
		ct := a.contentType
		if ct == "" {
			ct = "application/json"
		}
		w.Header().Set("Content-Type", ct)
		w.WriteHeader(a.status)
		_, _ = io.WriteString(w, a.content)
		return
	}
	msg := map[string]any{"role": "assistant", "content": a.content}
	if a.null {
		msg["content"] = nil
	}
	if a.reasoning != "" {
		msg["reasoning_content"] = a.reasoning
	}
	if a.refusal != "" {
		msg["refusal"] = a.refusal
	}
	finish := a.finish
	if finish == "" {
		finish = "stop"
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": "chatcmpl-test", "object": "chat.completion", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg}},
	})
}

func (f *fakeLLM) lastPrompt() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.prompts) == 0 {
		return ""
	}
	return f.prompts[len(f.prompts)-1]
}

// requestBodies returns a copy of the request bodies received so far.
func (f *fakeLLM) requestBodies() []map[string]any {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]map[string]any(nil), f.bodies...)
}

func (f *fakeLLM) requests() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.prompts)
}

// player returns an Engine for the fake endpoint with testKey.
func (f *fakeLLM) player(t *testing.T, timeout time.Duration) *Engine {
	t.Helper()
	p, err := New(Endpoint{Name: "test", BaseURL: f.URL + "/v1", Model: "test-model", KeyEnv: "TEST_KEY", Timeout: timeout}, testKey, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// always answers every prompt with the same reply.
func always(a reply) func(string) reply { return func(string) reply { return a } }

// views returns seat 0's view JSON in the tile phase of a fresh 2-seat
// game, and in the meeple phase after the normal bot placed the tile, with
// the states they come from.
func views(t *testing.T) (tile, meeple json.RawMessage, tileState, meepleState carcassonne.State) {
	t.Helper()
	r := carcassonne.Rules{}
	for seed := uint64(1); seed < 100; seed++ {
		s, err := r.Setup(2, nil, games.NewRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		p := r.View(s, 0).Placements[0]
		name, args := carcassonne.MovePlaceTile, games.Args(map[string]int{"x": p.X, "y": p.Y, "rotation": p.Rotations[0]})
		next, err := r.Apply(s, 0, name, args)
		if err != nil {
			t.Fatal(err)
		}
		if next.Phase != carcassonne.PhaseMeeple {
			continue
		}
		return marshal(t, r.View(s, 0)), marshal(t, r.View(next, 0)), s, next
	}
	t.Fatal("no seed gives a meeple phase on the first turn")
	return
}

func marshal(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// mustNotLeak fails when s holds the key, or its start (an error that
// cut a quoted answer in the middle of the key).
func mustNotLeak(t *testing.T, where, s string) {
	t.Helper()
	if strings.Contains(s, string(testKey)[:12]) {
		t.Errorf("the API key leaked into %s: %s", where, s)
	}
}
