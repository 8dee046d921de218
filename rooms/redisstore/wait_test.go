package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestWaitReplicas runs on a master with one replica. With WaitReplicas 1
// every acknowledged write is on the replica the moment it is
// acknowledged (read there at once, no polling), for Create, Update and
// many Updates at once (batched behind one WAIT). With WaitReplicas 2
// (one replica exists) Create and Update fail with ErrUnavailable after the
// timeout, saying the write was made but not known durable: the record is
// written all the same.
func TestWaitReplicas(t *testing.T) {
	r := redistest.StartReplicated(t, 1)
	ctx := context.Background()
	replica := client(t, r.Replicas[0])
	onReplica := func(t *testing.T, prefix, id string) string {
		t.Helper()
		sid, err := replica.HGet(ctx, prefix+":{"+id+"}:rec", "sid").Result()
		if err != nil && !errors.Is(err, redis.Nil) {
			t.Fatal(err)
		}
		return sid
	}

	t.Run("One", func(t *testing.T) {
		prefix := redistest.Prefix(t, r.URL)
		s := open(t, redisstore.Options{URL: r.URL, Prefix: prefix, WaitReplicas: 1})
		rec := storetest.NewRecord("w1", "gomoku", 1024)
		if err := s.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if got := onReplica(t, prefix, rec.ID); got != "1" {
			t.Fatalf("after Create the replica has stateID %q, want 1", got)
		}
		for range 20 {
			next := storetest.Next(rec)
			if err := s.Update(ctx, next, rec.Version); err != nil {
				t.Fatal(err)
			}
			rec = next
			if got, want := onReplica(t, prefix, rec.ID), fmt.Sprint(rec.Version); got != want {
				t.Fatalf("after Update the replica has stateID %q, want %s", got, want)
			}
		}
		// Many matches at once: the batcher sends their Updates together,
		// one WAIT behind each pipeline.
		var wg sync.WaitGroup
		for g := range 16 {
			wg.Go(func() {
				rec := storetest.NewRecord(fmt.Sprintf("par%d", g), "gomoku", 1024)
				if err := s.Create(ctx, rec); err != nil {
					t.Error(err)
					return
				}
				for range 20 {
					next := storetest.Next(rec)
					if err := s.Update(ctx, next, rec.Version); err != nil {
						t.Error(err)
						return
					}
					rec = next
					if got, want := onReplica(t, prefix, rec.ID), fmt.Sprint(rec.Version); got != want {
						t.Errorf("match %s: after Update the replica has stateID %q, want %s", rec.ID, got, want)
						return
					}
				}
			})
		}
		wg.Wait()
	})

	t.Run("Two", func(t *testing.T) {
		prefix := redistest.Prefix(t, r.URL)
		const timeout = 300 * time.Millisecond
		s := open(t, redisstore.Options{URL: r.URL, Prefix: prefix, WaitReplicas: 2, WaitTimeout: timeout})
		start := time.Now()
		err := s.Create(ctx, storetest.NewRecord("w2c", "gomoku", 1024))
		checkShort(t, "Create", err, start, timeout)
		// A record created without waiting, updated with.
		rec := storetest.NewRecord("w2", "gomoku", 1024)
		if err := open(t, redisstore.Options{URL: r.URL, Prefix: prefix}).Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		next := storetest.Next(rec)
		start = time.Now()
		err = s.Update(ctx, next, rec.Version)
		checkShort(t, "Update", err, start, timeout)
		// The write was made: the record is at the new stateID.
		if got, err := s.Version(ctx, rec.ID); err != nil || got != next.Version {
			t.Errorf("after the short Update the store has stateID %d (%v), want %d: the write is made", got, err, next.Version)
		}
	})

	t.Run("Conflict", func(t *testing.T) {
		// An Update sent again after its first attempt landed (its reply
		// lost) meets its own record: a conflict the room takes as made
		// (rooms' landed). Then its replicas are waited for too.
		prefix := redistest.Prefix(t, r.URL)
		one := open(t, redisstore.Options{URL: r.URL, Prefix: prefix, WaitReplicas: 1})
		two := open(t, redisstore.Options{URL: r.URL, Prefix: prefix, WaitReplicas: 2, WaitTimeout: 200 * time.Millisecond})
		rec := storetest.NewRecord("wc", "gomoku", 1024)
		if err := one.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		next := storetest.Next(rec)
		if err := one.Update(ctx, next, rec.Version); err != nil {
			t.Fatal(err)
		}
		// The same write again: the stored stateID is the one it writes.
		if err := one.Update(ctx, next, rec.Version); !errors.Is(err, rooms.ErrConflict) {
			t.Errorf("Update again with WaitReplicas 1: %v, want ErrConflict (the replica has it)", err)
		}
		start := time.Now()
		err := two.Update(ctx, next, rec.Version)
		checkShort(t, "Update again with WaitReplicas 2", err, start, 200*time.Millisecond)
		// A conflict with another stateID is one, short wait or not.
		later := storetest.Next(next)
		later.Version++
		if err := two.Update(ctx, later, rec.Version); !errors.Is(err, rooms.ErrConflict) {
			t.Errorf("Update from a stale stateID with WaitReplicas 2: %v, want ErrConflict", err)
		}
	})
}

