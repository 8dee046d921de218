package redisstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestResyncAfterRestart restarts a real redis-server (killed, its data
// kept) under a store with a subscriber: once the subscription is back the
// subscriber gets one resync event, after which Get gives the update made
// while it could not be told, and later updates come as notices again.
// A fresh subscription gets no resync.
func TestResyncAfterRestart(t *testing.T) {
	srv := redistest.StartOwn(t)
	s := open(t, redisstore.Options{URL: srv.URL})
	other := open(t, redisstore.Options{URL: srv.URL})
	rec, events := subscribed(t, s)
	noResync(t, events, "a fresh subscription")

	srv.Restart(t)
	next := storetest.Next(rec)
	if err := other.Update(context.Background(), next, rec.Version); err != nil {
		t.Fatalf("Update after the restart: %v", err)
	}
	awaitResync(t, s, events, next.Version)
	delivers(t, s, events, "the resync")
}

// TestResyncAfterOutage is TestResyncAfterRestart on miniredis, which runs
// everywhere: its Restart drops every connection and keeps the data.
func TestResyncAfterOutage(t *testing.T) {
	m, s := onMiniredis(t)
	rec, events := subscribed(t, s)
	noResync(t, events, "a fresh subscription")

	m.Close()
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	next := storetest.Next(rec)
	if err := s.Update(context.Background(), next, rec.Version); err != nil {
		t.Fatalf("Update after the restart: %v", err)
	}
	awaitResync(t, s, events, next.Version)
}

// onMiniredis starts a miniredis and opens a store on it, both closed at
// the end of t.
func onMiniredis(t *testing.T) (*miniredis.Miniredis, *redisstore.Store) {
	t.Helper()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), DialTimeout: time.Second})
	t.Cleanup(func() { c.Close() })
	s := open(t, redisstore.Options{Client: c})
	return m, s
}

// noResync fails t if a resync event is queued on events.
func noResync(t *testing.T, events <-chan rooms.Event, after string) {
	t.Helper()
	for range len(events) {
		if ev := <-events; ev.Resync {
			t.Fatalf("a resync event after %s", after)
		}
	}
}

// awaitResync waits for the resync event on events, skipping the notices
// that came through before it, then checks Get gives stateID or later.
func awaitResync(t *testing.T, s rooms.Store, events <-chan rooms.Event, stateID int64) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatal("the subscription ended")
			}
			if !ev.Resync {
				continue
			}
			if ev.RecordVersion() != 0 || ev.Chat != nil {
				t.Fatalf("the resync event carries more: %+v", ev)
			}
			got, err := s.Get(context.Background(), "m1")
			if err != nil || got.Version < stateID {
				t.Fatalf("Get after the resync: %v, %v; want stateID %d", got, err, stateID)
			}
			return
		case <-deadline:
			t.Fatal("no resync event within 30 s of the reconnection")
		}
	}
}

// TestStateID reads a record's version without the record.
func TestStateID(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	s := open(t, redisstore.Options{URL: url, Prefix: redistest.Prefix(t, url)})
	rec := storetest.NewRecord("m1", "gomoku", 100)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, storetest.Next(rec), rec.Version); err != nil {
		t.Fatal(err)
	}
	if sid, err := s.Version(ctx, "m1"); err != nil || sid != rec.Version+1 {
		t.Fatalf("StateID(m1) = %d, %v; want %d", sid, err, rec.Version+1)
	}
	if _, err := s.Version(ctx, "none"); !errors.Is(err, rooms.ErrNotFound) {
		t.Fatalf("StateID(none): %v, want ErrNotFound", err)
	}
	var _ rooms.VersionReader = s
}
