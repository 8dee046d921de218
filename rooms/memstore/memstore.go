// Package memstore is the zero-setup rooms.Store: match records kept in the
// memory of one process, as JSON bytes, so callers never share a pointer with
// the store. It suits a single server and tests; several processes need
// rooms/redisstore.
package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chaguan/chaguan/rooms"
)

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// TTL is how long a record lives after its last write (Create or
	// Update); default rooms.DefaultTTL.
	TTL time.Duration
	// Now is the clock expiry is measured with; default time.Now. Tests pass
	// a fake clock.
	Now func() time.Time
	// SweepEvery is how often the janitor deletes expired records; default
	// TTL, at most a minute. Expired records are invisible at once, sweeping
	// only frees their memory.
	SweepEvery time.Duration
	// Buffer is the capacity of each subscriber's channel; default 64. A
	// subscriber whose channel is full misses events.
	Buffer int
}

// Store is an in-memory rooms.Store. All methods are safe for concurrent use.
type Store struct {
	ttl    time.Duration
	now    func() time.Time
	buffer int

	mu     sync.Mutex // guards the fields below
	recs   map[string]*entry
	subs   map[string]map[*subscriber]struct{} // match ID → its subscribers
	closed bool

	due dueIndex // the turn clocks' index (due.go)

	stop      chan struct{} // closed by Close: stops the janitor
	janitor   sync.WaitGroup
	closeOnce sync.Once
}

// entry is one stored record: its JSON and the fields the store looks at.
type entry struct {
	data    []byte
	game    string
	version int64
	expires time.Time // gone once Now is not before it
	// moves are the match's chunks of moves (rooms.MoveChunks), by
	// number; an Update's entry takes over the map of the entry it
	// replaces, so they live and expire with the record. Guarded by
	// Store.mu.
	moves map[int][]byte
}

var (
	_ rooms.Store          = (*Store)(nil)
	_ rooms.MoveChunks     = (*Store)(nil)
	_ rooms.EncodedUpdater = (*Store)(nil)
)

// New returns a store and starts its janitor; Close stops it.
func New(o Options) *Store {
	if o.TTL <= 0 {
		o.TTL = rooms.DefaultTTL
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SweepEvery <= 0 {
		o.SweepEvery = min(o.TTL, time.Minute)
	}
	if o.Buffer <= 0 {
		o.Buffer = 64
	}
	s := &Store{
		ttl:    o.TTL,
		now:    o.Now,
		buffer: o.Buffer,
		recs:   make(map[string]*entry),
		subs:   make(map[string]map[*subscriber]struct{}),
		stop:   make(chan struct{}),
	}
	s.janitor.Add(1)
	go s.sweepLoop(o.SweepEvery)
	return s
}

// errClosed is returned by every method called after Close.
var errClosed = fmt.Errorf("%w: memstore is closed", rooms.ErrUnavailable)

// checkUpdate refuses an update the store cannot make: a record it cannot
// keep (checkRecord), or one whose Version does not come after prev.
func checkUpdate(rec *rooms.Record, prev int64) error {
	if err := checkRecord(rec); err != nil {
		return err
	}
	if rec.Version <= prev {
		return fmt.Errorf("memstore: match %s: new version %d must be greater than prev %d", rec.ID, rec.Version, prev)
	}
	return nil
}

// checkRecord refuses records the store cannot keep.
func checkRecord(rec *rooms.Record) error {
	switch {
	case rec == nil:
		return errors.New("memstore: nil record")
	case rec.ID == "":
		return errors.New("memstore: record has no ID")
	case rec.Game == "":
		return fmt.Errorf("memstore: record %q has no game", rec.ID)
	case !utf8.ValidString(rec.ID) || !utf8.ValidString(rec.Game):
		// JSON would replace the bad bytes, and the stored record would
		// no longer carry the ID and game it is stored under.
		return fmt.Errorf("memstore: match ID %q and game %q must be valid UTF-8", rec.ID, rec.Game)
	}
	return nil
}

// live returns the unexpired entry of id, or nil. s.mu must be held.
func (s *Store) live(id string, now time.Time) *entry {
	e := s.recs[id]
	if e == nil || !now.Before(e.expires) {
		return nil
	}
	return e
}

// Create stores rec; rooms.ErrExists if a live record has its ID.
func (s *Store) Create(ctx context.Context, rec *rooms.Record) error {
	if err := checkRecord(rec); err != nil {
		return err
	}
	data, err := rooms.EncodeRecord(rec)
	if err != nil {
		return fmt.Errorf("memstore: encode match %s: %w", rec.ID, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	now := s.now()
	if s.live(rec.ID, now) != nil {
		return fmt.Errorf("%w: %s", rooms.ErrExists, rec.ID)
	}
	s.recs[rec.ID] = &entry{data: data, game: rec.Game, version: rec.Version, expires: now.Add(s.ttl)}
	return nil
}

// Get returns a fresh copy of the record; rooms.ErrNotFound if there is none
// or it expired.
func (s *Store) Get(ctx context.Context, id string) (*rooms.Record, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errClosed
	}
	e := s.live(id, s.now())
	s.mu.Unlock()
	if e == nil {
		return nil, fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	// e.data is never modified after the entry is made (Update replaces the
	// entry), so decoding outside the lock is safe.
	return decode(e.data)
}

// decode returns a new Record from its JSON.
func decode(data []byte) (*rooms.Record, error) {
	rec := new(rooms.Record)
	if err := json.Unmarshal(data, rec); err != nil {
		return nil, fmt.Errorf("memstore: decode record: %w", err)
	}
	return rec, nil
}

// Update replaces the record if its stored Version equals prev, renews its
// TTL and sends the new record to every subscriber of the match (each gets
// its own deep copy of rec). rec.Version must be greater than prev. rooms.ErrConflict if
// the stored Version differs, rooms.ErrNotFound if the record is gone; then
// nothing changes.
func (s *Store) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if err := checkUpdate(rec, prev); err != nil {
		return err
	}
	data, err := rooms.EncodeRecord(rec)
	if err != nil {
		return fmt.Errorf("memstore: encode match %s: %w", rec.ID, err)
	}
	return s.UpdateEncoded(ctx, rec, data, prev)
}

// UpdateEncoded is Update with rec's JSON in data (rooms.EncodedUpdater).
func (s *Store) UpdateEncoded(ctx context.Context, rec *rooms.Record, data []byte, prev int64) error {
	if err := checkUpdate(rec, prev); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	now := s.now()
	e := s.live(rec.ID, now)
	if e == nil {
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, rec.ID)
	}
	if e.version != prev {
		return fmt.Errorf("%w: match %s is at version %d, not %d", rooms.ErrConflict, rec.ID, e.version, prev)
	}
	s.recs[rec.ID] = &entry{data: data, game: rec.Game, version: rec.Version, expires: now.Add(s.ttl), moves: e.moves}
	// Fan out under the lock so that subscribers see updates in Version
	// order. They get the encoded record, which nobody writes again, and
	// decode it only if they need it (a room skips the echo of its own
	// write), so they share nothing with the caller or each other.
	for sub := range s.subs[rec.ID] {
		if !sub.full() {
			sub.send(rooms.Event{Version: rec.Version, Raw: data})
		}
	}
	return nil
}

// PutMoves implements rooms.MoveChunks: it keeps a copy of data as chunk
// of match id's moves, with the record (the chunk expires with it).
// rooms.ErrNotFound if the match does not exist or expired.
func (s *Store) PutMoves(ctx context.Context, id string, chunk int, data []byte) error {
	if chunk < 0 {
		return fmt.Errorf("memstore: match %s: chunk %d is negative", id, chunk)
	}
	data = slices.Clone(data)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errClosed
	}
	e := s.live(id, s.now())
	if e == nil {
		return fmt.Errorf("%w: %s", rooms.ErrNotFound, id)
	}
	if e.moves == nil {
		e.moves = map[int][]byte{}
	}
	e.moves[chunk] = data
	return nil
}

