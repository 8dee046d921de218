package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

// Durability: Redis replicates asynchronously and answers a write before
// any replica has it, so a write acknowledged just before its master dies
// can be missing from the replica that takes over. With
// Options.WaitReplicas (or WaitAOF) set, every record write is followed, on
// the same connection, by WAIT numreplicas timeout (or WAITAOF 1
// numreplicas timeout), and the write succeeds only if enough replicas
// (and the master's append-only file) confirm it in time. WAIT counts the
// replicas that have every write the connection made so far; the write
// and its WAIT therefore travel in one pipeline on one connection to the
// master of the write's slot: the client's on one server, the slot's
// master's own client on a Redis Cluster (a cluster pipeline would send a
// keyless command such as WAIT to any master, and go-redis may refuse to
// pipeline it at all, its command tips saying all shards). The batcher puts
// one wait behind each pipeline of Updates: one wait covers them all.

// defaultWaitTimeout is Options.WaitTimeout's default.
const defaultWaitTimeout = time.Second

// waitMargin is how much longer than the wait the client's read timeout
// must be: the pipeline's replies, the wait's last, are read under it.
const waitMargin = 500 * time.Millisecond

// waiter sends writes with a WAIT or WAITAOF behind them.
type waiter struct {
	replicas int  // WAIT's (or WAITAOF's) numreplicas
	aof      bool // WAITAOF 1 replicas instead of WAIT replicas
	timeout  time.Duration
	c        *redis.Client        // on one server; nil on a cluster
	cc       *redis.ClusterClient // on a cluster; nil on one server
}

// newWaiter checks the wait options against the client and returns the
// waiter, or nil when waiting is off (WaitReplicas 0, WaitAOF false). With
// WaitAOF it asks every master for WAITAOF once, so that a server without
// it (Redis < 7.2) or without appendonly is refused now rather than at
// every write.
func newWaiter(ctx context.Context, c redis.UniversalClient, o Options) (*waiter, error) {
	switch {
	case o.WaitReplicas < 0:
		return nil, fmt.Errorf("redisstore: WaitReplicas %d must not be negative", o.WaitReplicas)
	case o.WaitTimeout < 0:
		return nil, fmt.Errorf("redisstore: WaitTimeout %v must not be negative", o.WaitTimeout)
	case o.WaitReplicas == 0 && !o.WaitAOF:
		return nil, nil
	}
	w := &waiter{replicas: o.WaitReplicas, aof: o.WaitAOF, timeout: o.WaitTimeout}
	if w.timeout == 0 {
		w.timeout = defaultWaitTimeout
	}
	if w.timeout < time.Millisecond {
		// WAIT's timeout is in milliseconds, and 0 would wait for ever.
		return nil, fmt.Errorf("redisstore: WaitTimeout %v must be at least 1ms", w.timeout)
	}
	var readTimeout time.Duration
	switch c := c.(type) {
	case *redis.Client:
		w.c, readTimeout = c, c.Options().ReadTimeout
	case *redis.ClusterClient:
		w.cc, readTimeout = c, c.Options().ReadTimeout
	default:
		return nil, fmt.Errorf("redisstore: WaitReplicas and WaitAOF need a single server's or a Redis Cluster's client, not a %T: the wait must follow the write on its connection", c)
	}
	if readTimeout > 0 && w.timeout+waitMargin > readTimeout {
		return nil, fmt.Errorf("redisstore: WaitTimeout %v must be at least %v shorter than the client's read timeout %v (raise it, e.g. read_timeout=%v in the URL)",
			w.timeout, waitMargin, readTimeout, w.timeout+2*time.Second)
	}
	if w.aof {
		probe := func(ctx context.Context, c *redis.Client) error {
			if err := c.WaitAOF(ctx, 1, 0, time.Millisecond).Err(); err != nil {
				return fmt.Errorf("redisstore: WaitAOF: WAITAOF at %s: %w (it needs Redis 7.2 or later with appendonly yes)", c.Options().Addr, err)
			}
			return nil
		}
		var err error
		if w.cc != nil {
			err = w.cc.ForEachMaster(ctx, probe)
		} else {
			err = probe(ctx, w.c)
		}
		if err != nil {
			return nil, err
		}
	}
	return w, nil
}

// String says what the waiter waits for, for messages.
func (w *waiter) String() string {
	if w.aof {
		return fmt.Sprintf("WAITAOF 1 %d %d", w.replicas, w.timeout.Milliseconds())
	}
	return fmt.Sprintf("WAIT %d %d", w.replicas, w.timeout.Milliseconds())
}

