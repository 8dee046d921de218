package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// MovesPerChunk is how many moves a sealed chunk of a new match holds
// (see Record.Moves and MoveChunks): a move rewrites fewer than this many
// moves with the record (about 35 bytes each in Gong Zhu, 28 in Gomoku),
// and a replay reads the chunks it needs, a few per store call. A record
// names its own (Record.MovesChunk), which its chunks were cut at; records
// from before that field hold LegacyMovesPerChunk. Every move writes the
// record, and Redis's time for the compare-and-set grows with its size
// (docs/performance.md, "A smaller record"), so the chunks are small; the
// states a replay starts from are kept every movesPerState moves, not
// with every chunk.
const MovesPerChunk = 32

// movesPerState is how many moves apart the sealed chunks keep the state
// after their last move (for a replay to start from): every chunk whose
// last move's number is a multiple of it, every chunk when chunks hold
// that many moves or more. A page deep in a match then replays at most
// about movesPerState moves plus two chunks through the rules, and the
// store holds one state per movesPerState moves (a Gong Zhu state is
// about 6 KB, its 128 moves about 4.5 KB).
const movesPerState = 128

// chunksPerState is how many chunks of per moves apart states are kept.
func chunksPerState(per int) int { return max(1, movesPerState/per) }

// keepsState reports whether sealed chunk k of per moves keeps its state.
func keepsState(k, per int) bool { return (k+1)%chunksPerState(per) == 0 }

// LegacyMovesPerChunk is the chunk size of the records written before
// Record.MovesChunk existed (whose every move rewrote up to 1,024 moves,
// a 36 KB write in Gong Zhu).
const LegacyMovesPerChunk = 1024

// movesPerChunk is how many moves r's sealed chunks hold.
func (r *Record) movesPerChunk() int {
	if r.MovesChunk > 0 {
		return r.MovesChunk
	}
	return LegacyMovesPerChunk
}

// maxMoves caps the moves kept of one match. Past it a match's moves are
// no longer recorded (the record drops its tail) and it can no longer be
// replayed. The record stays small however long the match, and a page
// replays from the last state kept before it (at most about
// movesPerState moves and a chunk), so the reason is the store: a
// match's chunks live as long as it does, about 70 bytes a move in Gong
// Zhu with the states, so a million moves take about 70 MB of the store
// (Redis's memory) for one match. A Gong Zhu table of
// bots moving every 300 ms reaches it after about 3.5 days.
const maxMoves = 1_000_000

// maxTailMoves caps the moves a record keeps in itself when the store has
// no MoveChunks: every move rewrites them all.
const maxTailMoves = 20000

// movesComplete reports whether r holds (in its chunks and its tail) every
// move made, so that it can be replayed.
func (r *Record) movesComplete() bool {
	return r.SealedMoves+int64(len(r.Moves)) == r.StateID-1
}

// movesChunk is a sealed chunk as stored: its moves, the index of the
// first (a chunk k holds moves k*Record.movesPerChunk() on), and, when the room
// that sealed it had them, the state after its last move and each seat's
// timeouts in a row then. A replay of a page deep in a long match starts
// from the state of the chunk before the page instead of the first move.
type movesChunk struct {
	First    int64           `json:"first"`
	Moves    []MoveRecord    `json:"moves"`
	State    json.RawMessage `json:"state,omitempty"`
	Timeouts []int           `json:"timeouts,omitempty"`
}

// sealMoves seals the committed moves into a chunk of their own when the
// current record's tail holds a chunk of them: before nr, the
// record that follows a move, is written, it stores the tail's first
// movesPerChunk moves as chunk nr.SealedChunks (with the current state,
// the state after them, when the tail holds no more) and leaves them out
// of nr. The chunk holds committed moves and state only, so writing it
// again (a conflict on nr, another process sealing the same record's
// tail) writes the same bytes. A record from before chunks (every move in
// its tail) is sealed a chunk per move, without states. With a store that
// has no MoveChunks the record keeps every move, up to maxTailMoves, and
// then none.
func (r *room) sealMoves(ctx context.Context, nr *Record) error {
	if nr.StateID == r.rec.StateID || len(nr.Moves) == 0 {
		return nil // not a move, or its moves are no longer kept
	}
	store, ok := r.m.cfg.Store.(MoveChunks)
	if !ok {
		if len(nr.Moves) > maxTailMoves {
			nr.Moves = nil
		}
		return nil
	}
	tail, per := r.rec.Moves, r.rec.movesPerChunk()
	if nr.movesPerChunk() != per || len(tail) < per || len(nr.Moves) != len(tail)+1 || nr.SealedChunks != r.rec.SealedChunks ||
		nr.SealedMoves != r.rec.SealedMoves || !r.rec.movesComplete() {
		return nil
	}
	chunk := movesChunk{First: r.rec.SealedMoves, Moves: tail[:per]}
	if len(tail) == per && keepsState(nr.SealedChunks, per) {
		chunk.State = r.rec.State
		if c := r.rec.Clocks; c != nil && slices.ContainsFunc(c.Timeouts, func(n int) bool { return n > 0 }) {
			chunk.Timeouts = c.Timeouts
		}
	}
	data, err := json.Marshal(chunk)
	if err != nil {
		return err
	}
	if err := store.PutMoves(ctx, r.id, nr.SealedChunks, data); err != nil {
		return err
	}
	nr.Moves = nr.Moves[per:]
	nr.SealedChunks++
	nr.SealedMoves += int64(per)
	return nil
}

