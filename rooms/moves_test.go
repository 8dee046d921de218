package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// gongzhuMatch creates a match of four easy bots that no room plays, and
// the stopped room the test plays it with.
// chunk is the record's MovesChunk: 0 for one from before that field.
func gongzhuMatch(t *testing.T, chunk int) (*rooms.Manager, *memstore.Store, string, *rooms.SyncRoom) {
	t.Helper()
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: all.Registry(), BotDelay: rooms.ZeroBotDelay, IdleUnload: time.Hour})
	t.Cleanup(m.Close)
	g, _ := all.Registry().Get("gongzhu")
	st, err := g.Setup(4, nil, 7)
	if err != nil {
		t.Fatal(err)
	}
	state, _ := st.MarshalJSON()
	rec := &rooms.Record{ID: "long", Game: "gongzhu", NumPlayers: 4, Version: 1, StateID: 1, State: state,
		Seats:   []rooms.Seat{{Bot: "easy"}, {Bot: "easy"}, {Bot: "easy"}, {Bot: "easy"}},
		Options: rooms.Options{GraceMs: 60000, Seed: 7}, MovesChunk: chunk}
	if err := mem.Create(context.Background(), rec); err != nil {
		t.Fatal(err)
	}
	r, err := rooms.NewSyncRoom(m, "gongzhu", rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	return m, mem, rec.ID, r
}

// checkReplay fails t unless the replay of the page from from, limit
// steps, shows views[stateID] at every step that views holds, and its
// steps follow on from from.
func checkReplay(t *testing.T, m *rooms.Manager, id string, from, limit int64, views map[int64][]byte) protocol.Replay {
	t.Helper()
	rp, err := m.Replay(context.Background(), "gongzhu", id, from, limit)
	if err != nil {
		t.Fatalf("replay from %d: %v", from, err)
	}
	if len(rp.Steps) == 0 {
		t.Fatalf("replay from %d: no steps", from)
	}
	for i, s := range rp.Steps {
		if s.StateID != from+int64(i) {
			t.Fatalf("replay from %d: step %d has stateID %d", from, i, s.StateID)
		}
		if v, ok := views[s.StateID]; ok && !bytes.Equal(s.G, v) {
			t.Fatalf("replay from %d: state %d differs from the live view\n%.300s\n%.300s", from, s.StateID, s.G, v)
		}
	}
	return rp
}

// TestMovesSealedInChunks: a long match's moves are sealed a chunk at a
// time, so its record keeps fewer than rooms.MovesPerChunk of them and stays
// small; every page replays as the match was, near the chunks' edges
// too; a page deep in the match starts from the state its chunk kept
// (chunk 0 is not even read); and a record from before chunks (every move
// in it) replays, then is sealed a chunk per move as play goes on.
func TestMovesSealedInChunks(t *testing.T) {
	m, mem, id, r := gongzhuMatch(t, rooms.MovesPerChunk)
	views := map[int64][]byte{}
	rng := rand.New(rand.NewPCG(1, 2))
	if err := r.PlayBots(3*rooms.MovesPerChunk+100, rng, views); err != nil {
		t.Fatal(err)
	}

	rec, err := mem.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.SealedChunks != 3 || rec.SealedMoves != 3*rooms.MovesPerChunk || len(rec.Moves) != 100 || !rec.MovesComplete() {
		t.Fatalf("stored: %d chunks of %d moves and %d more, seq %d", rec.SealedChunks, rec.SealedMoves, len(rec.Moves), rec.StateID)
	}
	size, _ := json.Marshal(rec)
	t.Logf("%d moves: record %d bytes, %d chunks", rec.StateID-1, len(size), rec.SealedChunks)
	for _, from := range []int64{1, 2, rooms.MovesPerChunk - 3, rooms.MovesPerChunk + 1, rooms.MovesPerChunk + 2, rooms.MovesPerChunk + 3,
		2*rooms.MovesPerChunk + 1, 2*rooms.MovesPerChunk + 2, 3*rooms.MovesPerChunk + 2, rec.StateID - 5} {
		checkReplay(t, m, id, from, 10, views)
	}
	rp := checkReplay(t, m, id, rec.StateID-2, 10, views)
	if len(rp.Steps) != 3 || rp.Next != 0 || rp.Total != rec.StateID {
		t.Fatalf("the last page: %d steps, next %d, total %d", len(rp.Steps), rp.Next, rp.Total)
	}

	// A page past the first chunks starts from the state kept with the
	// chunk before it: chunk 0, spoilt, is not read.
	if err := mem.PutMoves(context.Background(), id, 0, []byte(`{"first":0,"moves":[]}`)); err != nil {
		t.Fatal(err)
	}
	checkReplay(t, m, id, 2*rooms.MovesPerChunk+10, 50, views)
	if _, err := m.Replay(context.Background(), "gongzhu", id, 5, 10); rooms.AsError(err).Code != protocol.CodeInternal {
		t.Fatalf("replay through a spoilt chunk: %v", err)
	}
}

