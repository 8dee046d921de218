package redisstore

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

var _ rooms.Liveness = (*Store)(nil)

// Liveness returns the store as a rooms.Liveness, or nil on a Redis
// Cluster, where PUBSUB NUMSUB counts only the subscriptions of the node
// asked and would call live processes on other nodes dead (rooms.Manager
// then records no holders, as with one process).
func (s *Store) Liveness() rooms.Liveness {
	if s.procID == "" {
		return nil
	}
	return s
}

// Each store (one per server process) subscribes to a channel of its own,
// named by a fresh process ID, for as long as it is open. Redis drops the
// subscription the moment the process's connection closes, whether the
// process stopped or crashed, so a process is alive exactly while its
// channel has a subscriber (PUBSUB NUMSUB). On a Redis Cluster the store
// offers no liveness (see Liveness).

// procChannel is the liveness channel of process id.
func (s *Store) procChannel(id string) string { return s.prefix + ":proc:" + id }

// startLiveness subscribes this store's own channel and waits until Redis
// confirms it; on a Redis Cluster it does nothing (see Liveness).
func (s *Store) startLiveness(ctx context.Context) error {
	if _, cluster := s.c.(*redis.ClusterClient); cluster {
		return nil
	}
	s.procID = uuid.NewString()
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

// ProcessID implements rooms.Liveness: this store's process ID.
func (s *Store) ProcessID() string { return s.procID }

// Alive implements rooms.Liveness with one PUBSUB NUMSUB.
func (s *Store) Alive(ctx context.Context, ids []string) (map[string]bool, error) {
	if s.closed() {
		return nil, errClosed
	}
	out := make(map[string]bool, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	chans := make([]string, len(ids))
	for i, id := range ids {
		chans[i] = s.procChannel(id)
	}
	n, err := s.c.PubSubNumSub(ctx, chans...).Result()
	if err != nil {
		return nil, unavailable("check processes", fmt.Sprint(len(ids)), err)
	}
	for i, id := range ids {
		out[id] = n[chans[i]] > 0
	}
	return out, nil
}

// stopLiveness ends the subscription: other processes see this one gone.
func (s *Store) stopLiveness() {
	if s.procSub != nil {
		s.procSub.Close()
	}
}
