package server_test

import (
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms/llm"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// forwardingTricks are headers a caller sets to pass for loopback: an
// empty first X-Forwarded-For line before a second one, the same with
// X-Real-IP, and the forwarding headers a loopback check may not know.
var forwardingTricks = map[string]http.Header{
	"empty first X-Forwarded-For line": {"X-Forwarded-For": {"", "127.0.0.1"}},
	"X-Forwarded-For":                  {"X-Forwarded-For": {"127.0.0.1"}},
	"empty first X-Real-IP line":       {"X-Real-Ip": {"", "127.0.0.1"}},
	"X-Real-IP":                        {"X-Real-Ip": {"127.0.0.1"}},
	"X-Client-IP":                      {"X-Client-Ip": {"127.0.0.1"}},
	"True-Client-IP":                   {"True-Client-Ip": {"127.0.0.1"}},
	"Forwarded":                        {"Forwarded": {"for=127.0.0.1"}},
	"Forwarded, IPv6":                  {"Forwarded": {`for="[::1]"`}},
}

func trusted(t *testing.T, s string) []*net.IPNet {
	t.Helper()
	n, err := server.ParseTrustedProxies(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// llmTestStatus posts {"endpoint":"llm"} to /llm/test through srv's Echo
// handler as if from peer, with header, and returns the status and body.
func llmTestStatus(srv *server.Server, peer string, header http.Header) (int, string) {
	req := httptest.NewRequest("POST", "/llm/test", strings.NewReader(`{"endpoint":"llm"}`))
	req.RemoteAddr = peer
	for k, vs := range header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, req)
	return rec.Code, rec.Body.String()
}

// TestLLMTestForwardingHeadersGrantNothing: /llm/test takes the client
// address by the server's one rule. From a remote peer no forwarding
// header makes a request loopback; from a loopback peer that is not a
// trusted proxy (a proxy the operator did not declare) a forwarding
// header, even an empty line, is refused; behind a trusted proxy the
// client X-Forwarded-For names decides, so a forwarded remote client is
// refused whatever it wrote to the left, and a local one is admitted.
func TestLLMTestForwardingHeadersGrantNothing(t *testing.T) {
	endpoints := map[string]server.LLMChecker{"llm": fakeChecker{}}
	plain := server.New(server.Config{LLMTest: server.LLMTestConfig{Endpoints: endpoints}})
	local := server.New(server.Config{LLMTest: server.LLMTestConfig{Endpoints: endpoints}, TrustedProxies: trusted(t, "127.0.0.0/8,::1")})
	lan := server.New(server.Config{LLMTest: server.LLMTestConfig{Endpoints: endpoints}, TrustedProxies: trusted(t, "10.0.0.0/8")})
	type tc struct {
		name   string
		srv    *server.Server
		peer   string
		header http.Header
		want   int
	}
	var cases []tc
	for name, h := range forwardingTricks {
		for sname, srv := range map[string]*server.Server{"no trusted proxy": plain, "trusted loopback": local, "trusted LAN": lan} {
			cases = append(cases, tc{"remote peer, " + name + ", " + sname, srv, "203.0.113.9:4000", h, 403})
		}
		cases = append(cases,
			tc{"undeclared local proxy, " + name, plain, "127.0.0.1:4000", h, 403},
			tc{"undeclared local proxy (v6), " + name, plain, "[::1]:4000", h, 403},
			tc{"local proxy not among the trusted, " + name, lan, "127.0.0.1:4000", h, 403},
		)
	}
	xff := func(lines ...string) http.Header { return http.Header{"X-Forwarded-For": lines} }
	cases = append(cases,
		tc{"loopback, no header", plain, "127.0.0.1:4000", nil, 200},
		tc{"loopback v6, no header", plain, "[::1]:4000", nil, 200},
		tc{"trusted proxy forwards a remote client", local, "127.0.0.1:4000", xff("203.0.113.9"), 403},
		tc{"trusted proxy forwards a remote client who claims loopback", local, "127.0.0.1:4000", xff("127.0.0.1, 203.0.113.9"), 403},
		tc{"trusted proxy forwards a remote client after an empty line", local, "127.0.0.1:4000", xff("", "127.0.0.1", "203.0.113.9"), 403},
		tc{"trusted proxy forwards a remote client, X-Real-IP says loopback", local, "127.0.0.1:4000", http.Header{"X-Forwarded-For": {"203.0.113.9"}, "X-Real-Ip": {"127.0.0.1"}}, 403},
		tc{"trusted v6 proxy forwards a remote client", local, "[::1]:4000", xff("2001:db8::9"), 403},
		tc{"trusted LAN proxy forwards a remote client", lan, "10.0.0.5:4000", xff("203.0.113.9"), 403},
		tc{"trusted proxy forwards a local client", local, "127.0.0.1:4000", xff("127.0.0.1"), 200},
		tc{"trusted proxy calls itself", local, "127.0.0.1:4000", nil, 200},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, body := llmTestStatus(c.srv, c.peer, c.header)
			if code != c.want {
				t.Fatalf("status %d, want %d: %s", code, c.want, body)
			}
			if c.want == 403 && !strings.Contains(body, `"`+protocol.CodeForbidden+`"`) {
				t.Errorf("body %s, want forbidden", body)
			}
		})
	}
}

