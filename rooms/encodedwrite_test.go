package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// countingStore is a memory store that counts the room's writes by the
// method they came through.
type countingStore struct {
	*memstore.Store
	updates, encoded atomic.Int64
	badData          atomic.Int64 // encoded writes whose data is not the record
}

func (s *countingStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	s.updates.Add(1)
	return s.Store.Update(ctx, rec, prev)
}

func (s *countingStore) UpdateEncoded(ctx context.Context, rec *rooms.Record, data []byte, prev int64) error {
	s.encoded.Add(1)
	if !isRecordJSON(rec, data) {
		s.badData.Add(1)
	}
	return s.Store.UpdateEncoded(ctx, rec, data, prev)
}

// isRecordJSON reports whether data is byte for byte json.Marshal's
// encoding of rec.
func isRecordJSON(rec *rooms.Record, data []byte) bool {
	want, err := json.Marshal(rec)
	return err == nil && bytes.Equal(data, want)
}

// TestRoomWritesEncoded: the room hands a store that takes encoded records
// (rooms.EncodedUpdater) each move's record as JSON it encoded itself,
// byte for byte what json.Marshal gives, and never calls plain Update for
// them (lobby calls, which have no encodings at hand, do).
func TestRoomWritesEncoded(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	st := &countingStore{Store: mem}
	_, _, sinks, seats := weiqiPair(t, st)
	before, plain := st.encoded.Load(), st.updates.Load()
	playFour(t, sinks, seats)
	if n := st.encoded.Load() - before; n < 4 {
		t.Fatalf("%d encoded writes for 4 moves", n)
	}
	if n := st.updates.Load() - plain; n != 0 {
		t.Fatalf("the room called plain Update %d times", n)
	}
	if n := st.badData.Load(); n != 0 {
		t.Fatalf("%d encoded writes were not json.Marshal's bytes of their record", n)
	}
}

// playFour plays D4, E5, C3 and F6 in turn on a weiqiPair, each move
// waited for until it is acknowledged.
func playFour(t *testing.T, sinks [2]*recordingSink, seats [2]*rooms.Viewer) {
	t.Helper()
	for i, pt := range []string{"D4", "E5", "C3", "F6"} {
		ref := int64(i + 1)
		if err := seats[i%2].Move(&ref, "play", json.RawMessage(`["`+pt+`"]`), nil); err != nil {
			t.Fatal(err)
		}
		ack := []byte(`"ack":` + string(rune('0'+ref)))
		sinks[i%2].await(t, "move "+pt+" acknowledged", func(b []byte) bool { return bytes.Contains(b, ack) })
	}
}

// weiqiPair starts a manager on store with a 9x9 weiqi match, Black and
// White joined and connected (seats 0 and 1), each with a recording sink.
func weiqiPair(t *testing.T, store rooms.Store) (*rooms.Manager, string, [2]*recordingSink, [2]*rooms.Viewer) {
	t.Helper()
	m := rooms.New(rooms.Config{Store: store, Games: games.NewRegistry(weiqi.Game)})
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "weiqi", rooms.CreateParams{NumPlayers: 2, SetupData: []byte(`{"size":9}`)})
	if err != nil {
		t.Fatal(err)
	}
	var sinks [2]*recordingSink
	var seats [2]*rooms.Viewer
	for i, name := range []string{"Black", "White"} {
		pid, creds, err := m.Join(ctx, "weiqi", id, rooms.JoinParams{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		sinks[i] = &recordingSink{}
		if seats[i], err = m.Connect(ctx, "weiqi", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, sinks[i]); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(seats[i].Close)
	}
	return m, id, sinks, seats
}

// quietStore is a memory store that offers quiet writes
// (rooms.QuietUpdater): it names each subscription and records the names
// the room's writes come with.
type quietStore struct {
	*memstore.Store
	mu    sync.Mutex
	n     int
	names []string // given by SubscribeNamed
	quiet []string // the names UpdateQuiet got
	loud  int      // UpdateEncoded calls
	// badData counts quiet writes whose data was not the record's JSON;
	// reused those whose data was where the one before had been.
	badData, reused int
	lastData        *byte
}

func (s *quietStore) SubscribeNamed(ctx context.Context, id string) (<-chan rooms.Event, func(), string, error) {
	events, cancel, err := s.Store.Subscribe(ctx, id)
	if err != nil {
		return nil, nil, "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n++
	name := fmt.Sprintf("sub-%d", s.n)
	s.names = append(s.names, name)
	return events, cancel, name, nil
}

// UpdateQuiet keeps a copy of data, as the contract lets the room write
// over it once this returns nil; it counts the writes that came in the
// memory of the one before and those whose data was not rec's JSON.
func (s *quietStore) UpdateQuiet(ctx context.Context, rec *rooms.Record, data []byte, prev int64, name string) error {
	s.mu.Lock()
	s.quiet = append(s.quiet, name)
	if !isRecordJSON(rec, data) {
		s.badData++
	}
	if s.lastData != nil && len(data) > 0 && &data[0] == s.lastData {
		s.reused++
	}
	if len(data) > 0 {
		s.lastData = &data[0]
	}
	s.mu.Unlock()
	return s.Store.UpdateEncoded(ctx, rec, bytes.Clone(data), prev)
}

func (s *quietStore) UpdateEncoded(ctx context.Context, rec *rooms.Record, data []byte, prev int64) error {
	s.mu.Lock()
	s.loud++
	s.mu.Unlock()
	return s.Store.UpdateEncoded(ctx, rec, data, prev)
}

// TestRoomWritesQuietly: with a store that offers quiet writes, the room
// subscribes with a name and writes every move naming that subscription,
// so that the store may leave out the notice only the room itself would
// get; and it writes each record in the memory of the last one the store
// took, which the store no longer holds.
func TestRoomWritesQuietly(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	st := &quietStore{Store: mem}
	_, _, sinks, seats := weiqiPair(t, st)
	st.mu.Lock()
	names, before := slices.Clone(st.names), len(st.quiet)
	st.mu.Unlock()
	if len(names) != 1 {
		t.Fatalf("the room subscribed with names %q; want one", names)
	}
	playFour(t, sinks, seats)
	st.mu.Lock()
	defer st.mu.Unlock()
	moves := st.quiet[before:]
	if len(moves) < 4 {
		t.Fatalf("%d quiet writes for 4 moves (and %d others)", len(moves), st.loud)
	}
	for _, name := range moves {
		if name != names[0] {
			t.Fatalf("a quiet write named %q; the room's subscription is %q", name, names[0])
		}
	}
	if st.loud != 0 {
		t.Fatalf("the room wrote %d times without naming its subscription", st.loud)
	}
	// The room writes each record into the memory of the one before (the
	// store keeps none of it), and each is still exactly its record.
	if st.reused == 0 || st.badData != 0 {
		t.Fatalf("of %d quiet writes, %d in the memory of the one before, %d not their record's JSON; want some and none",
			len(st.quiet), st.reused, st.badData)
	}
}
