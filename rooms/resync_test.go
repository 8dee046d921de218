package rooms_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// lossyStore loses every event while deaf is set, as a store whose
// connection to its backend is down does, and sends its subscribers a
// resync event when resync is called, as such a store does once it is back.
type lossyStore struct {
	rooms.Store
	deaf  atomic.Bool
	mu    sync.Mutex
	kicks []chan struct{} // one per subscription: send it a resync
}

func (s *lossyStore) Subscribe(ctx context.Context, id string) (<-chan rooms.Event, func(), error) {
	in, cancel, err := s.Store.Subscribe(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	out, kick := make(chan rooms.Event, cap(in)), make(chan struct{}, 1)
	s.mu.Lock()
	s.kicks = append(s.kicks, kick)
	s.mu.Unlock()
	go func() {
		defer close(out)
		for {
			select {
			case ev, ok := <-in:
				if !ok {
					return
				}
				if !s.deaf.Load() {
					out <- ev
				}
			case <-kick:
				out <- rooms.Event{Resync: true}
			}
		}
	}()
	return out, cancel, nil
}

// resync sends every subscription a resync event.
func (s *lossyStore) resync() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.kicks {
		k <- struct{}{}
	}
}

// has matches messages containing s.
func has(s string) func([]byte) bool {
	return func(m []byte) bool { return bytes.Contains(m, []byte(s)) }
}

// awaitFrom waits up to d for a message from the from-th on that ok
// accepts, and returns its index.
func awaitFrom(t *testing.T, s *recordingSink, from int, d time.Duration, what string, ok func([]byte) bool) int {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		s.mu.Lock()
		for i := from; i < len(s.msgs); i++ {
			if ok(s.msgs[i]) {
				s.mu.Unlock()
				return i
			}
		}
		s.mu.Unlock()
	}
	t.Fatalf("no %s within %v", what, d)
	return 0
}

// sent is how many messages s has received.
func (s *recordingSink) sent() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

// at is the i-th message s received.
func (s *recordingSink) at(i int) []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.msgs[i]
}

// play makes v place a stone at (x, y) with move ID id and waits for the
// acknowledgement on s.
func play(t *testing.T, v *rooms.Viewer, s *recordingSink, id int64, x, y int) {
	t.Helper()
	from := s.sent()
	if err := v.Move(&id, "place", games.Args(x, y), nil); err != nil {
		t.Fatal(err)
	}
	i := awaitFrom(t, s, from, 10*time.Second, "answer to the move", func(m []byte) bool {
		return has(fmt.Sprintf(`"ack":%d`, id))(m) || has(fmt.Sprintf(`"ref":%d`, id))(m)
	})
	if m := s.at(i); !has(`"ack"`)(m) {
		t.Fatalf("move %d at (%d,%d) refused: %s", id, x, y, m)
	}
}

// spectate connects a spectator to the match through m and returns the
// first state it was sent.
func spectate(t *testing.T, m *rooms.Manager, id string) []byte {
	t.Helper()
	sink := &recordingSink{}
	v, err := m.Connect(context.Background(), "gomoku", id, rooms.Hello{Name: "S"}, sink)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return sink.at(awaitFrom(t, sink, 0, 5*time.Second, "first state", has(`"type":"state"`)))
}

