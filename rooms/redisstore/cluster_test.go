package redisstore_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestCluster runs the store's suites on a local Redis Cluster (three
// masters, a replica each) through go-redis's cluster client, each store
// with a client of its own as separate processes have: the conformance
// suite, two stores sharing matches (events across processes), expiry,
// liveness, and the sharded pub/sub the store uses there.
func TestCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	openOn := func(t *testing.T, prefix string) *redisstore.Store {
		return open(t, redisstore.Options{URL: c.URL, Prefix: prefix})
	}
	t.Run("Store", func(t *testing.T) {
		storetest.Run(t, func(t *testing.T) rooms.Store { return openOn(t, redistest.Prefix(t, c.URL)) })
	})
	t.Run("Shared", func(t *testing.T) {
		storetest.RunShared(t, func(t *testing.T) (rooms.Store, rooms.Store) {
			prefix := redistest.Prefix(t, c.URL)
			return openOn(t, prefix), openOn(t, prefix)
		})
	})
	t.Run("Expiry", func(t *testing.T) {
		storetest.RunExpiry(t, func(t *testing.T) storetest.Expiring {
			o := redisstore.Options{URL: c.URL, Prefix: redistest.Prefix(t, c.URL), TTL: time.Second}
			return storetest.Expiring{Store: open(t, o), TTL: o.TTL, Advance: time.Sleep}
		})
	})
	t.Run("Liveness", func(t *testing.T) { testLiveness(t, c.URL) })
	t.Run("Sharded", func(t *testing.T) { testSharded(t, c) })
	t.Run("Where", func(t *testing.T) {
		if got := openOn(t, redistest.Prefix(t, c.URL)).Where(); got != "Redis Cluster "+strings.Join(c.Addrs, ",") {
			t.Errorf("Where() = %q", got)
		}
	})
}

// testSharded: on a cluster every key and the channel of a match share
// one slot; Update publishes on the sharded channel (SPUBLISH), which an
// SSUBSCRIBE on the slot's master receives and a plain SUBSCRIBE does not;
// with two sharded subscribers the event carries the record (the script's
// PUBSUB SHARDNUMSUB counted them). The matches land on several masters.
func testSharded(t *testing.T, c *redistest.Cluster) {
	ctx := context.Background()
	prefix := redistest.Prefix(t, c.URL)
	s := open(t, redisstore.Options{URL: c.URL, Prefix: prefix})
	cc := c.Client(t)
	masters := map[string]bool{}
	for _, id := range []string{"m1", "m2", "m3", "m4", "m5", "m6"} {
		rec := storetest.NewRecord(id, "gomoku", 100)
		if err := s.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		key, channel := prefix+":{"+id+"}:rec", prefix+":{"+id+"}:events"
		for _, name := range []string{key, channel} {
			if slot, err := cc.ClusterKeySlot(ctx, name).Result(); err != nil || int(slot) != redisstore.Slot(key) {
				t.Fatalf("CLUSTER KEYSLOT %s = %d, %v; want %d, the slot of %s", name, slot, err, redisstore.Slot(key), key)
			}
		}
		masters[c.MasterOf(t, key)] = true

		sharded := subscribeRaw(t, cc.SSubscribe(ctx, channel))
		plain := subscribeRaw(t, cc.Subscribe(ctx, channel))
		next := storetest.Next(rec)
		if err := s.Update(ctx, next, rec.Version); err != nil {
			t.Fatal(err)
		}
		if msg := receive(t, sharded); msg.Payload != `{"stateID":2}` {
			t.Fatalf("SSUBSCRIBE %s got %.80s; want the notice {\"stateID\":2}", channel, msg.Payload)
		}
		// The plain subscriber's first message must be this marker, not
		// the update: the store published nothing with PUBLISH.
		if err := cc.Publish(ctx, channel, "marker").Err(); err != nil {
			t.Fatal(err)
		}
		if msg := receive(t, plain); msg.Payload != "marker" {
			t.Fatalf("SUBSCRIBE %s got %.80s: the store used PUBLISH on a cluster", channel, msg.Payload)
		}
		second := subscribeRaw(t, cc.SSubscribe(ctx, channel))
		if err := s.Update(ctx, storetest.Next(next), next.Version); err != nil {
			t.Fatal(err)
		}
		for _, sub := range []*redis.PubSub{sharded, second} {
			if msg := receive(t, sub); !strings.HasPrefix(msg.Payload, `{"stateID":3,"record":{`) {
				t.Fatalf("with two sharded subscribers got %.80s; want the event with the record", msg.Payload)
			}
		}
	}
	if len(masters) < 2 {
		t.Errorf("the matches all landed on %v: the test shows nothing across nodes", masters)
	}
}

// subscribeRaw waits for Redis to confirm sub's subscription and closes it
// when t ends.
func subscribeRaw(t *testing.T, sub *redis.PubSub) *redis.PubSub {
	t.Helper()
	t.Cleanup(func() { sub.Close() })
	if _, err := sub.Receive(context.Background()); err != nil {
		t.Fatal(err)
	}
	return sub
}

// receive is sub's next message, within a minute (a bound for hangs only).
func receive(t *testing.T, sub *redis.PubSub) *redis.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	msg, err := sub.ReceiveMessage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return msg
}
