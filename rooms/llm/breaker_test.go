package llm

import (
	"context"
	"encoding/json"
	"errors"
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

	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/roomtest"
)

// fakeClock is a breaker's clock that moves only when the test says.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *fakeClock {
	return &fakeClock{t: time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)}
}

func (c *fakeClock) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// clocked returns the fake endpoint's Engine on a fake clock, logging to
// the returned buffer.
func clocked(t *testing.T, f *fakeLLM) (*Engine, *fakeClock, *roomtest.Buffer) {
	t.Helper()
	p := f.player(t, 5*time.Second)
	c := newClock()
	p.breaker.now = c.now
	log := &roomtest.Buffer{}
	p.SetLogger(slog.New(slog.NewTextHandler(log, nil)))
	return p, c, log
}

// decide asks p for a move on the tile-phase view with ctx.
func decide(ctx context.Context, p *Engine, view json.RawMessage) error {
	_, _, err := p.Move(ctx, rooms.EngineRequest{Game: "carcassonne", View: view})
	return err
}

// switchable answers with whatever reply was set last.
type switchable struct{ r atomic.Pointer[reply] }

func (s *switchable) set(r reply) { s.r.Store(&r) }
func (s *switchable) answer(string) reply {
	return *s.r.Load()
}

const crashed = `{"error": {"message": "the model crashed, key ` + string(testKey) + `", "type": "server_error"}}`

// TestBreakerWhatCounts: BreakerFailures endpoint failures in a row
// (5xx, 408, 429, a network error, a timeout) open the circuit: the next
// decision fails at once with ErrCircuitOpen and sends nothing. What is
// not the endpoint's failure (a malformed or unlisted answer, a 4xx, a
// refused response_format, a cancelled decision) never opens it.
func TestBreakerWhatCounts(t *testing.T) {
	tileView, _, _, _ := views(t)
	for _, c := range []struct {
		name   string
		a      reply
		closed bool // the endpoint is not listening
		ctx    func() (context.Context, context.CancelFunc)
		counts bool
	}{
		{name: "HTTP 500", a: reply{status: 500, content: crashed}, counts: true},
		{name: "HTTP 502 with an HTML body", a: reply{status: 502, content: "<html>bad gateway</html>", contentType: "text/html"}, counts: true},
		{name: "HTTP 503", a: reply{status: 503, content: `{}`}, counts: true},
		{name: "HTTP 429 without Retry-After", a: reply{status: 429, content: `{"error": {"message": "slow down"}}`}, counts: true},
		{name: "HTTP 408", a: reply{status: 408, content: `{}`}, counts: true},
		{name: "connection refused", closed: true, counts: true},
		{name: "a response that is not a completion", a: reply{status: 203, content: "<html>sign in</html>", contentType: "text/html"}, counts: true},
		{name: "timeout", a: reply{content: `{"option": 1}`, delay: time.Minute}, counts: true,
			ctx: func() (context.Context, context.CancelFunc) {
				return context.WithTimeout(context.Background(), 20*time.Millisecond)
			}},
		{name: "malformed answer", a: reply{content: "I would place it north."}},
		{name: "unlisted option", a: reply{content: `{"option": 999}`}},
		{name: "null content", a: reply{null: true}},
		{name: "HTTP 401", a: reply{status: 401, content: `{"error": {"message": "bad key"}}`}},
		{name: "HTTP 404", a: reply{status: 404, content: `{"error": {"message": "no such model"}}`}},
		{name: "HTTP 400 to every format", a: reply{status: 400, content: `{"error": {"message": "bad request"}}`}},
		{name: "cancelled", a: reply{content: `{"option": 1}`},
			ctx: func() (context.Context, context.CancelFunc) {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx, cancel
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, always(c.a))
			p, _, log := clocked(t, f)
			if c.closed {
				f.Close()
			}
			for i := range BreakerFailures {
				ctx, cancel := context.Background(), context.CancelFunc(func() {})
				if c.ctx != nil {
					ctx, cancel = c.ctx()
				}
				err := decide(ctx, p, tileView)
				cancel()
				if err == nil {
					t.Fatalf("decision %d: no error", i)
				}
				if errors.Is(err, ErrCircuitOpen) {
					t.Fatalf("decision %d: the circuit opened early: %v", i, err)
				}
			}
			sent := f.requests()
			err := decide(context.Background(), p, tileView)
			t.Logf("after %d: %v", BreakerFailures, err)
			if c.counts {
				var un *UnavailableError
				if !errors.Is(err, ErrCircuitOpen) || !errors.As(err, &un) || un.Left != BreakerCoolDown || un.Failures != BreakerFailures {
					t.Fatalf("err %v, want ErrCircuitOpen with the whole cool-down left", err)
				}
				if errors.Is(err, ErrEndpoint) || errors.Is(err, rooms.ErrEngineBusy) || errors.Is(err, context.DeadlineExceeded) {
					t.Errorf("%v would not count as reason error", err)
				}
				if !strings.Contains(err.Error(), "llm-test: circuit open after 5 endpoint failures in a row") || !strings.Contains(err.Error(), "next probe in 30s") {
					t.Errorf("err %q does not say the circuit is open and when it probes", err)
				}
				if n := f.requests(); n != sent {
					t.Errorf("%d requests sent with the circuit open", n-sent)
				}
				if p.Circuit() != "open" || strings.Count(log.String(), "circuit open") != 1 {
					t.Errorf("circuit %s; log:\n%s", p.Circuit(), log)
				}
			} else {
				if errors.Is(err, ErrCircuitOpen) || p.Circuit() != "closed" {
					t.Fatalf("err %v, circuit %s: want it closed", err, p.Circuit())
				}
				if n := f.requests(); !c.closed && n == sent {
					t.Errorf("the decision sent nothing")
				}
				if log.String() != "" {
					t.Errorf("log:\n%s", log)
				}
			}
			if err != nil {
				mustNotLeak(t, "the error", err.Error())
			}
			mustNotLeak(t, "the log", log.String())
		})
	}
}

