package rooms_test

import (
	"bytes"
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// unattendedSetup is a manager whose rooms give up on an unwatched
// bot-only match after 100 ms, with bots that need far longer (50 ms a
// move) to finish a game, on a memory store with a fake clock.
func unattendedSetup(t *testing.T) (*rooms.Manager, *memstore.Store, *storetest.Clock) {
	t.Helper()
	clock := storetest.NewClock()
	mem := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: 50 * time.Millisecond, IdleUnload: 100 * time.Millisecond})
	t.Cleanup(m.Close)
	return m, mem, clock
}

// awaitUnloaded waits until m has no room loaded.
func awaitUnloaded(t *testing.T, m *rooms.Manager) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); m.LiveRooms() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d rooms still loaded", m.LiveRooms())
		}
	}
}

func over(rec *rooms.Record) bool { return len(rec.Gameover) > 0 && string(rec.Gameover) != "null" }

// TestUnwatchedBotMatchStops: a match of bots only that nobody watches
// stops playing and unloads, and its record then expires; a spectator
// connecting resumes it and sees it to the end.
func TestUnwatchedBotMatchStops(t *testing.T) {
	m, mem, clock := unattendedSetup(t)
	ctx := context.Background()
	bots := map[string]string{"0": "easy", "1": "easy"}
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: bots})
	if err != nil {
		t.Fatal(err)
	}
	awaitUnloaded(t, m)
	stopped, err := mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if over(stopped) {
		t.Fatalf("the unwatched match played to its end (%d moves)", stopped.StateID-1)
	}
	// Unloaded, it makes no more moves: the record ages and expires.
	clock.Advance(2 * time.Hour)
	if _, err := mem.Get(ctx, id); !errors.Is(err, rooms.ErrNotFound) {
		t.Fatalf("the stopped match did not expire: %v", err)
	}

	// Another one: a spectator resumes it.
	id, err = m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: bots})
	if err != nil {
		t.Fatal(err)
	}
	awaitUnloaded(t, m)
	sink := &endSink{over: make(chan struct{})}
	v, err := m.Connect(ctx, "gomoku", id, rooms.Hello{}, sink)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	select {
	case <-sink.over:
	case <-time.After(60 * time.Second):
		t.Fatal("the watched match did not reach its end")
	}
}

// TestPersonJoiningStartsBots: a bot waiting for an opponent waits for a
// person to take the other seat and connect: a person who joins and never
// connects does not set the bots playing for nobody.
func TestPersonJoiningStartsBots(t *testing.T) {
	m, mem, _ := unattendedSetup(t)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	awaitUnloaded(t, m)
	pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	awaitUnloaded(t, m) // the join loaded the room; with nobody there it unloads
	if rec, err := mem.Get(ctx, id); err != nil || rec.StateID != 1 {
		t.Fatalf("the bot moved with nobody connected: %+v, %v", rec, err)
	}
	v, err := m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, discardSink{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		rec, err := mem.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if rec.StateID > 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the bot did not move after the person connected")
		}
	}
}

// endSink notes when a state message shows the game over.
type endSink struct {
	once sync.Once
	over chan struct{}
}

func (s *endSink) Send(msg []byte, _ rooms.Kind) bool {
	if bytes.HasPrefix(msg, []byte(`{"type":"state"`)) && bytes.Contains(msg, []byte(`"gameover":{`)) {
		s.once.Do(func() { close(s.over) })
	}
	return true
}

func (s *endSink) Close() {}
