// Package redisstore is the rooms.Store that several server processes share:
// match records in Redis (or a Redis Cluster), compare-and-set in one Lua
// script per Update, events over Redis pub/sub. docs/storage.md describes
// the key layout and the scripts.
package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

// Options configure a Store.
type Options struct {
	// URL is the server's address, e.g. "redis://:password@host:6379/0" or
	// "rediss://…" (see redis.ParseURL), or a Redis Cluster's in go-redis's
	// cluster form, "redis://host1:port1?addr=host2:port2&addr=host3:port3"
	// (see redis.ParseClusterURL): a URL naming more than one address gets
	// a cluster client. Ignored when Client is set.
	URL string
	// Cluster makes URL a Redis Cluster's even when it names one address
	// (any node of the cluster will do).
	Cluster bool
	// Client is an existing client (a *redis.Client, a *redis.ClusterClient,
	// …). The store uses it as it is and does not close it.
	Client redis.UniversalClient
	// TTL is how long a record lives after its last write; default
	// rooms.DefaultTTL.
	TTL time.Duration
	// Prefix starts every key and channel name; default "chaguan".
	Prefix string
	// Now is the clock the per-game index is scored and cleaned with;
	// default time.Now.
	Now func() time.Time
	// Buffer is the capacity of each subscriber's channel; default 64. A
	// subscriber whose channel is full misses events.
	Buffer int
	// Pipelines is how many pipelines of Updates may wait for Redis at
	// once; default 4. Updates issued while all of them wait leave
	// together in the next one.
	Pipelines int
	// WaitReplicas, when above 0, makes Create and Update report success
	// only once that many replicas of the master that took the write
	// have acknowledged it (Redis's WAIT, sent behind the write on its
	// connection): a failover then keeps every acknowledged write. Fewer
	// within WaitTimeout make the call fail with rooms.ErrUnavailable,
	// the write made but not known durable (a *ShortError). Default 0:
	// no wait. See wait.go.
	WaitReplicas int
	// WaitAOF makes the wait WAITAOF 1 WaitReplicas: the write fsynced
	// to the master's append-only file and to WaitReplicas replicas'.
	// It needs Redis 7.2 or later with appendonly yes (checked by New).
	WaitAOF bool
	// WaitTimeout bounds each wait; default 1 s. It must be shorter than
	// the client's read timeout (by 500 ms at least).
	WaitTimeout time.Duration
}

// Store is a Redis rooms.Store. All methods are safe for concurrent use.
type Store struct {
	c      redis.UniversalClient
	owned  bool // c was made by New, so Close closes it
	ttl    time.Duration
	prefix string
	now    func() time.Time
	hub    *hub
	batch  *batcher
	wait   *waiter    // nil unless Options.WaitReplicas or WaitAOF is set
	sc     *scriptSet // plainScripts, or shardedScripts on a Redis Cluster
	where  string     // the server or cluster's addresses, for messages

	procID  string        // this process's ID (liveness.go)
	procSub *redis.PubSub // the subscription that says it is alive
	// procCancel ends it on a cluster, where the hub carries it.
	procCancel func()
	alive      aliveCache // Alive's recent answers
	renewed    renewals   // when this process last renewed each match's TTL

	closeOnce sync.Once
}

var _ rooms.Store = (*Store)(nil)

