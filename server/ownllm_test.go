package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/clients/web"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// ownKey is the player's key in these tests: finding it anywhere but in
// the stub's Authorization header is a leak.
const ownKey = "sk-own-4b1d9c0e-NEVER-STORE-ME"

// ownStub is a player's OpenAI-compatible endpoint. It answers option 1
// with a reason that quotes the key it got, and its second request with a
// 401 whose message quotes the key, as careless providers do.
type ownStub struct {
	*httptest.Server
	n    atomic.Int64
	mu   sync.Mutex
	auth []string
}

func newOwnStub(t *testing.T) *ownStub {
	s := &ownStub{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		n := s.n.Add(1)
		a := r.Header.Get("Authorization")
		s.mu.Lock()
		s.auth = append(s.auth, a)
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if n == 2 {
			w.WriteHeader(http.StatusUnauthorized)
			fmt.Fprintf(w, `{"error":{"message":"Incorrect API key provided: %s","type":"invalid_request_error"}}`, strings.TrimPrefix(a, "Bearer "))
			return
		}
		content, _ := json.Marshal(map[string]any{"option": 1, "reason": "my key is " + strings.TrimPrefix(a, "Bearer ")})
		fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%q}}],"usage":{"prompt_tokens":10,"completion_tokens":3,"total_tokens":13}}`, content)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *ownStub) sawKey() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, a := range s.auth {
		if a == "Bearer "+ownKey {
			return true
		}
	}
	return false
}

// raw makes one request and returns its status and body.
func raw(t *testing.T, method, url string, body any) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func ownConfigBody(base string) map[string]any {
	return map[string]any{"name": "my-llm 测试", "baseURL": base + "/v1", "model": "qwen2.5", "key": ownKey}
}

// playOwnMatch creates a carcassonne match on base with seat 1 played by
// the stub, seats a person in seat 0 on autoplay through wsBase, and
// reads every message until the stub has had want requests. It returns
// the match ID and everything the HTTP and WebSocket clients saw.
func playOwnMatch(t *testing.T, base, wsBase string, stub *ownStub, want int64) (string, *bytes.Buffer) {
	t.Helper()
	seen := &bytes.Buffer{}
	code, b := raw(t, http.MethodPost, base+"/games/carcassonne/create", map[string]any{
		"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}, "llm": ownConfigBody(stub.URL),
	})
	seen.Write(b)
	if code != 200 {
		t.Fatalf("create: %d %s", code, b)
	}
	var cr struct{ MatchID string }
	_ = json.Unmarshal(b, &cr)
	id := cr.MatchID
	code, b = raw(t, http.MethodPost, wsBase+"/games/carcassonne/"+id+"/join", map[string]any{"playerName": "Ann", "playerID": "0"})
	seen.Write(b)
	if code != 200 {
		t.Fatalf("join: %d %s", code, b)
	}
	var jr struct{ PlayerID, PlayerCredentials string }
	_ = json.Unmarshal(b, &jr)
	ws := dial(t, wsBase, "carcassonne", id)
	ws.send(map[string]any{"type": "hello", "playerID": jr.PlayerID, "credentials": jr.PlayerCredentials})
	ws.send(map[string]any{"type": "autoplay", "on": true})
	for stub.n.Load() < want {
		_, msg := ws.read()
		seen.Write(msg)
		if bytes.Contains(msg, []byte(`"gameover":{`)) {
			break
		}
	}
	// The states of the moves decided so far.
	for len(ws.msgs) > 0 {
		_, msg := ws.read()
		seen.Write(msg)
	}
	return id, seen
}

// keyHits counts the key's occurrences in s.
func keyHits(s string) int { return strings.Count(s, ownKey) }

func ownServer(t *testing.T, st rooms.Store, log *slog.Logger) *servertest.Server {
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: true}, Timeout: 20 * time.Second})
	return servertest.Start(t, servertest.Options{Store: st, Own: own, Logger: log})
}

func TestOwnLLMKeyFoundNowhere(t *testing.T) {
	for _, backend := range []string{"memory", "redis"} {
		t.Run(backend, func(t *testing.T) {
			logs := &syncBuffer{}
			log := slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			var st rooms.Store
			var dump func() string
			if backend == "memory" {
				ms := memstore.New(memstore.Options{})
				t.Cleanup(func() { _ = ms.Close() })
				st = ms
			} else {
				url := redistest.URL(t)
				prefix := redistest.Prefix(t, url)
				rs, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { rs.Close() })
				st = rs
				dump = func() string { return dumpRedis(t, url, prefix) }
			}
			stub := newOwnStub(t)
			srv := ownServer(t, st, log)
			seen := &bytes.Buffer{}

			code, b := raw(t, http.MethodGet, srv.URL+"/catalog", nil)
			seen.Write(b)
			if code != 200 || !bytes.Contains(b, []byte(`"ownLLM":true`)) {
				t.Fatalf("catalog: %d, no ownLLM: %s", code, b)
			}
			code, b = raw(t, http.MethodPost, srv.URL+"/llm/try", ownConfigBody(stub.URL))
			seen.Write(b)
			if code != 200 || !bytes.Contains(b, []byte(`"ok":true`)) || !bytes.Contains(b, []byte(`"choice"`)) {
				t.Fatalf("try: %d %s", code, b)
			}
			id, msgs := playOwnMatch(t, srv.URL, srv.URL, stub, 6)
			seen.Write(msgs.Bytes())
			for _, path := range []string{"/games/carcassonne/" + id, "/games/carcassonne", "/games/carcassonne/" + id + "/replay", "/metrics"} {
				_, b := raw(t, http.MethodGet, srv.URL+path, nil)
				seen.Write(b)
			}
			if !stub.sawKey() {
				t.Fatal("the stub never got the key: the test proves nothing")
			}
			if !bytes.Contains(seen.Bytes(), []byte(`"name":"my-llm 测试"`)) || !bytes.Contains(seen.Bytes(), []byte(`"botLevel":"llm-own"`)) {
				t.Fatalf("the seat's label or level is not shown")
			}
			if !bytes.Contains(seen.Bytes(), []byte("[redacted]")) {
				t.Fatal("no reason quoting the (replaced) key was shown: the stub's answers did not reach the log entries")
			}
			ctx := context.Background()
			rec, err := st.Get(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			stored, _ := json.Marshal(rec)
			all := map[string]string{"http and ws": seen.String(), "record": string(stored), "logs": logs.String()}
			if dump != nil {
				all["redis"] = dump()
			}
			for where, s := range all {
				if n := keyHits(s); n != 0 {
					t.Errorf("the key is in the %s %d times", where, n)
				}
				if where != "logs" && strings.Contains(s, stub.Listener.Addr().String()) {
					t.Errorf("the endpoint's address is in the %s", where)
				}
			}
			if strings.Contains(logs.String(), stub.Listener.Addr().String()) {
				t.Errorf("the endpoint's address is in the logs")
			}
			if !strings.Contains(logs.String(), "bot player failed") {
				t.Errorf("the 401 left no log line: the logs were not captured")
			}
			t.Logf("%d requests to the stub, %d bytes of HTTP/WS seen, %d bytes of logs", stub.n.Load(), seen.Len(), len(logs.String()))
		})
	}
}

// dumpRedis reads every key under prefix, whatever its type.
func dumpRedis(t *testing.T, url, prefix string) string {
	t.Helper()
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	ctx := context.Background()
	var out strings.Builder
	iter := c.Scan(ctx, 0, prefix+"*", 1000).Iterator()
	keys := 0
	for iter.Next(ctx) {
		k := iter.Val()
		keys++
		out.WriteString(k + "\n")
		switch typ := c.Type(ctx, k).Val(); typ {
		case "string":
			out.WriteString(c.Get(ctx, k).Val())
		case "hash":
			for f, v := range c.HGetAll(ctx, k).Val() {
				out.WriteString(f + "=" + v + "\n")
			}
		case "list":
			out.WriteString(strings.Join(c.LRange(ctx, k, 0, -1).Val(), "\n"))
		case "set":
			out.WriteString(strings.Join(c.SMembers(ctx, k).Val(), "\n"))
		case "zset":
			out.WriteString(strings.Join(c.ZRange(ctx, k, 0, -1).Val(), "\n"))
		case "stream":
			for _, m := range c.XRange(ctx, k, "-", "+").Val() {
				b, _ := json.Marshal(m.Values)
				out.Write(b)
			}
		default:
			t.Errorf("key %s of type %s not read", k, typ)
		}
		out.WriteString("\n")
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	if keys == 0 {
		t.Fatal("no keys under the test's prefix: the dump proves nothing")
	}
	return out.String()
}

func TestOwnLLMRefusedWhenOff(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	stub := newOwnStub(t)
	code, b := raw(t, http.MethodPost, srv.URL+"/games/carcassonne/create", map[string]any{
		"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}, "llm": ownConfigBody(stub.URL)})
	if code != 400 || !bytes.Contains(b, []byte("bad_request")) || !bytes.Contains(b, []byte("-llm-own")) {
		t.Fatalf("create with llm, flag off: %d %s", code, b)
	}
	code, b = raw(t, http.MethodPost, srv.URL+"/games/carcassonne/create", map[string]any{
		"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}})
	if code != 400 || !bytes.Contains(b, []byte("bad_request")) {
		t.Fatalf("create with llm-own, flag off: %d %s", code, b)
	}
	code, b = raw(t, http.MethodPost, srv.URL+"/llm/try", ownConfigBody(stub.URL))
	if code != 403 || keyHits(string(b)) != 0 {
		t.Fatalf("try, flag off: %d %s", code, b)
	}
	_, b = raw(t, http.MethodGet, srv.URL+"/catalog", nil)
	if bytes.Contains(b, []byte("ownLLM")) {
		t.Fatalf("the catalog offers own endpoints with the flag off: %s", b)
	}
	if stub.n.Load() != 0 {
		t.Fatal("the stub was called")
	}
}

func TestOwnLLMBadConfigs(t *testing.T) {
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{}})
	srv := servertest.Start(t, servertest.Options{Own: own, TryThrottle: server.Throttle{Rate: -1}})
	good := ownConfigBody("https://api.example.com")
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for a, b := range good {
			m[a] = b
		}
		m[k] = v
		return m
	}
	for name, cfg := range map[string]map[string]any{
		"ftp":       with("baseURL", "ftp://api.example.com/v1"),
		"no url":    with("baseURL", ""),
		"no model":  with("model", ""),
		"no name":   with("name", ""),
		"long name": with("name", strings.Repeat("n", 41)),
		"long url":  with("baseURL", "https://api.example.com/"+strings.Repeat("v", 400)),
		"long key":  with("key", ownKey+strings.Repeat("k", 400)),
		"query":     with("baseURL", "https://api.example.com/v1?k="+ownKey),
	} {
		code, b := raw(t, http.MethodPost, srv.URL+"/games/carcassonne/create", map[string]any{
			"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}, "llm": cfg})
		if code != 400 || !bytes.Contains(b, []byte("bad_request")) || keyHits(string(b)) != 0 || bytes.Contains(b, []byte("example.com")) {
			t.Errorf("create, %s: %d %s", name, code, b)
		}
		code, b = raw(t, http.MethodPost, srv.URL+"/llm/try", cfg)
		if code != 400 || keyHits(string(b)) != 0 || bytes.Contains(b, []byte("example.com")) {
			t.Errorf("try, %s: %d %s", name, code, b)
		}
	}
	// An endpoint the guard refuses (loopback, flag off): a clear error,
	// nothing echoed.
	stub := newOwnStub(t)
	code, b := raw(t, http.MethodPost, srv.URL+"/llm/try", ownConfigBody(stub.URL))
	if code != 502 || !bytes.Contains(b, []byte("not allowed")) || bytes.Contains(b, []byte(stub.Listener.Addr().String())) || keyHits(string(b)) != 0 {
		t.Fatalf("try loopback: %d %s", code, b)
	}
	if stub.n.Load() != 0 {
		t.Fatal("the stub was reached")
	}
	// llm without an llm-own seat; llm-own on another game.
	code, b = raw(t, http.MethodPost, srv.URL+"/games/carcassonne/create", map[string]any{"numPlayers": 2, "llm": good})
	if code != 400 {
		t.Fatalf("llm without a seat: %d %s", code, b)
	}
	code, b = raw(t, http.MethodPost, srv.URL+"/games/gomoku/create", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}, "llm": good})
	if code != 400 {
		t.Fatalf("llm-own in gomoku: %d %s", code, b)
	}
}

// TestOwnLLMOtherProcess: only the process holding the key plays the
// seat while it lives (the person is connected through the other one);
// once it is gone, the other plays the fallback level and says why.
func TestOwnLLMOtherProcess(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	open := func() *redisstore.Store {
		st, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	// A: the key's process, started by hand so the test can stop it.
	stA := open()
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: true}, Timeout: 20 * time.Second})
	mgrA := rooms.New(rooms.Config{Store: stA, Games: all.Registry(), BotDelay: rooms.ZeroBotDelay, Own: own})
	hA := server.New(server.Config{Rooms: mgrA, Assets: web.Assets(), Own: own, Throttle: server.Throttle{Rate: -1}})
	tsA := httptest.NewServer(hA)
	stopA := sync.OnceFunc(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		hA.Shutdown(ctx)
		tsA.Close()
		mgrA.Close()
		stA.Close()
	})
	t.Cleanup(stopA)
	stB := open()
	t.Cleanup(func() { stB.Close() })
	b := servertest.Start(t, servertest.Options{Store: stB})

	stub := newOwnStub(t)
	// Created on A, played through B: A's LLM plays seat 1.
	id, seen := playOwnMatch(t, tsA.URL, b.URL, stub, 4)
	if bytes.Contains(seen.Bytes(), []byte(`"reason":"key_gone"`)) {
		t.Fatal("the seat fell back while its key's process was alive")
	}
	if own.Held() != 1 {
		t.Fatalf("A holds %d keys, want 1", own.Held())
	}
	stopA()
	// Only B now: the seat plays the fallback level, and says why.
	ws := dial(t, b.URL, "carcassonne", id)
	ws.hello(nil)
	for {
		_, msg := ws.read()
		if bytes.Contains(msg, []byte(`"fallback":{"level":"normal","reason":"key_gone"}`)) {
			break
		}
		if bytes.Contains(msg, []byte(`"gameover":{`)) {
			t.Fatal("the game ended with no key_gone fallback")
		}
	}
	n := stub.n.Load()
	if keyHits(seen.String()) != 0 {
		t.Fatal("the key reached a client")
	}
	t.Logf("stub requests %d", n)
}

// TestOwnLLMPlayAgain: the next match seats normal where this one had the
// player's endpoint (the key is not carried over).
func TestOwnLLMPlayAgain(t *testing.T) {
	stub := newOwnStub(t)
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: true}})
	srv := servertest.Start(t, servertest.Options{Own: own})
	id := create(t, srv.URL, "carcassonne", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "llm-own"}, "llm": ownConfigBody(stub.URL)})
	if own.Held() != 1 {
		t.Fatalf("held %d keys after the create, want 1", own.Held())
	}
	ann := join(t, srv.URL, "carcassonne", id, "Ann")
	code, m := post(t, srv.URL+"/games/carcassonne/"+id+"/playAgain", map[string]any{"playerID": ann.id, "credentials": ann.creds})
	if code != 200 {
		t.Fatalf("playAgain: %d %v", code, m)
	}
	_, b := get(t, srv.URL+"/games/carcassonne/"+m["nextMatchID"].(string))
	if !bytes.Contains(b, []byte(`"botLevel":"normal"`)) || bytes.Contains(b, []byte("llm-own")) {
		t.Fatalf("the next match: %s", b)
	}
}

// TestOwnLLMForgetsAtEnd: once the match is over, the process lets the
// key go.
func TestOwnLLMForgetsAtEnd(t *testing.T) {
	stub := newOwnStub(t)
	own := llm.NewOwn(llm.OwnOptions{Guard: &llm.Guard{AllowPrivate: true}})
	srv := servertest.Start(t, servertest.Options{Own: own})
	_, seen := playOwnMatch(t, srv.URL, srv.URL, stub, 1<<40) // to the end
	if !bytes.Contains(seen.Bytes(), []byte(`"gameover":{`)) {
		t.Fatal("the match did not end")
	}
	for own.Held() != 0 {
		time.Sleep(10 * time.Millisecond) // the room sees the end, then lets go
	}
	t.Logf("%d requests to the stub over the match", stub.n.Load())
}
