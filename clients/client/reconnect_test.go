package client

import (
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
)

// dialReconnecting dials the fake as seat "0" with Options.Reconnect and
// short backoffs, and records every status change.
func dialReconnecting(t *testing.T, url string) (*Conn, *statusLog) {
	t.Helper()
	log := &statusLog{ch: make(chan StatusChange, 256)}
	c, err := DialWith(testCtx(t), url, "counter", "m1", "0", "secret", Options{
		Reconnect: true, MinBackoff: time.Millisecond, MaxBackoff: 20 * time.Millisecond,
		OnStatus: func(s StatusChange) { log.ch <- s },
	})
	if err != nil {
		t.Fatalf("DialWith: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c, log
}

// statusLog is what OnStatus reported, in order.
type statusLog struct{ ch chan StatusChange }

// waitFor reads status changes until one has status want and returns it;
// it fails the test after a generous guard.
func (l *statusLog) waitFor(t *testing.T, want Status) StatusChange {
	t.Helper()
	guard := time.After(time.Minute)
	for {
		select {
		case s := <-l.ch:
			if s.Status == want {
				return s
			}
		case <-guard:
			t.Fatalf("no status %v reported", want)
		}
	}
}

func TestReconnectAfterDrop(t *testing.T) {
	srv, fake := newFakeWS(t)
	c, log := dialReconnecting(t, srv.URL)
	if s := log.waitFor(t, StatusOpen); s.Err != nil || c.Status() != StatusOpen {
		t.Fatalf("after Dial: %+v, Status %v", s, c.Status())
	}
	if _, err := c.Move(testCtx(t), "inc", 3); err != nil {
		t.Fatal(err)
	}
	for len(c.States()) > 0 {
		<-c.States() // the states so far, taken
	}

	// bye closes the socket before its answer: the move in flight fails
	// with ErrDisconnected, and the Conn comes back with the same hello.
	_, err := c.Move(testCtx(t), "bye")
	if !errors.Is(err, ErrDisconnected) {
		t.Fatalf("move whose socket dropped: %v, want ErrDisconnected", err)
	}
	if r := log.waitFor(t, StatusReconnecting); r.Attempt != 1 || r.Err == nil {
		t.Fatalf("first reconnecting status %+v, want attempt 1 with the drop's cause", r)
	}
	log.waitFor(t, StatusOpen)
	select {
	case st := <-c.States(): // the reconnect's hello is answered with the full state
		if counter(t, st) != 3 {
			t.Fatalf("state after the reconnect: n=%d, want 3", counter(t, st))
		}
	case <-testCtx(t).Done():
		t.Fatal("no state after the reconnect")
	}
	fake.mu.Lock()
	hellos := slices.Clone(fake.hellos)
	fake.mu.Unlock()
	if !slices.Equal(hellos, []string{"0/secret", "0/secret"}) {
		t.Fatalf("hellos %q, want the same seat and credentials twice", hellos)
	}
	st, err := c.Move(testCtx(t), "inc", 2)
	if err != nil || counter(t, st) != 5 || c.Err() != nil {
		t.Fatalf("move after the reconnect: %v n=%d, Err %v", err, counter(t, st), c.Err())
	}

	// A drop from the network side (no close frame) reconnects as well.
	fake.dropAll()
	log.waitFor(t, StatusReconnecting)
	log.waitFor(t, StatusOpen)
	if st, err := c.Move(testCtx(t), "inc", 1); err != nil || counter(t, st) != 6 {
		t.Fatalf("move after the second reconnect: %v", err)
	}
}

// TestDisconnectedRefusesAtOnce: while the server refuses upgrades (503),
// the Conn keeps trying with growing waits, and every send is refused at
// once with ErrDisconnected; once the server is back the Conn is too.
func TestDisconnectedRefusesAtOnce(t *testing.T) {
	srv, fake := newFakeWS(t)
	c, log := dialReconnecting(t, srv.URL)
	fake.set(func(f *fakeWS) { f.down = true })
	fake.dropAll()
	// Several failed attempts: each reports its failure (503 unavailable).
	var last StatusChange
	for last.Attempt < 3 {
		last = log.waitFor(t, StatusReconnecting)
	}
	if !IsCode(last.Err, protocol.CodeUnavailable) {
		t.Fatalf("attempt %d failed with %v, want the 503", last.Attempt, last.Err)
	}
	if c.Status() != StatusReconnecting || c.Err() != nil {
		t.Fatalf("Status %v, Err %v while reconnecting", c.Status(), c.Err())
	}
	// testCtx's deadline is seconds away: a refusal that waited for it
	// would be a context error, not ErrDisconnected.
	if _, err := c.Move(testCtx(t), "inc", 1); !errors.Is(err, ErrDisconnected) {
		t.Fatalf("Move while disconnected: %v, want ErrDisconnected", err)
	}
	if _, err := c.Sync(testCtx(t)); !errors.Is(err, ErrDisconnected) {
		t.Fatalf("Sync while disconnected: %v", err)
	}
	if err := c.Chat(testCtx(t), "hi"); !errors.Is(err, ErrDisconnected) {
		t.Fatalf("Chat while disconnected: %v", err)
	}
	if counter(t, c.Latest()) != 0 {
		t.Fatal("a refused move changed something")
	}
	fake.set(func(f *fakeWS) { f.down = false })
	log.waitFor(t, StatusOpen)
	if st, err := c.Move(testCtx(t), "inc", 1); err != nil || counter(t, st) != 1 {
		t.Fatalf("move once back: %v", err)
	}
}

// TestReconnectUnauthorizedStops: a reconnect whose hello is refused as
// unauthorized (the seat is gone) ends the Conn and says why.
func TestReconnectUnauthorizedStops(t *testing.T) {
	srv, fake := newFakeWS(t)
	c, log := dialReconnecting(t, srv.URL)
	fake.set(func(f *fakeWS) { f.revoked = true })
	fake.dropAll()
	s := log.waitFor(t, StatusClosed)
	select {
	case <-c.Done():
	case <-testCtx(t).Done():
		t.Fatal("Done not closed after an unauthorized reconnect")
	}
	if !IsCode(c.Err(), protocol.CodeUnauthorized) || !errors.Is(c.Err(), ErrClosed) || !IsCode(s.Err, protocol.CodeUnauthorized) {
		t.Fatalf("Err %v (status %+v), want ErrClosed wrapping unauthorized", c.Err(), s)
	}
	if c.Status() != StatusClosed {
		t.Fatalf("Status %v", c.Status())
	}
	fake.mu.Lock()
	n := len(fake.hellos)
	fake.mu.Unlock()
	if n != 2 {
		t.Fatalf("%d hellos, want the first and one refused reconnect (no retry after unauthorized)", n)
	}
	if _, err := c.Move(testCtx(t), "inc", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("Move after the end: %v", err)
	}
}

// TestCloseWhileReconnecting: Close stops the attempts; Err is ErrClosed.
func TestCloseWhileReconnecting(t *testing.T) {
	srv, fake := newFakeWS(t)
	c, log := dialReconnecting(t, srv.URL)
	fake.set(func(f *fakeWS) { f.down = true })
	fake.dropAll()
	log.waitFor(t, StatusReconnecting)
	c.Close()
	if c.Err() != ErrClosed || c.Status() != StatusClosed {
		t.Fatalf("after Close: Err %v, Status %v", c.Err(), c.Status())
	}
	log.waitFor(t, StatusClosed)
}

// TestNoReconnectByDefault: Dial's Conn ends with its socket, as before.
func TestNoReconnectByDefault(t *testing.T) {
	srv, fake := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	fake.dropAll()
	select {
	case <-c.Done():
	case <-testCtx(t).Done():
		t.Fatal("a Conn without Reconnect outlived its socket")
	}
	if !errors.Is(c.Err(), ErrClosed) || c.Status() != StatusClosed {
		t.Fatalf("Err %v, Status %v", c.Err(), c.Status())
	}
	var seen []Status
	for len(c.Statuses()) > 0 {
		seen = append(seen, (<-c.Statuses()).Status)
	}
	if !slices.Equal(seen, []Status{StatusConnecting, StatusOpen, StatusClosed}) {
		t.Fatalf("statuses %v", seen)
	}
}

func TestJitterAndPermanent(t *testing.T) {
	for _, d := range []time.Duration{time.Millisecond, 250 * time.Millisecond, 10 * time.Second} {
		for range 100 {
			if j := jitter(d); j < d/2 || j > d {
				t.Fatalf("jitter(%v) = %v, want within [%v, %v]", d, j, d/2, d)
			}
		}
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&MoveError{Code: protocol.CodeUnauthorized}, true},
		{&MoveError{Code: protocol.CodeNotFound}, true},
		{&MoveError{Code: protocol.CodeUnavailable}, false},
		{&MoveError{Code: protocol.CodeRateLimited}, false},
		{&APIError{Status: http.StatusServiceUnavailable, Code: protocol.CodeUnavailable}, false},
		{&APIError{Status: http.StatusTooManyRequests}, false},
		{&APIError{Status: http.StatusForbidden}, true},
		{errors.New("connection refused"), false},
	} {
		if got := permanent(tc.err); got != tc.want {
			t.Errorf("permanent(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
