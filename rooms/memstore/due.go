package memstore

import (
	"context"
	"sort"
	"sync"

	"github.com/chaguan/chaguan/rooms"
)

var _ rooms.DueIndex = (*Store)(nil)

// dueIndex is the memory store's rooms.DueIndex: when each match's turn
// clock runs out, by match ID.
type dueIndex struct {
	mu sync.Mutex
	at map[string]rooms.DueMatch
}

// SetDue records when match id's clock runs out; at 0 removes the entry.
func (s *Store) SetDue(_ context.Context, game, id string, at int64) error {
	if err := s.checkOpen(); err != nil {
		return err
	}
	d := &s.due
	d.mu.Lock()
	defer d.mu.Unlock()
	if at <= 0 {
		delete(d.at, id)
		return nil
	}
	if d.at == nil {
		d.at = map[string]rooms.DueMatch{}
	}
	d.at[id] = rooms.DueMatch{Game: game, ID: id, At: at}
	return nil
}

// ClaimDue removes and returns up to limit entries due at or before now,
// oldest first.
func (s *Store) ClaimDue(_ context.Context, now int64, limit int) ([]rooms.DueMatch, error) {
	if err := s.checkOpen(); err != nil {
		return nil, err
	}
	d := &s.due
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []rooms.DueMatch
	for _, m := range d.at {
		if m.At <= now {
			out = append(out, m)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].At < out[j].At || (out[i].At == out[j].At && out[i].ID < out[j].ID) })
	if len(out) > limit {
		out = out[:limit]
	}
	for _, m := range out {
		delete(d.at, m.ID)
	}
	return out, nil
}

// checkOpen answers rooms.ErrUnavailable once the store is closed.
func (s *Store) checkOpen() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	return nil
}
