package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
)

// fakeChecker is an LLM endpoint that answers Check with err after 2 ms.
type fakeChecker struct{ err error }

func (f fakeChecker) Check(context.Context) (time.Duration, error) {
	return 2 * time.Millisecond, f.err
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
			if strings.Contains(rec.Body.String(), token) {
				t.Errorf("the operator token is in the body: %s", rec.Body)
			}
		})
	}
}

// TestLLMTestRealEndpoint: POST /llm/test through a real llm.Player
// against a local OpenAI-compatible server over HTTP: ok when it answers;
// when it refuses (401, echoing the key in its body) the 502 body names
// the status and holds no key.
func TestLLMTestRealEndpoint(t *testing.T) {
	const key = "sk-server-test-0c1d2e3f-SECRET"
	status := 200
	llmSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path != "/v1/chat/completions" || r.Header.Get("Authorization") != "Bearer "+key || status != 200 {
			w.WriteHeader(401)
			_, _ = io.WriteString(w, `{"error":{"message":"bad key `+key+`"}}`)
			return
		}
		_, _ = io.WriteString(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{\"option\": 1}"}}]}`)
	}))
	t.Cleanup(llmSrv.Close)
	p, err := llm.New(llm.Endpoint{Name: "local", BaseURL: llmSrv.URL + "/v1", Model: "m", Timeout: 5 * time.Second}, llm.Key(key), nil)
	if err != nil {
		t.Fatal(err)
	}
	var logBuf bytes.Buffer
	srv := server.New(server.Config{Logger: slog.New(slog.NewTextHandler(&logBuf, nil)),
		LLMTest: server.LLMTestConfig{Endpoints: map[string]server.LLMChecker{p.Level(): p}}})
	for _, c := range []struct {
		status, want int
	}{{200, 200}, {401, 502}} {
		status = c.status
		req := httptest.NewRequest("POST", "/llm/test", strings.NewReader(`{"endpoint":"llm-local"}`))
		req.RemoteAddr = "127.0.0.1:40000"
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		t.Logf("endpoint %d: %d %s", c.status, rec.Code, strings.TrimSpace(rec.Body.String()))
		if rec.Code != c.want {
			t.Errorf("endpoint %d: status %d, want %d", c.status, rec.Code, c.want)
		}
		if strings.Contains(rec.Body.String(), key) || strings.Contains(logBuf.String(), key) {
			t.Errorf("the key leaked: body %s log %s", rec.Body, logBuf.String())
		}
	}
}