// TestBreakerInARow: an answer from the endpoint resets the count; only
// BreakerFailures failures with none between them open the circuit.
func TestBreakerInARow(t *testing.T) {
	tileView, _, _, _ := views(t)
	var s switchable
	f := newFake(t, s.answer)
	p, _, _ := clocked(t, f)
	fail := func(n int) {
		t.Helper()
		s.set(reply{status: 500, content: crashed})
		for range n {
			if err := decide(context.Background(), p, tileView); !errors.Is(err, ErrEndpoint) {
				t.Fatalf("err %v, want ErrEndpoint", err)
			}
		}
	}
	fail(BreakerFailures - 1)
	s.set(reply{content: "no choice here"}) // a malformed answer: the endpoint is up
	if err := decide(context.Background(), p, tileView); !errors.Is(err, ErrMalformed) {
		t.Fatalf("err %v, want ErrMalformed", err)
	}
	fail(BreakerFailures - 1)
	if p.Circuit() != "closed" {
		t.Fatalf("circuit %s after failures that were not in a row", p.Circuit())
	}
	fail(1)
	if err := decide(context.Background(), p, tileView); !errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("err %v, want ErrCircuitOpen", err)
	}
}

// TestBreakerCoolDown: an open circuit sends nothing until the cool-down
// ends on its clock; then one probe goes. A failed probe opens it again
// for twice as long, up to BreakerMaxCoolDown; a successful one closes
// it, and the next opening starts from BreakerCoolDown again. Each change
// of state is logged once, without the key.
func TestBreakerCoolDown(t *testing.T) {
	tileView, _, _, _ := views(t)
	var s switchable
	s.set(reply{status: 500, content: crashed})
	f := newFake(t, s.answer)
	p, clock, log := clocked(t, f)
	for range BreakerFailures {
		_ = decide(context.Background(), p, tileView)
	}
	// stillOpen: decisions fail at once with left to wait, sending nothing.
	stillOpen := func(left time.Duration) {
		t.Helper()
		sent := f.requests()
		for range 3 {
			err := decide(context.Background(), p, tileView)
			var un *UnavailableError
			if !errors.As(err, &un) || un.RetryAfter || un.Left != left {
				t.Fatalf("err %v, want the circuit open for %v more", err, left)
			}
			if !strings.Contains(err.Error(), `last failure: OpenAI API error: 500 Internal Server Error: "the model crashed, key [redacted]"`) {
				t.Errorf("err %q lacks the endpoint's last failure", err)
			}
		}
		if n := f.requests(); n != sent {
			t.Fatalf("%d requests sent with the circuit open", n-sent)
		}
	}
	stillOpen(BreakerCoolDown)
	clock.advance(BreakerCoolDown - time.Second)
	stillOpen(time.Second)
	probes := 0
	for _, want := range []time.Duration{60 * time.Second, 120 * time.Second, 240 * time.Second, BreakerMaxCoolDown, BreakerMaxCoolDown} {
		clock.advance(time.Second) // the cool-down ends
		sent := f.requests()
		if err := decide(context.Background(), p, tileView); !errors.Is(err, ErrEndpoint) {
			t.Fatalf("probe: err %v, want the endpoint's failure", err)
		}
		probes++
		if f.requests() != sent+1 {
			t.Fatalf("the probe sent %d requests, want 1", f.requests()-sent)
		}
		stillOpen(want)
		clock.advance(want - time.Second)
		stillOpen(time.Second)
	}
	if got := strings.Count(log.String(), "circuit open again"); got != probes {
		t.Errorf("%d lines of the circuit opening again, want %d:\n%s", got, probes, log)
	}
	s.set(reply{content: `{"option": 1}`})
	clock.advance(time.Second)
	if err := decide(context.Background(), p, tileView); err != nil {
		t.Fatalf("probe on a healthy endpoint: %v", err)
	}
	if p.Circuit() != "closed" {
		t.Fatalf("circuit %s after a good probe", p.Circuit())
	}
	for range 3 {
		if err := decide(context.Background(), p, tileView); err != nil {
			t.Fatalf("closed circuit: %v", err)
		}
	}
	out := log.String()
	for msg, n := range map[string]int{"circuit open: decisions fall back at once": 1, "circuit half-open": probes + 1, "circuit closed": 1} {
		if got := strings.Count(out, msg); got != n {
			t.Errorf("%d lines %q, want %d:\n%s", got, msg, n, out)
		}
	}
	if !strings.Contains(out, "level=llm-test") || !strings.Contains(out, "cool_down=5m0s") {
		t.Errorf("the log lacks the level or the cool-down:\n%s", out)
	}
	mustNotLeak(t, "the log", out)
	// Opening again starts from the first cool-down.
	s.set(reply{status: 503, content: `{}`})
	for range BreakerFailures {
		_ = decide(context.Background(), p, tileView)
	}
	stillOpenFor := func() time.Duration {
		var un *UnavailableError
		if err := decide(context.Background(), p, tileView); !errors.As(err, &un) {
			t.Fatalf("err %v, want the circuit open", err)
		}
		return un.Left
	}
	if left := stillOpenFor(); left != BreakerCoolDown {
		t.Errorf("cool-down %v after closing, want %v", left, BreakerCoolDown)
	}
}

