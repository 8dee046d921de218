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

	"github.com/google/uuid"
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

// hub is a store's pub/sub connections, shared by all its subscribers: a
// Redis channel is subscribed while at least one local subscriber wants it,
// and one dispatcher goroutine per connection fans each message out to
// them. On one Redis server there is one connection, for every channel. On
// a Redis Cluster the hub uses sharded pub/sub (SSUBSCRIBE, SPUBLISH in the
// scripts) and one connection per hash slot in use, opened for the slot's
// first channel and closed with its last: Redis refuses an SSUBSCRIBE
// naming channels of several slots, which is what go-redis sends to
// subscribe a connection's channels again after a reconnect, and the
// connection must go to the node serving its slot, which a failover
// changes.
//
// go-redis re-subscribes every channel after a reconnect; events published
// while the connection was down are lost. Redis confirms each channel
// subscribed again as it confirmed its first subscription, so a second
// confirmation of a channel means a new connection: the hub then sends its
// subscribers a resync event (rooms.Event.Resync), and they re-read with
// Get, which gives every record they were not told of.
//
// Each subscriber of a match has a name, unique to it, written in the
// match's registry (a set next to its record, subsKey) before it
// subscribes and again before the resync after a reconnect (a failover may
// have lost it), and removed after it unsubscribes. A write that names its
// writer's subscription leaves its notice out when the registry holds that
// name alone and one connection is subscribed: no other subscriber, of
// this process or another, can be waiting for it (updateScript). A name
// left behind (a process that died) only makes writes publish.
type hub struct {
	c       redis.UniversalClient
	cluster *redis.ClusterClient // c on a Redis Cluster, else nil
	buffer  int

	// register writes names in registry reg and renews its TTL;
	// unregister removes name from it. base starts this hub's names.
	register   func(ctx context.Context, reg string, names ...string) error
	unregister func(ctx context.Context, reg, name string) error
	base       string

	// cmdMu orders SUBSCRIBE and UNSUBSCRIBE commands with the changes of
	// chans that call for them, so a channel is never left unsubscribed
	// while it has subscribers. Taken before mu.
	cmdMu sync.Mutex

	mu    sync.Mutex                          // guards the fields below
	conns map[int]*psConn                     // by hash slot on a cluster; the one at 0 otherwise
	chans map[string]map[*subscriber]struct{} // by Redis channel name
	// confirmed holds the channels in chans whose subscription Redis has
	// confirmed at least once (see resubscribed).
	confirmed map[string]bool
	acks      map[string]chan struct{} // PING payload → its waiter
	nextID    uint64                   // numbers PING payloads
	closed    bool
	quit      chan struct{} // closed by close: stops the dispatchers' waits
}

// psConn is one pub/sub connection of the hub.
type psConn struct {
	ps    *redis.PubSub
	chans int           // how many Redis channels it carries
	done  chan struct{} // closed when its dispatcher exits; nil until it starts
}

// subscriber is one Subscribe call. Its channel is sent to and closed only
// with hub.mu held.
type subscriber struct {
	ch     chan rooms.Event
	closed bool
	// reg is the registry the subscriber's name is written in; "" for a
	// channel that is not a match's (liveness.go), with no name.
	reg, name string
}

// full reports whether a send would be dropped; exact only with hub.mu
// held, as every send is.
func (sub *subscriber) full() bool { return len(sub.ch) == cap(sub.ch) }

