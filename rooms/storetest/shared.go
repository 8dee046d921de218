package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
)

// NewPair returns two stores on one shared, otherwise empty backend, as two
// server processes would open them. The suite closes both.
type NewPair func(t *testing.T) (a, b rooms.Store)

// RunShared runs the tests of stores that several processes share: what one
// instance writes the other sees, compare-and-set holds across them, and
// events cross between them.
func RunShared(t *testing.T, newPair NewPair) {
	tests := []struct {
		name string
		run  func(t *testing.T, a, b rooms.Store)
	}{
		{"SeeEachOther", testSharedSee},
		{"UpdateRace", testSharedRace},
		{"EventsCross", testSharedEvents},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, b := newPair(t)
			t.Cleanup(func() { a.Close(); b.Close() })
			tc.run(t, a, b)
		})
	}
}

func testSharedSee(t *testing.T, a, b rooms.Store) {
	rec := create(t, a, "m1")
	mustGet(t, b, rec)
	wantErr(t, "Create on the other instance", b.Create(context.Background(), NewRecord("m1", "gomoku", 100)), rooms.ErrExists)
	rec = update(t, b, rec)
	mustGet(t, a, rec)
	recs, err := b.List(context.Background(), "gomoku")
	if err != nil || len(recs) != 1 || recs[0].ID != "m1" {
		t.Fatalf("List on the other instance = %v, %v; want [m1]", recs, err)
	}
}

// testSharedRace: writers in two "processes" never both win, round after
// round.
func testSharedRace(t *testing.T, a, b rooms.Store) {
	rec := create(t, a, "m1")
	for round := range 10 {
		raceUpdates(t, []rooms.Store{a, b}, rec, 8)
		got, err := b.Get(context.Background(), "m1")
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		rec = got
	}
}

func testSharedEvents(t *testing.T, a, b rooms.Store) {
	rec := create(t, a, "m1")
	evA, _ := subscribe(t, a, "m1")
	evB, _ := subscribe(t, b, "m1")
	for i := range 5 {
		writer := []rooms.Store{a, b}[i%2]
		rec = update(t, writer, rec)
		nextRecord(t, a, evA, rec)
		nextRecord(t, b, evB, rec)
	}
	if err := b.Publish(context.Background(), "m1", chat("from b")); err != nil {
		t.Fatal(err)
	}
	if ev := NextEvent(t, evA, "chat from the other instance"); ev.Chat == nil || ev.Chat.Text != "from b" {
		t.Fatalf("got %+v, want the chat from b", ev)
	}
}

// Expiring is a store with a short TTL and a way to move its time.
type Expiring struct {
	Store rooms.Store
	TTL   time.Duration
	// Advance moves the store's time forward by d: a fake clock, a fast
	// forward of the backend, or a real sleep.
	Advance func(d time.Duration)
	// Exact is set when time moves only through Advance, so the suite may
	// check the expiry instant closely; otherwise it only checks that a
	// record is there right after a write and gone well after the TTL.
	Exact bool
}

// RunExpiry checks that records, and their chunks of moves, expire TTL
// after their last write.
func RunExpiry(t *testing.T, newExpiring func(t *testing.T) Expiring) {
	t.Run("Expire", func(t *testing.T) {
		t.Parallel()
		e := newExpiring(t)
		t.Cleanup(func() { e.Store.Close() })
		ctx := context.Background()
		rec := create(t, e.Store, "m1")
		keep := create(t, e.Store, "keep")
		if e.Exact {
			// An Update renews the TTL: two thirds of it twice is more
			// than the TTL, but less since the last write.
			e.Advance(e.TTL * 2 / 3)
			mustGet(t, e.Store, rec)
			keep = update(t, e.Store, keep)
			e.Advance(e.TTL * 2 / 3)
			mustGet(t, e.Store, keep)
			_, err := e.Store.Get(ctx, "m1")
			wantErr(t, "Get past the TTL", err, rooms.ErrNotFound)
		} else {
			mustGet(t, e.Store, rec)
			e.Advance(e.TTL + e.TTL/2)
		}
		gone(t, e.Store, rec)
	})
	t.Run("MovesExpire", func(t *testing.T) {
		t.Parallel()
		e := newExpiring(t)
		t.Cleanup(func() { e.Store.Close() })
		movesExpire(t, e)
	})
}

// gone checks that rec expired: it cannot be read, listed, updated or
// published to, and its ID can be created again. Without an exact clock the
// backend may expire it a little late, so it polls for a while.
func gone(t *testing.T, s rooms.Store, rec *rooms.Record) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(patience)
	for {
		_, err := s.Get(ctx, rec.ID)
		if err != nil {
			wantErr(t, "Get after expiry", err, rooms.ErrNotFound)
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still there %v after its TTL", rec.ID, patience)
		}
		time.Sleep(50 * time.Millisecond)
	}
	recs, err := s.List(ctx, rec.Game)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if r.ID == rec.ID {
			t.Fatalf("List still shows expired %s", rec.ID)
		}
	}
	wantErr(t, "Update after expiry", s.Update(ctx, Next(rec), rec.Version), rooms.ErrNotFound)
	wantErr(t, "Publish after expiry", s.Publish(ctx, rec.ID, chat("late")), rooms.ErrNotFound)
	again := NewRecord(rec.ID, rec.Game, 200)
	if err := s.Create(ctx, again); err != nil {
		t.Fatalf("Create again after expiry: %v", err)
	}
	mustGet(t, s, again)
}
