package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// NewStore returns a store on an empty backend of its own; the suite closes
// it, and the function may register more cleanup with t.Cleanup.
type NewStore func(t *testing.T) rooms.Store

// Run runs the whole rooms.Store suite against stores made by newStore. Each
// subtest gets its own store and runs in parallel with the others.
func Run(t *testing.T, newStore NewStore) {
	tests := []struct {
		name string
		run  func(t *testing.T, s rooms.Store)
	}{
		{"CreateGetRoundTrip", testCreateGet},
		{"CreateExists", testCreateExists},
		{"GetMissing", testGetMissing},
		{"BadInput", testBadInput},
		{"UpdateBumps", testUpdateBumps},
		{"UpdateStale", testUpdateStale},
		{"UpdateMissing", testUpdateMissing},
		{"UpdateEncoded", testUpdateEncoded},
		{"UpdateRace", testUpdateRace},
		{"List", testList},
		{"SubscribeInOrder", testSubscribeInOrder},
		{"SubscribeChat", testSubscribeChat},
		{"SubscribeOtherMatch", testSubscribeOtherMatch},
		{"SubscribeSharedCancel", testSubscribeSharedCancel},
		{"CancelStopsDelivery", testCancelStops},
		{"ContextEndsSubscription", testContextEnds},
		{"SlowSubscriber", testSlowSubscriber},
		{"PublishMissing", testPublishMissing},
		{"CloseIdempotent", testClose},
		{"MoveChunks", testMoveChunks},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := open(t, newStore)
			tc.run(t, s)
		})
	}
}

// open makes a store that is closed at the end of the test.
func open(t *testing.T, newStore NewStore) rooms.Store {
	t.Helper()
	s := newStore(t)
	t.Cleanup(func() { s.Close() })
	return s
}

// create stores a NewRecord of game "gomoku" and returns it.
func create(t *testing.T, s rooms.Store, id string) *rooms.Record {
	t.Helper()
	rec := NewRecord(id, "gomoku", 1500)
	if err := s.Create(context.Background(), rec); err != nil {
		t.Fatalf("Create(%s): %v", id, err)
	}
	return rec
}

// mustGet fails t unless the stored record equals want.
func mustGet(t *testing.T, s rooms.Store, want *rooms.Record) {
	t.Helper()
	got, err := s.Get(context.Background(), want.ID)
	if err != nil {
		t.Fatalf("Get(%s): %v", want.ID, err)
	}
	sameRecord(t, "Get("+want.ID+")", got, want)
}

// wantErr fails t unless errors.Is(err, target).
func wantErr(t *testing.T, what string, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("%s: got error %v, want one wrapping %q", what, err, target)
	}
}

