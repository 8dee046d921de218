package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"net"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

// subscribeWait bounds how long Subscribe waits for Redis to confirm a
// subscription.
const subscribeWait = 10 * time.Second

// unsubscribeWait bounds the UNSUBSCRIBE write of the last cancel.
const unsubscribeWait = 5 * time.Second

// workerQueue is each fan-out worker's backlog of messages; when it is full
// the connection's reader waits.
const workerQueue = 256

// healthEvery is how long the pub/sub connection may stay silent before the
// dispatcher PINGs it (go-redis's own default is 3 s).
const healthEvery = 3 * time.Second

// hub is a store's one pub/sub connection, shared by all its subscribers:
// a Redis channel is subscribed while at least one local subscriber wants
// it, and one dispatcher goroutine fans each message out to them. go-redis
// re-subscribes every channel after a reconnect; events published while the
// connection was down are lost (subscribers re-read with Get).
type hub struct {
	c      redis.UniversalClient
	buffer int

	// cmdMu orders SUBSCRIBE and UNSUBSCRIBE commands with the changes of
	// chans that call for them, so a channel is never left unsubscribed
	// while it has subscribers. Taken before mu.
	cmdMu sync.Mutex

	mu     sync.Mutex // guards the fields below
	ps     *redis.PubSub
	chans  map[string]map[*subscriber]struct{} // by Redis channel name
	acks   map[string]chan struct{}            // PING payload → its waiter
	nextID uint64                              // numbers PING payloads
	closed bool
	quit   chan struct{} // closed by close: stops the dispatcher's waits
	done   chan struct{} // closed when the dispatcher exits
}

// subscriber is one Subscribe call. Its channel is sent to and closed only
// with hub.mu held.
type subscriber struct {
	ch     chan rooms.Event
	closed bool
}

// full reports whether a send would be dropped; exact only with hub.mu
// held, as every send is.
func (sub *subscriber) full() bool { return len(sub.ch) == cap(sub.ch) }

func newHub(c redis.UniversalClient, buffer int) *hub {
	return &hub{
		c:      c,
		buffer: buffer,
		chans:  make(map[string]map[*subscriber]struct{}),
		acks:   make(map[string]chan struct{}),
		quit:   make(chan struct{}),
	}
}

func (h *hub) isClosed() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// Subscribe delivers the match's events, in order, until cancel is called,
// ctx ends or the store is closed; then the channel is closed. It returns
// once Redis confirmed the subscription, so every later Update is seen. The
// match need not exist. cancel may be called any number of times.
func (s *Store) Subscribe(ctx context.Context, id string) (<-chan rooms.Event, func(), error) {
	return s.hub.subscribe(ctx, s.eventsChannel(id))
}

func (h *hub) subscribe(ctx context.Context, name string) (<-chan rooms.Event, func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	sub := &subscriber{ch: make(chan rooms.Event, h.buffer)}
	ack := make(chan struct{})
	h.cmdMu.Lock()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		h.cmdMu.Unlock()
		return nil, nil, errClosed
	}
	if h.ps == nil {
		h.ps = h.c.Subscribe(context.Background())
		h.done = make(chan struct{})
		go h.dispatch(h.ps, h.done)
	}
	subs := h.chans[name]
	first := subs == nil
	if first {
		subs = make(map[*subscriber]struct{})
		h.chans[name] = subs
	}
	subs[sub] = struct{}{}
	h.nextID++
	token := "chaguan-subscribed-" + strconv.FormatUint(h.nextID, 10)
	h.acks[token] = ack
	ps := h.ps
	h.mu.Unlock()
	var err error
	if first {
		err = ps.Subscribe(ctx, name)
	}
	h.cmdMu.Unlock()
	// The PONG comes back after Redis has processed every command sent
	// before the PING on this connection, the SUBSCRIBE among them.
	if err == nil {
		err = ps.Ping(ctx, token)
	}

	var once sync.Once
	unsub := func() { once.Do(func() { h.unsubscribe(name, sub) }) }
	fail := func(err error) (<-chan rooms.Event, func(), error) {
		h.mu.Lock()
		delete(h.acks, token)
		h.mu.Unlock()
		unsub()
		return nil, nil, err
	}
	if err != nil {
		return fail(fmt.Errorf("%w: redisstore: subscribe %s: %w", rooms.ErrUnavailable, name, err))
	}
	timer := time.NewTimer(subscribeWait)
	defer timer.Stop()
	select {
	case <-ack:
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-timer.C:
		return fail(fmt.Errorf("%w: redisstore: subscribe %s: not confirmed in %v", rooms.ErrUnavailable, name, subscribeWait))
	case <-h.quit:
		return fail(errClosed)
	}
	stop := context.AfterFunc(ctx, unsub)
	return sub.ch, func() { stop(); unsub() }, nil
}