// TestBreakerOneProbe: half-open, exactly one decision goes to the
// endpoint; the others fail at once while it is in flight. A probe that
// ends without a verdict (cancelled) lets the next decision probe.
func TestBreakerOneProbe(t *testing.T) {
	tileView, _, _, _ := views(t)
	var failing atomic.Bool
	failing.Store(true)
	g := &gate{arrived: make(chan struct{}, 100), open: make(chan struct{}, 100)}
	f := newFake(t, func(user string) reply {
		if failing.Load() {
			return reply{status: 500, content: crashed}
		}
		g.answer(user) // held until the test lets it through
		return reply{content: `{"option": 1}`}
	})
	t.Cleanup(func() { close(g.open) })
	p, clock, _ := clocked(t, f)
	for range BreakerFailures {
		_ = decide(context.Background(), p, tileView)
	}
	failing.Store(false)
	clock.advance(BreakerCoolDown)

	// A probe cancelled before the endpoint answers teaches nothing.
	ctx, cancel := context.WithCancel(context.Background())
	cancelled := make(chan error, 1)
	go func() { cancelled <- decide(ctx, p, tileView) }()
	<-g.arrived
	cancel()
	if err := <-cancelled; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled probe: %v", err)
	}
	if p.Circuit() != "half-open" {
		t.Fatalf("circuit %s after a cancelled probe, want half-open", p.Circuit())
	}
	g.open <- struct{}{} // the cancelled request's handler, before the next one arrives
	waitFor(t, "the cancelled request's handler to finish", func() bool { held, _ := g.counts(); return held == 0 })

	done := make(chan error, 1)
	go func() { done <- decide(bounded(t), p, tileView) }()
	<-g.arrived
	sent := f.requests()
	for range 3 {
		// A guard only: a decision let through would wait at the gate.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := decide(ctx, p, tileView)
		cancel()
		var un *UnavailableError
		if !errors.As(err, &un) || un.Left != 0 || !strings.Contains(err.Error(), "a probe request is in flight") {
			t.Fatalf("err %v, want the circuit half-open with a probe in flight", err)
		}
	}
	if n := f.requests(); n != sent {
		t.Fatalf("%d requests beside the probe", n-sent)
	}
	g.open <- struct{}{}
	if err := <-done; err != nil {
		t.Fatalf("probe: %v", err)
	}
	if p.Circuit() != "closed" {
		t.Fatalf("circuit %s after a good probe", p.Circuit())
	}
}

