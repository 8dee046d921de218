package redisstore

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

// listBatch is how many records List fetches per pipelined round trip.
const listBatch = 256

func (s *Store) ttlMs() int64 { return s.ttl.Milliseconds() }

// renewEvery divides the TTL into how often, at most, this process renews
// a match's TTL on its writes: an Update renews it only when this process
// last did so TTL/renewEvery ago or more (renewals), which spares two
// PEXPIREs on almost every move. A record then expires no sooner than
// TTL - TTL/renewEvery after its last write, whichever process made it:
// every writer renews at least that often.
const renewEvery = 8

// renewals remembers when this process last renewed each match's TTL
// (Create and Update): Unix ms by match ID. It forgets everything when it
// holds maxRenewals, which only brings the next renewals forward.
type renewals struct {
	mu sync.Mutex
	at map[string]int64
}

const maxRenewals = 1 << 16

// due reports whether match id's TTL is to be renewed at now (Unix ms).
func (r *renewals) due(id string, now, ttl int64) bool {
	r.mu.Lock()
	at, ok := r.at[id]
	r.mu.Unlock()
	return !ok || now-at >= ttl/renewEvery
}

// done records that match id's TTL was renewed at now.
func (r *renewals) done(id string, now int64) {
	r.mu.Lock()
	if r.at == nil || len(r.at) >= maxRenewals {
		r.at = make(map[string]int64)
	}
	r.at[id] = now
	r.mu.Unlock()
}

// Create adds the match to its game's index, then stores the record with
// the TTL unless its key exists (rooms.ErrExists). Two round trips: the
// index is in another slot, so it cannot share the script. An index entry
// whose record never got written is removed by a later List.
func (s *Store) Create(ctx context.Context, rec *rooms.Record) error {
	if err := checkRecord(rec); err != nil {
		return err
	}
	if s.closed() {
		return errClosed
	}
	data, err := rooms.EncodeRecord(rec)
	if err != nil {
		return fmt.Errorf("redisstore: encode match %s: %w", rec.ID, err)
	}
	// The index entry comes first so that a List running meanwhile never
	// sees the record unindexed; it is scored with the store's clock, which
	// unindexScript relies on.
	now := s.now().UnixMilli()
	z := redis.Z{Score: float64(now), Member: rec.ID}
	if err := s.index(ctx, s.indexKey(rec.Game), z); err != nil {
		return unavailable("index match", rec.ID, err)
	}
	cmd := s.run(ctx, s.sc.create, []string{s.recKey(rec.ID), s.subsKey(rec.ID)}, rec.Version, data, s.ttlMs())
	short := shortOf(cmd.Err()) // written, the wait fell short (wait.go)
	if err := cmd.Err(); err != nil && short == nil {
		return unavailable("create match", rec.ID, err)
	}
	switch {
	case cmd.Val() == int64(0):
		return fmt.Errorf("%w: %s", rooms.ErrExists, rec.ID)
	case short != nil:
		return notDurable("create match", rec.ID, short)
	}
	s.renewed.done(rec.ID, now)
	return nil
}

// Get returns the record; rooms.ErrNotFound if there is none or it expired.
func (s *Store) Get(ctx context.Context, id string) (*rooms.Record, error) {
	if s.closed() {
		return nil, errClosed
	}
	data, err := s.c.HGet(ctx, s.recKey(id), "rec").Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	if err != nil {
		return nil, unavailable("get match", id, err)
	}
	return decode(id, data)
}

var (
	_ rooms.VersionReader  = (*Store)(nil)
	_ rooms.EncodedUpdater = (*Store)(nil)
	_ rooms.QuietUpdater   = (*Store)(nil)
)

// Version implements rooms.VersionReader: the record's sid field, one HGET
// without the record; rooms.ErrNotFound if there is none or it expired.
func (s *Store) Version(ctx context.Context, id string) (int64, error) {
	if s.closed() {
		return 0, errClosed
	}
	sid, err := s.c.HGet(ctx, s.recKey(id), "sid").Int64()
	if errors.Is(err, redis.Nil) {
		return 0, fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	if err != nil {
		return 0, unavailable("read the version of match", id, err)
	}
	return sid, nil
}

func decode(id string, data []byte) (*rooms.Record, error) {
	rec := new(rooms.Record)
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("redisstore: match %s: stored record is not valid: %w", id, err)
	}
	return rec, nil
}

// Update is one EVALSHA of updateScript: compare the stored Version with
// prev, write the record, renew the TTL and publish a notice of the new
// Version to the match's subscribers (see rooms.Event: a subscriber that
// needs the record Gets it). rec.Version must be greater than prev.
// rooms.ErrConflict if the stored Version differs, rooms.ErrNotFound if the
// record is gone; then nothing changes. An ErrUnavailable error does not say whether the script
// ran (the reply may be what was lost): re-read with Get.
func (s *Store) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if err := checkUpdate(rec, prev); err != nil {
		return err
	}
	data, err := rooms.EncodeRecord(rec)
	if err != nil {
		return fmt.Errorf("redisstore: encode match %s: %w", rec.ID, err)
	}
	return s.UpdateEncoded(ctx, rec, data, prev)
}

// UpdateEncoded is Update with rec's JSON in data (rooms.EncodedUpdater).
func (s *Store) UpdateEncoded(ctx context.Context, rec *rooms.Record, data []byte, prev int64) error {
	return s.update(ctx, rec, data, prev, "")
}