// TestRoomCatchesUp: process D's room misses the events of moves made on
// process C (its store's connection is down). A spectator connecting on D
// still sees the stored state, and so does a player's sync on D; when the
// store sends a resync, D's room reloads and shows its viewers the moves
// they missed, without being asked.
func TestRoomCatchesUp(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	lossy := &lossyStore{Store: mem}
	newManager := func(st rooms.Store) *rooms.Manager {
		m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
		t.Cleanup(m.Close)
		return m
	}
	c, d := newManager(mem), newManager(lossy)
	id, seats, sinks := acrossTwo(t, c, d)
	lossy.deaf.Store(true)

	play(t, seats[0], sinks[0], 1, 7, 7)
	if first := spectate(t, d, id); !has(`"moves":[[7,7]]`)(first) {
		t.Errorf("a spectator connecting on D is shown an old state: %.300s", first)
	}

	play(t, seats[1], sinks[1], 1, 8, 8)
	play(t, seats[0], sinks[0], 2, 9, 9)
	from := sinks[1].sent()
	if err := seats[1].Sync(); err != nil {
		t.Fatal(err)
	}
	awaitFrom(t, sinks[1], from, 5*time.Second, "black's second stone after a sync on D", has(`"moves":[[7,7],[8,8],[9,9]]`))

	play(t, seats[1], sinks[1], 2, 10, 10)
	play(t, seats[0], sinks[0], 3, 11, 11)
	from = sinks[1].sent()
	lossy.resync()
	awaitFrom(t, sinks[1], from, 5*time.Second, "black's third stone after a resync on D", has(`[10,10],[11,11]]`))
}

// redisManager is a manager on its own Redis store at url, as one server
// process has; both are closed at the end of t.
func redisManager(t *testing.T, url string) *rooms.Manager {
	t.Helper()
	m := rooms.New(rooms.Config{Store: openStore(t, url, ""), Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	return m
}

// TestMovesAfterRedisRestart: two processes, C and D, share a Redis that
// restarts (killed, its data kept) mid-game. The first move made on C
// after the restart, before D is connected again (D reaches Redis through
// a proxy that is mended only after the move: D reconnecting last is the
// case that froze games), reaches the player on D, a spectator connecting
// on D and a sync on D, and so do later moves.
func TestMovesAfterRedisRestart(t *testing.T) {
	srv := redistest.StartOwn(t)
	proxy := redistest.NewProxy(t, srv.URL)
	c, d := redisManager(t, srv.URL), redisManager(t, proxy.URL)
	id, seats, sinks := acrossTwo(t, c, d)

	proxy.Cut()
	srv.Restart(t)
	from := sinks[1].sent()
	playAfterOutage(t, seats[0], sinks[0], 7, 7)
	proxy.Mend()
	mended := time.Now()
	awaitFrom(t, sinks[1], from, 30*time.Second, "the move made on C after the restart, on D", has(`"moves":[[7,7]]`))
	t.Logf("D's player got the move %v after D could reach Redis again", time.Since(mended).Round(time.Millisecond))
	if first := spectate(t, d, id); !has(`"moves":[[7,7]]`)(first) {
		t.Errorf("a spectator connecting on D is shown an old state: %.300s", first)
	}
	from = sinks[1].sent()
	if err := seats[1].Sync(); err != nil {
		t.Fatal(err)
	}
	awaitFrom(t, sinks[1], from, 5*time.Second, "the state after a sync on D", has(`"moves":[[7,7]]`))

	play(t, seats[1], sinks[1], 1, 8, 8)
	awaitFrom(t, sinks[0], 0, 10*time.Second, "white's move, made on D, on C", has(`"moves":[[7,7],[8,8]]`))
	from = sinks[1].sent()
	play(t, seats[0], sinks[0], 100, 9, 9)
	awaitFrom(t, sinks[1], from, 10*time.Second, "black's next move on D", has(`[8,8],[9,9]]`))
}

// playAfterOutage places a stone, trying again while the store refuses the
// write (its connections recover from the restart), until it is accepted.
func playAfterOutage(t *testing.T, v *rooms.Viewer, s *recordingSink, x, y int) {
	t.Helper()
	for id := int64(1); id <= 20; id++ {
		from := s.sent()
		if err := v.Move(&id, "place", games.Args(x, y), nil); err != nil {
			t.Fatal(err)
		}
		i := awaitFrom(t, s, from, 20*time.Second, "answer to the move", func(m []byte) bool {
			return has(fmt.Sprintf(`"ack":%d`, id))(m) || has(fmt.Sprintf(`"ref":%d`, id))(m)
		})
		if m := s.at(i); has(`"ack"`)(m) {
			return
		} else {
			t.Logf("move refused after the restart: %.200s", m)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("the move was refused 20 times after the restart")
}
