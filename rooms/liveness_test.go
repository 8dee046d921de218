package rooms_test

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// openStore opens a Redis store on url under prefix (the default for ""),
// closed at the end of t (after the managers registered later).
func openStore(t *testing.T, url, prefix string) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestLobbyShowsCrashedHoldersAway: a player connected only through
// process A shows connected in process B's lobby (Get and List) while A
// runs, and away soon after A crashes (its liveness subscription is gone,
// A said nothing), though no process loaded the match since. A's liveness
// is a store of its own here, so that the test can end it while A's
// manager, and its room, are still there, as in a crash.
func TestLobbyShowsCrashedHoldersAway(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	aLive := openStore(t, url, prefix)
	newManager := func(st rooms.Store, live rooms.Liveness) *rooms.Manager {
		m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour, Liveness: live})
		t.Cleanup(m.Close)
		return m
	}
	aStore := openStore(t, url, prefix)
	a := newManager(aStore, aLive.Liveness())
	b := newManager(openStore(t, url, prefix), nil)

	id, err := a.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	pid, creds, err := a.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Black"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, &recordingSink{}); err != nil {
		t.Fatal(err)
	}
	for _, got := range connectedIn(t, b, id) {
		if !got[0] || got[1] {
			t.Fatalf("B's lobby while A runs: connected %v, want [true false]", got)
		}
	}

	aLive.Close() // A crashes: its liveness subscription ends, no goodbye
	crashed := time.Now()
	deadline := crashed.Add(10 * time.Second)
	for got := connectedIn(t, b, id); got["Get"][0] || got["List"][0]; got = connectedIn(t, b, id) {
		if time.Now().After(deadline) {
			t.Fatalf("B's lobby still shows the player of the crashed process connected after 10 s: %v", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Logf("B's lobby showed the player away %v after the crash", time.Since(crashed).Round(time.Millisecond))
	if n := b.LiveRooms(); n != 0 {
		t.Errorf("B loaded %d rooms: the lobby must not need one", n)
	}
	if s := seatsOf(t, aStore, id); s[0].Processes != 1 {
		t.Errorf("the lobby wrote the record: seat 0 %+v", s[0])
	}
}

// connectedIn is isConnected of each seat of match id in m's lobby, as Get
// and List show it.
func connectedIn(t *testing.T, m *rooms.Manager, id string) map[string][]bool {
	t.Helper()
	ctx := context.Background()
	match, err := m.Get(ctx, "gomoku", id)
	if err != nil {
		t.Fatal(err)
	}
	list, err := m.List(ctx, "gomoku", rooms.ListFilter{})
	if err != nil {
		t.Fatal(err)
	}
	var listed *protocol.Match
	for i := range list {
		if list[i].MatchID == id {
			listed = &list[i]
		}
	}
	if listed == nil {
		t.Fatalf("match %s not listed", id)
	}
	out := map[string][]bool{}
	for how, players := range map[string][]protocol.Player{"Get": match.Players, "List": listed.Players} {
		for _, p := range players {
			out[how] = append(out[how], p.IsConnected)
		}
	}
	return out
}
