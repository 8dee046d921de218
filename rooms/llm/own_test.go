package llm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
)

// TestOwnCaps: one client address has at most PerClient requests in
// flight across its matches (a decision that gets no slot is busy, and
// sends nothing), and at most MaxOwnMatchesPerClient matches held.
func TestOwnCaps(t *testing.T) {
	f := newFake(t, always(reply{content: `{"option": 1}`}))
	o := NewOwn(OwnOptions{Guard: &Guard{AllowPrivate: true}, PerClient: 2})
	cfg := OwnConfig{Name: "mine", BaseURL: f.URL + "/v1", Model: "m", Key: testKey}
	for i := 0; i < MaxOwnMatchesPerClient; i++ {
		b, err := o.Prepare(cfg, "198.51.100.7")
		if err != nil {
			t.Fatalf("match %d: %v", i, err)
		}
		b.Bind(fmt.Sprint("m", i), []int{0, 1})
	}
	if _, err := o.Prepare(cfg, "198.51.100.7"); !errors.Is(err, ErrTooManyOwn) {
		t.Fatalf("match %d of one address: %v, want ErrTooManyOwn", MaxOwnMatchesPerClient+1, err)
	}
	if _, err := o.Prepare(cfg, "198.51.100.8"); err != nil {
		t.Fatalf("another address: %v", err)
	}
	// Both slots of the address taken: a decision of a third match waits
	// until shortly before its deadline, then is busy, sending nothing.
	ctx := context.Background()
	r1, err := o.acquire(ctx, "198.51.100.7")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := o.acquire(ctx, "198.51.100.7")
	if err != nil {
		t.Fatal(err)
	}
	pl, ok := o.Player("m2", 1)
	if !ok {
		t.Fatal("no Player for a bound seat")
	}
	if _, ok := o.Player("m2", 2); ok {
		t.Fatal("a Player for a seat that is not the endpoint's")
	}
	tile, _, _, _ := views(t)
	dctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	_, err = pl.Engine.(rooms.ReasonEngine).MoveReason(dctx, rooms.EngineRequest{Game: Game, MatchID: "m2", Seat: 0, Version: 1, View: tile})
	if !errors.Is(err, rooms.ErrEngineBusy) {
		t.Fatalf("third decision: %v, want busy", err)
	}
	if f.requests() != 0 {
		t.Fatalf("%d requests sent while busy", f.requests())
	}
	r1()
	r2()
	// A slot free again: the decision is made.
	if _, err := pl.Engine.(rooms.ReasonEngine).MoveReason(ctx, rooms.EngineRequest{Game: Game, MatchID: "m2", Seat: 0, Version: 1, View: tile}); err != nil {
		t.Fatal(err)
	}
	// Keep: an over match, or one unchanged past the TTL, is let go.
	if !o.Keep("m3", time.Now().UnixMilli(), false) || o.Keep("m3", time.Now().UnixMilli(), true) || o.Keep("m3", time.Now().UnixMilli(), false) {
		t.Fatal("Keep of an over match")
	}
	if o.Keep("m4", time.Now().Add(-rooms.DefaultTTL-time.Minute).UnixMilli(), false) {
		t.Fatal("Keep of an expired match")
	}
}