// TestBreakerStaleResults: a request let through before the circuit
// changed state does not change it when it ends.
func TestBreakerStaleResults(t *testing.T) {
	b := newBreaker("llm-x")
	clock := newClock()
	b.now = clock.now
	b.log.Store(slog.New(slog.DiscardHandler))
	early, err := b.allow()
	if err != nil {
		t.Fatal(err)
	}
	for range BreakerFailures {
		tk, _ := b.allow()
		b.done(tk, outcomeDown, "down")
	}
	b.done(early, outcomeUp, "")
	if b.circuit() != "open" {
		t.Fatalf("circuit %s: an answer from before it opened closed it", b.circuit())
	}
	clock.advance(BreakerCoolDown)
	probe, err := b.allow()
	if err != nil || !probe.probe {
		t.Fatalf("allow = %+v, %v; want the probe", probe, err)
	}
	b.done(early, outcomeDown, "late")
	b.done(early, outcomeNone, "")
	if _, err := b.allow(); !errors.Is(err, ErrCircuitOpen) {
		t.Fatalf("a second decision went through while the probe is in flight: %v", err)
	}
	b.done(probe, outcomeUp, "")
	if b.circuit() != "closed" {
		t.Fatalf("circuit %s after the probe", b.circuit())
	}
}

// TestRetryAfter: a 429 or 503 with Retry-After (seconds or an HTTP date)
// holds every decision until then on the breaker's clock: it fails at
// once with ErrRetryAfter, saying so and quoting the endpoint's message
// (no key), and sends nothing. A Retry-After on another status, in the
// past or unreadable holds nothing; a very long one is cut to
// MaxRetryAfter.
func TestRetryAfter(t *testing.T) {
	tileView, _, _, _ := views(t)
	now := newClock().now()
	for _, c := range []struct {
		name   string
		status int
		header string
		wait   time.Duration // 0: no wait
		says   string        // in the first decision's error
	}{
		{"429, seconds", 429, "7", 7 * time.Second, "(retry after 7s)"},
		{"503, seconds", 503, "120", 2 * time.Minute, "(retry after 2m0s)"},
		{"429, HTTP date", 429, now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, "(retry after " + now.Add(90*time.Second).Format(time.RFC1123) + ")"},
		{"429, a day", 429, "86400", MaxRetryAfter, "(retry after 24h0m0s)"},
		{"429, past what a duration holds", 429, "99999999999999", MaxRetryAfter, "(retry after 99999999999999s)"},
		{"500 with Retry-After", 500, "7", 0, "(retry after 7s)"},
		{"429, a date in the past", 429, now.Add(-time.Hour).Format(http.TimeFormat), 0, "(retry after"},
		{"429, unreadable", 429, "soon", 0, "429 Too Many Requests"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var s switchable
			s.set(reply{status: c.status, header: http.Header{"Retry-After": {c.header}},
				content: `{"error": {"message": "rate limit reached for ` + string(testKey) + `", "type": "rate_limit"}}`})
			f := newFake(t, s.answer)
			p, clock, log := clocked(t, f)
			err := decide(context.Background(), p, tileView)
			if !errors.Is(err, ErrEndpoint) || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("first decision: %v, want ErrEndpoint saying %q", err, c.says)
			}
			s.set(reply{content: `{"option": 1}`})
			if c.wait == 0 {
				if err := decide(context.Background(), p, tileView); err != nil || f.requests() != 2 {
					t.Fatalf("second decision: %v after %d requests, want it sent and answered", err, f.requests())
				}
				return
			}
			held := func(left time.Duration) {
				t.Helper()
				for range 3 {
					err := decide(context.Background(), p, tileView)
					var un *UnavailableError
					if !errors.Is(err, ErrRetryAfter) || !errors.As(err, &un) || un.Left != left || !un.Until.Equal(now.Add(c.wait)) {
						t.Fatalf("err %v, want ErrRetryAfter with %v left", err, left)
					}
					if errors.Is(err, ErrEndpoint) || errors.Is(err, ErrCircuitOpen) {
						t.Errorf("err %v wraps more than ErrRetryAfter", err)
					}
					msg := err.Error()
					for _, want := range []string{"llm-test: the endpoint asked to wait (Retry-After): nothing sent until", fmt.Sprint(left) + " left",
						fmt.Sprint(c.status), `"rate limit reached for [redacted]"`} {
						if !strings.Contains(msg, want) {
							t.Errorf("err %q lacks %q", msg, want)
						}
					}
					mustNotLeak(t, "the error", msg)
				}
				if n := f.requests(); n != 1 {
					t.Fatalf("%d requests sent during Retry-After", n-1)
				}
			}
			held(c.wait)
			clock.advance(c.wait - time.Second)
			held(time.Second)
			clock.advance(time.Second)
			if err := decide(context.Background(), p, tileView); err != nil || f.requests() != 2 {
				t.Fatalf("after the wait: %v after %d requests, want it sent and answered", err, f.requests())
			}
			out := log.String()
			if strings.Count(out, "asked to wait (Retry-After)") != 1 || !strings.Contains(out, "level=llm-test") {
				t.Errorf("want one log line of the wait:\n%s", out)
			}
			mustNotLeak(t, "the log", out)
		})
	}
}

