package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

// fakeChecker is an LLM endpoint whose decision takes 2 ms and chooses
// option 3 (using 821 tokens), or fails with err.
type fakeChecker struct{ err error }

func (f fakeChecker) Check(context.Context) (llm.CheckResult, error) {
	r := llm.CheckResult{Latency: 2 * time.Millisecond, Requests: 1, Circuit: "closed"}
	if f.err != nil {
		return r, f.err
	}
	three := 3
	r.Option, r.Choice = &three, "at (1,0) rotated 90, edges N,E,S,W FCFC"
	r.Move, r.Args = "placeTile", json.RawMessage(`[{"rotation":90,"x":1,"y":0}]`)
	r.Usage = &llm.Usage{Prompt: 812, Completion: 9, Total: 821}
	return r, nil
}

// TestLLMTest: POST /llm/test checks a configured endpoint for the
// operator only: loopback without a token, anyone with the bearer token;
// a forwarded request is not loopback; 403 otherwise, 404 for an unknown
// endpoint, 502 with the error when the endpoint fails.
func TestLLMTest(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	mgr := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(mgr.Close)
	const token = "operator-token-5e2b"
	endpoints := map[string]server.LLMChecker{
		"llm":          fakeChecker{},
		"llm-deepseek": fakeChecker{},
		"llm-down":     fakeChecker{errors.New("llm-down: OpenAI API error: 500 Internal Server Error")},
	}
	withToken := server.New(server.Config{Rooms: mgr, LLMTest: server.LLMTestConfig{Endpoints: endpoints, Token: token}})
	loopbackOnly := server.New(server.Config{Rooms: mgr, LLMTest: server.LLMTestConfig{Endpoints: endpoints}})
	for _, c := range []struct {
		name    string
		srv     *server.Server
		remote  string
		headers map[string]string
		target  string
		body    string
		status  int
		wantOK  bool
	}{
		{"loopback v4", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test", `{"endpoint":"llm"}`, 200, true},
		{"loopback v6", loopbackOnly, "[::1]:50000", nil, "/llm/test", `{"endpoint":"llm-deepseek"}`, 200, true},
		{"loopback, default endpoint", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test", "", 200, true},
		{"loopback, endpoint in the query", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test?endpoint=llm-deepseek", "", 200, true},
		{"remote, no token configured", loopbackOnly, "203.0.113.9:4000", map[string]string{"Authorization": "Bearer " + token}, "/llm/test", `{"endpoint":"llm"}`, 403, false},
		{"remote without a token", withToken, "203.0.113.9:4000", nil, "/llm/test", `{"endpoint":"llm"}`, 403, false},
		{"remote with a wrong token", withToken, "203.0.113.9:4000", map[string]string{"Authorization": "Bearer nope"}, "/llm/test", `{"endpoint":"llm"}`, 403, false},
		{"remote with the token", withToken, "203.0.113.9:4000", map[string]string{"Authorization": "Bearer " + token}, "/llm/test", `{"endpoint":"llm"}`, 200, true},
		{"forwarded through a local proxy", loopbackOnly, "127.0.0.1:50000", map[string]string{"X-Forwarded-For": "203.0.113.9"}, "/llm/test", `{"endpoint":"llm"}`, 403, false},
		{"remote asking for an unknown endpoint gets 403 first", withToken, "203.0.113.9:4000", nil, "/llm/test", `{"endpoint":"nope"}`, 403, false},
		{"unknown endpoint", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test", `{"endpoint":"llm-nope"}`, 404, false},
		{"failing endpoint", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test", `{"endpoint":"llm-down"}`, 502, false},
		{"bad body", loopbackOnly, "127.0.0.1:50000", nil, "/llm/test", `{"endpoint":`, 400, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("POST", c.target, strings.NewReader(c.body))
			req.RemoteAddr = c.remote
			if c.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			for k, v := range c.headers {
				req.Header.Set(k, v)
			}
			rec := httptest.NewRecorder()
			c.srv.ServeHTTP(rec, req)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			var res struct {
				Endpoint  string `json:"endpoint"`
				OK        bool   `json:"ok"`
				LatencyMs *int64 `json:"latencyMs"`
				Error     any    `json:"error"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &res); err != nil {
				t.Fatalf("body %s: %v", rec.Body, err)
			}
			if res.OK != c.wantOK {
				t.Errorf("ok %v, want %v: %s", res.OK, c.wantOK, rec.Body)
			}
			if (c.status == 200 || c.status == 502) && (res.LatencyMs == nil || res.Endpoint == "") {
				t.Errorf("no endpoint or latency: %s", rec.Body)
			}
			if c.status == 502 && !strings.Contains(rec.Body.String(), "500 Internal Server Error") {
				t.Errorf("the endpoint's error is missing: %s", rec.Body)
			}
			if c.status == 200 && !strings.Contains(rec.Body.String(), `"option":3,"choice":"at (1,0) rotated 90, edges N,E,S,W FCFC","move":{"type":"placeTile","args":[{"rotation":90,"x":1,"y":0}]},"usage":{"promptTokens":812,"completionTokens":9,"totalTokens":821},"requests":1,"circuit":"closed"`) {
				t.Errorf("the decision is missing: %s", rec.Body)
			}
			if strings.Contains(rec.Body.String(), token) {
				t.Errorf("the operator token is in the body: %s", rec.Body)
			}
		})
	}
}

// TestLLMTestRealEndpoint: POST /llm/test through a real llm.Engine
// against a local OpenAI-compatible server over HTTP makes one real
// decision: the endpoint gets a Carcassonne position with numbered
// options, and the answer says the option chosen, what it is, the move,
// the latency and the tokens the endpoint reported. An unlisted option is
// a 502 that still names it; a refusal (401, echoing the key in its body)
// is a 502 that names the status and holds no key.
func TestLLMTestRealEndpoint(t *testing.T) {
	const key = "sk-server-test-0c1d2e3f-SECRET"
	var (
		mu      sync.Mutex
		status  = 200
		content = "Taking the second.\n```json\n{\"option\": 2}\n```"
		prompts []string
	)
	llmSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		st, ct := status, content
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+key || st != 200 {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"error":{"message":"bad key `+key+`"}}`)
			return
		}
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		if len(req.Messages) > 1 {
			mu.Lock()
			prompts = append(prompts, req.Messages[1].Content)
			mu.Unlock()
		}
		answer, _ := json.Marshal(ct)
		_, _ = fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":1500,"completion_tokens":12,"total_tokens":1512}}`, answer)
	}))
	t.Cleanup(llmSrv.Close)
	p, err := llm.New(llm.Endpoint{Name: "local", BaseURL: llmSrv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}, llm.Key(key), nil)
	if err != nil {
		t.Fatal(err)
	}
	var logBuf syncBuffer
	srv := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		LLMTest: server.LLMTestConfig{Endpoints: map[string]server.LLMChecker{p.Level(): p}}})
	type result struct {
		OK        bool   `json:"ok"`
		LatencyMs *int64 `json:"latencyMs"`
		Option    *int   `json:"option"`
		Choice    string `json:"choice"`
		Move      *struct {
			Type string          `json:"type"`
			Args json.RawMessage `json:"args"`
		} `json:"move"`
		Usage    *struct{ PromptTokens, CompletionTokens, TotalTokens int64 } `json:"usage"`
		Requests int                                                          `json:"requests"`
		Circuit  string                                                       `json:"circuit"`
		Error    string                                                       `json:"error"`
	}
	call := func(st int, answer string, want int) result {
		t.Helper()
		mu.Lock()
		status, content, prompts = st, answer, nil
		mu.Unlock()
		rec := llmTestCall(srv, "/llm/test", `{"endpoint":"llm-local"}`)
		t.Logf("endpoint %d %q: %d %s", st, answer, rec.Code, strings.TrimSpace(rec.Body.String()))
		if rec.Code != want {
			t.Errorf("endpoint %d: status %d, want %d", st, rec.Code, want)
		}
		for _, leak := range []string{key, key[:12], llmSrv.URL, strings.TrimPrefix(llmSrv.URL, "http://")} {
			if strings.Contains(rec.Body.String(), leak) {
				t.Errorf("the answer holds %q: %s", leak, rec.Body)
			}
		}
		if strings.Contains(logBuf.String(), key[:12]) {
			t.Errorf("the key leaked into the log: %s", logBuf.String())
		}
		var r result
		if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
			t.Fatalf("body %s: %v", rec.Body, err)
		}
		return r
	}

	r := call(200, "Taking the second.\n```json\n{\"option\": 2}\n```", 200)
	mu.Lock()
	prompt := strings.Join(prompts, "\n")
	mu.Unlock()
	if !r.OK || r.LatencyMs == nil || r.Option == nil || *r.Option != 2 || r.Requests != 1 || r.Circuit != "closed" {
		t.Fatalf("result %+v, want ok with option 2 after one request", r)
	}
	var at []carcassonne.TileArgs
	if r.Move == nil || r.Move.Type != carcassonne.MovePlaceTile || json.Unmarshal(r.Move.Args, &at) != nil || len(at) != 1 {
		t.Fatalf("move %+v, want a tile placement", r.Move)
	}
	// The choice describes the placement, which the prompt offered.
	spot := fmt.Sprintf("(%d,%d)", at[0].X, at[0].Y)
	if !strings.Contains(r.Choice, spot) || !strings.Contains(prompt, spot) || !strings.Contains(prompt, `{"option": N}`) {
		t.Errorf("choice %q, move at %s: not an option of the prompt:\n%s", r.Choice, spot, prompt)
	}
	if r.Usage == nil || r.Usage.PromptTokens != 1500 || r.Usage.CompletionTokens != 12 || r.Usage.TotalTokens != 1512 {
		t.Errorf("usage %+v, want 1500/12/1512", r.Usage)
	}

	r = call(200, `{"option": 999}`, 502)
	if r.OK || r.Option == nil || *r.Option != 999 || r.Move != nil || r.Choice != "" || !strings.Contains(r.Error, "llm-local: the answer is not a listed option") {
		t.Errorf("unlisted option: %+v", r)
	}
	if r.Usage == nil || r.Usage.TotalTokens != int64(r.Requests)*1512 {
		t.Errorf("unlisted option: usage %+v over %d requests", r.Usage, r.Requests)
	}

	r = call(401, "", 502)
	if r.OK || r.Option != nil || r.Usage != nil || r.Error != "llm-local: the endpoint answered HTTP 401 Unauthorized" {
		t.Errorf("401: %+v", r)
	}
}

// TestLLMTestUnavailable: an endpoint that failed five times in a row
// has its circuit open, and one that answered 429 with Retry-After asks
// to wait: /llm/test then answers 502 at once saying so, sends nothing
// to the endpoint, and names neither its address nor its key.
func TestLLMTestUnavailable(t *testing.T) {
	const key = "sk-server-test-77aa-SECRET"
	for _, c := range []struct {
		name   string
		status int
		header string
		calls  int    // calls that reach the endpoint
		want   string // the error of the next call
	}{
		{"circuit open", 503, "", llm.BreakerFailures, "llm-x: circuit open after 5 endpoint failures in a row: nothing sent, next probe in "},
		{"Retry-After", 429, "120", 1, "llm-x: the endpoint asked to wait (Retry-After): nothing sent for 2m0s more"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			requests := 0
			llmSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				requests++
				mu.Unlock()
				if c.header != "" {
					w.Header().Set("Retry-After", c.header)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(c.status)
				_, _ = io.WriteString(w, `{"error":{"message":"overloaded, key `+key+`"}}`)
			}))
			t.Cleanup(llmSrv.Close)
			p, err := llm.New(llm.Endpoint{Name: "x", BaseURL: llmSrv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}, llm.Key(key), nil)
			if err != nil {
				t.Fatal(err)
			}
			var logBuf syncBuffer
			log := slog.New(slog.NewTextHandler(&logBuf, nil))
			p.SetLogger(log)
			srv := server.New(server.Config{Logger: log, LLMTest: server.LLMTestConfig{Endpoints: map[string]server.LLMChecker{p.Level(): p}}})
			for i := range c.calls {
				if rec := llmTestCall(srv, "/llm/test?endpoint=llm-x", ""); rec.Code != 502 || !strings.Contains(rec.Body.String(), fmt.Sprintf("HTTP %d", c.status)) {
					t.Fatalf("call %d: %d %s", i, rec.Code, rec.Body)
				}
			}
			rec := llmTestCall(srv, "/llm/test?endpoint=llm-x", "")
			body := rec.Body.String()
			t.Logf("%d %s", rec.Code, strings.TrimSpace(body))
			var r struct {
				OK       bool   `json:"ok"`
				Requests int    `json:"requests"`
				Error    string `json:"error"`
			}
			_ = json.Unmarshal(rec.Body.Bytes(), &r)
			if rec.Code != 502 || r.OK || r.Requests != 0 || !strings.HasPrefix(r.Error, c.want) {
				t.Errorf("got %d %s, want 502 with %q and no request", rec.Code, body, c.want)
			}
			mu.Lock()
			n := requests
			mu.Unlock()
			if n != c.calls {
				t.Errorf("%d requests reached the endpoint, want %d", n, c.calls)
			}
			host := strings.TrimPrefix(llmSrv.URL, "http://")
			_, port, _ := net.SplitHostPort(host)
			for _, leak := range []string{llmSrv.URL, host, ":" + port, key} {
				if strings.Contains(body, leak) {
					t.Errorf("the answer holds %q: %s", leak, body)
				}
			}
			if strings.Contains(logBuf.String(), key) {
				t.Errorf("the key leaked into the log: %s", logBuf.String())
			}
		})
	}
}

