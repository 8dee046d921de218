package rooms_test

import (
	"context"
	"maps"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/roomtest"
)

// TestBotMovesAndDecisionsAreCounted plays a Gomoku match between an easy
// and a normal bot and checks that Metrics heard of every bot move, and of
// one decision for each, under the level that made it.
func TestBotMovesAndDecisionsAreCounted(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	defer mem.Close()
	metrics := &roomtest.Fallbacks{}
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay, Metrics: metrics})
	defer m.Close()
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "easy", "1": "normal"}})
	if err != nil {
		t.Fatal(err)
	}
	watch(t, m, "gomoku", id) // bots play while somebody is there
	rec := waitGameover(t, mem, id)
	moves := int(rec.StateID - 1) // StateID counts accepted moves from 1
	// Black (seat 0, easy) moves first and the seats alternate.
	want := map[string]int{"gomoku/easy": (moves + 1) / 2, "gomoku/normal": moves / 2}
	if got := metrics.BotMoves(); !maps.Equal(got, want) {
		t.Errorf("bot moves %v, want %v (%d moves in the match)", got, want, moves)
	}
	if got := metrics.BotDecisions(); !maps.Equal(got, want) {
		t.Errorf("bot decisions %v, want %v", got, want)
	}
	if f := metrics.List(); len(f) != 0 {
		t.Errorf("fallbacks %v from built-in levels", f)
	}
}

// waitGameover polls the store until match id is over.
func waitGameover(t *testing.T, store rooms.Store, id string) *rooms.Record {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		rec, err := store.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(rec.Gameover) > 0 {
			return rec
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("match %s not over after a minute", id)
	return nil
}

// watch connects a spectator to the match until the test ends: bots play
// only while somebody is connected.
func watch(t *testing.T, m *rooms.Manager, game, id string) {
	t.Helper()
	v, err := m.Connect(context.Background(), game, id, rooms.Hello{}, discardSink{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
}
