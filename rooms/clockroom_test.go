package rooms_test

import (
	"context"
	"encoding/json"
	"reflect"
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

// stateSink keeps a viewer's state messages.
type stateSink struct {
	mu     sync.Mutex
	states []protocol.State
	notify chan struct{}
}

func newStateSink() *stateSink { return &stateSink{notify: make(chan struct{}, 1000)} }

func (s *stateSink) Send(msg []byte, _ rooms.Kind) bool {
	var head struct{ Type string }
	_ = json.Unmarshal(msg, &head)
	if head.Type == protocol.TypeState {
		var st protocol.State
		if err := json.Unmarshal(msg, &st); err == nil {
			s.mu.Lock()
			s.states = append(s.states, st)
			s.mu.Unlock()
		}
	}
	select {
	case s.notify <- struct{}{}:
	default:
	}
	return true
}

func (s *stateSink) Close() {}

// await waits (by the wall clock: the rooms' clock is fake) for a state
// that ok accepts and returns it.
func (s *stateSink) await(t *testing.T, what string, ok func(protocol.State) bool) protocol.State {
	t.Helper()
	deadline := time.After(time.Minute)
	for {
		s.mu.Lock()
		for i := len(s.states) - 1; i >= 0; i-- {
			if ok(s.states[i]) {
				st := s.states[i]
				s.mu.Unlock()
				return st
			}
		}
		s.mu.Unlock()
		select {
		case <-s.notify:
		case <-deadline:
			s.mu.Lock()
			for _, st := range s.states[max(0, len(s.states)-4):] {
				t.Logf("state %d log %+v clock %+v", st.StateID, lastLog(st), st.Clock)
			}
			s.mu.Unlock()
			t.Fatalf("no state where %s", what)
		}
	}
}

func lastLog(st protocol.State) protocol.LogEntry {
	if len(st.Log) == 0 {
		return protocol.LogEntry{}
	}
	return st.Log[len(st.Log)-1]
}

// TestTurnClock plays gomoku with a 60 s bank and 5 s a move against a bot,
// on a fake clock: the mover's time falls and the other's stands, a move
// adds 5 s, a run-out clock has the bot play the turn and the log say so,
// the third timeout in a row gives the seat to the bot for good, and a
// second manager loading the same record computes the same times.
func TestTurnClock(t *testing.T) {
	clock := storetest.NewClock()
	mem := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
	t.Cleanup(func() { mem.Close() })
	cfg := rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay, Now: clock.Now, IdleUnload: time.Hour}
	m := rooms.New(cfg)
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"1": "easy"},
		Clock: &protocol.ClockRequest{Bank: 60, PerMove: 5}})
	if err != nil {
		t.Fatal(err)
	}
	pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	sink := newStateSink()
	v, err := m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	seatClock := func(st protocol.State, seat int) protocol.SeatClock {
		if st.Clock == nil || len(st.Clock.Seats) != 2 {
			t.Fatalf("state %d has no clock: %+v", st.StateID, st.Clock)
		}
		return st.Clock.Seats[seat]
	}
	st := sink.await(t, "the match started", func(s protocol.State) bool { return s.Ctx.Started })
	if c := seatClock(st, 0); c.RemainingMs != 60_000 || !c.Running || seatClock(st, 1).Running {
		t.Fatalf("at the start: %+v", st.Clock)
	}

	// 30 s pass: a sync shows seat 0 at 30 s, seat 1 untouched.
	clock.Advance(30 * time.Second)
	if err := v.Sync(); err != nil {
		t.Fatal(err)
	}
	st = sink.await(t, "30 s gone", func(s protocol.State) bool {
		return s.Clock != nil && s.Clock.Seats[0].RemainingMs == 30_000
	})
	if c := seatClock(st, 1); c.RemainingMs != 60_000 || st.Clock.ServerTime != clock.Now().UnixMilli() {
		t.Fatalf("after 30 s: %+v", st.Clock)
	}

	// Ann moves: +5 s; the bot answers at once (no time passes).
	if err := v.Move(nil, "place", games.Args(7, 7), nil); err != nil {
		t.Fatal(err)
	}
	st = sink.await(t, "the bot answered", func(s protocol.State) bool { return s.StateID == 3 })
	if c := seatClock(st, 0); c.RemainingMs != 35_000 || !c.Running {
		t.Fatalf("after Ann's move and the bot's: %+v", st.Clock)
	}
	if c := seatClock(st, 1); c.RemainingMs != 65_000 || c.Running {
		t.Fatalf("the bot's clock: %+v", st.Clock)
	}

	// Another manager (another process) loading the record computes the
	// same times, from stored times only.
	m2 := rooms.New(cfg)
	t.Cleanup(m2.Close)
	sink2 := newStateSink()
	v2, err := m2.Connect(ctx, "gomoku", id, rooms.Hello{}, sink2)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	_ = v.Sync()
	_ = v2.Sync()
	a := sink.await(t, "25 s left", func(s protocol.State) bool { return s.Clock.Seats[0].RemainingMs == 25_000 })
	b := sink2.await(t, "25 s left, elsewhere", func(s protocol.State) bool { return s.Clock.Seats[0].RemainingMs == 25_000 })
	if a.Clock.Seats[1] != b.Clock.Seats[1] {
		t.Fatalf("two processes disagree: %+v vs %+v", a.Clock, b.Clock)
	}
	v2.Close()

	// Ann's time runs out: the bot plays her turn and the log says so; her
	// clock gets the 5 s a move. Three in a row pass the seat to the bot.
	for n := 1; n <= rooms.MaxTimeouts; n++ {
		before := sink.await(t, "Ann to move", func(s protocol.State) bool { return s.Clock.Seats[0].Running })
		left := before.Clock.Seats[0].RemainingMs
		clock.Advance(time.Duration(left+1) * time.Millisecond)
		_ = v.Sync()
		want := rooms.TimeoutText
		if n == rooms.MaxTimeouts {
			want = rooms.TimeoutLeftText
		}
		// A viewer may skip a state a later one supersedes: read the log
		// from the store.
		seq := awaitLog(t, mem, id, before.StateID, want)
		if n < rooms.MaxTimeouts {
			// The bot answered too; Ann has her 5 s.
			st = sink.await(t, "Ann to move again", func(s protocol.State) bool { return s.StateID > seq && s.Clock.Seats[0].Running })
			if c := seatClock(st, 0); c.RemainingMs != 5_000 {
				t.Fatalf("after timeout %d Ann has %d ms, want 5000", n, c.RemainingMs)
			}
		}
	}
	rec, err := mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if s := rec.Seats[0]; s.CredHash != "" || !s.Left || s.Bot == "" {
		t.Fatalf("after three timeouts the seat is %+v", s)
	}
	if err := m.Update(ctx, "gomoku", id, rooms.UpdateParams{PlayerID: pid, Credentials: creds, NewName: ptr("A")}); err == nil {
		t.Fatal("Ann's credentials still work after the seat passed to the bot")
	}

	// The replay tells the timeouts as the live log did.
	rp, err := m.Replay(ctx, "gomoku", id, 1, rooms.MaxReplaySteps)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, step := range rp.Steps {
		if step.Log != nil && step.Log.Text != "" {
			texts = append(texts, step.Log.Text)
			live := rec.Log[len(rec.Log)-1-int(rec.StateID-step.StateID)]
			if live.Text != step.Log.Text || live.PlayerID != step.Log.PlayerID {
				t.Fatalf("state %d: replay logs %+v, live %+v", step.StateID, *step.Log, live)
			}
		}
	}
	if want := []string{rooms.TimeoutText, rooms.TimeoutText, rooms.TimeoutLeftText}; !reflect.DeepEqual(texts, want) {
		t.Fatalf("replay's timeout texts %q, want %q", texts, want)
	}
}

func ptr[T any](v T) *T { return &v }

// awaitLog waits until the stored match has a move after state after whose
// log entry is seat 0's with text, and returns that move's state.
func awaitLog(t *testing.T, st rooms.Store, id string, after int64, text string) int64 {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		rec, err := st.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range rec.Log {
			if seq := rec.StateID - int64(len(rec.Log)-1-i); seq > after && e.PlayerID == "0" && e.Text == text {
				return seq
			}
		}
	}
	t.Fatalf("no move after state %d logged %q", after, text)
	return 0
}
