package llm

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestBlockedAddresses(t *testing.T) {
	for _, a := range []string{
		"127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "169.254.0.1",
		"100.64.0.1", "100.127.255.254", "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1",
		"fc00::1", "fd12:3456::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1", "::ffff:169.254.169.254",
		"64:ff9b::a00:1", "2002:a00:1::1", "::127.0.0.1",
	} {
		if Blocked(netip.MustParseAddr(a)) == "" {
			t.Errorf("%s is allowed, want it blocked", a)
		}
	}
	for _, a := range []string{"8.8.8.8", "1.1.1.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"} {
		if why := Blocked(netip.MustParseAddr(a)); why != "" {
			t.Errorf("%s is blocked (%s), want it allowed", a, why)
		}
	}
}

// get makes one request through the guard's client and returns its error.
func get(t *testing.T, g *Guard, url string) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	resp, err := g.Client().Do(req)
	if err == nil {
		resp.Body.Close()
	}
	return err
}

func TestGuardRefusesNonPublic(t *testing.T) {
	hit := make(chan struct{}, 100)
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hit <- struct{}{} }))
	defer stub.Close()
	_, port, _ := net.SplitHostPort(stub.Listener.Addr().String())
	toLoopback := func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}
	g := &Guard{Lookup: toLoopback}
	for _, url := range []string{
		stub.URL,                                   // loopback
		"http://[::1]:" + port,                     // IPv6 loopback
		"http://[::ffff:127.0.0.1]:" + port,        // IPv4-mapped loopback
		"http://[::ffff:7f00:1]:" + port,           // the same, in hex
		"http://10.0.0.1:" + port,                  // RFC 1918
		"http://169.254.169.254/latest/meta-data/", // the metadata service
		"http://100.64.0.1:" + port,                // CGNAT
		"http://0.0.0.0:" + port,                   // unspecified
		"http://rebind.example:" + port,            // a name that resolves to loopback
	} {
		err := get(t, g, url)
		if !errors.Is(err, ErrAddrBlocked) || !strings.Contains(err.Error(), "address not allowed") {
			t.Errorf("%s: err %v, want ErrAddrBlocked", url, err)
		}
	}
	if len(hit) != 0 {
		t.Fatalf("the stub was reached %d times", len(hit))
	}
	// -llm-own-private lets them through.
	private := &Guard{AllowPrivate: true, Lookup: toLoopback}
	for _, url := range []string{stub.URL, "http://rebind.example:" + port, "http://[::ffff:127.0.0.1]:" + port} {
		if err := get(t, private, url); err != nil {
			t.Errorf("AllowPrivate: %s: %v", url, err)
		}
	}
	if len(hit) != 3 {
		t.Fatalf("AllowPrivate: the stub was reached %d times, want 3", len(hit))
	}
}

// A name whose answers mix a public and a loopback address is refused as
// a whole; the dialer's Control checks the address it connects to.
func TestGuardMixedAnswersAndControl(t *testing.T) {
	g := &Guard{Lookup: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("8.8.8.8"), netip.MustParseAddr("127.0.0.1")}, nil
	}}
	if err := get(t, g, "http://mixed.example:9/"); !errors.Is(err, ErrAddrBlocked) {
		t.Fatalf("mixed answers: err %v, want ErrAddrBlocked", err)
	}
	if err := (&Guard{}).control("tcp4", "127.0.0.1:80", nil); !errors.Is(err, ErrAddrBlocked) {
		t.Fatalf("Control on loopback: %v", err)
	}
	if err := (&Guard{}).control("tcp6", "[::ffff:169.254.169.254]:80", nil); !errors.Is(err, ErrAddrBlocked) {
		t.Fatalf("Control on mapped metadata: %v", err)
	}
}

