package memstore

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/chaguan/chaguan/rooms"
)

// subscriber is one Subscribe call. Its channel is sent to and closed only
// with Store.mu held, so a send never hits a closed channel.
type subscriber struct {
	ch chan rooms.Event
}

// send delivers ev unless the subscriber's buffer is full: a slow subscriber
// misses events rather than blocking the writer.
func (sub *subscriber) send(ev rooms.Event) {
	select {
	case sub.ch <- ev:
	default:
	}
}

// full reports whether a send would be dropped. Only exact with Store.mu
// held, as every send is.
func (sub *subscriber) full() bool { return len(sub.ch) == cap(sub.ch) }

// checkEvent refuses what Publish may not send: records change only through
// Update, which publishes them itself.
func checkEvent(ev rooms.Event) error {
	switch {
	case ev.Record != nil:
		return errors.New("memstore: Publish sends chat only; records are published by Update")
	case ev.Chat == nil:
		return errors.New("memstore: Publish needs a chat event")
	}
	return nil
}

// Publish sends a chat event to the match's subscribers; rooms.ErrNotFound
// if the match does not exist.
func (s *Store) Publish(ctx context.Context, id string, ev rooms.Event) error {
	if err := checkEvent(ev); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	if s.live(id, s.now()) == nil {
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	for sub := range s.subs[id] {
		c := *ev.Chat // each subscriber gets its own copy
		sub.send(rooms.Event{Chat: &c})
	}
	return nil
}

// Subscribe delivers the match's events, in order, until cancel is called,
// ctx ends or the store is closed; then the channel is closed. The match
// need not exist yet. cancel may be called any number of times.
func (s *Store) Subscribe(ctx context.Context, id string) (<-chan rooms.Event, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	sub := &subscriber{ch: make(chan rooms.Event, s.buffer)}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, nil, errClosed
	}
	set := s.subs[id]
	if set == nil {
		set = make(map[*subscriber]struct{})
		s.subs[id] = set
	}
	set[sub] = struct{}{}
	s.mu.Unlock()

	var once sync.Once
	unsub := func() { once.Do(func() { s.unsubscribe(id, sub) }) }
	stop := context.AfterFunc(ctx, unsub)
	cancel := func() {
		stop()
		unsub()
	}
	return sub.ch, cancel, nil
}

// unsubscribe removes sub and closes its channel, unless Close already did.
func (s *Store) unsubscribe(id string, sub *subscriber) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.subs[id]
	if _, ok := set[sub]; !ok {
		return
	}
	delete(set, sub)
	if len(set) == 0 {
		delete(s.subs, id)
	}
	close(sub.ch)
}
