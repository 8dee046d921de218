package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/rooms"
)

// TestClientIPRule: the client address is the TCP peer's unless the peer
// is a trusted proxy; then X-Forwarded-For is walked from the right past
// the trusted hops. Headers from an untrusted peer (empty, duplicate or
// malformed lines, the other forwarding headers) change nothing, and only
// the named ranges are trusted (not loopback or private ones by default).
func TestClientIPRule(t *testing.T) {
	local, err := ParseTrustedProxies("127.0.0.0/8, ::1")
	if err != nil {
		t.Fatal(err)
	}
	lan, err := ParseTrustedProxies("10.0.0.0/8")
	if err != nil {
		t.Fatal(err)
	}
	xff := func(lines ...string) http.Header { return http.Header{"X-Forwarded-For": lines} }
	tricks := map[string]http.Header{
		"empty first XFF line":    xff("", "127.0.0.1"),
		"two XFF lines":           xff("127.0.0.1", "127.0.0.1"),
		"XFF list":                xff("127.0.0.1, 127.0.0.1"),
		"malformed XFF":           xff("127.0.0.1, nonsense"),
		"X-Real-IP":               {"X-Real-Ip": {"", "127.0.0.1"}},
		"X-Client-IP":             {"X-Client-Ip": {"127.0.0.1"}},
		"True-Client-IP":          {"True-Client-Ip": {"127.0.0.1"}},
		"Forwarded":               {"Forwarded": {"for=127.0.0.1"}},
		"Forwarded, quoted IPv6":  {"Forwarded": {`for="[::1]"`}},
		"every header at once":    {"X-Forwarded-For": {"::1"}, "X-Real-Ip": {"::1"}, "Forwarded": {"for=::1"}, "True-Client-Ip": {"::1"}},
		"XFF from a peer's range": xff("10.1.2.3"),
	}
	type tc struct {
		name    string
		trusted string // "", "local" or "lan"
		peer    string
		header  http.Header
		want    string
	}
	var cases []tc
	for name, h := range tricks {
		for _, tr := range []string{"", "local", "lan"} {
			cases = append(cases, tc{"untrusted peer, " + name + ", trusted " + tr, tr, "203.0.113.9:4000", h, "203.0.113.9"})
		}
		// No trusted proxy: the loopback peer is the client, whatever it
		// forwards.
		cases = append(cases, tc{"loopback peer, nothing trusted, " + name, "", "127.0.0.1:4000", h, "127.0.0.1"})
	}
	cases = append(cases,
		tc{"no header", "local", "127.0.0.1:1", nil, "127.0.0.1"},
		tc{"IPv6 peer", "", "[2001:db8::7]:1", xff("127.0.0.1"), "2001:db8::7"},
		tc{"zoned IPv6 peer", "", "[fe80::1%eth0]:1", nil, "fe80::1"},
		tc{"trusted peer, one client", "local", "127.0.0.1:1", xff("203.0.113.9"), "203.0.113.9"},
		tc{"trusted IPv6 peer, one client", "local", "[::1]:1", xff("2001:db8::9"), "2001:db8::9"},
		tc{"trusted peer, client lies to the left", "local", "127.0.0.1:1", xff("127.0.0.1, 203.0.113.9"), "203.0.113.9"},
		tc{"trusted peer, empty first line", "local", "127.0.0.1:1", xff("", "203.0.113.9"), "203.0.113.9"},
		tc{"trusted peer, two hops of ours", "local", "127.0.0.1:1", xff("203.0.113.9, 127.0.0.2"), "203.0.113.9"},
		tc{"trusted peer, X-Real-IP ignored", "local", "127.0.0.1:1", http.Header{"X-Real-Ip": {"198.51.100.1"}, "X-Forwarded-For": {"203.0.113.9"}}, "203.0.113.9"},
		tc{"trusted peer, only X-Real-IP", "local", "127.0.0.1:1", http.Header{"X-Real-Ip": {"198.51.100.1"}}, "127.0.0.1"},
		tc{"trusted peer, malformed nearest hop", "local", "127.0.0.1:1", xff("203.0.113.9, nonsense"), "127.0.0.1"},
		tc{"trusted peer, a local client through it", "local", "127.0.0.1:1", xff("127.0.0.1"), "127.0.0.1"},
		tc{"private peer not named", "local", "10.0.0.5:1", xff("203.0.113.9"), "10.0.0.5"},
		tc{"LAN proxy, private hop not named", "lan", "10.0.0.5:1", xff("203.0.113.9, 192.168.1.1"), "192.168.1.1"},
		tc{"LAN proxy, loopback hop not named", "lan", "10.0.0.5:1", xff("203.0.113.9, 127.0.0.1"), "127.0.0.1"},
	)
	ranges := map[string]*Server{
		"":      New(Config{}),
		"local": New(Config{TrustedProxies: local}),
		"lan":   New(Config{TrustedProxies: lan}),
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = c.peer
			req.Header = c.header.Clone()
			if req.Header == nil {
				req.Header = http.Header{}
			}
			e := ranges[c.trusted].echo
			ctx := e.NewContext(req, httptest.NewRecorder())
			if got := ctx.RealIP(); got != c.want {
				t.Errorf("client %q, want %q", got, c.want)
			}
		})
	}
}

