package rooms_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// TestJoinThenHelloAtOnce: a successful join is usable the moment it
// answers. Friends opening an invite link together: seat 0 joins and
// connects without waiting, while seat 1 joins and sends its hello at once,
// half of the time joining through the other process. The seat-0
// connection's presence write races the seat-1 join; the room must never
// refuse seat 1's fresh credentials. On memory and on Redis, two managers
// sharing one store as two processes do.
func TestJoinThenHelloAtOnce(t *testing.T) {
	pairs := 1000
	if testing.Short() {
		pairs = 200
	}
	t.Run("memory", func(t *testing.T) {
		st := memstore.New(memstore.Options{})
		t.Cleanup(func() { st.Close() })
		joinThenHello(t, st, st, pairs)
	})
	t.Run("redis", func(t *testing.T) {
		url := redistest.URL(t)
		prefix := redistest.Prefix(t, url)
		joinThenHello(t, openStore(t, url, prefix), openStore(t, url, prefix), pairs)
	})
}

func joinThenHello(t *testing.T, storeA, storeB rooms.Store, pairs int) {
	ctx := context.Background()
	newManager := func(st rooms.Store) *rooms.Manager {
		m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(weiqi.Game), BotDelay: time.Hour})
		t.Cleanup(m.Close)
		return m
	}
	a, b := newManager(storeA), newManager(storeB)
	var refused, other atomic.Int64
	var firstErr atomic.Value
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8) // pairs in flight at once
	for i := range pairs {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			joiner := a
			if i%2 == 1 {
				joiner = b // the friend's request reached the other process
			}
			err := joinPair(ctx, a, joiner)
			switch {
			case err == nil:
			case isCode(err, protocol.CodeUnauthorized):
				refused.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			default:
				other.Add(1)
				firstErr.CompareAndSwap(nil, err.Error())
			}
		}()
	}
	wg.Wait()
	if refused.Load() != 0 || other.Load() != 0 {
		t.Fatalf("%d of %d hellos right after a join refused as unauthorized, %d other failures (first: %v)",
			refused.Load(), pairs, other.Load(), firstErr.Load())
	}
	t.Logf("%d join-then-hello pairs, half across processes: 0 refused", pairs)
}

// joinPair creates a 9x9 weiqi match on a, joins seat 0 and connects it
// without waiting, then joins seat 1 through joiner and connects it there
// at once.
func joinPair(ctx context.Context, a, joiner *rooms.Manager) error {
	id, err := a.Create(ctx, "weiqi", rooms.CreateParams{NumPlayers: 2, SetupData: []byte(`{"size":9}`)})
	if err != nil {
		return err
	}
	hello := func(m *rooms.Manager, pid, creds string) error {
		v, err := m.Connect(ctx, "weiqi", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, discardSink{})
		if err != nil {
			return fmt.Errorf("seat %s: %w", pid, err)
		}
		v.Close()
		return nil
	}
	p0, c0, err := a.Join(ctx, "weiqi", id, rooms.JoinParams{Name: "Alice"})
	if err != nil {
		return err
	}
	first := make(chan error, 1)
	go func() { first <- hello(a, p0, c0) }()
	p1, c1, err := joiner.Join(ctx, "weiqi", id, rooms.JoinParams{Name: "Bob"})
	if err != nil {
		return err
	}
	second := hello(joiner, p1, c1)
	return errors.Join(second, <-first)
}

func isCode(err error, code string) bool {
	var e *rooms.Error
	return errors.As(err, &e) && e.Code == code
}

// discardSink takes every message and drops it.
type discardSink struct{}

func (discardSink) Send([]byte, rooms.Kind) bool { return true }
func (discardSink) Close()                       {}
