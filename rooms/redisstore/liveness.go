package redisstore

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/chaguan/chaguan/rooms"
)

var _ rooms.Liveness = (*Store)(nil)

// Liveness returns the store as a rooms.Liveness.
func (s *Store) Liveness() rooms.Liveness { return s }

// Each store (one per server process) subscribes to a channel of its own,
// named by a fresh process ID, for as long as it is open. Redis drops the
// subscription the moment the process's connection closes, whether the
// process stopped or crashed, so a process is alive exactly while its
// channel has a subscriber (PUBSUB NUMSUB).
//
// On a Redis Cluster a plain subscription is counted only by the node it
// is made on, so there the channels are sharded channels, all in one hash
// slot (the hash tag {procs}): every process SSUBSCRIBEs on the master of
// that slot, and PUBSUB SHARDNUMSUB asked of that master counts them all.
// When that master fails its replica takes over with no subscriptions: each
// process subscribes again as soon as go-redis reconnects it, and until it
// has, Alive would call live processes dead. Alive therefore counts its own
// process too, and while its own subscription is missing it answers
// ErrUnavailable rather than false deaths (on one server too: a restarted
// Redis is the same case). A room that has already written a live process
// off meanwhile is put right by that process (rooms' reassertHolders).

// procChannel is the liveness channel of process id.
func (s *Store) procChannel(id string) string {
	if s.cluster() != nil {
		return s.prefix + ":{procs}:proc:" + id
	}
	return s.prefix + ":proc:" + id
}

// startLiveness subscribes this store's own channel and waits until Redis
// confirms it.
func (s *Store) startLiveness(ctx context.Context) error {
	s.procID = uuid.NewString()
	if s.cluster() != nil {
		return s.startShardedLiveness(ctx)
	}
	s.procSub = s.c.Subscribe(ctx, s.procChannel(s.procID))
	if _, err := s.procSub.Receive(ctx); err != nil {
		s.procSub.Close()
		return fmt.Errorf("%w: redisstore: subscribe the liveness channel: %w", rooms.ErrUnavailable, err)
	}
	// Reading the subscription keeps it: go-redis reconnects and
	// subscribes again after a lost connection only while it is read.
	// Nobody publishes on the channel; the loop ends at Close.
	go func() {
		for range s.procSub.Channel() {
		}
	}()
	return nil
}

// startShardedLiveness subscribes this store's own channel on a cluster
// through the hub, which gives the {procs} slot a connection of its own
// (one per slot) and, after a failover, reconnects it to the promoted
// replica as it does the matches' (dispatch). Nothing is published on it.
func (s *Store) startShardedLiveness(ctx context.Context) error {
	events, cancel, _, err := s.hub.subscribe(ctx, s.procChannel(s.procID), "")
	if err != nil {
		return fmt.Errorf("%w: redisstore: subscribe the liveness channel: %w", rooms.ErrUnavailable, err)
	}
	s.procCancel = cancel
	go func() {
		for range events { // resync events only; closed at Close
		}
	}()
	return nil
}

// ProcessID implements rooms.Liveness: this store's process ID.
func (s *Store) ProcessID() string { return s.procID }

// aliveFresh is how long Alive reuses an answer about a process. The
// lobby asks on every Get and List, and each loaded room every few
// seconds; a crash is seen this much later at most.
const aliveFresh = time.Second

// aliveCache holds Alive's recent answers.
type aliveCache struct {
	mu      sync.Mutex
	answers map[string]aliveAnswer // by process ID
}

type aliveAnswer struct {
	alive bool
	at    time.Time
}

// lookup fills out with the fresh answers about ids and returns the IDs it
// has none for.
func (c *aliveCache) lookup(ids []string, now time.Time, out map[string]bool) []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var missing []string
	for _, id := range ids {
		if a, ok := c.answers[id]; ok && now.Sub(a.at) < aliveFresh {
			out[id] = a.alive
		} else {
			missing = append(missing, id)
		}
	}
	return missing
}

// store keeps the answers about ids found in got, and forgets the stale
// ones, so the cache holds only the processes asked about of late.
func (c *aliveCache) store(ids []string, got map[string]bool, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.answers == nil {
		c.answers = map[string]aliveAnswer{}
	}
	for id, a := range c.answers {
		if now.Sub(a.at) >= aliveFresh {
			delete(c.answers, id)
		}
	}
	for _, id := range ids {
		c.answers[id] = aliveAnswer{alive: got[id], at: now}
	}
}

// Alive implements rooms.Liveness with one PUBSUB NUMSUB (SHARDNUMSUB on
// a cluster) for the IDs it has no answer for younger than aliveFresh.
func (s *Store) Alive(ctx context.Context, ids []string) (map[string]bool, error) {
	if s.closed() {
		return nil, errClosed
	}
	out := make(map[string]bool, len(ids))
	now := time.Now()
	missing := s.alive.lookup(ids, now, out)
	if len(missing) == 0 {
		return out, nil
	}
	chans := make([]string, len(missing), len(missing)+1)
	for i, id := range missing {
		chans[i] = s.procChannel(id)
	}
	own := s.procChannel(s.procID)
	n, err := s.countSubscribers(ctx, append(chans, own))
	if err != nil {
		return nil, unavailable("check processes", fmt.Sprint(len(missing)), err)
	}
	if n[own] == 0 {
		return nil, fmt.Errorf("%w: redisstore: check processes: this process's own liveness subscription is not back yet, so the count is not to be trusted", rooms.ErrUnavailable)
	}
	for i, id := range missing {
		out[id] = n[chans[i]] > 0
	}
	s.alive.store(missing, out, now)
	return out, nil
}

// countSubscribers counts the subscribers of liveness channels: PUBSUB
// NUMSUB, or on a cluster PUBSUB SHARDNUMSUB asked of the master serving
// their slot, where the processes subscribe.
func (s *Store) countSubscribers(ctx context.Context, chans []string) (map[string]int64, error) {
	cc := s.cluster()
	if cc == nil {
		return s.c.PubSubNumSub(ctx, chans...).Result()
	}
	master, err := cc.MasterForKey(ctx, chans[0])
	if err != nil {
		return nil, err
	}
	n, err := master.PubSubShardNumSub(ctx, chans...).Result()
	if nodeFailed(err) {
		// Asked of a node directly, past the hook that reloads the
		// slot map (cluster.go): the master may have failed over.
		cc.ReloadState(ctx)
	}
	return n, err
}

// stopLiveness ends the subscription: other processes see this one gone.
func (s *Store) stopLiveness() {
	if s.procSub != nil {
		s.procSub.Close()
	}
	if s.procCancel != nil {
		s.procCancel()
	}
}