// checkStub is an OpenAI-compatible endpoint answering every request
// with content and a usage block, recording the user messages.
type checkStub struct {
	*httptest.Server
	mu      sync.Mutex
	prompts []string
	content string
}

func newCheckStub(t *testing.T, content string) *checkStub {
	s := &checkStub{content: content}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct {
				Content string `json:"content"`
			} `json:"messages"`
		}
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &req)
		s.mu.Lock()
		var user string
		if len(req.Messages) > 0 {
			user = req.Messages[len(req.Messages)-1].Content
		}
		s.prompts = append(s.prompts, user)
		s.mu.Unlock()
		content, _ := json.Marshal(s.content)
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],"usage":{"prompt_tokens":812,"completion_tokens":9,"total_tokens":821}}`, content)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *checkStub) player(t *testing.T) *Engine {
	t.Helper()
	p, err := New(Endpoint{Name: "test", BaseURL: s.URL + "/v1", Model: "m", Timeout: 5 * time.Second}, testKey, s.Client())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckDecides: Check makes one real decision on the sample position
// through Move: the prompt is the seat's view of a game a few turns in,
// the result names the option, its line in the prompt and the move (legal
// in that position), the tokens the endpoint reported and one request.
// An unlisted option fails with ErrNoOption but still reports the number
// and the tokens; an open circuit fails at once, sending nothing.
func TestCheckDecides(t *testing.T) {
	req, err := sample()
	if err != nil {
		t.Fatal(err)
	}
	var v carcassonne.View
	if err := json.Unmarshal(req.View, &v); err != nil {
		t.Fatal(err)
	}
	if v.Phase != carcassonne.PhaseTile || v.Current != req.Seat || v.Turn <= sampleTurns || len(v.Board) <= sampleTurns || len(v.Placements) == 0 {
		t.Fatalf("sample: seat %d, view phase %s current %d turn %d, %d tiles, %d placements", req.Seat, v.Phase, v.Current, v.Turn, len(v.Board), len(v.Placements))
	}
	again, _ := buildSample()
	if string(again.View) != string(req.View) {
		t.Error("the sample position differs between builds")
	}

	stub := newCheckStub(t, "Thinking it over.\n```json\n{\"option\": 2}\n```")
	p := stub.player(t)
	res, err := p.Check(context.Background())
	if err != nil {
		t.Fatalf("Check: %v", err)
	}
	t.Logf("%+v", res)
	if res.Option == nil || *res.Option != 2 || res.Latency <= 0 || res.Requests != 1 || res.Circuit != "closed" {
		t.Fatalf("result %+v, want option 2, a latency, one request, a closed circuit", res)
	}
	if res.Usage == nil || *res.Usage != (Usage{Prompt: 812, Completion: 9, Total: 821}) {
		t.Errorf("usage %+v, want 812/9/821", res.Usage)
	}
	pr, err := buildPrompt(req.View, req.Seat)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := pr.option(2)
	if res.Choice == "" || res.Choice != o.text || res.Move != o.name || string(res.Args) != string(o.args) {
		t.Errorf("choice %q, move %s %s; want option 2: %q, %s %s", res.Choice, res.Move, res.Args, o.text, o.name, o.args)
	}
	if stub.prompts[0] != pr.user {
		t.Errorf("the endpoint got another prompt than the sample's:\n%s", stub.prompts[0])
	}
	if res.Move == "" || len(res.Args) == 0 {
		t.Fatalf("no move: %+v", res)
	}
	if !legalIn(t, req, res.Move, res.Args) {
		t.Errorf("move %s %s is not legal in the sample position", res.Move, res.Args)
	}

	unlisted := newCheckStub(t, `{"option": 999}`)
	res, err = unlisted.player(t).Check(context.Background())
	if !errors.Is(err, ErrNoOption) || res.Option == nil || *res.Option != 999 || res.Choice != "" || res.Move != "" {
		t.Fatalf("unlisted: %+v, %v; want ErrNoOption naming 999 and no move", res, err)
	}
	if res.Requests < 1 || res.Usage == nil || res.Usage.Total != int64(res.Requests)*821 {
		t.Errorf("unlisted: usage %+v over %d requests, want 821 each", res.Usage, res.Requests)
	}

	down := newFake(t, always(reply{status: 503, content: crashed}))
	dp := down.player(t, 5*time.Second)
	dp.SetLogger(slog.New(slog.DiscardHandler))
	for range BreakerFailures {
		if _, err := dp.Check(context.Background()); !errors.Is(err, ErrEndpoint) {
			t.Fatalf("Check on 503: %v", err)
		}
	}
	sent := down.requests()
	res, err = dp.Check(context.Background())
	if !errors.Is(err, ErrCircuitOpen) || res.Requests != 0 || res.Circuit != "open" || down.requests() != sent {
		t.Fatalf("open circuit: %+v, %v after %d more requests; want ErrCircuitOpen at once", res, err, down.requests()-sent)
	}
	mustNotLeak(t, "the error", err.Error())
}

// legalIn reports whether move is one of the placements req's view lists.
func legalIn(t *testing.T, req rooms.EngineRequest, name string, args json.RawMessage) bool {
	t.Helper()
	var v carcassonne.View
	_ = json.Unmarshal(req.View, &v)
	if name != carcassonne.MovePlaceTile {
		return false
	}
	var a []carcassonne.TileArgs
	if err := json.Unmarshal(args, &a); err != nil || len(a) != 1 {
		return false
	}
	for _, pl := range v.Placements {
		if pl.X == a[0].X && pl.Y == a[0].Y {
			for _, r := range pl.Rotations {
				if r == a[0].Rotation {
					return true
				}
			}
		}
	}
	return false
}