// TestMovesOldRecord: a record written before chunks, with every move in
// it and none sealed, replays; the moves that follow seal its moves a
// chunk per move, and every page still replays as the match was.
func TestMovesOldRecord(t *testing.T) {
	m, mem, id, r := gongzhuMatch(t, 0)
	views := map[int64][]byte{}
	rng := rand.New(rand.NewPCG(3, 4))
	// Play without a store that seals, as before chunks.
	rooms.SetStore(m, plainStore{mem})
	if err := r.PlayBots(2*rooms.LegacyMovesPerChunk+300, rng, views); err != nil {
		t.Fatal(err)
	}
	rooms.SetStore(m, mem)
	rec, err := mem.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.SealedChunks != 0 || int64(len(rec.Moves)) != rec.StateID-1 {
		t.Fatalf("the old record: %d chunks, %d moves, seq %d", rec.SealedChunks, len(rec.Moves), rec.StateID)
	}
	checkReplay(t, m, id, 1, 20, views)
	checkReplay(t, m, id, rec.StateID-15, 20, views)

	if err := r.PlayBots(5, rng, views); err != nil {
		t.Fatal(err)
	}
	if rec, err = mem.Get(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	if rec.SealedChunks != 2 || len(rec.Moves) != 305 || !rec.MovesComplete() {
		t.Fatalf("after 5 more moves: %d chunks, %d moves in the record", rec.SealedChunks, len(rec.Moves))
	}
	for _, from := range []int64{1, rooms.LegacyMovesPerChunk, 2*rooms.LegacyMovesPerChunk + 1, rec.StateID - 8} {
		checkReplay(t, m, id, from, 20, views)
	}
}

// plainStore hides a store's MoveChunks, as a store without chunks.
type plainStore struct{ rooms.Store }

// TestReplayPageBytes: a page stops before the step that would take it
// past rooms.MaxReplayPageBytes (but holds one step however big), next says
// where the next page starts, and the pages together are every step.
func TestReplayPageBytes(t *testing.T) {
	m, _, id, r := gongzhuMatch(t, rooms.MovesPerChunk)
	views := map[int64][]byte{}
	if err := r.PlayBots(2500, rand.New(rand.NewPCG(5, 6)), views); err != nil {
		t.Fatal(err)
	}
	from := int64(1000)
	rp := checkReplay(t, m, id, from, rooms.MaxReplaySteps, views)
	size := 0
	for _, s := range rp.Steps {
		b, _ := json.Marshal(s)
		size += len(b)
	}
	if len(rp.Steps) >= rooms.MaxReplaySteps || size > rooms.MaxReplayPageBytes || rp.Next != from+int64(len(rp.Steps)) {
		t.Fatalf("page of %d steps, %d bytes, next %d", len(rp.Steps), size, rp.Next)
	}
	t.Logf("a page from %d: %d steps, %d bytes of them", from, len(rp.Steps), size)
	for at := rp.Next; at != 0; {
		page := checkReplay(t, m, id, at, rooms.MaxReplaySteps, views)
		if page.Next != 0 && page.Next != at+int64(len(page.Steps)) {
			t.Fatalf("page from %d: %d steps, next %d", at, len(page.Steps), page.Next)
		}
		if page.Next == 0 && page.Steps[len(page.Steps)-1].StateID != page.Total {
			t.Fatalf("the last page ends at %d of %d", page.Steps[len(page.Steps)-1].StateID, page.Total)
		}
		at = page.Next
	}
}