// ShortError says that a write was made but not confirmed durable: fewer
// replicas than Options.WaitReplicas (or no fsync of the master's
// append-only file, with WaitAOF) acknowledged it within
// Options.WaitTimeout, or the wait itself failed. Create and Update wrap
// it with rooms.ErrUnavailable: the write is in the master and may be
// seen (read, or sent to subscribers), but may vanish if the master fails
// now.
type ShortError struct {
	// Wait is the command, e.g. "WAIT 1 1000".
	Wait string
	// Replicas is how many replicas acknowledged, and Want how many were
	// asked for.
	Replicas, Want int
	// Timeout is how long the wait waited at most.
	Timeout time.Duration
	// LocalAOF reports whether the master fsynced its append-only file
	// (WAITAOF only).
	LocalAOF bool
	// Err is why the wait failed, if it did not answer.
	Err error
}

func (e *ShortError) Error() string {
	const written = "written but not known durable"
	switch {
	case e.Err != nil:
		return fmt.Sprintf("%s: %s failed: %v", written, e.Wait, e.Err)
	case strings.HasPrefix(e.Wait, "WAITAOF") && !e.LocalAOF:
		return fmt.Sprintf("%s: the master did not fsync its append-only file within %v (%s: %d of %d replicas did)", written, e.Timeout, e.Wait, e.Replicas, e.Want)
	}
	return fmt.Sprintf("%s: %d of %d replicas acknowledged it within %v (%s)", written, e.Replicas, e.Want, e.Timeout, e.Wait)
}

func (e *ShortError) Unwrap() error { return e.Err }

// queue adds the wait to p.
func (w *waiter) queue(ctx context.Context, p redis.Pipeliner) redis.Cmder {
	var cmd redis.Cmder
	if ms := w.timeout.Milliseconds(); w.aof {
		cmd = redis.NewIntSliceCmd(ctx, "waitaof", 1, w.replicas, ms)
	} else {
		cmd = redis.NewIntCmd(ctx, "wait", w.replicas, ms)
	}
	p.Process(ctx, cmd)
	return cmd
}

// check returns nil when the wait's reply says the writes before it are
// durable, else a *ShortError.
func (w *waiter) check(cmd redis.Cmder) error {
	e := &ShortError{Wait: w.String(), Want: w.replicas, Timeout: w.timeout}
	switch cmd := cmd.(type) {
	case *redis.IntCmd:
		n, err := cmd.Result()
		if err != nil {
			e.Err = err
			return e
		}
		if e.Replicas = int(n); e.Replicas >= w.replicas {
			return nil
		}
	case *redis.IntSliceCmd:
		v, err := cmd.Result()
		if err == nil && len(v) != 2 {
			err = fmt.Errorf("unexpected reply %v", v)
		}
		if err != nil {
			e.Err = err
			return e
		}
		if e.LocalAOF, e.Replicas = v[0] >= 1, int(v[1]); e.LocalAOF && e.Replicas >= w.replicas {
			return nil
		}
	}
	return e
}

// master is the client on the master that serves key: the client itself
// on one server.
func (w *waiter) master(ctx context.Context, key string) (*redis.Client, error) {
	if w.cc == nil {
		return w.c, nil
	}
	return w.cc.MasterForKey(ctx, key)
}

// pipe sends the commands queue puts on a pipeline, and the wait behind
// them, in one pipeline on c: one connection to one master. queue returns
// the commands it queued. When the wait falls short, each of them that got
// a reply gets the *ShortError as its error instead (its reply stays in
// Val): it ran, and whether it wrote is its caller's to tell.
func (w *waiter) pipe(ctx context.Context, c *redis.Client, queue func(redis.Pipeliner) []redis.Cmder) {
	p := c.Pipeline()
	cmds := queue(p)
	wait := w.queue(ctx, p)
	p.Exec(ctx) // each command carries its own error
	w.afterFailure(ctx, cmds)
	if short := w.check(wait); short != nil {
		for _, cmd := range cmds {
			if cmd.Err() == nil {
				cmd.SetErr(short)
			}
		}
	}
}

// processAll queues cmds on a pipeline, for pipe.
func processAll(ctx context.Context, cmds []redis.Cmder) func(redis.Pipeliner) []redis.Cmder {
	return func(p redis.Pipeliner) []redis.Cmder {
		for _, cmd := range cmds {
			p.Process(ctx, cmd)
		}
		return cmds
	}
}

// send is the batcher's way of sending a batch of Updates when waiting is
// on: one pipeline with a wait behind it per master (in parallel on a
// cluster).
func (w *waiter) send(ctx context.Context, cmds []redis.Cmder) {
	if w.cc == nil {
		w.pipe(ctx, w.c, processAll(ctx, cmds))
		return
	}
	groups := map[*redis.Client][]redis.Cmder{}
	for _, cmd := range cmds {
		m, err := w.cc.MasterForKey(ctx, scriptKey(cmd))
		if err != nil {
			cmd.SetErr(err)
			continue
		}
		groups[m] = append(groups[m], cmd)
	}
	var wg sync.WaitGroup
	for m, g := range groups {
		wg.Go(func() { w.pipe(ctx, m, processAll(ctx, g)) })
	}
	wg.Wait()
}