func testCreateGet(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	rec := create(t, s, "m1")
	want := NewRecord("m1", "gomoku", 1500)
	mustGet(t, s, want)
	// Neither the caller's record nor a returned one is shared with the store.
	rec.Seats[0].Name = "changed after Create"
	rec.State = []byte(`{"changed":true}`)
	got, err := s.Get(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	got.Seats[1].Name = "changed after Get"
	got.Log[0].Move = "changed"
	mustGet(t, s, want)
}

func testCreateExists(t *testing.T, s rooms.Store) {
	want := create(t, s, "m1")
	other := NewRecord("m1", "weiqi", 100)
	other.Version = 7
	wantErr(t, "second Create", s.Create(context.Background(), other), rooms.ErrExists)
	mustGet(t, s, want)
}

func testGetMissing(t *testing.T, s rooms.Store) {
	create(t, s, "m1")
	for _, id := range []string{"m2", "", "M1", "m1 ", "{m1}", "m1:rec"} {
		_, err := s.Get(context.Background(), id)
		wantErr(t, fmt.Sprintf("Get(%q)", id), err, rooms.ErrNotFound)
	}
}

func testBadInput(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	want := create(t, s, "m1")
	noID := NewRecord("", "gomoku", 100)
	noGame := NewRecord("m2", "", 100)
	badID := NewRecord("m2\xff", "gomoku", 100)
	badGame := NewRecord("m2", "go\xffmoku", 100)
	same := Next(want)
	same.Version = want.Version
	older := Next(want)
	older.Version = want.Version - 1
	badState := Next(want)
	badState.State = json.RawMessage(`{"board":`)
	newBadState := NewRecord("m2", "gomoku", 100)
	newBadState.State = badState.State
	cases := []struct {
		name string
		call func() error
	}{
		{"CreateNil", func() error { return s.Create(ctx, nil) }},
		{"CreateNoID", func() error { return s.Create(ctx, noID) }},
		{"CreateNoGame", func() error { return s.Create(ctx, noGame) }},
		{"CreateIDNotUTF8", func() error { return s.Create(ctx, badID) }},
		{"CreateGameNotUTF8", func() error { return s.Create(ctx, badGame) }},
		{"UpdateNil", func() error { return s.Update(ctx, nil, 1) }},
		{"UpdateNoID", func() error { return s.Update(ctx, noID, 0) }},
		{"UpdateSameStateID", func() error { return s.Update(ctx, same, want.Version) }},
		{"UpdateOlderStateID", func() error { return s.Update(ctx, older, want.Version) }},
		{"CreateStateNotJSON", func() error { return s.Create(ctx, newBadState) }},
		{"UpdateStateNotJSON", func() error { return s.Update(ctx, badState, want.Version) }},
		{"PublishEmpty", func() error { return s.Publish(ctx, "m1", rooms.Event{}) }},
		{"PublishRecord", func() error { return s.Publish(ctx, "m1", rooms.Event{Record: Next(want)}) }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			if err == nil {
				t.Fatal("accepted; want a clear error")
			}
			if err.Error() == "" {
				t.Fatal("error has no message")
			}
			mustGet(t, s, want)
		})
	}
	for _, id := range []string{"", "m2", "m2\xff"} {
		if _, err := s.Get(ctx, id); !errors.Is(err, rooms.ErrNotFound) {
			t.Fatalf("after bad input, Get(%q): %v, want ErrNotFound", id, err)
		}
	}
}

func testUpdateBumps(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	for range 3 {
		next := Next(rec)
		if err := s.Update(context.Background(), next, rec.Version); err != nil {
			t.Fatalf("Update to stateID %d: %v", next.Version, err)
		}
		mustGet(t, s, next)
		rec = next
	}
}

func testUpdateStale(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	rec := create(t, s, "m1")
	cur := Next(rec)
	if err := s.Update(ctx, cur, rec.Version); err != nil {
		t.Fatal(err)
	}
	for _, prev := range []int64{rec.Version, cur.Version + 1, 0, -1} {
		stale := Next(cur)
		stale.Version = prev + 5
		stale.Seats[0].Name = "should not be stored"
		err := s.Update(ctx, stale, prev)
		wantErr(t, fmt.Sprintf("Update with prev %d (stored %d)", prev, cur.Version), err, rooms.ErrConflict)
		mustGet(t, s, cur)
	}
}

func testUpdateMissing(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	rec := NewRecord("ghost", "gomoku", 500)
	wantErr(t, "Update of a missing record", s.Update(ctx, Next(rec), rec.Version), rooms.ErrNotFound)
	_, err := s.Get(ctx, "ghost")
	wantErr(t, "Get after Update of a missing record", err, rooms.ErrNotFound)
}

