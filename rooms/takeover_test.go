package rooms_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// errSink is a stateSink that also keeps the error messages.
type errSink struct {
	*stateSink
	mu   sync.Mutex
	errs []protocol.Error
}

func newErrSink() *errSink { return &errSink{stateSink: newStateSink()} }

func (s *errSink) Send(msg []byte, kind rooms.Kind) bool {
	var e protocol.Error
	if json.Unmarshal(msg, &e) == nil && e.Type == protocol.TypeError {
		s.mu.Lock()
		s.errs = append(s.errs, e)
		s.mu.Unlock()
	}
	return s.stateSink.Send(msg, kind)
}

// awaitError waits for an error message with code.
func (s *errSink) awaitError(t *testing.T, code string) protocol.Error {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		s.mu.Lock()
		for _, e := range s.errs {
			if e.Code == code {
				s.mu.Unlock()
				return e
			}
		}
		s.mu.Unlock()
	}
	t.Fatalf("no %s error", code)
	return protocol.Error{}
}

// firstFrom returns the first state message with stateID at least seq.
func (s *stateSink) firstFrom(t *testing.T, seq int64) protocol.State {
	t.Helper()
	return s.awaitFirst(t, func(st protocol.State) bool { return st.StateID >= seq })
}

// awaitFirst waits until the sink holds a state ok accepts and returns the
// first such one (await returns the newest).
func (s *stateSink) awaitFirst(t *testing.T, ok func(protocol.State) bool) protocol.State {
	t.Helper()
	s.await(t, "a state to come", ok)
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, st := range s.states {
		if ok(st) {
			return st
		}
	}
	panic("unreachable")
}

// TestTimeoutTakeoverShown: Ann's clock runs out three times in a row and
// the bot takes her seat for good. As after a Leave, the very state that
// tells of it shows the bot in her seat (isBot, botLevel) to every viewer,
// in the process whose bot made the move and in another that adopts it,
// and her connections, on both processes, are a spectator's from that
// state on (you ""): a move from them is refused as a spectator's.
func TestTimeoutTakeoverShown(t *testing.T) {
	clock := storetest.NewClock()
	mem := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
	t.Cleanup(func() { mem.Close() })
	cfg := rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay, Now: clock.Now, IdleUnload: time.Hour}
	m1, m2 := rooms.New(cfg), rooms.New(cfg)
	t.Cleanup(m1.Close)
	t.Cleanup(m2.Close)
	ctx := context.Background()
	id, err := m1.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"1": "easy"},
		Clock: &protocol.ClockRequest{Bank: 60, PerMove: 5}})
	if err != nil {
		t.Fatal(err)
	}
	pid, creds, err := m1.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	// Ann on both processes, a spectator on each.
	type viewer struct {
		name string
		sink *errSink
		v    *rooms.Viewer
		ann  bool
	}
	var vs []viewer
	for _, w := range []struct {
		name string
		m    *rooms.Manager
		ann  bool
	}{{"Ann on 1", m1, true}, {"Ann on 2", m2, true}, {"spectator on 1", m1, false}, {"spectator on 2", m2, false}} {
		h := rooms.Hello{}
		if w.ann {
			h = rooms.Hello{PlayerID: &pid, Credentials: creds}
		}
		sink := newErrSink()
		v, err := w.m.Connect(ctx, "gomoku", id, h, sink)
		if err != nil {
			t.Fatalf("%s: %v", w.name, err)
		}
		t.Cleanup(v.Close)
		vs = append(vs, viewer{w.name, sink, v, w.ann})
	}
	ann := vs[0]
	ann.sink.await(t, "the match started", func(s protocol.State) bool { return s.Ctx.Started && s.You == "0" })

	var seq int64
	for n := 1; n <= rooms.MaxTimeouts; n++ {
		before := ann.sink.await(t, "Ann to move", func(s protocol.State) bool {
			return s.StateID > seq && s.Clock != nil && s.Clock.Seats[0].Running
		})
		clock.Advance(time.Duration(before.Clock.Seats[0].RemainingMs+1) * time.Millisecond)
		for _, w := range vs[:2] {
			_ = w.v.Sync() // re-arms each room's bot timer on the fake clock
		}
		want := rooms.TimeoutText
		if n == rooms.MaxTimeouts {
			want = rooms.TimeoutLeftText
		}
		seq = awaitLog(t, mem, id, before.StateID, want)
	}

	// seq is the takeover's state: the first message from it on shows it.
	for _, w := range vs {
		st := w.sink.firstFrom(t, seq)
		p := st.Players[0]
		if !p.IsBot || p.BotLevel == "" || p.Name != "Ann" {
			t.Errorf("%s: state %d (the takeover is %d) shows seat 0 as %+v, want Ann's seat with the bot", w.name, st.StateID, seq, p)
		}
		if st.You != "" {
			t.Errorf("%s: state %d says you %q, want a spectator's", w.name, st.StateID, st.You)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// The lobby agrees.
	match, err := m1.Get(ctx, "gomoku", id)
	if err != nil {
		t.Fatal(err)
	}
	if !match.Players[0].IsBot {
		t.Fatalf("the lobby shows seat 0 as %+v", match.Players[0])
	}
	// Ann's connections are a spectator's: a move is refused as one.
	for _, w := range vs[:2] {
		if err := w.v.Move(nil, "place", games.Args(0, 0), nil); err != nil {
			t.Fatal(err)
		}
		if e := w.sink.awaitError(t, protocol.CodeUnauthorized); e.Message != "spectators cannot move" {
			t.Fatalf("%s: a move after the takeover: %+v", w.name, e)
		}
	}
}
