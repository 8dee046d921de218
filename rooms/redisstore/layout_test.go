package redisstore_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestKeyLayout checks the documented keys and channel under a custom
// prefix, as another implementation (or an operator with redis-cli) sees
// them.
func TestKeyLayout(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	s := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: time.Hour})
	c := client(t, url)
	raw := c.Subscribe(ctx, prefix+":{m1}:events")
	t.Cleanup(func() { raw.Close() })
	if _, err := raw.Receive(ctx); err != nil { // the subscription's confirmation
		t.Fatal(err)
	}
	rec := storetest.NewRecord("m1", "gomoku", 500)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	next := storetest.Next(rec)
	if err := s.Update(ctx, next, rec.Version); err != nil {
		t.Fatal(err)
	}
	key := prefix + ":{m1}:rec"
	fields, err := c.HGetAll(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	if fields["sid"] != "2" {
		t.Errorf("HGET %s sid = %q, want \"2\"", key, fields["sid"])
	}
	var stored rooms.Record
	if err := json.Unmarshal([]byte(fields["rec"]), &stored); err != nil || stored.Version != 2 {
		t.Errorf("HGET %s rec: version %d, %v; want the record at version 2", key, stored.Version, err)
	}
	if score, err := c.ZScore(ctx, prefix+":games:gomoku", "m1").Result(); err != nil || score <= 0 {
		t.Errorf("ZSCORE %s:games:gomoku m1 = %v, %v; want a creation time", prefix, score, err)
	}
	msg, err := raw.ReceiveMessage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Payload != `{"stateID":2}` {
		t.Fatalf("event on %s = %.80s; want the notice {\"stateID\":2}", msg.Channel, msg.Payload)
	}
	// A second subscribed connection (another process's viewers): the
	// event now carries the record, so neither has to read it.
	raw2 := c.Subscribe(ctx, prefix+":{m1}:events")
	t.Cleanup(func() { raw2.Close() })
	if _, err := raw2.Receive(ctx); err != nil {
		t.Fatal(err)
	}
	if err := s.Update(ctx, storetest.Next(next), next.Version); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []*redis.PubSub{raw, raw2} {
		msg, err := sub.ReceiveMessage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var ev rooms.Event
		if !strings.HasPrefix(msg.Payload, `{"stateID":3,"record":{`) {
			t.Fatalf("event with two subscribers = %.80s; want the stateID, then the record", msg.Payload)
		}
		if err := json.Unmarshal([]byte(msg.Payload), &ev); err != nil || ev.Record == nil || ev.Record.Version != 3 {
			t.Fatalf("event with two subscribers = %.200s (%v); want the record at version 3", msg.Payload, err)
		}
	}
	if keys, err := c.Keys(ctx, prefix+":*").Result(); err != nil || len(keys) != 2 {
		t.Errorf("keys under %s: %v, %v; want the record and the index only", prefix, keys, err)
	}
}

// TestTTL: Create sets the record's TTL; an Update renews it when this
// process last did so TTL/8 ago or more, and leaves it otherwise (two
// PEXPIREs spared on almost every move); the index has none.
func TestTTL(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	const ttl = time.Hour
	clock := storetest.NewClock()
	s := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: ttl, Now: clock.Now})
	c := client(t, url)
	key := prefix + ":{m1}:rec"
	pttl := func() time.Duration {
		t.Helper()
		d, err := c.PTTL(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	check := func(after string) {
		t.Helper()
		if d := pttl(); d <= ttl-time.Minute || d > ttl {
			t.Fatalf("PTTL %s after %s = %v; want about %v", key, after, d, ttl)
		}
	}
	rec := storetest.NewRecord("m1", "gomoku", 500)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	check("Create")
	shorten := func() {
		t.Helper()
		if err := c.PExpire(ctx, key, 5*time.Minute).Err(); err != nil {
			t.Fatal(err)
		}
	}
	update := func() {
		t.Helper()
		next := storetest.Next(rec)
		if err := s.Update(ctx, next, rec.Version); err != nil {
			t.Fatal(err)
		}
		rec = next
	}
	// Renewed at Create: an Update within TTL/8 leaves the TTL.
	shorten()
	clock.Advance(ttl/8 - time.Second)
	update()
	if d := pttl(); d > 5*time.Minute {
		t.Fatalf("PTTL %s after an Update %v after Create = %v; want the 5m left", key, ttl/8-time.Second, d)
	}
	// TTL/8 after: renewed.
	clock.Advance(time.Second)
	update()
	check("Update TTL/8 after Create")
	shorten()
	update()
	if d := pttl(); d > 5*time.Minute {
		t.Fatalf("PTTL %s after an Update right after a renewal = %v; want the 5m left", key, d)
	}
	clock.Advance(ttl / 8)
	update()
	check("Update TTL/8 after the last renewal")
	if d, err := c.PTTL(ctx, prefix+":games:gomoku").Result(); err != nil || d >= 0 {
		t.Fatalf("PTTL of the index = %v, %v; want none (-1)", d, err)
	}
}

// TestIndexCleanup: List drops from the index the IDs whose records are
// gone, but only once they are older than the TTL (a younger one may be a
// Create in progress); live records stay however old.
func TestIndexCleanup(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	clock := storetest.NewClock()
	const ttl = time.Hour
	s := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: ttl, Now: clock.Now})
	c := client(t, url)
	index := prefix + ":games:gomoku"
	for _, id := range []string{"live", "gone"} {
		if err := s.Create(ctx, storetest.NewRecord(id, "gomoku", 300)); err != nil {
			t.Fatal(err)
		}
	}
	if err := c.Del(ctx, prefix+":{gone}:rec").Err(); err != nil { // as if expired
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		advance time.Duration
		indexed []string
	}{
		{"YoungerThanTTL", ttl - time.Second, []string{"gone", "live"}},
		{"OlderThanTTL", 2 * time.Second, []string{"live"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock.Advance(tc.advance)
			recs, err := s.List(ctx, "gomoku")
			if err != nil || len(recs) != 1 || recs[0].ID != "live" {
				t.Fatalf("List = %v, %v; want [live]", recs, err)
			}
			ids, err := c.ZRange(ctx, index, 0, -1).Result()
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(ids) != fmt.Sprint(tc.indexed) {
				t.Fatalf("index holds %v, want %v", ids, tc.indexed)
			}
		})
	}
}

