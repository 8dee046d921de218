package rooms_test

import (
	"bytes"
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// noticeStore is a store whose record events are notices, as redisstore
// sends them: StateID only, the record left in the store. It counts Gets.
type noticeStore struct {
	rooms.Store
	gets *atomic.Int64
}

func (s noticeStore) Get(ctx context.Context, id string) (*rooms.Record, error) {
	s.gets.Add(1)
	return s.Store.Get(ctx, id)
}

func (s noticeStore) Subscribe(ctx context.Context, id string) (<-chan rooms.Event, func(), error) {
	in, cancel, err := s.Store.Subscribe(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	out := make(chan rooms.Event, cap(in))
	go func() {
		defer close(out)
		for ev := range in {
			if v := ev.RecordVersion(); v > 0 {
				ev = rooms.Event{Version: v}
			}
			out <- ev
		}
	}()
	return out, cancel, nil
}

// TestNoticeEvents: with a store that sends notices, a spectator in a
// second process sees every move made in the first (its room reads each
// record), and the writer's room skips its own notices without a Get.
func TestNoticeEvents(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	store := noticeStore{mem, new(atomic.Int64)}
	newManager := func() *rooms.Manager {
		m := rooms.New(rooms.Config{Store: store, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
		t.Cleanup(m.Close)
		return m
	}
	a, b := newManager(), newManager()
	match := newBenchMatch(t, a, b)
	game := gomokuGame(t)
	moves := game[:12]
	store.gets.Store(0)
	for k, mv := range moves {
		ref := int64(k)
		if err := match.seats[mv.seat].Move(&ref, "place", mv.args, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case msg := <-match.sinks[mv.seat].answers:
			if bytes.HasPrefix(msg, []byte(`{"type":"error"`)) {
				t.Fatalf("move %d refused: %s", k+1, msg)
			}
		case <-time.After(time.Minute):
			t.Fatalf("no answer to move %d", k+1)
		}
		want := int64(k) + 2 // Seq is 1 before the first move
		deadline := time.After(10 * time.Second)
		for sid := int64(0); sid < want; {
			select {
			case sid = <-match.watch.seen:
				if sid > want {
					t.Fatalf("spectator saw stateID %d after move %d", sid, k+1)
				}
			case <-deadline:
				t.Fatalf("spectator in the other process did not see move %d", k+1)
			}
		}
	}
	// One Get per move at most, by the spectator's room (fewer if it read
	// a record a later notice announced); none by the writer's.
	if n := store.gets.Load(); n < 1 || n > int64(len(moves)) {
		t.Fatalf("%d Gets for %d moves; want 1 to %d", n, len(moves), len(moves))
	}
}