// checkShort checks err is a short wait's: ErrUnavailable, a
// *redisstore.ShortError counting 1 of 2 replicas, a message that says
// so, after the timeout.
func checkShort(t *testing.T, op string, err error, start time.Time, timeout time.Duration) {
	t.Helper()
	if !errors.Is(err, rooms.ErrUnavailable) {
		t.Fatalf("%s: %v, want ErrUnavailable", op, err)
	}
	var short *redisstore.ShortError
	if !errors.As(err, &short) || short.Replicas != 1 || short.Want != 2 {
		t.Errorf("%s: %v (%+v), want a ShortError of 1 replica of 2", op, err, short)
	}
	if msg := err.Error(); !strings.Contains(msg, "not known durable") || !strings.Contains(msg, "1 of 2 replicas") {
		t.Errorf("%s: %q does not say the write is not known durable, 1 of 2 replicas", op, msg)
	}
	if d := time.Since(start); d < timeout {
		t.Errorf("%s failed after %v, before the wait's timeout %v", op, d, timeout)
	}
	t.Logf("%s: %v", op, err)
}

// TestWaitOptions: bad wait options are refused by New with a message
// that names them; WaitAOF is refused by a server without WAITAOF (Redis
// before 7.2) or without appendonly.
func TestWaitOptions(t *testing.T) {
	r := redistest.StartReplicated(t, 0)
	for _, tc := range []struct {
		name    string
		o       redisstore.Options
		mention string
	}{
		{"NegativeReplicas", redisstore.Options{WaitReplicas: -1}, "WaitReplicas"},
		{"NegativeTimeout", redisstore.Options{WaitReplicas: 1, WaitTimeout: -time.Second}, "WaitTimeout"},
		{"TinyTimeout", redisstore.Options{WaitReplicas: 1, WaitTimeout: time.Microsecond}, "WaitTimeout"},
		{"PastReadTimeout", redisstore.Options{WaitReplicas: 1, WaitTimeout: 10 * time.Second}, "read timeout"},
		{"AOF", redisstore.Options{WaitAOF: true}, "WAITAOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.o.URL = r.URL
			s, err := redisstore.New(context.Background(), tc.o)
			if err == nil {
				s.Close()
				t.Fatal("New succeeded")
			}
			if !strings.Contains(err.Error(), tc.mention) {
				t.Errorf("New: %q does not mention %q", err, tc.mention)
			}
			t.Logf("New: %v", err)
		})
	}
	// A long wait is fine once the client's read timeout allows it.
	o := redisstore.Options{URL: r.URL + "?read_timeout=13s", WaitReplicas: 1, WaitTimeout: 10 * time.Second}
	if s, err := redisstore.New(context.Background(), o); err != nil {
		t.Errorf("New with read_timeout=13s and WaitTimeout 10s: %v", err)
	} else {
		s.Close()
	}
}