// chunksPerRead is how many chunks a replay reads from the store per call.
const chunksPerRead = 8

// errStopMoves ends eachMove early without an error.
var errStopMoves = errors.New("rooms: enough moves")

// errNoMoves is the answer for a match whose moves are not all kept.
var errNoMoves = newError(protocol.CodeNotFound, "this match was stored without its moves, so it cannot be replayed")

// chunkStore is the store's MoveChunks, errNoMoves when it has none: a
// record with sealed chunks then cannot be replayed.
func (m *Manager) chunkStore() (MoveChunks, error) {
	store, ok := m.cfg.Store.(MoveChunks)
	if !ok {
		return nil, errNoMoves
	}
	return store, nil
}

// readChunks reads chunks from to to-1 of rec.
func (m *Manager) readChunks(ctx context.Context, rec *Record, from, to int) ([]movesChunk, error) {
	store, err := m.chunkStore()
	if err != nil {
		return nil, err
	}
	ctx, cancel := m.opCtx(ctx)
	defer cancel()
	datas, err := store.GetMoves(ctx, rec.ID, from, to)
	if err != nil {
		return nil, err
	}
	out := make([]movesChunk, len(datas))
	for i, data := range datas {
		if data == nil {
			return nil, errNoMoves
		}
		c := &out[i]
		if err := json.Unmarshal(data, c); err != nil {
			return nil, newError(protocol.CodeInternal, "chunk %d of the moves is not valid: %v", from+i, err)
		}
		if k, per := int64(from+i), rec.movesPerChunk(); c.First != k*int64(per) || len(c.Moves) != per {
			return nil, newError(protocol.CodeInternal, "chunk %d of the moves holds %d moves from %d", k, len(c.Moves), c.First)
		}
	}
	return out, nil
}

// replayStart is where a replay of the steps from stateID from on
// starts: the state after the last chunk sealed with its state that ends
// before from (st, after move start-1, with each seat's timeouts in a
// row then), or the setup with no move made (start 0).
func (m *Manager) replayStart(ctx context.Context, rec *Record, g games.Game, from int64) (st games.State, start int64, streak []int, err error) {
	streak = make([]int, rec.NumPlayers)
	// Chunk k's state is at stateID (k+1)*per+1, before from; the last
	// chunk up to k that keeps its state is the one read.
	per := int64(rec.movesPerChunk())
	if k := min((from-2)/per-1, int64(rec.SealedChunks)-1); k >= 0 && rec.movesComplete() {
		cps := int64(chunksPerState(int(per)))
		if k = (k+1)/cps*cps - 1; k >= 0 {
			chunks, err := m.readChunks(ctx, rec, int(k), int(k)+1)
			if err != nil {
				return nil, 0, nil, err
			}
			if c := chunks[0]; len(c.State) > 0 && len(c.Timeouts) <= rec.NumPlayers {
				if st, err = g.Load(c.State); err != nil {
					return nil, 0, nil, AsError(err)
				}
				copy(streak, c.Timeouts)
				return st, c.First + per, streak, nil
			}
		}
	}
	if st, err = g.Setup(rec.NumPlayers, rec.SetupData, rec.Options.Seed); err != nil {
		return nil, 0, nil, AsError(err)
	}
	return st, 0, streak, nil
}

// eachMove calls fn with rec's moves in order from index start up to
// (not including) n: first those of its sealed chunks, read from the
// store chunksPerRead at a time (only those the moves need), then its
// tail. fn may return errStopMoves to stop. A record that does not hold
// every move, or whose chunks are missing, is errNoMoves.
func (m *Manager) eachMove(ctx context.Context, rec *Record, start, n int64, fn func(i int64, mv MoveRecord) error) error {
	per := int64(rec.movesPerChunk())
	if !rec.movesComplete() || rec.SealedChunks < 0 || rec.SealedMoves != int64(rec.SealedChunks)*per {
		return errNoMoves
	}
	n = min(n, rec.StateID-1)
	for k := int(start / per); k < rec.SealedChunks && int64(k)*per < n; k += chunksPerRead {
		chunks, err := m.readChunks(ctx, rec, k, min(k+chunksPerRead, rec.SealedChunks))
		if err != nil {
			return err
		}
		for _, c := range chunks {
			for j, mv := range c.Moves {
				i := c.First + int64(j)
				if i >= n {
					return nil
				}
				if i < start {
					continue
				}
				if err := fn(i, mv); err != nil {
					return err
				}
			}
		}
	}
	for j, mv := range rec.Moves {
		i := rec.SealedMoves + int64(j)
		if i >= n {
			return nil
		}
		if i < start {
			continue
		}
		if err := fn(i, mv); err != nil {
			return err
		}
	}
	return nil
}
