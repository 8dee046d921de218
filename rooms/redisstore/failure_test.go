package redisstore_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// closedPort returns an address nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

func TestNewErrors(t *testing.T) {
	addr := closedPort(t)
	for _, tc := range []struct {
		name        string
		o           redisstore.Options
		unavailable bool
		mention     string
	}{
		{"ClosedPort", redisstore.Options{URL: "redis://" + addr + "/0"}, true, addr},
		{"ClosedPortClient", redisstore.Options{Client: redis.NewClient(&redis.Options{Addr: addr})}, true, "connect"},
		{"BadURL", redisstore.Options{URL: "http://example.com"}, false, "URL"},
		{"NoURL", redisstore.Options{}, false, "URL"},
		{"BracePrefix", redisstore.Options{URL: "redis://" + addr, Prefix: "a{b}"}, false, "prefix"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			s, err := redisstore.New(ctx, tc.o)
			if err == nil {
				s.Close()
				t.Fatal("New succeeded")
			}
			if errors.Is(err, rooms.ErrUnavailable) != tc.unavailable {
				t.Errorf("New: %v; wraps ErrUnavailable = %v, want %v", err, !tc.unavailable, tc.unavailable)
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("New: %q does not mention %q", err, tc.mention)
			}
		})
	}
}

// TestOutage stops the server under a store: every call fails with
// rooms.ErrUnavailable while it is down; once it is back, calls work again
// and the subscription, re-made by go-redis, delivers again.
func TestOutage(t *testing.T) {
	ctx := context.Background()
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	c := redis.NewClient(&redis.Options{Addr: m.Addr(), MaxRetries: -1, DialTimeout: time.Second})
	t.Cleanup(func() { c.Close() })
	s := open(t, redisstore.Options{Client: c})
	rec, events := subscribed(t, s)

	m.Close()
	chat := rooms.Event{Chat: &protocol.Chat{Type: protocol.TypeChat, Text: "hi"}}
	for _, tc := range []struct {
		name string
		call func() error
	}{
		{"Create", func() error { return s.Create(ctx, storetest.NewRecord("m2", "gomoku", 100)) }},
		{"Get", func() error { _, err := s.Get(ctx, "m1"); return err }},
		{"Update", func() error { return s.Update(ctx, storetest.Next(rec), rec.Version) }},
		{"List", func() error { _, err := s.List(ctx, "gomoku"); return err }},
		{"Publish", func() error { return s.Publish(ctx, "m1", chat) }},
		{"Subscribe", func() error { _, _, err := s.Subscribe(ctx, "m2"); return err }},
	} {
		t.Run("Down"+tc.name, func(t *testing.T) {
			err := tc.call()
			if !errors.Is(err, rooms.ErrUnavailable) {
				t.Fatalf("%s with the server down: %v, want ErrUnavailable", tc.name, err)
			}
			t.Logf("%s: %v", tc.name, err)
		})
	}

	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	if !delivers(t, s, events, "the restart") {
		t.Error("no resync event before the first event after the restart")
	}
}

// TestPubSubKilled kills the store's pub/sub connections on a real server
// (CLIENT KILL of those two, the events' and the liveness channel's, so a
// shared server's other clients are untouched): go-redis reconnects and
// re-subscribes, events flow again and the process shows alive again.
// miniredis has no CLIENT KILL; TestOutage covers it there.
func TestPubSubKilled(t *testing.T) {
	ctx := context.Background()
	srv := redistest.Start(t)
	if srv.Mini != nil {
		t.Skip("miniredis cannot kill one client")
	}
	prefix := redistest.Prefix(t, srv.URL)
	opt, err := redis.ParseURL(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	opt.ClientName = prefix // names this store's connections
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	s := open(t, redisstore.Options{Client: c, Prefix: prefix})
	_, events := subscribed(t, s)

	admin := client(t, srv.URL)
	list, err := admin.ClientList(ctx).Result()
	if err != nil {
		t.Fatal(err)
	}
	killed := 0
	for _, line := range strings.Split(list, "\n") {
		f := fields(line)
		if f["name"] == prefix && strings.Contains(f["flags"], "P") {
			if err := admin.Do(ctx, "CLIENT", "KILL", "ID", f["id"]).Err(); err != nil {
				t.Fatal(err)
			}
			killed++
		}
	}
	if killed != 2 {
		t.Fatalf("found %d pub/sub connections named %s, want 2 (events, liveness):\n%s", killed, prefix, list)
	}
	if !delivers(t, s, events, "the kill") {
		t.Error("no resync event before the first event after the kill")
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		alive, err := s.Alive(ctx, []string{s.ProcessID()})
		if err == nil && alive[s.ProcessID()] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the store never showed alive again after the kill: %v %v", alive, err)
		}
	}
}

// subscribed creates match m1 in s and subscribes to it until t ends.
func subscribed(t *testing.T, s rooms.Store) (*rooms.Record, <-chan rooms.Event) {
	t.Helper()
	ctx := context.Background()
	rec := storetest.NewRecord("m1", "gomoku", 500)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	events, cancel, err := s.Subscribe(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	return rec, events
}

// delivers updates m1 until an event reaches events: the ones made before
// go-redis re-subscribed after the failure are lost to the subscriber. It
// reports whether a resync event came first (it must, after a failure:
// TestResyncAfterRestart).
func delivers(t *testing.T, s rooms.Store, events <-chan rooms.Event, after string) (resynced bool) {
	t.Helper()
	ctx := context.Background()
	deadline := time.Now().Add(30 * time.Second)
	for {
		rec, err := s.Get(ctx, "m1")
		if err != nil {
			t.Fatalf("Get after %s: %v", after, err)
		}
		next := storetest.Next(rec)
		if err := s.Update(ctx, next, rec.Version); err != nil {
			t.Fatalf("Update after %s: %v", after, err)
		}
		for waiting := true; waiting; {
			select {
			case ev := <-events:
				if ev.Resync {
					resynced = true
					continue
				}
				if ev.RecordVersion() == 0 || ev.RecordVersion() > next.Version {
					t.Fatalf("after %s got %+v", after, ev)
				}
				return resynced
			case <-time.After(200 * time.Millisecond):
				waiting = false
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no event within 30 s of %s: the subscription was not re-made", after)
		}
	}
}

// fields parses one CLIENT LIST line ("id=7 addr=… name=… flags=P …").
func fields(line string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Fields(line) {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}