// TestLLMTestNamesNoEndpointAddress: when the check fails before the
// endpoint answers (nothing listening, a certificate the server does not
// trust, no answer in time) the 502 names the level and the kind of
// failure, never the endpoint's URL, host or port.
func TestLLMTestNamesNoEndpointAddress(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closedURL := closed.URL
	closed.Close()
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	release := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(hang.Close)
	t.Cleanup(func() { close(release) })
	for _, c := range []struct {
		name, base string
		timeout    time.Duration
		want       string
	}{
		{"closed", closedURL, 10 * time.Second, "connection refused"},
		{"tls", tlsSrv.URL, 10 * time.Second, "TLS handshake failed"},
		{"hang", hang.URL, 100 * time.Millisecond, "timed out"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := llm.New(llm.Endpoint{Name: c.name, BaseURL: c.base + "/v1", Model: "m", Timeout: c.timeout}, llm.Key("sk-test-key-9a8b"), nil)
			if err != nil {
				t.Fatal(err)
			}
			srv := server.New(server.Config{LLMTest: server.LLMTestConfig{Endpoints: map[string]server.LLMChecker{p.Level(): p}}})
			req := httptest.NewRequest("POST", "/llm/test?endpoint="+p.Level(), nil)
			req.RemoteAddr = "127.0.0.1:40000"
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, req)
			body := rec.Body.String()
			t.Logf("%d %s", rec.Code, strings.TrimSpace(body))
			if rec.Code != 502 {
				t.Fatalf("status %d, want 502", rec.Code)
			}
			host := strings.TrimPrefix(strings.TrimPrefix(c.base, "http://"), "https://")
			_, port, _ := net.SplitHostPort(host)
			for _, leak := range []string{c.base, host, ":" + port, "/v1", "sk-test-key-9a8b"} {
				if strings.Contains(body, leak) {
					t.Errorf("the answer holds %q: %s", leak, body)
				}
			}
			if !strings.Contains(body, p.Level()+": ") || !strings.Contains(body, c.want) {
				t.Errorf("the answer does not name %s and %q: %s", p.Level(), c.want, body)
			}
		})
	}
}

