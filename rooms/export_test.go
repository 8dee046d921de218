package rooms

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// SyncRoom is a room that is not running, for tests in rooms_test: the
// test calls it itself, so a long match is played move by move through
// the real move path (play, successor, commit and its sealing) without
// timers or goroutines.
type SyncRoom struct{ r *room }

// NewSyncRoom makes the stopped room of match id, with its stored record.
func NewSyncRoom(m *Manager, gameName, id string) (*SyncRoom, error) {
	g, err := m.game(gameName)
	if err != nil {
		return nil, err
	}
	r := &room{m: m, id: id, game: g, log: m.cfg.Logger, viewers: map[*Viewer]struct{}{}, presence: map[int]int{}}
	rec, err := m.cfg.Store.Get(context.Background(), id)
	if err != nil {
		return nil, err
	}
	if err := r.takeRecord(rec); err != nil {
		return nil, err
	}
	return &SyncRoom{r}, nil
}

// PlayBots makes n moves, each chosen by the easy bot of the seat to
// move, and keeps the spectator's view after each in views, by stateID.
func (s *SyncRoom) PlayBots(n int, rng *rand.Rand, views map[int64][]byte) error {
	r := s.r
	for range n {
		seat := r.st.Status().Movers(r.rec.NumPlayers)[0]
		name, args, err := r.st.Bot("easy", seat, rng)
		if err != nil {
			return err
		}
		if e := r.play(seat, name, args, nil); e != nil {
			return fmt.Errorf("move at %d: %w", r.rec.StateID, e)
		}
		v, err := r.st.AppendView(nil, games.Spectator)
		if err != nil {
			return err
		}
		views[r.rec.StateID] = v
	}
	return nil
}

// SetStore swaps m's store (tests only: a store without MoveChunks).
func SetStore(m *Manager, s Store) { m.cfg.Store = s }

// MovesComplete reports whether rec holds every move made.
func (r *Record) MovesComplete() bool { return r.movesComplete() }

// MovesPerState is movesPerState, for tests.
const MovesPerState = movesPerState