// scriptKey is the first key of an EVAL or EVALSHA command.
func scriptKey(cmd redis.Cmder) string {
	if args := cmd.Args(); len(args) > 3 {
		if k, ok := args[3].(string); ok {
			return k
		}
	}
	return ""
}

// afterFailure has a cluster's slot map reloaded when a command failed on
// the network or was redirected: a master's own client is not the cluster
// client, whose hook (reloadOnFailure) does it for commands sent through
// it.
func (w *waiter) afterFailure(ctx context.Context, cmds []redis.Cmder) {
	if w.cc == nil {
		return
	}
	for _, cmd := range cmds {
		err := cmd.Err()
		if nodeFailed(err) || redis.HasErrorPrefix(err, "MOVED") || redis.HasErrorPrefix(err, "ASK") {
			w.cc.ReloadState(ctx)
			return
		}
	}
}

// run sends the script on the master of keys[0] as Script.Run does
// (EVALSHA, then EVAL if the server lacks the script), with the wait
// behind it when waiting is on: then an error that is a *ShortError means
// the script ran (Val holds its reply) but the wait fell short.
func (s *Store) run(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.wait == nil {
		return sc.Run(ctx, s.c, keys, args...)
	}
	cmd := s.waited(ctx, keys[0], func(p redis.Pipeliner) *redis.Cmd { return sc.EvalSha(ctx, p, keys, args...) })
	if redis.HasErrorPrefix(cmd.Err(), "NOSCRIPT") {
		cmd = s.eval(ctx, sc, keys, args...)
	}
	return cmd
}

// eval is Script.Eval, with the wait behind it when waiting is on (see
// run).
func (s *Store) eval(ctx context.Context, sc *redis.Script, keys []string, args ...any) *redis.Cmd {
	if s.wait == nil {
		return sc.Eval(ctx, s.c, keys, args...)
	}
	return s.waited(ctx, keys[0], func(p redis.Pipeliner) *redis.Cmd { return sc.Eval(ctx, p, keys, args...) })
}

// waited sends the command queue makes on a pipeline to the master of
// key, with the wait behind it (see pipe).
func (s *Store) waited(ctx context.Context, key string, queue func(redis.Pipeliner) *redis.Cmd) *redis.Cmd {
	m, err := s.wait.master(ctx, key)
	if err != nil {
		cmd := redis.NewCmd(ctx)
		cmd.SetErr(err)
		return cmd
	}
	var cmd *redis.Cmd
	s.wait.pipe(ctx, m, func(p redis.Pipeliner) []redis.Cmder {
		cmd = queue(p)
		return []redis.Cmder{cmd}
	})
	return cmd
}

// do is a command for waited.
func do(ctx context.Context, args ...any) func(redis.Pipeliner) *redis.Cmd {
	return func(p redis.Pipeliner) *redis.Cmd {
		cmd := redis.NewCmd(ctx, args...)
		p.Process(ctx, cmd)
		return cmd
	}
}

// index adds the match to its game's index (ZADD), with the wait behind it
// when waiting is on: an index entry lost in a failover would hide a live
// match from List.
func (s *Store) index(ctx context.Context, key string, z redis.Z) error {
	if s.wait == nil {
		return s.c.ZAdd(ctx, key, z).Err()
	}
	return s.waited(ctx, key, do(ctx, "zadd", key, z.Score, z.Member)).Err()
}

// shortOf returns err as a *ShortError, or nil.
func shortOf(err error) *ShortError {
	if err == nil {
		return nil // and no target escaping to the heap for errors.As
	}
	var short *ShortError
	if errors.As(err, &short) {
		return short
	}
	return nil
}

// settle runs when an Update met a conflict while waiting is on. If the
// stored stateID is the one the Update meant to write, the record in place
// may be the Update's own, written by an earlier attempt whose reply was
// lost (go-redis sends a command again after a broken connection), and
// the room, seeing the conflict, checks for that and takes the write as
// made (rooms' landed). That attempt's wait never ran, or not on the
// connection that made the write. So settle makes a write of its own in
// the record's slot, a PEXPIRE renewing the TTL (nothing the store reads
// changes), and waits for it: replication is in order, so the replicas
// that have it have the record too. It returns nil when they confirm (the
// caller reports the conflict) and an error wrapping rooms.ErrUnavailable
// when they do not, which the room does not take as made.
func (s *Store) settle(ctx context.Context, id string, newVersion int64, stored string) error {
	if s.wait == nil || stored != strconv.FormatInt(newVersion, 10) {
		return nil
	}
	key := s.recKey(id)
	if err := s.waited(ctx, key, do(ctx, "pexpire", key, s.ttlMs())).Err(); err != nil {
		return unavailable("update match", id, fmt.Errorf("its version %d is stored, perhaps by this very update: %w", newVersion, err))
	}
	return nil
}

// notDurable is what Create and Update return for a write made whose wait
// fell short.
func notDurable(op, id string, short *ShortError) error {
	return fmt.Errorf("%w: redisstore: %s %s: %w", rooms.ErrUnavailable, op, id, short)
}
