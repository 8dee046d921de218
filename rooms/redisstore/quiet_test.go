package redisstore_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// quietStep writes the successor of *rec: quietly as name when name is
// set, else with UpdateEncoded.
func quietStep(t *testing.T, s *redisstore.Store, rec **rooms.Record, name string) {
	t.Helper()
	next := storetest.Next(*rec)
	data, err := rooms.EncodeRecord(next)
	if err != nil {
		t.Fatal(err)
	}
	if name != "" {
		err = s.UpdateQuiet(context.Background(), next, data, (*rec).Version, name)
	} else {
		err = s.UpdateEncoded(context.Background(), next, data, (*rec).Version)
	}
	if err != nil {
		t.Fatalf("update to version %d: %v", next.Version, err)
	}
	*rec = next
}

// wantVersion fails t unless the next event on events announces version.
// Events come in order, so getting version first proves every quiet write
// before it was left out for this subscriber.
func wantVersion(t *testing.T, events <-chan rooms.Event, who string, version int64) {
	t.Helper()
	if ev := storetest.NextEvent(t, events, who); ev.RecordVersion() != version {
		t.Fatalf("%s got %+v; want the event of version %d", who, ev, version)
	}
}

// TestQuietUpdate: a quiet write leaves out its notice exactly when the
// writer's subscription is the match's only one: another subscriber of
// the same process or of another process, or a subscriber that named
// itself nowhere (a raw SUBSCRIBE, an earlier version of this store), still
// gets every write. The registry holds the subscribers' names, with the
// record's TTL, and loses them when they cancel.
func TestQuietUpdate(t *testing.T) {
	ctx := context.Background()
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	const ttl = time.Hour
	a := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: ttl})
	b := open(t, redisstore.Options{URL: url, Prefix: prefix, TTL: ttl}) // another process
	c := client(t, url)
	reg := prefix + ":{m1}:subs"
	members := func(want ...string) {
		t.Helper()
		got, err := c.SMembers(ctx, reg).Result()
		slices.Sort(got)
		slices.Sort(want)
		if err != nil || !slices.Equal(got, want) {
			t.Fatalf("SMEMBERS %s = %q, %v; want %q", reg, got, err, want)
		}
	}

	rec := storetest.NewRecord("m1", "gomoku", 500)
	if err := a.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	evA, cancelA, nameA, err := a.SubscribeNamed(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	defer cancelA()
	if nameA == "" {
		t.Fatal("SubscribeNamed gave no name")
	}
	members(nameA)
	if d, err := c.PTTL(ctx, reg).Result(); err != nil || d <= ttl-time.Minute || d > ttl {
		t.Fatalf("PTTL %s = %v, %v; want about %v", reg, d, err, ttl)
	}

	// Alone: the quiet write's notice is left out, a plain one's is not.
	quietStep(t, a, &rec, nameA)
	quietStep(t, a, &rec, "")
	wantVersion(t, evA, "the writer alone", rec.Version)
	// Another name than the registry's one: published.
	quietStep(t, a, &rec, "someone-else")
	wantVersion(t, evA, "the writer, named wrongly", rec.Version)

	// A second subscriber in another process: both get the quiet write.
	evB, cancelB, err := b.Subscribe(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := c.SCard(ctx, reg).Result(); got != 2 {
		t.Fatalf("SCARD %s = %d after a second Subscribe; want 2", reg, got)
	}
	quietStep(t, a, &rec, nameA)
	wantVersion(t, evA, "the writer beside another process", rec.Version)
	wantVersion(t, evB, "the other process", rec.Version)
	cancelB()
	members(nameA)

	// A second subscriber in the same process: one connection, two names.
	evA2, cancelA2, nameA2, err := a.SubscribeNamed(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	members(nameA, nameA2)
	quietStep(t, a, &rec, nameA)
	wantVersion(t, evA2, "the same process's other subscriber", rec.Version)
	wantVersion(t, evA, "the writer beside a subscriber of its process", rec.Version)
	cancelA2()
	members(nameA)

	// A subscriber that named itself nowhere (a raw SUBSCRIBE).
	raw := c.Subscribe(ctx, prefix+":{m1}:events")
	if _, err := raw.Receive(ctx); err != nil { // the confirmation
		t.Fatal(err)
	}
	quietStep(t, a, &rec, nameA)
	msg, err := raw.ReceiveMessage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`{"stateID":%d,"record":{`, rec.Version); !strings.HasPrefix(msg.Payload, want) {
		t.Fatalf("the raw subscriber got %.80s; want %s…", msg.Payload, want)
	}
	wantVersion(t, evA, "the writer beside a raw subscriber", rec.Version)
	raw.Close()

	// Alone again once the raw subscriber is gone.
	for {
		n, err := c.PubSubNumSub(ctx, prefix+":{m1}:events").Result()
		if err != nil {
			t.Fatal(err)
		}
		if n[prefix+":{m1}:events"] == 1 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	quietStep(t, a, &rec, nameA)
	quietStep(t, a, &rec, "")
	wantVersion(t, evA, "the writer alone again", rec.Version)

	// The last name gone, the registry is gone.
	cancelA()
	if n, err := c.Exists(ctx, reg).Result(); err != nil || n != 0 {
		t.Fatalf("EXISTS %s after every cancel = %d, %v; want 0", reg, n, err)
	}
}

// TestQuietAfterOutage: after the connection is lost and made again, the
// hub writes its subscribers' names in the registry before their resync
// (a failover may have lost them), so a quiet write still reaches a
// subscriber of the writer's own process. miniredis's Restart drops every
// connection and keeps the data; the registry is deleted in between, as a
// failover to a replica that had not got it would.
func TestQuietAfterOutage(t *testing.T) {
	ctx := context.Background()
	m, s := onMiniredis(t)
	rec, events := subscribed(t, s) // a plain subscriber
	writer, cancel, name, err := s.SubscribeNamed(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	reg := "chaguan:{m1}:subs"
	names, err := m.Members(reg)
	if err != nil || len(names) != 2 {
		t.Fatalf("registry %s = %q, %v; want two names", reg, names, err)
	}

	m.Close()
	m.Del(reg)
	if err := m.Restart(); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []struct {
		who string
		ch  <-chan rooms.Event
	}{{"the plain subscriber", events}, {"the writer", writer}} {
		for ev := storetest.NextEvent(t, sub.ch, sub.who); !ev.Resync; ev = storetest.NextEvent(t, sub.ch, sub.who) {
		}
	}
	got, err := m.Members(reg)
	slices.Sort(got)
	slices.Sort(names)
	if err != nil || !slices.Equal(got, names) {
		t.Fatalf("registry after the resync = %q, %v; want %q again", got, err, names)
	}
	quietStep(t, s, &rec, name)
	wantVersion(t, events, "the plain subscriber after the outage", rec.Version)
}