// newHub makes the hub of a store on c; cluster is c when it is a Redis
// Cluster client, else nil.
func newHub(c redis.UniversalClient, buffer int, cluster *redis.ClusterClient) *hub {
	return &hub{
		c:         c,
		cluster:   cluster,
		buffer:    buffer,
		base:      uuid.NewString() + ":",
		conns:     make(map[int]*psConn),
		chans:     make(map[string]map[*subscriber]struct{}),
		confirmed: make(map[string]bool),
		acks:      make(map[string]chan struct{}),
		quit:      make(chan struct{}),
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
	events, cancel, _, err := s.hub.subscribe(ctx, s.eventsChannel(id), s.subsKey(id))
	return events, cancel, err
}

// SubscribeNamed is Subscribe that also returns the subscription's name,
// for UpdateQuiet (rooms.QuietUpdater).
func (s *Store) SubscribeNamed(ctx context.Context, id string) (<-chan rooms.Event, func(), string, error) {
	return s.hub.subscribe(ctx, s.eventsChannel(id), s.subsKey(id))
}

// subscribe subscribes Redis channel name; a subscriber of a match's
// channel (reg its registry, else "") is named there first, and its name
// is returned.
func (h *hub) subscribe(ctx context.Context, name, reg string) (<-chan rooms.Event, func(), string, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, "", err
	}
	sub := &subscriber{ch: make(chan rooms.Event, h.buffer), reg: reg}
	if reg != "" {
		h.mu.Lock()
		h.nextID++
		sub.name = h.base + strconv.FormatUint(h.nextID, 10)
		h.mu.Unlock()
		if err := h.register(ctx, reg, sub.name); err != nil {
			return nil, nil, "", fmt.Errorf("%w: redisstore: subscribe %s: %w", rooms.ErrUnavailable, name, err)
		}
	}
	ack := make(chan struct{})
	h.cmdMu.Lock()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		h.cmdMu.Unlock()
		h.forget(sub)
		return nil, nil, "", errClosed
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
	h.mu.Unlock()
	ps, err := h.subscribeChannel(ctx, name, first)
	h.cmdMu.Unlock()
	// The PONG comes back after Redis has processed every command sent
	// before the PING on this connection, the SUBSCRIBE among them.
	if err == nil {
		err = ps.Ping(ctx, token)
	}

	var once sync.Once
	unsub := func() { once.Do(func() { h.unsubscribe(name, sub) }) }
	fail := func(err error) (<-chan rooms.Event, func(), string, error) {
		h.mu.Lock()
		delete(h.acks, token)
		h.mu.Unlock()
		unsub()
		return nil, nil, "", err
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
	return sub.ch, func() { stop(); unsub() }, sub.name, nil
}

// forget removes sub's name from its registry, best effort: a name left
// there only makes the match's writes publish their notices.
func (h *hub) forget(sub *subscriber) {
	if sub.reg == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), unsubscribeWait)
	defer cancel()
	h.unregister(ctx, sub.reg, sub.name)
}

// slotOf is the key of the connection carrying Redis channel name: its
// hash slot on a cluster, else 0.
func (h *hub) slotOf(name string) int {
	if h.cluster == nil {
		return 0
	}
	return Slot(name)
}

// subscribeChannel returns the connection carrying Redis channel name,
// opening it if needed, and subscribes the channel there when first is
// set (its first local subscriber). A new connection's dispatcher starts
// after the first SUBSCRIBE or SSUBSCRIBE, so that on a cluster go-redis
// connects to the node serving the channel's slot. Called with cmdMu held.
func (h *hub) subscribeChannel(ctx context.Context, name string, first bool) (*redis.PubSub, error) {
	slot := h.slotOf(name)
	h.mu.Lock()
	pc := h.conns[slot]
	fresh := pc == nil
	if fresh {
		pc = &psConn{}
		if h.cluster != nil {
			pc.ps = h.cluster.SSubscribe(context.Background())
		} else {
			pc.ps = h.c.Subscribe(context.Background())
		}
		h.conns[slot] = pc
	}
	if first {
		pc.chans++
	}
	h.mu.Unlock()
	var err error
	switch {
	case !first:
	case h.cluster != nil:
		err = pc.ps.SSubscribe(ctx, name)
	default:
		err = pc.ps.Subscribe(ctx, name)
	}
	if fresh {
		h.mu.Lock()
		if !h.closed {
			workers := runtime.GOMAXPROCS(0)
			if h.cluster != nil {
				workers = 1 // a slot carries few matches
			}
			pc.done = make(chan struct{})
			go h.dispatch(pc.ps, pc.done, workers)
		}
		h.mu.Unlock()
	}
	return pc.ps, err
}

// unsubscribe removes sub and closes its channel; the last subscriber of a
// Redis channel unsubscribes it, and on a cluster the last channel of a
// slot closes its connection.
func (h *hub) unsubscribe(name string, sub *subscriber) {
	// After the UNSUBSCRIBE: until then the subscriber may still be sent
	// events, so it keeps its name.
	defer h.forget(sub)
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
			delete(h.confirmed, name)
			last = !h.closed
		}
	}
	slot := h.slotOf(name)
	pc := h.conns[slot]
	drop := false
	if last && pc != nil {
		pc.chans--
		if drop = pc.chans == 0 && h.cluster != nil; drop {
			delete(h.conns, slot)
		}
	}
	h.mu.Unlock()
	switch {
	case !last || pc == nil:
	case drop:
		pc.ps.Close() // its dispatcher exits on its own
	default:
		// Best effort: go-redis forgets the channel first, so even if the
		// write fails (a broken connection) it is not re-subscribed on the
		// next connection.
		ctx, cancel := context.WithTimeout(context.Background(), unsubscribeWait)
		defer cancel()
		if h.cluster != nil {
			pc.ps.SUnsubscribe(ctx, name)
		} else {
			pc.ps.Unsubscribe(ctx, name)
		}
	}
}

