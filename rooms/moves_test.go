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
// small; only every rooms.MovesPerState moves does a chunk keep the state
// after it; every page replays as the match was, near the chunks' edges
// too; a page deep in the match starts from the last state kept before it
// (the chunks before that one are not even read), and a page between two
// kept states starts from the earlier.
func TestMovesSealedInChunks(t *testing.T) {
	per, every := int64(rooms.MovesPerChunk), int64(rooms.MovesPerState)
	if every%per != 0 || every/per < 2 {
		t.Fatalf("this test wants states kept every few chunks: chunks of %d, a state every %d moves", per, every)
	}
	m, mem, id, r := gongzhuMatch(t, rooms.MovesPerChunk)
	views := map[int64][]byte{}
	rng := rand.New(rand.NewPCG(1, 2))
	tail := per / 2
	if err := r.PlayBots(int(2*every+per+tail), rng, views); err != nil {
		t.Fatal(err)
	}

	ctx := context.Background()
	rec, err := mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	chunks := int((2*every + per) / per)
	if rec.SealedChunks != chunks || rec.SealedMoves != 2*every+per || int64(len(rec.Moves)) != tail || !rec.MovesComplete() {
		t.Fatalf("stored: %d chunks of %d moves and %d more, seq %d", rec.SealedChunks, rec.SealedMoves, len(rec.Moves), rec.StateID)
	}
	datas, err := mem.GetMoves(ctx, id, 0, chunks)
	if err != nil {
		t.Fatal(err)
	}
	stored := 0
	for k, data := range datas {
		var c struct {
			First int64
			Moves []json.RawMessage
			State json.RawMessage
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		end := int64(k+1) * per
		if c.First != int64(k)*per || int64(len(c.Moves)) != per || (len(c.State) > 0) != (end%every == 0) {
			t.Fatalf("chunk %d: first %d, %d moves, state %d bytes", k, c.First, len(c.Moves), len(c.State))
		}
		stored += len(data)
	}
	size, _ := json.Marshal(rec)
	t.Logf("%d moves: record %d bytes, %d chunks, %d bytes (%.0f a move)", rec.StateID-1, len(size), rec.SealedChunks, stored, float64(stored)/float64(rec.SealedMoves))
	for _, from := range []int64{1, 2, per - 3, per + 1, per + 2, per + 3, every + 1, every + 2, every + 3,
		2*every + 1, 2*every + 2, 2*every + per + 2, rec.StateID - 5} {
		checkReplay(t, m, id, from, 10, views)
	}
	rp := checkReplay(t, m, id, rec.StateID-2, 10, views)
	if len(rp.Steps) != 3 || rp.Next != 0 || rp.Total != rec.StateID {
		t.Fatalf("the last page: %d steps, next %d, total %d", len(rp.Steps), rp.Next, rp.Total)
	}

	// A page past the first kept state starts from it: chunk 0, spoilt,
	// is not read, even by a page three chunks past it, whose chunk
	// before keeps no state.
	if err := mem.PutMoves(ctx, id, 0, []byte(`{"first":0,"moves":[]}`)); err != nil {
		t.Fatal(err)
	}
	checkReplay(t, m, id, every+10, 50, views)
	checkReplay(t, m, id, every+2*per+10, 10, views)
	if _, err := m.Replay(ctx, "gongzhu", id, 5, 10); rooms.AsError(err).Code != protocol.CodeInternal {
		t.Fatalf("replay through a spoilt chunk: %v", err)
	}
	// A page before the first kept state starts from the setup, through
	// the spoilt chunk.
	if _, err := m.Replay(ctx, "gongzhu", id, every-per+10, 10); rooms.AsError(err).Code != protocol.CodeInternal {
		t.Fatalf("replay of a page before the first state: %v", err)
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