// unsubscribe removes sub and closes its channel; the last subscriber of a
// Redis channel unsubscribes it.
func (h *hub) unsubscribe(name string, sub *subscriber) {
	h.cmdMu.Lock()
	defer h.cmdMu.Unlock()
	h.mu.Lock()
	if !sub.closed {
		sub.closed = true
		close(sub.ch)
	}
	last := false
	if subs := h.chans[name]; subs != nil {
		delete(subs, sub)
		if len(subs) == 0 {
			delete(h.chans, name)
			last = !h.closed
		}
	}
	ps := h.ps
	h.mu.Unlock()
	if last {
		// Best effort: go-redis forgets the channel first, so even if the
		// write fails (a broken connection) it is not re-subscribed on the
		// next connection.
		ctx, cancel := context.WithTimeout(context.Background(), unsubscribeWait)
		defer cancel()
		ps.Unsubscribe(ctx, name)
	}
}

// dispatch reads the pub/sub connection until it is closed. go-redis
// reconnects and re-subscribes on the next read after a failure; an idle
// connection is checked with a PING every healthEvery. Messages are decoded
// and fanned out by one worker per CPU, each match's always by the same
// worker, so a match's events stay in order while different matches'
// decode in parallel, outside h.mu.
func (h *hub) dispatch(ps *redis.PubSub, done chan struct{}) {
	defer close(done)
	workers := make([]chan *redis.Message, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i := range workers {
		workers[i] = make(chan *redis.Message, workerQueue)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range workers[i] {
				h.fanOut(m.Channel, m.Payload)
			}
		}()
	}
	defer func() {
		for _, w := range workers {
			close(w)
		}
		wg.Wait()
	}()
	seed := maphash.MakeSeed()
	ctx := context.Background()
	failures := 0
	for {
		msg, err := ps.ReceiveTimeout(ctx, healthEvery)
		var ne net.Error
		switch {
		case errors.Is(err, redis.ErrClosed):
			return
		case errors.As(err, &ne) && ne.Timeout():
			pctx, cancel := context.WithTimeout(ctx, healthEvery)
			ps.Ping(pctx) // a failed write makes go-redis reconnect
			cancel()
			continue
		case err != nil:
			failures++
			select {
			case <-time.After(min(time.Duration(failures)*100*time.Millisecond, 2*time.Second)):
			case <-h.quit:
				return
			}
			continue
		}
		failures = 0
		switch m := msg.(type) {
		case *redis.Pong:
			h.acked(m.Payload)
		case *redis.Message:
			workers[maphash.String(seed, m.Channel)%uint64(len(workers))] <- m
		}
	}
}

// acked wakes the Subscribe waiting for the PONG with this payload.
func (h *hub) acked(token string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ack := h.acks[token]; ack != nil {
		close(ack)
		delete(h.acks, token)
	}
}

// fanOut decodes the event once per local subscriber with room in its
// buffer, so none shares a pointer with another, then sends without
// blocking: a full subscriber misses it. The decoding happens outside h.mu.
func (h *hub) fanOut(name, payload string) {
	h.mu.Lock()
	n := 0
	for sub := range h.chans[name] {
		if !sub.full() {
			n++
		}
	}
	h.mu.Unlock()
	if n == 0 {
		return
	}
	evs := make([]rooms.Event, n)
	if ev, ok := recordEvent(payload); ok {
		for i := range evs {
			evs[i] = ev // Raw is shared read-only; each Load decodes anew
		}
	} else {
		for i := range evs {
			if err := json.Unmarshal([]byte(payload), &evs[i]); err != nil {
				return // not an event of ours: drop it
			}
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.chans[name] {
		if len(evs) == 0 {
			return
		}
		if !sub.full() {
			sub.ch <- evs[0]
			evs = evs[1:]
		}
	}
}

// close closes every subscriber's channel and the pub/sub connection, and
// waits for the dispatcher to exit.
func (h *hub) close() {
	h.mu.Lock()
	h.closed = true
	for _, subs := range h.chans {
		for sub := range subs {
			if !sub.closed {
				sub.closed = true
				close(sub.ch)
			}
		}
	}
	clear(h.chans)
	ps, done := h.ps, h.done
	h.mu.Unlock()
	close(h.quit)
	if ps != nil {
		ps.Close()
		<-done
	}
}

// recordEvent reads an update's event without decoding any record: the
// notice {"stateID":N} that updateScript publishes, or
// {"stateID":N,"record":{…}} with the record, as earlier versions of this
// store published it (so this version follows their writes during a
// rolling upgrade; they ignore notices); subscribers decode that record
// only if they need it.
func recordEvent(payload string) (rooms.Event, bool) {
	const head, mid = `{"stateID":`, `,"record":`
	if !strings.HasPrefix(payload, head) || !strings.HasSuffix(payload, "}") {
		return rooms.Event{}, false
	}
	rest := payload[len(head) : len(payload)-1]
	raw := ""
	if i := strings.Index(rest, mid); i >= 0 {
		rest, raw = rest[:i], rest[i+len(mid):]
		if len(raw) == 0 || raw[0] != '{' {
			return rooms.Event{}, false
		}
	}
	sid, err := strconv.ParseInt(rest, 10, 64)
	if err != nil || sid <= 0 {
		return rooms.Event{}, false
	}
	ev := rooms.Event{StateID: sid}
	if raw != "" {
		ev.Raw = json.RawMessage(raw)
	}
	return ev, true
}