// TestLLMTestFailureKinds: the adapter's own refusals are told by kind,
// before any text match: an unavailable endpoint with its wait, a
// malformed answer with the adapter's reason (never the answer's text,
// which may hold anything, here words the text matches would read as a
// closed connection or a TLS failure).
func TestLLMTestFailureKinds(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{&llm.UnavailableError{Level: "llm", RetryAfter: true, Left: 6400 * time.Millisecond, Cause: "OpenAI API error: 429 Too Many Requests"}, "llm: the endpoint asked to wait (Retry-After): nothing sent for 6s more"},
		{&llm.UnavailableError{Level: "llm", Left: 25 * time.Second, Failures: 5, Cause: `Post "http://10.0.0.5/v1/chat/completions": EOF`}, "llm: circuit open after 5 endpoint failures in a row: nothing sent, next probe in 25s"},
		{&llm.UnavailableError{Level: "llm", Failures: 6, Cause: "OpenAI API error: 500"}, "llm: circuit half-open after 6 endpoint failures in a row: a probe request is in flight"},
		{fmt.Errorf(`%w: no {"option": N} and no bare number: "EOF tls: at http://10.0.0.5"`, llm.ErrMalformed), `llm: the answer names no option: no {"option": N} and no bare number`},
		{fmt.Errorf(`%w: the answer is only reasoning (<think>…</think>), no choice after it (cut off at max_tokens)`, llm.ErrMalformed), "llm: the answer names no option: the answer is only reasoning (cut off at max_tokens: raise max_tokens=)"},
		{fmt.Errorf("%w: option 99 is not listed (1 to 12)", llm.ErrNoOption), "llm: the answer is not a listed option"},
	} {
		srv := server.New(server.Config{LLMTest: server.LLMTestConfig{Endpoints: map[string]server.LLMChecker{"llm": fakeChecker{c.err}}}})
		rec := llmTestCall(srv, "/llm/test", "")
		var r struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal(rec.Body.Bytes(), &r)
		if rec.Code != 502 || r.Error != c.want {
			t.Errorf("%v:\n got %d %q\nwant 502 %q", c.err, rec.Code, r.Error, c.want)
		}
	}
}

// llmTestCall posts to target from loopback with body (none when "").
func llmTestCall(srv *server.Server, target, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", target, strings.NewReader(body))
	req.RemoteAddr = "127.0.0.1:40000"
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec
}

// syncBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
