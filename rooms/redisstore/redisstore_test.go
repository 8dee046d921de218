package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// open returns a store on url under prefix, closed at the end of t.
func open(t testing.TB, o redisstore.Options) *redisstore.Store {
	t.Helper()
	s, err := redisstore.New(context.Background(), o)
	if err != nil {
		t.Fatalf("redisstore.New: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// client returns a plain client on url, closed at the end of t.
func client(t testing.TB, url string) *redis.Client {
	t.Helper()
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	return c
}

func TestStore(t *testing.T) {
	url := redistest.URL(t)
	storetest.Run(t, func(t *testing.T) rooms.Store {
		return open(t, redisstore.Options{URL: url, Prefix: redistest.Prefix(t, url)})
	})
}

func TestShared(t *testing.T) {
	url := redistest.URL(t)
	storetest.RunShared(t, func(t *testing.T) (rooms.Store, rooms.Store) {
		prefix := redistest.Prefix(t, url)
		return open(t, redisstore.Options{URL: url, Prefix: prefix}),
			open(t, redisstore.Options{URL: url, Prefix: prefix})
	})
}

// TestExpiry uses miniredis's clock when it is the backend; a real server
// gets a 1 s TTL and real sleeps.
func TestExpiry(t *testing.T) {
	srv := redistest.Start(t)
	storetest.RunExpiry(t, func(t *testing.T) storetest.Expiring {
		o := redisstore.Options{URL: srv.URL, Prefix: redistest.Prefix(t, srv.URL)}
		if srv.Mini != nil {
			clock := storetest.NewClock()
			o.TTL, o.Now = time.Hour, clock.Now
			return storetest.Expiring{Store: open(t, o), TTL: o.TTL, Exact: true,
				Advance: func(d time.Duration) { clock.Advance(d); srv.Mini.FastForward(d) }}
		}
		o.TTL = time.Second
		return storetest.Expiring{Store: open(t, o), TTL: o.TTL, Advance: time.Sleep}
	})
}

func BenchmarkUpdate(b *testing.B) {
	url := redistest.URL(b)
	s := open(b, redisstore.Options{URL: url, Prefix: redistest.Prefix(b, url)})
	storetest.BenchUpdate(b, s)
}

func BenchmarkUpdateParallel(b *testing.B) {
	url := redistest.URL(b)
	s := open(b, redisstore.Options{URL: url, Prefix: redistest.Prefix(b, url)})
	b.SetParallelism(8) // Redis round trips wait on the network, not the CPU
	storetest.BenchUpdateParallel(b, s)
}

func FuzzStore(f *testing.F) {
	url := redistest.URL(f)
	s := open(f, redisstore.Options{URL: url, Prefix: redistest.Prefix(f, url)})
	storetest.Fuzz(f, s)
}

// BenchmarkUpdateDelivered: Update in one store instance, event received by
// another, 8 matches in flight per CPU.
func BenchmarkUpdateDelivered(b *testing.B) {
	url := redistest.URL(b)
	prefix := redistest.Prefix(b, url)
	writer := open(b, redisstore.Options{URL: url, Prefix: prefix})
	reader := open(b, redisstore.Options{URL: url, Prefix: prefix})
	b.SetParallelism(8)
	storetest.BenchUpdateDelivered(b, writer, reader)
}