// dispatch reads the pub/sub connection until it is closed. go-redis
// reconnects and re-subscribes on the next read after a failure (on a
// cluster, to the node its slot map names, which the hub has it reload
// after a failure, as a failover changes it); an idle connection is checked
// with a PING every healthEvery. Messages are decoded and fanned out by
// workers goroutines, each match's always by the same worker, so a match's
// events stay in order while different matches' decode in parallel,
// outside h.mu.
func (h *hub) dispatch(ps *redis.PubSub, done chan struct{}, workers int) {
	defer close(done)
	queues := make([]chan *redis.Message, workers)
	var wg sync.WaitGroup
	for i := range queues {
		queues[i] = make(chan *redis.Message, workerQueue)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range queues[i] {
				h.fanOut(m.Channel, m.Payload)
			}
		}()
	}
	defer func() {
		for _, q := range queues {
			close(q)
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
			if h.cluster != nil {
				h.cluster.ReloadState(ctx) // debounced by go-redis
			}
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
		case *redis.Subscription:
			if m.Kind == "subscribe" || m.Kind == "ssubscribe" {
				h.resubscribed(m.Channel)
			}
		case *redis.Message:
			queues[maphash.String(seed, m.Channel)%uint64(len(queues))] <- m
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

// resubscribed handles Redis's confirmation that channel name is
// subscribed. The first one answers the SUBSCRIBE of its first local
// subscriber, who reads the record only afterwards; any later one comes
// from go-redis subscribing again on a new connection, and events may have
// been published while there was none: every subscriber gets a resync
// event. (After an unsubscribe and a new subscribe, a late confirmation of
// the old subscription may be taken for a new connection: one needless
// resync, never a missing one.) Before the resync the subscribers' names
// are written in the match's registry again: a failover may have lost
// them, and a write that finds its writer's name alone there leaves out
// its notice.
func (h *hub) resubscribed(name string) {
	h.mu.Lock()
	subs := h.chans[name]
	if subs == nil {
		h.mu.Unlock()
		return
	}
	if !h.confirmed[name] {
		h.confirmed[name] = true
		h.mu.Unlock()
		return
	}
	reg, names := "", []string(nil)
	for sub := range subs {
		if sub.reg != "" {
			reg, names = sub.reg, append(names, sub.name)
		}
	}
	h.mu.Unlock()
	if len(names) > 0 {
		h.reregister(reg, names)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for sub := range h.chans[name] {
		if sub.full() {
			// The resync must get through: it stands for what the
			// subscriber missed, and for the oldest event queued.
			select {
			case <-sub.ch:
			default:
			}
		}
		sub.ch <- rooms.Event{Resync: true}
	}
}

// reregister writes names in registry reg again, trying a few times while
// the hub is open. Should it fail throughout, the connection it has just
// been subscribed on is likely failing too, and the next reconnection
// tries again.
func (h *hub) reregister(reg string, names []string) {
	for try := 1; try <= 5; try++ {
		ctx, cancel := context.WithTimeout(context.Background(), unsubscribeWait)
		err := h.register(ctx, reg, names...)
		cancel()
		if err == nil {
			return
		}
		select {
		case <-time.After(time.Duration(try) * 100 * time.Millisecond):
		case <-h.quit:
			return
		}
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

// close closes every subscriber's channel and the pub/sub connections, and
// waits for their dispatchers to exit.
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
	clear(h.confirmed)
	// A dispatcher starts (its done set, under mu) only while the hub is
	// open, so these are all the dones there will be.
	var dones []chan struct{}
	var pss []*redis.PubSub
	for _, pc := range h.conns {
		pss = append(pss, pc.ps)
		if pc.done != nil {
			dones = append(dones, pc.done)
		}
	}
	clear(h.conns)
	h.mu.Unlock()
	close(h.quit)
	for _, ps := range pss {
		ps.Close()
	}
	for _, done := range dones {
		<-done
	}
}

// recordEvent reads an update's event without decoding any record: the
// notice {"stateID":N} (N the record's Version) that updateScript publishes, or
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
	ev := rooms.Event{Version: sid}
	if raw != "" {
		ev.Raw = json.RawMessage(raw)
	}
	return ev, true
}