// TestWaitStore runs the store suite with WaitReplicas 1 on a master with
// a replica: waiting changes nothing else.
func TestWaitStore(t *testing.T) {
	r := redistest.StartReplicated(t, 1)
	storetest.Run(t, func(t *testing.T) rooms.Store {
		return open(t, redisstore.Options{URL: r.URL, Prefix: redistest.Prefix(t, r.URL), WaitReplicas: 1})
	})
}

// TestClusterWait runs the store suite with WaitReplicas 1 on a Redis
// Cluster, then many matches updated at once (on every master: each batch
// is split by master, a WAIT behind each part), and checks that
// WaitReplicas 2, one more than each master has, fails with a ShortError.
func TestClusterWait(t *testing.T) {
	c := redistest.StartCluster(t)
	ctx := context.Background()
	t.Run("Store", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) rooms.Store {
			return open(t, redisstore.Options{URL: c.URL, Prefix: redistest.Prefix(t, c.URL), WaitReplicas: 1})
		})
	})
	t.Run("Parallel", func(t *testing.T) {
		prefix := redistest.Prefix(t, c.URL)
		s := open(t, redisstore.Options{URL: c.URL, Prefix: prefix, WaitReplicas: 1})
		masters := map[string]bool{}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for g := range 24 {
			wg.Go(func() {
				rec := storetest.NewRecord(fmt.Sprintf("par%d", g), "gomoku", 1024)
				if err := s.Create(ctx, rec); err != nil {
					t.Error(err)
					return
				}
				for range 10 {
					next := storetest.Next(rec)
					if err := s.Update(ctx, next, rec.Version); err != nil {
						t.Error(err)
						return
					}
					rec = next
				}
				mu.Lock()
				masters[c.MasterOf(t, prefix+":{"+rec.ID+"}:rec")] = true
				mu.Unlock()
			})
		}
		wg.Wait()
		if len(masters) < 2 {
			t.Errorf("the matches landed on %d masters, want several", len(masters))
		}
	})
	t.Run("Two", func(t *testing.T) {
		prefix := redistest.Prefix(t, c.URL)
		rec := storetest.NewRecord("w2", "gomoku", 1024)
		if err := open(t, redisstore.Options{URL: c.URL, Prefix: prefix}).Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		s := open(t, redisstore.Options{URL: c.URL, Prefix: prefix, WaitReplicas: 2, WaitTimeout: 200 * time.Millisecond})
		start := time.Now()
		checkShort(t, "Update", s.Update(ctx, storetest.Next(rec), rec.Version), start, 200*time.Millisecond)
	})
}

// BenchmarkUpdateWait measures Update on a master with one replica, the
// option off and WaitReplicas 1: latency one Update at a time (Serial),
// and writes per second with 8 goroutines per core updating matches of
// their own (Parallel; writes/s is 1e9 over ns/op).
func BenchmarkUpdateWait(b *testing.B) {
	r := redistest.StartReplicated(b, 1)
	for _, bc := range []struct {
		name string
		wait int
	}{{"Off", 0}, {"WaitReplicas1", 1}} {
		// Each run of a benchmark function has a prefix of its own.
		store := func(b *testing.B) *redisstore.Store {
			return open(b, redisstore.Options{URL: r.URL, Prefix: redistest.Prefix(b, r.URL), WaitReplicas: bc.wait})
		}
		b.Run(bc.name+"/Serial", func(b *testing.B) { storetest.BenchUpdate(b, store(b)) })
		b.Run(bc.name+"/Parallel", func(b *testing.B) {
			b.SetParallelism(8)
			storetest.BenchUpdateParallel(b, store(b))
		})
	}
}
