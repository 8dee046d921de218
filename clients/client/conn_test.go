package client

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
)

func dialFake(t *testing.T, url, playerID string) *Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := Dial(ctx, url, "counter", "m1", playerID, "secret")
	if err != nil {
		t.Fatalf("Dial as %q: %v", playerID, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func TestDial(t *testing.T) {
	srv, _ := newFakeWS(t)
	tests := []struct {
		name     string
		playerID string
		creds    string
		wantCode string // "" for success
	}{
		{name: "player", playerID: "0", creds: "secret"},
		{name: "spectator", playerID: "", creds: ""},
		{name: "wrong credentials", playerID: "1", creds: "bad", wantCode: protocol.CodeUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Dial(testCtx(t), srv.URL, "counter", "m1", tc.playerID, tc.creds)
			if tc.wantCode != "" {
				var me *MoveError
				if !errors.As(err, &me) || me.Code != tc.wantCode {
					t.Fatalf("Dial error = %v, want a *MoveError %s", err, tc.wantCode)
				}
				return
			}
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer c.Close()
			st := c.Latest()
			if st == nil || st.You != tc.playerID || c.PlayerID() != tc.playerID {
				t.Fatalf("first state %+v, want you=%q", st, tc.playerID)
			}
		})
	}
}

func TestDialRefusedUpgrade(t *testing.T) {
	srv, _ := newFakeWS(t)
	_, err := Dial(testCtx(t), srv.URL, "counter", "closing", "0", "x")
	var ae *APIError
	if !errors.As(err, &ae) || ae.Status != 503 || ae.Code != protocol.CodeUnavailable {
		t.Fatalf("Dial to a closing server: %v, want an *APIError 503 unavailable", err)
	}
}

func TestDialUnreachable(t *testing.T) {
	srv, _ := newFakeWS(t)
	url := srv.URL
	srv.Close()
	if _, err := Dial(testCtx(t), url, "counter", "m1", "0", "x"); err == nil {
		t.Fatal("Dial to a closed server succeeded")
	}
	if _, err := Dial(testCtx(t), "ftp://x", "counter", "m1", "0", "x"); err == nil {
		t.Fatal("Dial with an ftp URL succeeded")
	}
}

func TestMove(t *testing.T) {
	srv, _ := newFakeWS(t)
	tests := []struct {
		name     string
		move     string
		args     []any
		seat     string
		wantN    int    // counter after the move, when accepted
		wantCode string // refusal code
	}{
		{name: "accepted", move: "inc", args: []any{5}, seat: "0", wantN: 5},
		{name: "invalid", move: "bad", seat: "0", wantCode: protocol.CodeInvalidMove},
		{name: "unknown", move: "fly", seat: "0", wantCode: protocol.CodeUnknownMove},
		{name: "spectator", move: "inc", args: []any{1}, seat: "", wantCode: protocol.CodeUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := dialFake(t, srv.URL, tc.seat)
			before := counter(t, c.Latest())
			st, err := c.Move(testCtx(t), tc.move, tc.args...)
			if tc.wantCode != "" {
				var me *MoveError
				if !errors.As(err, &me) || me.Code != tc.wantCode || me.Message == "" {
					t.Fatalf("Move error = %v, want a *MoveError %s with a message", err, tc.wantCode)
				}
				if !IsCode(err, tc.wantCode) {
					t.Fatalf("IsCode(%v, %s) = false", err, tc.wantCode)
				}
				// The connection stays usable after a refusal.
				if _, err := c.Sync(testCtx(t)); err != nil {
					t.Fatalf("Sync after refusal: %v", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Move: %v", err)
			}
			if st.Ack == nil || counter(t, st)-before != tc.wantN {
				t.Fatalf("state after move: ack=%v n=%d (before %d), want +%d", st.Ack, counter(t, st), before, tc.wantN)
			}
		})
	}
}

func TestConcurrentMovesGetTheirOwnAcks(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	var wg sync.WaitGroup
	errs := make(chan error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := c.Move(testCtx(t), "inc", 1)
			if err != nil {
				errs <- err
				return
			}
			if st.Ack == nil {
				errs <- fmt.Errorf("state without ack")
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	c.mu.Lock()
	left := len(c.waiters)
	c.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d waiters left after all moves returned", left)
	}
}

// A consumer that never reads States must not stall the reader: after a flood
// of 2,000 states the ack still arrives and States holds the newest state.
func TestSlowConsumerDoesNotStallReader(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	st, err := c.Move(testCtx(t), "flood", 2000)
	if err != nil {
		t.Fatalf("flood move: %v", err)
	}
	select {
	case got := <-c.States():
		if got.StateID != st.StateID {
			t.Fatalf("States gave stateID %d, want the newest %d", got.StateID, st.StateID)
		}
	case <-time.After(time.Minute):
		t.Fatal("States is empty after a flood")
	}
	if c.Latest().StateID != st.StateID {
		t.Fatalf("Latest stateID %d, want %d", c.Latest().StateID, st.StateID)
	}
}

func TestMoveContextEnds(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if _, err := c.Move(ctx, "mute"); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("unanswered move returned %v, want DeadlineExceeded", err)
	}
	if _, err := c.Move(testCtx(t), "inc", 1); err != nil {
		t.Fatalf("move after a timed-out one: %v", err)
	}
}

// TestSameStateIDPlayersUpdate: a state that repeats the stateID with new
// players (a seat taken, a presence change) is delivered and becomes
// Latest, yet answers no pending move: it is no move's ack.
func TestSameStateIDPlayersUpdate(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	first := c.Latest()
	<-c.States() // the hello's state
	if first.Players[1].Name != "" {
		t.Fatalf("seat 1 taken before the join: %+v", first.Players[1])
	}
	// join is never acked: its move waits while the players update arrives.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	moved := make(chan error, 1)
	go func() {
		_, err := c.Move(ctx, "join")
		moved <- err
	}()
	select {
	case st := <-c.States():
		if st.StateID != first.StateID || st.Ack != nil || st.Players[1].Name != "bob" || !st.Players[1].IsConnected {
			t.Fatalf("players update = stateID %d ack %v players %+v; want stateID %d, no ack, bob in seat 1",
				st.StateID, st.Ack, st.Players, first.StateID)
		}
	case <-testCtx(t).Done():
		t.Fatal("the same-stateID players update was not delivered")
	}
	if l := c.Latest(); l.StateID != first.StateID || l.Players[1].Name != "bob" {
		t.Fatalf("Latest = stateID %d players %+v; want the update", l.StateID, l.Players)
	}
	select {
	case err := <-moved:
		t.Fatalf("the players update answered the pending move: %v", err)
	default:
	}
	cancel()
	if err := <-moved; !errors.Is(err, context.Canceled) {
		t.Fatalf("pending move returned %v, want Canceled", err)
	}
	// A real move still gets its own ack and the next stateID.
	st, err := c.Move(testCtx(t), "inc", 2)
	if err != nil || st.StateID != first.StateID+1 || st.Ack == nil || counter(t, st) != 2 {
		t.Fatalf("move after the update: %+v, %v", st, err)
	}
}

func TestServerCloses(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	_, err := c.Move(testCtx(t), "bye")
	if !errors.Is(err, ErrClosed) {
		t.Fatalf("move answered by a close returned %v, want ErrClosed", err)
	}
	select {
	case <-c.Done():
	case <-time.After(time.Minute):
		t.Fatal("Done not closed after the server closed")
	}
	if !errors.Is(c.Err(), ErrClosed) {
		t.Fatalf("Err() = %v, want ErrClosed", c.Err())
	}
	if _, err := c.Move(testCtx(t), "inc", 1); !errors.Is(err, ErrClosed) {
		t.Fatalf("move after close returned %v", err)
	}
}

func TestClose(t *testing.T) {
	srv, fake := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	if c.Err() != nil {
		t.Fatalf("Err() of an open conn = %v", c.Err())
	}
	c.Close()
	c.Close() // idempotent
	if c.Err() != ErrClosed {
		t.Fatalf("Err() after Close = %v, want ErrClosed itself", c.Err())
	}
	if err := c.Chat(testCtx(t), "hi"); !errors.Is(err, ErrClosed) {
		t.Fatalf("Chat after Close = %v", err)
	}
	deadline := time.Now().Add(2 * time.Second)
	for {
		fake.mu.Lock()
		n := len(fake.conns)
		fake.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server still holds %d connections after Close", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestChatAutoplayAndErrors(t *testing.T) {
	srv, _ := newFakeWS(t)
	c := dialFake(t, srv.URL, "0")
	ctx := testCtx(t)
	if err := c.Chat(ctx, "你好"); err != nil {
		t.Fatal(err)
	}
	select {
	case ch := <-c.Chats():
		if ch.Text != "你好" || ch.From != "0" {
			t.Fatalf("chat = %+v", ch)
		}
	case <-ctx.Done():
		t.Fatal("no chat delivered")
	}
	if err := c.Autoplay(ctx, true); err != nil {
		t.Fatal(err)
	}
	// States first holds the hello's state; the autoplay one follows.
	for on := false; !on; {
		select {
		case st := <-c.States():
			on = st.Players[0].Autoplay
		case <-ctx.Done():
			t.Fatal("no state with autoplay on")
		}
	}
	// A chat over 500 characters is refused without a ref: it goes to Errors.
	long := make([]rune, protocol.MaxChat+1)
	for i := range long {
		long[i] = 'x'
	}
	if err := c.Chat(ctx, string(long)); err != nil {
		t.Fatal(err)
	}
	select {
	case e := <-c.Errors():
		if e.Code != protocol.CodeBadRequest {
			t.Fatalf("error = %+v, want bad_request", e)
		}
	case <-ctx.Done():
		t.Fatal("no error delivered")
	}
}

func TestPushNewestDropsOldest(t *testing.T) {
	ch := make(chan int, 3)
	for i := 1; i <= 10; i++ {
		pushNewest(ch, i)
	}
	for _, want := range []int{8, 9, 10} {
		if got := <-ch; got != want {
			t.Fatalf("got %d, want %d", got, want)
		}
	}
}

func TestWSURL(t *testing.T) {
	tests := []struct{ name, base, want string }{
		{"http", "http://127.0.0.1:8080", "ws://127.0.0.1:8080/games/gomoku/m%2F1/ws"},
		{"https with slash and prefix", "https://h.example/app/", "wss://h.example/app/games/gomoku/m%2F1/ws"},
		{"ws kept", "ws://h:1", "ws://h:1/games/gomoku/m%2F1/ws"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := WebSocketURL(tc.base, "gomoku", "m/1")
			if err != nil || got != tc.want {
				t.Fatalf("WebSocketURL(%q) = %q, %v; want %q", tc.base, got, err, tc.want)
			}
		})
	}
	if _, err := WebSocketURL("mailto:x", "g", "m"); err == nil {
		t.Fatal("mailto scheme accepted")
	}
}