// New connects to Redis, checks it answers (PING) and loads the scripts.
// Errors wrap rooms.ErrUnavailable when Redis cannot be reached.
func New(ctx context.Context, o Options) (*Store, error) {
	if o.TTL <= 0 {
		o.TTL = rooms.DefaultTTL
	}
	if o.Prefix == "" {
		o.Prefix = "chaguan"
	}
	if strings.ContainsAny(o.Prefix, "{}") {
		return nil, fmt.Errorf("redisstore: prefix %q must not contain { or }: they would change the hash tag", o.Prefix)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Buffer <= 0 {
		o.Buffer = 64
	}
	if o.Pipelines <= 0 {
		o.Pipelines = 4
	}
	s := &Store{c: o.Client, ttl: o.TTL, prefix: o.Prefix, now: o.Now, where: "the given client"}
	if s.c == nil {
		if o.URL == "" {
			return nil, errors.New("redisstore: Options need a URL or a Client")
		}
		c, where, err := newClient(o.URL, o.Cluster)
		if err != nil {
			return nil, err
		}
		s.c, s.owned, s.where = c, true, where
	}
	s.sc = plainScripts
	if cc := s.cluster(); cc != nil {
		s.sc = shardedScripts
		watchFailovers(cc)
	}
	where := s.where
	if err := s.c.Ping(ctx).Err(); err != nil {
		s.closeClient()
		return nil, fmt.Errorf("%w: redisstore: no answer from Redis at %s: %w", rooms.ErrUnavailable, where, err)
	}
	// Loading the scripts now makes every EVALSHA hit, so an Update is one
	// round trip from the first; Run still falls back to EVAL after a
	// SCRIPT FLUSH or a failover.
	for _, sc := range s.sc.all() {
		if err := sc.Load(ctx, s.c).Err(); err != nil {
			s.closeClient()
			return nil, fmt.Errorf("%w: redisstore: SCRIPT LOAD at %s: %w", rooms.ErrUnavailable, where, err)
		}
	}
	w, err := newWaiter(ctx, s.c, o)
	if err != nil {
		s.closeClient()
		return nil, err
	}
	s.wait = w
	s.hub = newHub(s.c, o.Buffer, s.cluster())
	s.hub.register = func(ctx context.Context, reg string, names ...string) error {
		args := make([]any, 0, 1+len(names))
		args = append(args, s.ttlMs())
		for _, name := range names {
			args = append(args, name)
		}
		return s.sc.register.Run(ctx, s.c, []string{reg}, args...).Err()
	}
	s.hub.unregister = func(ctx context.Context, reg, name string) error {
		return s.c.SRem(ctx, reg, name).Err()
	}
	if err := s.startLiveness(ctx); err != nil {
		s.hub.close()
		s.closeClient()
		return nil, err
	}
	s.batch = newBatcher(s.c, o.Pipelines, s.wait)
	return s, nil
}

// newClient makes the client for url: a cluster client when cluster is set
// or url names more than one address, else a plain one. It also returns
// the addresses, without any password, for messages.
func newClient(url string, cluster bool) (redis.UniversalClient, string, error) {
	copt, err := redis.ParseClusterURL(url)
	if err == nil && (cluster || len(copt.Addrs) > 1) {
		return redis.NewClusterClient(copt), "Redis Cluster " + strings.Join(copt.Addrs, ","), nil
	}
	if cluster {
		return nil, "", fmt.Errorf("redisstore: bad Redis Cluster URL: %w", err)
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, "", fmt.Errorf("redisstore: bad Redis URL: %w", err)
	}
	return redis.NewClient(opt), fmt.Sprintf("redis://%s/%d", opt.Addr, opt.DB), nil
}

// Where names the Redis server or cluster the store uses, by address
// (never with a password): "redis://host:port/db", "Redis Cluster
// host:port,…", or "the given client" when Options.Client was set.
func (s *Store) Where() string { return s.where }

// cluster is the client as a Redis Cluster client, or nil when it is not
// one.
func (s *Store) cluster() *redis.ClusterClient {
	cc, _ := s.c.(*redis.ClusterClient)
	return cc
}

// recKey is the hash holding a match's record: fields sid (the Version, in
// decimal) and rec (the record's JSON). The braces make every key of one
// match hash to the same Redis Cluster slot.
func (s *Store) recKey(id string) string { return s.prefix + ":{" + id + "}:rec" }

// eventsChannel is the pub/sub channel of a match's events, in the same
// slot as its record: Update's notices, {"stateID":N}, and chat events
// (JSON of rooms.Event).
func (s *Store) eventsChannel(id string) string { return s.prefix + ":{" + id + "}:events" }

// subsKey is the set of the names of a match's subscriptions (the hub's
// registry), in the same slot as its record.
func (s *Store) subsKey(id string) string { return s.prefix + ":{" + id + "}:subs" }

// indexKey is the sorted set of a game's match IDs scored by creation time
// (Unix ms). It lives in a slot of its own.
func (s *Store) indexKey(game string) string { return s.prefix + ":games:" + game }

// unavailable wraps a Redis or network error: errors.Is finds both
// rooms.ErrUnavailable and the cause (a context error, say).
func unavailable(op, id string, err error) error {
	return fmt.Errorf("%w: redisstore: %s %s: %w", rooms.ErrUnavailable, op, id, err)
}

// checkUpdate refuses an update the store cannot make: a record it cannot
// keep (checkRecord), or one whose Version does not come after prev.
func checkUpdate(rec *rooms.Record, prev int64) error {
	if err := checkRecord(rec); err != nil {
		return err
	}
	if rec.Version <= prev {
		return fmt.Errorf("redisstore: match %s: new version %d must be greater than prev %d", rec.ID, rec.Version, prev)
	}
	return nil
}

// checkRecord refuses records the store cannot keep.
func checkRecord(rec *rooms.Record) error {
	switch {
	case rec == nil:
		return errors.New("redisstore: nil record")
	case rec.ID == "":
		return errors.New("redisstore: record has no ID")
	case strings.ContainsAny(rec.ID, "{}"):
		return fmt.Errorf("redisstore: match ID %q must not contain { or }", rec.ID)
	case rec.Game == "":
		return fmt.Errorf("redisstore: record %q has no game", rec.ID)
	case !utf8.ValidString(rec.ID) || !utf8.ValidString(rec.Game):
		// JSON would replace the bad bytes, and the stored record would
		// no longer carry the ID and game it is stored under.
		return fmt.Errorf("redisstore: match ID %q and game %q must be valid UTF-8", rec.ID, rec.Game)
	}
	return nil
}

// Close ends every subscription (closing the subscribers' channels) and
// closes the client if New made it. Later calls fail with
// rooms.ErrUnavailable. It is idempotent and returns the first close error.
func (s *Store) Close() error {
	var err error
	s.closeOnce.Do(func() {
		s.hub.close()
		s.batch.close()
		s.stopLiveness()
		err = s.closeClient()
	})
	return err
}

func (s *Store) closeClient() error {
	if !s.owned {
		return nil
	}
	return s.c.Close()
}

// errClosed is returned after Close when the client is not the store's own
// (an owned client answers redis.ErrClosed by itself).
var errClosed = fmt.Errorf("%w: redisstore is closed", rooms.ErrUnavailable)

// closed reports whether Close was called.
func (s *Store) closed() bool { return s.hub.isClosed() }