// createFrom posts a create as if forwarded for client (no header when
// client is empty) and returns the status.
func createFrom(t *testing.T, base, client string) int {
	t.Helper()
	req, err := http.NewRequest("POST", base+"/games/gomoku/create", strings.NewReader(`{"numPlayers":2}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if client != "" {
		req.Header.Set("X-Forwarded-For", client)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode
}

// TestThrottleBehindTrustedProxy: through a real listener (a loopback
// peer). With the loopback range trusted, each client X-Forwarded-For
// names has its own bucket: 203.0.113.9 is refused past its burst while
// 203.0.113.10 still creates. With nothing trusted the header is ignored:
// every request is the peer's, whatever client it names.
func TestThrottleBehindTrustedProxy(t *testing.T) {
	throttle := server.Throttle{Rate: 0.001, Burst: 2}
	t.Run("trusted", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{Throttle: throttle, TrustedProxies: trusted(t, "127.0.0.0/8,::1")})
		for i := range 2 {
			if code := createFrom(t, srv.URL, "203.0.113.9"); code != 200 {
				t.Fatalf("create %d from 203.0.113.9: %d", i, code)
			}
		}
		if code := createFrom(t, srv.URL, "203.0.113.9"); code != 429 {
			t.Fatalf("create past 203.0.113.9's burst: %d, want 429", code)
		}
		// Claiming another address to the left of the proxy's entry buys
		// nothing: the proxy appended the real one.
		if code := createFrom(t, srv.URL, "198.51.100.1, 203.0.113.9"); code != 429 {
			t.Fatalf("create with a forged hop: %d, want 429", code)
		}
		for i := range 2 {
			if code := createFrom(t, srv.URL, "203.0.113.10"); code != 200 {
				t.Fatalf("create %d from 203.0.113.10: %d, want its own bucket", i, code)
			}
		}
		if code := createFrom(t, srv.URL, ""); code != 200 {
			t.Fatalf("create from the proxy itself: %d, want its own bucket", code)
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{Throttle: throttle})
		for i, client := range []string{"203.0.113.9", "203.0.113.10"} {
			if code := createFrom(t, srv.URL, client); code != 200 {
				t.Fatalf("create %d: %d", i, code)
			}
		}
		for _, client := range []string{"203.0.113.11", "", "198.51.100.1"} {
			if code := createFrom(t, srv.URL, client); code != 429 {
				t.Fatalf("create naming %q past the peer's burst: %d, want 429", client, code)
			}
		}
	})
}

// dialFrom opens a WebSocket on match id as if forwarded for client and
// returns the connection (nil when refused) and the status.
func dialFrom(t *testing.T, base, id, client string) (*websocket.Conn, int) {
	t.Helper()
	h := http.Header{}
	if client != "" {
		h.Set("X-Forwarded-For", client)
	}
	c, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/games/gomoku/"+id+"/ws", h)
	if err != nil {
		if resp == nil {
			t.Fatalf("dial: %v", err)
		}
		resp.Body.Close()
		return nil, resp.StatusCode
	}
	t.Cleanup(func() { c.Close() })
	return c, resp.StatusCode
}

// TestConnCapBehindTrustedProxy: the per-address WebSocket cap counts the
// client X-Forwarded-For names when the peer is a trusted proxy (IPv6 per
// /64), and the peer alone when nothing is trusted.
func TestConnCapBehindTrustedProxy(t *testing.T) {
	ws := server.WSConfig{MaxConnsPerIP: 2}
	t.Run("trusted", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{WS: ws, TrustedProxies: trusted(t, "127.0.0.0/8,::1")})
		id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
		for _, client := range []string{"203.0.113.9", "203.0.113.9", "2001:db8:1:2::1", "2001:db8:1:2::2"} {
			if _, code := dialFrom(t, srv.URL, id, client); code != 101 {
				t.Fatalf("connection from %s under the cap: %d", client, code)
			}
		}
		for _, client := range []string{"203.0.113.9", "2001:db8:1:2::3", "127.0.0.1, 203.0.113.9"} {
			if _, code := dialFrom(t, srv.URL, id, client); code != 503 {
				t.Fatalf("connection from %s past its cap: %d, want 503", client, code)
			}
		}
		for _, client := range []string{"203.0.113.10", "2001:db8:1:3::1"} {
			c, code := dialFrom(t, srv.URL, id, client)
			if code != 101 {
				t.Fatalf("connection from %s, another client: %d", client, code)
			}
			checkHelloWorks(t, c)
		}
	})
	t.Run("untrusted", func(t *testing.T) {
		srv := servertest.Start(t, servertest.Options{WS: ws})
		id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
		for i := range 2 {
			if _, code := dialFrom(t, srv.URL, id, fmt.Sprint("203.0.113.", i)); code != 101 {
				t.Fatalf("connection %d under the cap: %d", i, code)
			}
		}
		if _, code := dialFrom(t, srv.URL, id, "198.51.100.1"); code != 503 {
			t.Fatalf("connection naming another client past the peer's cap: %d, want 503", code)
		}
	})
}