// counter is a go-redis hook counting round trips: one per command, one
// per pipeline (and it notes dials, which should not happen while counting).
type counter struct {
	mu   sync.Mutex
	sent []string
}

func (c *counter) DialHook(next redis.DialHook) redis.DialHook {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c.mu.Lock()
		c.sent = append(c.sent, "dial")
		c.mu.Unlock()
		return next(ctx, network, addr)
	}
}

func (c *counter) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		c.mu.Lock()
		c.sent = append(c.sent, cmd.Name())
		c.mu.Unlock()
		return next(ctx, cmd)
	}
}

func (c *counter) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		c.mu.Lock()
		c.sent = append(c.sent, "pipeline")
		c.mu.Unlock()
		return next(ctx, cmds)
	}
}

func (c *counter) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.sent
	c.sent = nil
	return s
}

// TestRoundTrips counts the commands each operation sends: an Update, won
// or lost, is exactly one (List is one ZRANGE and one pipeline per 256
// records).
func TestRoundTrips(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	opt.PoolSize = 1 // one connection, set up before counting starts
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	hook := &counter{}
	c.AddHook(hook)
	s := open(t, redisstore.Options{Client: c, Prefix: redistest.Prefix(t, url)})
	rec := storetest.NewRecord("m1", "gomoku", 3000)
	next := storetest.Next(rec)
	// go-redis dials a connection for its first pipeline: open it now.
	if _, err := c.Pipelined(ctx, func(p redis.Pipeliner) error { return p.Ping(ctx).Err() }); err != nil {
		t.Fatal(err)
	}
	hook.take()
	for _, tc := range []struct {
		name string
		call func() error
		want int
	}{
		{"Create", func() error { return s.Create(ctx, rec) }, 2},
		{"Get", func() error { _, err := s.Get(ctx, "m1"); return err }, 1},
		{"Update", func() error { return s.Update(ctx, next, rec.Version) }, 1},
		{"UpdateConflict", func() error {
			if err := s.Update(ctx, storetest.Next(next), rec.Version); !errors.Is(err, rooms.ErrConflict) {
				return err
			}
			return nil
		}, 1},
		{"Publish", func() error {
			return s.Publish(ctx, "m1", rooms.Event{Chat: &protocol.Chat{Type: protocol.TypeChat, Text: "hi"}})
		}, 1},
		{"List", func() error { _, err := s.List(ctx, "gomoku"); return err }, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.call(); err != nil {
				t.Fatal(err)
			}
			if got := hook.take(); len(got) != tc.want {
				t.Fatalf("sent %v: %d round trips, want %d", got, len(got), tc.want)
			}
		})
	}
}

// TestOneConnection: a store's subscribers share one pub/sub connection; a
// match's channel is subscribed once however many local subscribers it has,
// and unsubscribed when the last one cancels.
func TestOneConnection(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	s := open(t, redisstore.Options{URL: url, Prefix: prefix})
	admin := client(t, url)
	numsub := func(id string) int64 {
		t.Helper()
		n, err := admin.PubSubNumSub(ctx, prefix+":{"+id+"}:events").Result()
		if err != nil {
			t.Fatal(err)
		}
		return n[prefix+":{"+id+"}:events"]
	}
	var cancels []func()
	for _, id := range []string{"a", "a", "a", "b"} {
		_, cancel, err := s.Subscribe(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		cancels = append(cancels, cancel)
	}
	if a, b := numsub("a"), numsub("b"); a != 1 || b != 1 {
		t.Fatalf("NUMSUB a = %d, b = %d; want 1 each: subscribed once however many local subscribers", a, b)
	}
	cancels[0]()
	cancels[1]()
	if a := numsub("a"); a != 1 {
		t.Fatalf("NUMSUB a = %d with one local subscriber left, want 1", a)
	}
	cancels[2]()
	// UNSUBSCRIBE is sent without waiting for its reply: poll.
	deadline := time.Now().Add(10 * time.Second)
	for numsub("a") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("channel a still subscribed 10 s after its last subscriber cancelled")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if b := numsub("b"); b != 1 {
		t.Fatalf("NUMSUB b = %d after a's subscribers left, want 1", b)
	}
	cancels[3]()
}
