package redisstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms"
)

var _ rooms.MoveChunks = (*Store)(nil)

// movesField is the field of the record hash that holds chunk k of the
// match's moves: "m:<k>". In the record's hash, a chunk is in the match's
// slot and expires with the record (every Update's PEXPIRE renews the
// whole hash); Get and List read the "rec" field alone, so chunks never
// travel with the record.
func movesField(k int) string { return "m:" + strconv.Itoa(k) }

// putMovesScript stores a chunk of moves in the record's hash if the
// record exists: an HSET on a missing key would make a hash without a
// TTL.
// KEYS[1] record hash. ARGV[1] field, ARGV[2] chunk JSON.
// Returns 1 when stored, 0 when the record is missing.
var putMovesScript = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`)

// PutMoves implements rooms.MoveChunks: one script (EVALSHA, EVAL after a
// script flush) that writes field m:<chunk> of the match's record hash.
// rooms.ErrNotFound if the record is gone.
func (s *Store) PutMoves(ctx context.Context, id string, chunk int, data []byte) error {
	if chunk < 0 {
		return fmt.Errorf("redisstore: match %s: chunk %d is negative", id, chunk)
	}
	if s.closed() {
		return errClosed
	}
	n, err := putMovesScript.Run(ctx, s.c, []string{s.recKey(id)}, movesField(chunk), data).Int64()
	if err != nil {
		return unavailable("store moves of match", id, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	return nil
}

// GetMoves implements rooms.MoveChunks: one HMGET of fields m:<from> to
// m:<to-1> of the match's record hash; nil for a chunk not stored (all of
// them when the match is gone).
func (s *Store) GetMoves(ctx context.Context, id string, from, to int) ([][]byte, error) {
	if from < 0 || to < from || to-from > rooms.MaxGetMoves {
		return nil, fmt.Errorf("redisstore: match %s: bad chunk range %d to %d", id, from, to)
	}
	if s.closed() {
		return nil, errClosed
	}
	out := make([][]byte, to-from)
	if len(out) == 0 {
		return out, nil
	}
	fields := make([]string, len(out))
	for i := range fields {
		fields[i] = movesField(from + i)
	}
	vals, err := s.c.HMGet(ctx, s.recKey(id), fields...).Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, unavailable("read moves of match", id, err)
	}
	for i, v := range vals {
		if str, ok := v.(string); ok && i < len(out) {
			out[i] = []byte(str)
		}
	}
	return out, nil
}
