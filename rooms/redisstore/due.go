package redisstore

import (
	"context"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

var _ rooms.DueIndex = (*Store)(nil)

// dueKey is the turn clocks' index: a sorted set of "<game>:<matchID>"
// scored by when the match's clock runs out (Unix ms). Its {due} hash tag
// keeps it in one slot of a Redis Cluster, so the claim script touches
// one key.
func (s *Store) dueKey() string { return s.prefix + ":{due}:clocks" }

// SetDue records when match id's clock runs out; at 0 removes the entry.
func (s *Store) SetDue(ctx context.Context, game, id string, at int64) error {
	if s.closed() {
		return errClosed
	}
	member := game + ":" + id
	var err error
	if at <= 0 {
		err = s.c.ZRem(ctx, s.dueKey(), member).Err()
	} else {
		err = s.c.ZAdd(ctx, s.dueKey(), redis.Z{Score: float64(at), Member: member}).Err()
	}
	if err != nil {
		return unavailable("set due", id, err)
	}
	return nil
}

// claimDueScript takes the entries due at or before ARGV[1], at most
// ARGV[2] of them, out of the index and returns them with their scores:
// atomically, so each entry goes to one caller.
var claimDueScript = redis.NewScript(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0, ARGV[2])
for i = 1, #due, 2 do redis.call('ZREM', KEYS[1], due[i]) end
return due
`)

// ClaimDue removes and returns up to limit entries due at or before now,
// oldest first; each entry is returned to one caller only.
func (s *Store) ClaimDue(ctx context.Context, now int64, limit int) ([]rooms.DueMatch, error) {
	if s.closed() {
		return nil, errClosed
	}
	res, err := claimDueScript.Run(ctx, s.c, []string{s.dueKey()}, now, limit).StringSlice()
	if err != nil {
		return nil, unavailable("claim due", "", err)
	}
	var out []rooms.DueMatch
	for i := 0; i+1 < len(res); i += 2 {
		game, id, ok := strings.Cut(res[i], ":")
		at, err := strconv.ParseFloat(res[i+1], 64)
		if !ok || err != nil {
			continue
		}
		out = append(out, rooms.DueMatch{Game: game, ID: id, At: int64(at)})
	}
	return out, nil
}
