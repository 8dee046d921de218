package rooms_test

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestClockRunsOutUnloaded: on the memory store, a clocked match whose
// players joined and never connected, and whose room has unloaded, still
// has its timeouts played when its clocks run out: the manager's poller
// finds them in the store's index and loads the room. Each timeout is one
// move; after the third in a row each seat passes to the bot, and the
// bots, with nobody there, stop.
func TestClockRunsOutUnloaded(t *testing.T) {
	clock := storetest.NewClock()
	mem := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), Now: clock.Now,
		BotDelay: rooms.ZeroBotDelay, IdleUnload: 50 * time.Millisecond, ClockPoll: 5 * time.Millisecond})
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Clock: &protocol.ClockRequest{Bank: 60, PerMove: 10}})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"Black", "White"} {
		if _, _, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	quiet(t, m, clock)
	if got := seqOf(t, mem, id); got != 1 {
		t.Fatalf("stateID %d before any clock ran out", got)
	}
	// Black's minute runs out: one timeout, then white's clock runs.
	clock.Advance(61 * time.Second)
	rec := awaitRecord(t, mem, id, func(r *rooms.Record) bool { return r.StateID >= 2 })
	if mv := rec.Moves[0]; rec.StateID != 2 || mv.Seat != 0 || !mv.Timeout {
		t.Fatalf("after black's clock ran out: stateID %d, moves %+v", rec.StateID, rec.Moves)
	}
	// Nothing more until white's minute runs out, however long we look.
	quiet(t, m, clock)
	if got := seqOf(t, mem, id); got != 2 {
		t.Fatalf("stateID %d before white's clock ran out", got)
	}
	// Each clock runs out twice more: six timeouts in all, then both
	// seats are the bot's, and with nobody connected they stop.
	for i := 0; i < 5; i++ {
		clock.Advance(61 * time.Second)
		want := int64(3 + i)
		awaitRecord(t, mem, id, func(r *rooms.Record) bool { return r.StateID >= want })
	}
	quiet(t, m, clock)
	rec, err = mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for i, mv := range rec.Moves[:6] {
		if mv.Seat != i%2 || !mv.Timeout {
			t.Fatalf("move %d is %+v, want seat %d's timeout", i+1, mv, i%2)
		}
	}
	if rec.Seats[0].Bot == "" || rec.Seats[1].Bot == "" {
		t.Fatalf("after three timeouts each, seats %+v", rec.Seats)
	}
	stopped := rec.StateID
	clock.Advance(time.Hour / 2)
	time.Sleep(100 * time.Millisecond)
	quiet(t, m, clock)
	if got := seqOf(t, mem, id); got != stopped {
		t.Fatalf("the bots played on with nobody there: stateID %d, then %d", stopped, got)
	}
}

// awaitRecord polls the store until ok holds of match id's record.
func awaitRecord(t *testing.T, st rooms.Store, id string, ok func(*rooms.Record) bool) *rooms.Record {
	t.Helper()
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rec, err := st.Get(context.Background(), id)
		if err == nil && ok(rec) {
			return rec
		}
		if time.Now().After(end) {
			t.Fatalf("match %s: condition never reached (last error %v)", id, err)
		}
	}
}

// quiet lets the fake clock pass the manager's idle period and waits for
// its rooms to unload.
func quiet(t *testing.T, m *rooms.Manager, clock *storetest.Clock) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); m.LiveRooms() != 0; time.Sleep(5 * time.Millisecond) {
		clock.Advance(10 * time.Millisecond)
		if time.Now().After(end) {
			t.Fatalf("%d rooms still loaded", m.LiveRooms())
		}
	}
}

// TestJoinStartingClocksIndexed: the join that starts the clocks is a
// lobby write the loaded room only adopts; the room still puts the clock
// in the store's index, so that it runs out with nobody there.
func TestJoinStartingClocksIndexed(t *testing.T) {
	clock := storetest.NewClock()
	mem := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), Now: clock.Now,
		BotDelay: rooms.ZeroBotDelay, ClockPoll: time.Hour})
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Clock: &protocol.ClockRequest{Bank: 60, PerMove: 10}})
	if err != nil {
		t.Fatal(err)
	}
	watch(t, m, "gomoku", id) // the room stays loaded through both joins
	for _, name := range []string{"Black", "White"} {
		if _, _, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	want := clock.Now().UnixMilli() + 60_000
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		due, err := mem.ClaimDue(ctx, clock.Now().UnixMilli()+int64(time.Hour/time.Millisecond), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) == 1 && due[0].ID == id && due[0].At == want {
			return
		}
		if len(due) > 0 {
			t.Fatalf("index %+v, want match %s due at %d", due, id, want)
		}
		if time.Now().After(end) {
			t.Fatal("the join that started the clocks left nothing in the index")
		}
	}
}
