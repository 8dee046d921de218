package memstore_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) rooms.Store {
		return memstore.New(memstore.Options{})
	})
}

func TestExpiry(t *testing.T) {
	storetest.RunExpiry(t, func(t *testing.T) storetest.Expiring {
		clock := storetest.NewClock()
		const ttl = time.Hour
		return storetest.Expiring{
			Store:   memstore.New(memstore.Options{TTL: ttl, Now: clock.Now}),
			TTL:     ttl,
			Advance: clock.Advance,
			Exact:   true,
		}
	})
}

// TestExpiryInstant pins the boundary: a record lives exactly TTL after its
// last write.
func TestExpiryInstant(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		after time.Duration
		alive bool
	}{
		{"JustBefore", time.Hour - time.Millisecond, true},
		{"AtTTL", time.Hour, false},
		{"Long After", 48 * time.Hour, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := storetest.NewClock()
			s := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now})
			defer s.Close()
			if err := s.Create(ctx, storetest.NewRecord("m1", "gomoku", 100)); err != nil {
				t.Fatal(err)
			}
			clock.Advance(tc.after)
			_, err := s.Get(ctx, "m1")
			if alive := err == nil; alive != tc.alive {
				t.Fatalf("%v after the write: Get error %v, want alive=%v", tc.after, err, tc.alive)
			}
			if !tc.alive && !errors.Is(err, rooms.ErrNotFound) {
				t.Fatalf("expired Get: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestSweep: the janitor frees expired records and keeps live ones.
func TestSweep(t *testing.T) {
	ctx := context.Background()
	clock := storetest.NewClock()
	s := memstore.New(memstore.Options{TTL: time.Hour, Now: clock.Now, SweepEvery: time.Millisecond})
	defer s.Close()
	for _, id := range []string{"old1", "old2"} {
		if err := s.Create(ctx, storetest.NewRecord(id, "gomoku", 100)); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(time.Hour / 2)
	if err := s.Create(ctx, storetest.NewRecord("new", "gomoku", 100)); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour / 2)
	deadline := time.Now().Add(10 * time.Second)
	for s.Len() != 1 {
		if time.Now().After(deadline) {
			t.Fatalf("janitor left %d records, want 1", s.Len())
		}
		time.Sleep(time.Millisecond)
	}
	if _, err := s.Get(ctx, "new"); err != nil {
		t.Fatalf("live record swept: %v", err)
	}
	if n := s.Sweep(); n != 0 {
		t.Fatalf("second Sweep deleted %d, want 0", n)
	}
}

func BenchmarkUpdate(b *testing.B) {
	s := memstore.New(memstore.Options{})
	defer s.Close()
	storetest.BenchUpdate(b, s)
}

func BenchmarkUpdateParallel(b *testing.B) {
	s := memstore.New(memstore.Options{})
	defer s.Close()
	storetest.BenchUpdateParallel(b, s)
}

func FuzzStore(f *testing.F) {
	s := memstore.New(memstore.Options{})
	defer s.Close()
	storetest.Fuzz(f, s)
}

func BenchmarkUpdateDelivered(b *testing.B) {
	s := memstore.New(memstore.Options{})
	defer s.Close()
	b.SetParallelism(8)
	storetest.BenchUpdateDelivered(b, s, s)
}