// testUpdateEncoded: a store that takes records encoded stores the bytes
// it is given (here in another form than json.Marshal's: white space
// around) and checks the version as Update does.
func testUpdateEncoded(t *testing.T, s rooms.Store) {
	eu, ok := s.(rooms.EncodedUpdater)
	if !ok {
		t.Skip("the store takes no encoded records")
	}
	ctx := context.Background()
	rec := create(t, s, "m1")
	next := Next(rec)
	next.Seats[0].Name = "encoded"
	data, err := json.Marshal(next)
	if err != nil {
		t.Fatal(err)
	}
	data = append(append([]byte("\n "), data...), "\n"...)
	if err := eu.UpdateEncoded(ctx, next, data, rec.Version); err != nil {
		t.Fatal(err)
	}
	mustGet(t, s, next)
	stale := Next(next)
	stale.Seats[0].Name = "should not be stored"
	data, _ = json.Marshal(stale)
	wantErr(t, "UpdateEncoded with a stale prev", eu.UpdateEncoded(ctx, stale, data, rec.Version), rooms.ErrConflict)
	mustGet(t, s, next)
}

// testUpdateRace has N goroutines update from the same prev: exactly one
// may win, and the stored record must be the winner's.
func testUpdateRace(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	raceUpdates(t, []rooms.Store{s}, rec, 16)
}

// raceUpdates has n goroutines, spread over stores, update rec from its
// Version at once, each with a distinct record; it checks one wins.
func raceUpdates(t *testing.T, stores []rooms.Store, rec *rooms.Record, n int) {
	t.Helper()
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make([]error, n)
		recs  = make([]*rooms.Record, n)
	)
	for i := range n {
		recs[i] = Next(rec)
		recs[i].Seats[0].Name = fmt.Sprintf("writer %d", i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = stores[i%len(stores)].Update(context.Background(), recs[i], rec.Version)
		}()
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner >= 0:
			t.Fatalf("writers %d and %d both won the update from stateID %d", winner, i, rec.Version)
		case err == nil:
			winner = i
		case !errors.Is(err, rooms.ErrConflict):
			t.Fatalf("writer %d: %v, want nil or ErrConflict", i, err)
		}
	}
	if winner < 0 {
		t.Fatalf("none of %d writers won the update from stateID %d", n, rec.Version)
	}
	mustGet(t, stores[0], recs[winner])
}

func testList(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	want := map[string][]string{"gomoku": {"g1", "g2", "g3"}, "weiqi": {"w1"}}
	for game, ids := range want {
		for _, id := range ids {
			if err := s.Create(ctx, NewRecord(id, game, 300)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A record updated after creation is listed with its new content.
	g2 := Next(NewRecord("g2", "gomoku", 300))
	if err := s.Update(ctx, g2, 1); err != nil {
		t.Fatal(err)
	}
	for _, game := range []string{"gomoku", "weiqi", "gongzhu", ""} {
		recs, err := s.List(ctx, game)
		if err != nil {
			t.Fatalf("List(%q): %v", game, err)
		}
		var got []string
		for _, r := range recs {
			if r.Game != game {
				t.Errorf("List(%q) returned %s of game %q", game, r.ID, r.Game)
			}
			if r.ID == "g2" {
				sameRecord(t, "listed g2", r, g2)
			}
			got = append(got, r.ID)
		}
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(want[game]) {
			t.Errorf("List(%q) = %v, want %v", game, got, want[game])
		}
	}
}

func testPublishMissing(t *testing.T, s rooms.Store) {
	err := s.Publish(context.Background(), "ghost", rooms.Event{Chat: &protocol.Chat{Type: protocol.TypeChat, Text: "hi"}})
	wantErr(t, "Publish to a missing match", err, rooms.ErrNotFound)
}

func testClose(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	create(t, s, "m1")
	events, _, err := s.Subscribe(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if err := s.Close(); err != nil {
			t.Fatalf("Close #%d: %v", i+1, err)
		}
	}
	waitClosed(t, events)
	_, err = s.Get(ctx, "m1")
	wantErr(t, "Get after Close", err, rooms.ErrUnavailable)
	wantErr(t, "Create after Close", s.Create(ctx, NewRecord("m2", "gomoku", 100)), rooms.ErrUnavailable)
}
