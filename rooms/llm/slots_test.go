package llm

import (
	"context"
	"errors"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
)

// gate is a fake endpoint's answer that holds every request until the
// test opens it, counting the requests held at once and their peak.
type gate struct {
	mu      sync.Mutex
	held    int // requests being answered now
	peak    int // the most held at once
	arrived chan struct{}
	open    chan struct{} // one receive lets one request through
}

// gatedFake returns a fake endpoint answering through a new gate, which
// opens for good when the test ends (so the server can close even after
// a failure).
func gatedFake(t *testing.T) (*gate, *fakeLLM) {
	g := &gate{arrived: make(chan struct{}, 100), open: make(chan struct{}, 100)}
	f := newFake(t, g.answer)
	t.Cleanup(func() { close(g.open) })
	return g, f
}

// answer holds the request until the test lets one through, then answers
// the first listed option.
func (g *gate) answer(user string) reply {
	g.mu.Lock()
	g.held++
	g.peak = max(g.peak, g.held)
	g.mu.Unlock()
	g.arrived <- struct{}{}
	<-g.open
	g.mu.Lock()
	g.held--
	g.mu.Unlock()
	return firstOption(user)
}

func (g *gate) counts() (held, peak int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held, g.peak
}

// waitFor polls cond (a state of goroutines, not a duration) for up to 10 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

// bounded is a context for a decision a failing test could leave waiting.
func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// limited returns an Engine of the fake endpoint f with max request slots.
func limited(t *testing.T, f *fakeLLM, max int, timeout time.Duration) *Engine {
	t.Helper()
	p, err := New(Endpoint{Name: "test", BaseURL: f.URL + "/v1", Model: "test-model", Timeout: timeout, Max: max}, testKey, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestMaxConcurrentRequests: six decisions at once on an endpoint with
// max=2 send two requests; the other four wait for a slot (none reaches
// the endpoint) and go out one by one as answers come back, never more
// than two at a time; every decision gets its move.
func TestMaxConcurrentRequests(t *testing.T) {
	tileView, _, _, _ := views(t)
	g, f := gatedFake(t)
	p := limited(t, f, 2, time.Minute)
	const n = 6
	errs := make(chan error, n)
	for range n {
		go func() {
			_, _, err := p.Move(bounded(t), rooms.EngineRequest{Game: Game, Seat: 0, View: tileView})
			errs <- err
		}()
	}
	waitFor(t, "two requests held and four decisions queued", func() bool {
		held, _ := g.counts()
		return held == 2 && p.slots.queued() == n-2
	})
	if got := f.requests(); got != 2 {
		t.Fatalf("%d requests reached the endpoint with max=2", got)
	}
	// Let one through at a time: each answer frees the slot for one more.
	for i := range n {
		g.open <- struct{}{}
		if i+2 < n {
			waitFor(t, "the next queued request sent", func() bool { return f.requests() == i+3 })
		}
	}
	for range n {
		if err := <-errs; err != nil {
			t.Errorf("Move: %v", err)
		}
	}
	if _, peak := g.counts(); peak != 2 {
		t.Errorf("peak %d requests at once, want 2 (max=2)", peak)
	}
	if p.slots.inFlight() != 0 || p.slots.queued() != 0 {
		t.Errorf("after every answer: %d slots taken, %d queued", p.slots.inFlight(), p.slots.queued())
	}
}

// TestBusy: with the endpoint's only slot taken, a decision gives up
// before its deadline with ErrBusy (wrapping rooms.ErrEngineBusy), sends
// nothing and leaks no key; a cancelled one returns its context's error;
// once the slot is free the next decision is sent.
func TestBusy(t *testing.T) {
	tileView, _, _, _ := views(t)
	g, f := gatedFake(t)
	p := limited(t, f, 1, time.Minute)
	req := rooms.EngineRequest{Game: Game, Seat: 0, View: tileView}
	first := make(chan error, 1)
	go func() { _, _, err := p.Move(bounded(t), req); first <- err }()
	<-g.arrived

	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	_, _, err := p.Move(ctx, req)
	cancel()
	if !errors.Is(err, ErrBusy) || !errors.Is(err, rooms.ErrEngineBusy) {
		t.Errorf("a decision with no free slot: %v, want ErrBusy", err)
	}
	mustNotLeak(t, "the busy error", err.Error())

	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, _, err := p.Move(ctx, req); !errors.Is(err, context.Canceled) || errors.Is(err, ErrBusy) {
		t.Errorf("a cancelled decision: %v, want context.Canceled", err)
	}
	if got := f.requests(); got != 1 {
		t.Errorf("%d requests reached the endpoint, want only the first", got)
	}

	g.open <- struct{}{}
	if err := <-first; err != nil {
		t.Fatalf("the first decision: %v", err)
	}
	g.open <- struct{}{}
	if _, _, err := p.Move(bounded(t), req); err != nil {
		t.Errorf("after the slot freed: %v", err)
	}
}

// TestBusyThroughRooms: a room whose LLM seat finds the endpoint's only
// slot taken (another room's request hangs) plays the normal level at
// each of its decisions, counted and logged with the reason "busy", and
// the game goes on.
func TestBusyThroughRooms(t *testing.T) {
	tileView, _, _, _ := views(t)
	g, f := gatedFake(t)
	p := limited(t, f, 1, time.Second)
	hog := make(chan error, 1)
	go func() {
		_, _, err := p.Move(bounded(t), rooms.EngineRequest{Game: Game, Seat: 0, View: tileView})
		hog <- err
	}()
	<-g.arrived
	r := newRoom(t, p)
	_, v := await(t, r.store, r.id, 30*time.Second, func(v carcassonne.View) bool { return v.Turn > 3 || v.Phase == carcassonne.PhaseOver })
	fb := r.metrics.List()
	t.Logf("turn %d, fallbacks %v", v.Turn, fb)
	if len(fb) < 2 {
		t.Errorf("fallbacks %v, want one per decision of seat 0", fb)
	}
	for _, got := range fb {
		if got != "carcassonne/llm-test/busy" {
			t.Errorf("fallback %s, want carcassonne/llm-test/busy", got)
		}
	}
	if !regexp.MustCompile(`bot player failed.*level=llm-test reason=busy fallback=normal`).MatchString(r.log.String()) {
		t.Errorf("no busy line in the log:\n%s", r.log.String())
	}
	if got := f.requests(); got != 1 {
		t.Errorf("%d requests reached the endpoint, want only the hog's", got)
	}
	mustNotLeak(t, "the log", r.log.String())
	g.open <- struct{}{}
	if err := <-hog; err != nil {
		t.Errorf("the hog's decision: %v", err)
	}
}
