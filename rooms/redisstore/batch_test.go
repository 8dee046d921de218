package redisstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// tripCounter counts round trips (a single command or a pipeline) and the
// EVALSHAs they carry. While hold is open the first round trip waits for it,
// so that the commands issued meanwhile queue up behind it.
type tripCounter struct {
	mu       sync.Mutex
	trips    int
	evalshas int
	hold     chan struct{}
	held     bool
}

func (c *tripCounter) note(cmds []redis.Cmder) {
	c.mu.Lock()
	c.trips++
	for _, cmd := range cmds {
		if cmd.Name() == "evalsha" {
			c.evalshas++
		}
	}
	wait := c.hold != nil && !c.held
	c.held = c.held || wait
	c.mu.Unlock()
	if wait {
		<-c.hold
	}
}

func (c *tripCounter) DialHook(next redis.DialHook) redis.DialHook { return next }

func (c *tripCounter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.note([]redis.Cmder{cmd})
		return next(ctx, cmd)
	}
}

func (c *tripCounter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.note(cmds)
		return next(ctx, cmds)
	}
}

// TestUpdatesShareRoundTrips: Updates of many matches issued while the
// store waits for Redis leave together in pipelines, yet each is still
// exactly one EVALSHA and each lands (or conflicts) on its own.
func TestUpdatesShareRoundTrips(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	c := client(t, url)
	s := open(t, redisstore.Options{Client: c, Prefix: redistest.Prefix(t, url), Pipelines: 1})
	const n = 200
	recs := make([]*rooms.Record, n)
	for i := range recs {
		recs[i] = storetest.NewRecord(fmt.Sprintf("batched%d", i), "gomoku", 300)
		if err := s.Create(ctx, recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	hook := &tripCounter{hold: make(chan struct{})}
	c.AddHook(hook)

	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range recs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			prev := recs[i].Version
			if i%10 == 9 {
				prev-- // a stale writer: must conflict, alone
			}
			errs[i] = s.Update(ctx, storetest.Next(recs[i]), prev)
		}()
	}
	// The first round trip is held until every Update had time to queue.
	time.Sleep(300 * time.Millisecond)
	close(hook.hold)
	wg.Wait()
	hook.mu.Lock()
	trips, evalshas := hook.trips, hook.evalshas
	hook.mu.Unlock()

	for i, err := range errs {
		switch {
		case i%10 == 9 && !errors.Is(err, rooms.ErrConflict):
			t.Errorf("stale Update of %s: %v, want ErrConflict", recs[i].ID, err)
		case i%10 != 9 && err != nil:
			t.Errorf("Update of %s: %v", recs[i].ID, err)
		}
		got, err := s.Get(ctx, recs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		want := recs[i].Version + 1
		if i%10 == 9 {
			want = recs[i].Version
		}
		if got.Version != want {
			t.Errorf("%s is at version %d, want %d", recs[i].ID, got.Version, want)
		}
	}
	if evalshas != n {
		t.Errorf("%d EVALSHAs for %d Updates, want exactly one each", evalshas, n)
	}
	// One held round trip, then the queue (up to 256 commands) in one or
	// two more; allow some slack for a slow scheduler.
	if trips > 10 {
		t.Errorf("%d round trips for %d concurrent Updates: they were not pipelined", trips, n)
	}
	t.Logf("%d Updates in %d round trips", n, trips)
}

// TestUpdateAfterScriptFlush: when Redis lost the cached script (SCRIPT
// FLUSH, a failover), Update falls back to EVAL and succeeds, and the
// next Update is an EVALSHA again.
func TestUpdateAfterScriptFlush(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	c := client(t, url)
	s := open(t, redisstore.Options{Client: c, Prefix: redistest.Prefix(t, url)})
	rec := storetest.NewRecord("flushed", "gomoku", 300)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := c.ScriptFlush(ctx).Err(); err != nil {
		t.Fatal(err)
	}
	next := storetest.Next(rec)
	if err := s.Update(ctx, next, rec.Version); err != nil {
		t.Fatalf("Update after SCRIPT FLUSH: %v", err)
	}
	if err := s.Update(ctx, storetest.Next(next), rec.Version); !errors.Is(err, rooms.ErrConflict) {
		t.Fatalf("stale Update after SCRIPT FLUSH: %v, want ErrConflict", err)
	}
	third := storetest.Next(next)
	if err := s.Update(ctx, third, next.Version); err != nil {
		t.Fatalf("second Update after SCRIPT FLUSH: %v", err)
	}
	got, err := s.Get(ctx, rec.ID)
	if err != nil || got.Version != third.Version {
		t.Fatalf("Get = %v, %v; want stateID %d", got, err, third.Version)
	}
}