// A redirect from an allowed endpoint to a loopback address dials through
// the guard and is refused.
func TestGuardRefusesRedirectToLoopback(t *testing.T) {
	inner := make(chan struct{}, 10)
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { inner <- struct{}{} }))
	defer target.Close()
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+"/v1/chat/completions", http.StatusTemporaryRedirect)
	}))
	defer front.Close()
	allowed := netip.MustParseAddrPort(front.Listener.Addr().String())
	g := &Guard{Allow: func(ap netip.AddrPort) bool { return ap == allowed }}
	err := get(t, g, front.URL)
	if !errors.Is(err, ErrAddrBlocked) {
		t.Fatalf("redirect to loopback: err %v, want ErrAddrBlocked", err)
	}
	if len(inner) != 0 {
		t.Fatal("the redirect's loopback target was reached")
	}
	// Allowed directly, the front answers (the hook is exact).
	req, _ := http.NewRequest(http.MethodGet, front.URL, nil)
	c := g.Client()
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := c.Do(req)
	if err != nil {
		t.Fatalf("the allowed stub: %v", err)
	}
	resp.Body.Close()
}

// An own endpoint's Engine refuses a loopback base URL without the
// private flag, with no request reaching it and no key or URL in the error.
func TestOwnTryRefusesLoopback(t *testing.T) {
	f := newFake(t, always(reply{content: `{"option": 1}`}))
	o := NewOwn(OwnOptions{Guard: &Guard{}, Timeout: 10 * time.Second})
	_, err := o.Try(context.Background(), OwnConfig{Name: "mine", BaseURL: f.URL + "/v1", Model: "m", Key: testKey}, "192.0.2.1")
	if err == nil || !strings.Contains(err.Error(), "address not allowed") {
		t.Fatalf("err %v, want the address refused", err)
	}
	mustNotLeak(t, "error", err.Error())
	if strings.Contains(err.Error(), f.URL) || strings.Contains(err.Error(), f.Listener.Addr().String()) {
		t.Fatalf("the error names the endpoint: %v", err)
	}
	if f.requests() != 0 {
		t.Fatalf("%d requests reached the endpoint", f.requests())
	}
	// With the private flag it plays.
	o = NewOwn(OwnOptions{Guard: &Guard{AllowPrivate: true}, Timeout: 10 * time.Second})
	res, err := o.Try(context.Background(), OwnConfig{Name: "mine", BaseURL: f.URL + "/v1", Model: "m", Key: testKey}, "192.0.2.1")
	if err != nil || res.Move == "" {
		t.Fatalf("AllowPrivate: %+v, %v", res, err)
	}
}

func TestOwnConfigValidate(t *testing.T) {
	ok := OwnConfig{Name: "我的 Ollama", BaseURL: "https://api.example.com/v1", Model: "m", Key: testKey}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, c := range map[string]OwnConfig{
		"no name":   {BaseURL: ok.BaseURL, Model: "m"},
		"no model":  {Name: "a", BaseURL: ok.BaseURL},
		"no url":    {Name: "a", Model: "m"},
		"ftp":       {Name: "a", BaseURL: "ftp://example.com/v1", Model: "m"},
		"file":      {Name: "a", BaseURL: "file:///etc/passwd", Model: "m"},
		"no host":   {Name: "a", BaseURL: "http:///v1", Model: "m"},
		"userinfo":  {Name: "a", BaseURL: "https://u:p@example.com/v1", Model: "m"},
		"query":     {Name: "a", BaseURL: "https://example.com/v1?key=x", Model: "m"},
		"long name": {Name: strings.Repeat("a", MaxOwnName+1), BaseURL: ok.BaseURL, Model: "m"},
		"long url":  {Name: "a", BaseURL: "https://example.com/" + strings.Repeat("a", MaxOwnBaseURL), Model: "m"},
		"long key":  {Name: "a", BaseURL: ok.BaseURL, Model: "m", Key: Key(strings.Repeat("k", MaxOwnKey+1))},
		"short key": {Name: "a", BaseURL: ok.BaseURL, Model: "m", Key: "abc"},
		"key space": {Name: "a", BaseURL: ok.BaseURL, Model: "m", Key: "sk-abc def-ghi"},
	} {
		err := c.Validate()
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if c.Key != "" && strings.Contains(err.Error(), string(c.Key)) || strings.Contains(err.Error(), "example.com") {
			t.Errorf("%s: the error echoes a value: %v", name, err)
		}
	}
}
