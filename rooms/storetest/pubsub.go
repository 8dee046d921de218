package storetest

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// patience bounds every wait for an event. It only turns a hang into a
// failure; nothing here measures speed.
const patience = 10 * time.Second

// subscribe subscribes to id and cancels at the end of the test.
func subscribe(t *testing.T, s rooms.Store, id string) (<-chan rooms.Event, func()) {
	t.Helper()
	events, cancel, err := s.Subscribe(context.Background(), id)
	if err != nil {
		t.Fatalf("Subscribe(%s): %v", id, err)
	}
	t.Cleanup(cancel)
	return events, cancel
}

// NextEvent waits for one event on events, failing t if the channel closes
// or none comes in time.
func NextEvent(t *testing.T, events <-chan rooms.Event, what string) rooms.Event {
	t.Helper()
	select {
	case ev, ok := <-events:
		if !ok {
			t.Fatalf("%s: channel closed", what)
		}
		return ev
	case <-time.After(patience):
		t.Fatalf("%s: no event within %v", what, patience)
	}
	return rooms.Event{}
}

// nextRecord waits for the event of want's Update on s and checks it: a
// record equal to want, or a notice of its stateID whose record s has (or
// a later one: the suite may have written more since).
func nextRecord(t *testing.T, s rooms.Store, events <-chan rooms.Event, want *rooms.Record) {
	t.Helper()
	ev := NextEvent(t, events, "event for stateID "+strconv.FormatInt(want.Version, 10))
	if ev.RecordVersion() != want.Version || ev.Chat != nil {
		t.Fatalf("got event %+v, want only the record at stateID %d", ev, want.Version)
	}
	got, err := ev.Load()
	if err != nil {
		t.Fatalf("event record: %v", err)
	}
	if got == nil { // a notice
		if got, err = s.Get(context.Background(), want.ID); err != nil {
			t.Fatalf("Get after the notice of stateID %d: %v", want.Version, err)
		}
		if got.Version > want.Version {
			return
		}
	}
	sameRecord(t, "event record", got, want)
}

// waitClosed drains events until the channel closes.
func waitClosed(t *testing.T, events <-chan rooms.Event) []rooms.Event {
	t.Helper()
	var got []rooms.Event
	timeout := time.After(patience)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				return got
			}
			got = append(got, ev)
		case <-timeout:
			t.Fatalf("channel still open after %v", patience)
		}
	}
}

// update writes Next(rec) and returns it.
func update(t *testing.T, s rooms.Store, rec *rooms.Record) *rooms.Record {
	t.Helper()
	n := Next(rec)
	if err := s.Update(context.Background(), n, rec.Version); err != nil {
		t.Fatalf("Update to stateID %d: %v", n.Version, err)
	}
	return n
}

func chat(text string) rooms.Event {
	return rooms.Event{Chat: &protocol.Chat{Type: protocol.TypeChat, From: "1", Name: "李四", Text: text, At: 1_700_000_000_123}}
}

func testSubscribeInOrder(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	events, _ := subscribe(t, s, "m1")
	var sent []*rooms.Record
	for range 20 {
		rec = update(t, s, rec)
		sent = append(sent, rec)
	}
	for _, want := range sent {
		nextRecord(t, s, events, want)
	}
}

func testSubscribeChat(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	events, _ := subscribe(t, s, "m1")
	if err := s.Publish(context.Background(), "m1", chat("你好")); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	rec = update(t, s, rec)
	if err := s.Publish(context.Background(), "m1", chat("again")); err != nil {
		t.Fatalf("Publish: %v", err)
	}
	for _, text := range []string{"你好", "", "again"} {
		if text == "" {
			nextRecord(t, s, events, rec)
			continue
		}
		ev := NextEvent(t, events, "chat "+text)
		want := chat(text)
		if ev.RecordVersion() != 0 || ev.Chat == nil || *ev.Chat != *want.Chat {
			t.Fatalf("got event %+v (chat %+v), want chat %+v", ev, ev.Chat, *want.Chat)
		}
	}
}

// testSubscribeOtherMatch: a subscriber sees only its own match's events.
func testSubscribeOtherMatch(t *testing.T, s rooms.Store) {
	a := create(t, s, "a")
	b := create(t, s, "b")
	evA, _ := subscribe(t, s, "a")
	update(t, s, b)
	if err := s.Publish(context.Background(), "b", chat("for b")); err != nil {
		t.Fatal(err)
	}
	a = update(t, s, a)
	nextRecord(t, s, evA, a) // b's events, sent first, would have come first
}

// testSubscribeSharedCancel: with two subscribers of one match, cancelling
// one leaves the other subscribed; subscribing again after both cancelled
// works.
func testSubscribeSharedCancel(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	ev1, cancel1 := subscribe(t, s, "m1")
	ev2, cancel2 := subscribe(t, s, "m1")
	rec = update(t, s, rec)
	nextRecord(t, s, ev1, rec)
	nextRecord(t, s, ev2, rec)
	cancel1()
	rec = update(t, s, rec)
	nextRecord(t, s, ev2, rec)
	cancel2()
	waitClosed(t, ev1)
	waitClosed(t, ev2)
	ev3, _ := subscribe(t, s, "m1")
	rec = update(t, s, rec)
	nextRecord(t, s, ev3, rec)
}

func testCancelStops(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	events, cancel := subscribe(t, s, "m1")
	rec = update(t, s, rec)
	nextRecord(t, s, events, rec)
	cancel()
	cancel() // idempotent
	after := update(t, s, rec)
	for _, ev := range waitClosed(t, events) {
		if ev.RecordVersion() >= after.Version {
			t.Fatalf("got stateID %d after cancel", ev.RecordVersion())
		}
	}
}

func testContextEnds(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	ctx, stop := context.WithCancel(context.Background())
	events, cancel, err := s.Subscribe(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	defer cancel()
	stop()
	waitClosed(t, events)
	update(t, s, rec) // no subscriber left: must not block or fail
	if _, _, err := s.Subscribe(ctx, "m1"); err == nil {
		t.Fatal("Subscribe with an ended context succeeded")
	}
}

// testSlowSubscriber: a subscriber that never reads must not block Update;
// what it does get later is in order.
func testSlowSubscriber(t *testing.T, s rooms.Store) {
	rec := create(t, s, "m1")
	slow, _ := subscribe(t, s, "m1")
	const n = 300 // more than any subscriber buffer
	done := make(chan *rooms.Record)
	go func() {
		r := rec
		for range n {
			n := Next(r)
			if err := s.Update(context.Background(), n, r.Version); err != nil {
				t.Errorf("Update to stateID %d: %v", n.Version, err)
				break
			}
			r = n
		}
		done <- r
	}()
	select {
	case rec = <-done:
	case <-time.After(6 * patience):
		t.Fatalf("%d updates with a stalled subscriber did not finish in %v: Update blocks", n, 6*patience)
	}
	last := int64(0)
	got := 0
drain:
	for {
		select {
		case ev := <-slow:
			if ev.RecordVersion() <= last {
				t.Fatalf("slow subscriber got %+v after stateID %d", ev, last)
			}
			last = ev.RecordVersion()
			got++
		case <-time.After(time.Second):
			break drain
		}
	}
	if got == 0 || got > n {
		t.Fatalf("slow subscriber got %d events, want 1..%d", got, n)
	}
	t.Logf("slow subscriber kept %d of %d events", got, n)
}
