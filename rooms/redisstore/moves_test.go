package redisstore_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestMovesLayout: a chunk of moves is field m:<k> of the match's record
// hash, so it is in the match's slot and shares the record's TTL, which
// an Update renews; Get reads the rec field alone.
func TestMovesLayout(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	clock := storetest.NewClock()
	s := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: time.Hour, Now: clock.Now})
	c := client(t, url)
	rec := storetest.NewRecord("m1", "gomoku", 500)
	if err := s.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if err := s.PutMoves(ctx, "m1", 3, []byte(`{"first":3072,"moves":[]}`)); err != nil {
		t.Fatal(err)
	}
	key := prefix + ":{m1}:rec"
	fields, err := c.HKeys(ctx, key).Result()
	slices.Sort(fields)
	if err != nil || !slices.Equal(fields, []string{"m:3", "rec", "sid"}) {
		t.Fatalf("HKEYS %s = %v, %v; want m:3, rec, sid", key, fields, err)
	}
	if v, _ := c.HGet(ctx, key, "m:3").Result(); v != `{"first":3072,"moves":[]}` {
		t.Fatalf("HGET %s m:3 = %q", key, v)
	}
	// An Update that renews the TTL (the last renewal, at Create, is an
	// eighth of it ago) renews it for the whole hash, chunk included.
	c.PExpire(ctx, key, time.Minute)
	clock.Advance(time.Hour / 8)
	if err := s.Update(ctx, storetest.Next(rec), rec.Version); err != nil {
		t.Fatal(err)
	}
	if ttl, _ := c.PTTL(ctx, key).Result(); ttl < 59*time.Minute {
		t.Fatalf("PTTL %s = %v after an Update; want the store's hour", key, ttl)
	}
	if v, _ := c.HGet(ctx, key, "m:3").Result(); v == "" {
		t.Fatal("the Update dropped the chunk")
	}
	got, err := s.Get(ctx, "m1")
	if err != nil || got.Version != 2 {
		t.Fatalf("Get: %v, %v", got, err)
	}
	// No chunk makes a hash of its own for a match that is gone.
	if err := s.PutMoves(ctx, "gone", 0, []byte(`[]`)); err == nil {
		t.Fatal("PutMoves on a missing match succeeded")
	}
	if n, _ := c.Exists(ctx, prefix+":{gone}:rec").Result(); n != 0 {
		t.Fatal("PutMoves made a hash for a missing match")
	}
}