// GetMoves implements rooms.MoveChunks: chunks from to to-1 of match id,
// nil for one not stored (all of them when the match is gone); each a
// copy of its own.
func (s *Store) GetMoves(ctx context.Context, id string, from, to int) ([][]byte, error) {
	if from < 0 || to < from || to-from > rooms.MaxGetMoves {
		return nil, fmt.Errorf("memstore: match %s: bad chunk range %d to %d", id, from, to)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	out := make([][]byte, to-from)
	if e := s.live(id, s.now()); e != nil {
		for i := range out {
			out[i] = slices.Clone(e.moves[from+i])
		}
	}
	return out, nil
}

// List returns fresh copies of the live records of one game, oldest first.
func (s *Store) List(ctx context.Context, game string) ([]*rooms.Record, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, errClosed
	}
	now := s.now()
	var found [][]byte
	for id, e := range s.recs {
		if e.game == game && s.live(id, now) != nil {
			found = append(found, e.data)
		}
	}
	s.mu.Unlock()
	out := make([]*rooms.Record, 0, len(found))
	for _, data := range found {
		rec, err := decode(data)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	slices.SortFunc(out, func(a, b *rooms.Record) int {
		return cmp.Or(cmp.Compare(a.CreatedAt, b.CreatedAt), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// Sweep deletes the expired records now and returns how many it deleted.
// The janitor calls it every SweepEvery.
func (s *Store) Sweep() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	n := 0
	for id := range s.recs {
		if s.live(id, now) == nil {
			delete(s.recs, id)
			n++
		}
	}
	return n
}

// Len is the number of records held, expired ones not yet swept included.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.recs)
}

func (s *Store) sweepLoop(every time.Duration) {
	defer s.janitor.Done()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			s.Sweep()
		case <-s.stop:
			return
		}
	}
}

// Close stops the janitor, closes every subscriber's channel and makes
// every later call fail with rooms.ErrUnavailable. It is idempotent and
// always returns nil.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.stop)
		s.janitor.Wait()
		s.mu.Lock()
		defer s.mu.Unlock()
		s.closed = true
		for id, subs := range s.subs {
			for sub := range subs {
				close(sub.ch)
			}
			delete(s.subs, id)
		}
		s.recs = nil
	})
	return nil
}