// UpdateQuiet is UpdateEncoded that leaves the notice out when the match's
// only subscription is the one named name, the writer's own
// (rooms.QuietUpdater; see updateScript).
func (s *Store) UpdateQuiet(ctx context.Context, rec *rooms.Record, data []byte, prev int64, name string) error {
	return s.update(ctx, rec, data, prev, name)
}

// update is UpdateEncoded naming the writer's subscription, or "".
func (s *Store) update(ctx context.Context, rec *rooms.Record, data []byte, prev int64, name string) error {
	if err := checkUpdate(rec, prev); err != nil {
		return err
	}
	if s.closed() {
		return errClosed
	}
	now := s.now().UnixMilli()
	var ttl int64 // 0: not renewed (updateScript)
	if s.renewed.due(rec.ID, now, s.ttlMs()) {
		ttl = s.ttlMs()
	}
	// One slice for the command (a write on every move): its arguments
	// from 6.
	rk, ev, sk := s.recKey(rec.ID), s.eventsChannel(rec.ID), s.subsKey(rec.ID)
	argv := []any{"evalsha", s.sc.update.Hash(), 3, rk, ev, sk,
		strconv.FormatInt(prev, 10), rec.Version, data, ttl, name}
	cmd := redis.NewCmd(ctx, argv...)
	if err := s.batch.do(ctx, cmd); err != nil {
		return unavailable("update match", rec.ID, err)
	}
	if err := cmd.Err(); err != nil && redis.HasErrorPrefix(err, "NOSCRIPT") {
		// The script cache was flushed (or a failover lost it): EVAL
		// sends the script itself and caches it again.
		cmd = s.eval(ctx, s.sc.update, []string{rk, ev, sk}, argv[6:]...)
	}
	res, err := cmd.Result()
	short := shortOf(err) // written, the wait fell short (wait.go)
	if err != nil && short == nil {
		return unavailable("update match", rec.ID, err)
	}
	switch v := res.(type) {
	case int64:
		if v == 1 && ttl != 0 {
			s.renewed.done(rec.ID, now)
		}
		if v == 1 && short != nil {
			return notDurable("update match", rec.ID, short)
		}
		if v == 1 {
			return nil
		}
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, rec.ID)
	case string:
		if err := s.settle(ctx, rec.ID, rec.Version, v); err != nil {
			return err
		}
		return fmt.Errorf("%w: match %s is at version %s, not %d", rooms.ErrConflict, rec.ID, v, prev)
	}
	return fmt.Errorf("redisstore: update match %s: unexpected script reply %#v", rec.ID, res)
}

// List reads the game's index, fetches the records in pipelined batches of
// HGETs (safe across cluster slots: go-redis splits a pipeline by node) and
// removes from the index the IDs whose records expired.
func (s *Store) List(ctx context.Context, game string) ([]*rooms.Record, error) {
	if s.closed() {
		return nil, errClosed
	}
	index := s.indexKey(game)
	entries, err := s.c.ZRangeWithScores(ctx, index, 0, -1).Result()
	if err != nil {
		return nil, unavailable("list game", game, err)
	}
	out := make([]*rooms.Record, 0, len(entries))
	var expired []string
	// An ID indexed at or after cutoff may belong to a Create in progress
	// (indexed, record not yet written): leave it.
	cutoff := s.now().Add(-s.ttl).UnixMilli()
	for batch := range slices.Chunk(entries, listBatch) {
		cmds := make([]*redis.StringCmd, len(batch))
		_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
			for i, z := range batch {
				cmds[i] = p.HGet(ctx, s.recKey(z.Member.(string)), "rec")
			}
			return nil
		})
		if err != nil && !errors.Is(err, redis.Nil) {
			return nil, unavailable("list game", game, err)
		}
		for i, z := range batch {
			id := z.Member.(string)
			data, err := cmds[i].Bytes()
			switch {
			case errors.Is(err, redis.Nil):
				if int64(z.Score) < cutoff {
					expired = append(expired, id)
				}
				continue
			case err != nil:
				return nil, unavailable("list game", game, err)
			}
			rec, err := decode(id, data)
			if err != nil {
				return nil, err
			}
			if rec.Game == game {
				out = append(out, rec)
			}
		}
	}
	s.unindex(ctx, index, expired, cutoff)
	return out, nil
}

// unindex removes expired IDs from an index, best effort: a failure only
// leaves them for the next List.
func (s *Store) unindex(ctx context.Context, index string, ids []string, cutoff int64) {
	if len(ids) == 0 {
		return
	}
	s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			s.sc.unindex.Run(ctx, p, []string{index}, id, cutoff)
		}
		return nil
	})
}

// Publish sends a chat event to the match's subscribers in every process;
// rooms.ErrNotFound if the match does not exist. One round trip.
func (s *Store) Publish(ctx context.Context, id string, ev rooms.Event) error {
	switch {
	case ev.Record != nil:
		return errors.New("redisstore: Publish sends chat only; records are published by Update")
	case ev.Chat == nil:
		return errors.New("redisstore: Publish needs a chat event")
	}
	if s.closed() {
		return errClosed
	}
	data, err := json.Marshal(ev)
	if err != nil {
		return fmt.Errorf("redisstore: encode event for match %s: %w", id, err)
	}
	n, err := s.sc.publish.Run(ctx, s.c, []string{s.recKey(id), s.eventsChannel(id)}, data).Int64()
	if err != nil {
		return unavailable("publish to match", id, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	return nil
}