// TestParseTrustedProxies: CIDRs and bare addresses, separated by commas;
// anything else is an error naming the bad entry.
func TestParseTrustedProxies(t *testing.T) {
	for in, want := range map[string]string{
		"":                            "",
		" , ":                         "",
		"10.0.0.0/8":                  "10.0.0.0/8",
		"10.1.2.3/8, 127.0.0.1":       "10.0.0.0/8 127.0.0.1/32",
		"::1,2001:db8::/32":           "::1/128 2001:db8::/32",
		"192.168.0.0/16,fd00::/8,::1": "192.168.0.0/16 fd00::/8 ::1/128",
	} {
		nets, err := ParseTrustedProxies(in)
		if err != nil {
			t.Errorf("%q: %v", in, err)
			continue
		}
		var got []string
		for _, n := range nets {
			got = append(got, n.String())
		}
		if s := strings.Join(got, " "); s != want {
			t.Errorf("%q: %q, want %q", in, s, want)
		}
	}
	for _, in := range []string{"nonsense", "10.0.0.0/33", "10.0.0.0/8,localhost", "300.1.1.1", "10.0.0.0/8/8"} {
		if _, err := ParseTrustedProxies(in); err == nil || !strings.Contains(err.Error(), "trusted proxy") {
			t.Errorf("%q: err %v, want one naming the bad entry", in, err)
		}
	}
}

// TestCheckFailureNamesNoAddress: a failed /llm/test check is told by
// name and kind; nothing of the checker's text that could hold the
// endpoint's URL, host or address reaches the caller.
func TestCheckFailureNamesNoAddress(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New(`llm-x: Post "https://llm.internal.example:8443/v1/chat/completions": OpenAI API error: 429 Too Many Requests`), "llm-x: the endpoint answered HTTP 429 Too Many Requests"},
		{errors.New(`llm-x: OpenAI API error: 599`), "llm-x: the endpoint answered HTTP 599"},
		{errors.New(`llm-x: Post "http://10.0.0.5:8000/v1/chat/completions": dial tcp 10.0.0.5:8000: connect: connection refused`), "llm-x: connection refused"},
		{errors.New(`llm-x: Post "http://llm.internal.example/v1/chat/completions": dial tcp: lookup llm.internal.example on 10.0.0.2:53: no such host`), "llm-x: the host name does not resolve"},
		{errors.New(`llm-x: Post "https://10.0.0.5/v1/chat/completions": tls: failed to verify certificate: x509: certificate is valid for a.example, not llm.internal.example`), "llm-x: the TLS handshake failed"},
		{errors.New(`llm-x: Post "http://10.0.0.5/v1/chat/completions": read tcp 10.0.0.9:5555->10.0.0.5:80: read: connection reset by peer`), "llm-x: the connection was closed"},
		{errors.New(`llm-x: Post "http://10.0.0.5/v1/chat/completions": EOF`), "llm-x: the connection was closed"},
		{errors.New(`llm-x: Post "http://10.0.0.5/v1/chat/completions": net/http: request canceled (Client.Timeout exceeded while awaiting headers)`), "llm-x: timed out"},
		{fmt.Errorf("wrapped: %w", context.DeadlineExceeded), "llm-x: timed out"},
		{fmt.Errorf("wrapped: %w", context.Canceled), "llm-x: cancelled"},
		{fmt.Errorf("llm: endpoint busy (%w): all 4 request slots stayed taken", rooms.ErrEngineBusy), "llm-x: busy: every request slot stayed taken"},
		{errors.New("llm: endpoint request failed: the response has no choice"), "llm-x: the answer has no choice"},
		{errors.New(`llm-x: Post "http://10.0.0.5/v1/chat/completions": something new`), "llm-x: the request failed (the server log has the details)"},
	} {
		if got := checkFailure("llm-x", c.err); got != c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.err, got, c.want)
		}
	}
}

// BenchmarkClientIP: the cost of the client-address rule per request,
// direct (no trusted proxy) and walking a three-entry X-Forwarded-For
// behind a trusted one.
func BenchmarkClientIP(b *testing.B) {
	trusted, err := ParseTrustedProxies("127.0.0.0/8,10.0.0.0/8")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		trusted bool
	}{{"direct", false}, {"xff", true}} {
		b.Run(c.name, func(b *testing.B) {
			var nets = trusted
			if !c.trusted {
				nets = nil
			}
			extract := ipExtractor(nets)
			req := httptest.NewRequest("GET", "/", nil)
			req.RemoteAddr = "127.0.0.1:4000"
			req.Header.Set("X-Forwarded-For", "198.51.100.1, 203.0.113.9, 10.0.0.5")
			b.ReportAllocs()
			for b.Loop() {
				if extract(req) == "" {
					b.Fatal("no client")
				}
			}
		})
	}
}
