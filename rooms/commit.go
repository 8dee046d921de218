package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chaguan/chaguan/games"
)

// The store side of a room: writing a changed record with compare-and-set
// (commit, writeMeta), telling whether a write landed, reading the stored
// record again (refresh and its variants), and making a record the
// current one (takeRecord) and showing it (takeAndShow).

// takeRecord makes rec the current record.
func (r *room) takeRecord(rec *Record) error {
	st, err := r.game.Load(rec.State)
	if err != nil {
		return err
	}
	r.rec, r.st, r.changed = rec, st, r.m.now()
	return nil
}

func (r *room) takeAndShow(rec *Record) {
	if err := r.takeRecord(rec); err != nil {
		r.log.Error("cannot load stored state", "version", rec.Version, "err", err)
		return
	}
	r.demoteUnseated()
	// A lobby write (the join that starts the clocks) reaches the room
	// only as a record to take: the room tells the index, as it does for
	// its own writes (noteDue skips a time it already told).
	r.noteDue(r.rec, r.st.Status())
	r.broadcast(nil, nil)
	r.schedule()
	r.reassertHolders()
	r.armLiveCheck(false)
}

// demoteUnseated demotes viewers whose seat was freed or handed to a bot.
func (r *room) demoteUnseated() {
	for v := range r.viewers {
		if v.seat >= 0 && r.rec.Seats[v.seat].CredHash != v.credHash {
			r.presence[v.seat]--
			v.seat, v.credHash = -1, ""
		}
	}
}

// writeMeta applies fn to a copy of the record and stores it with
// compare-and-set, re-reading on conflict. fn returns false to write
// nothing. Failures are logged: presence is advisory.
func (r *room) writeMeta(fn func(*Record) bool) {
	for try := 0; try < maxCASTries; try++ {
		nr := r.rec.withSeatsCopied()
		if !fn(nr) {
			return
		}
		err := r.commit(nr, r.st)
		if err == nil {
			r.broadcast(nil, nil)
			r.schedule()
			r.armLiveCheck(false)
			return
		}
		if !errors.Is(err, ErrConflict) {
			r.log.Warn("presence not saved", "err", err)
			return
		}
		if _, err := r.refresh(); err != nil {
			r.log.Warn("presence not saved", "err", err)
			return
		}
	}
}

// commit stores nr (whose state is next) as the successor of the current
// record, then makes it current.
func (r *room) commit(nr *Record, next games.State) error {
	prev := r.rec.Version
	nr.Version = prev + 1
	nr.UpdatedAt = r.m.now()
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	// A move's record leaves out the moves sealed in a chunk, stored first.
	if err := r.sealMoves(ctx, nr); err != nil {
		return err
	}
	r.noteDue(nr, next.Status())
	if err := r.write(ctx, nr, prev); err != nil && !r.landed(ctx, nr, err) {
		r.due = -1 // the index may hold nr's time: tell it again once the record is known
		return err
	}
	r.rec, r.st, r.changed = nr, next, r.m.now()
	return nil
}

// write stores nr as the successor of Version prev. A store that takes
// records encoded (EncodedUpdater) gets nr's JSON made from the log's
// encoding, which the state messages need too, and the moves' encoding
// kept from the last write, and with the state vouched for: the game's
// State.MarshalJSON wrote it (with json.Marshal, in games.Erase) or it
// was decoded with the record, so it is valid JSON either way.
func (r *room) write(ctx context.Context, nr *Record, prev int64) error {
	store := r.m.cfg.Store
	eu, ok := store.(EncodedUpdater)
	if !ok {
		return store.Update(ctx, nr, prev)
	}
	qu, quiet := store.(QuietUpdater)
	quiet = quiet && r.subName != ""
	pieces := &recordPieces{log: r.wire.log(nr), logOf: nr.Log, state: nr.State,
		moves: r.wire.movesJSON(nr), movesOf: nr.Moves, cache: &r.wire.rec}
	if quiet {
		pieces.buf, r.recBuf = r.recBuf, nil
	}
	data, err := encodeRecord(nr, pieces)
	if err != nil {
		return fmt.Errorf("rooms: encode match %s: %w", nr.ID, err)
	}
	if !quiet {
		return eu.UpdateEncoded(ctx, nr, data, prev)
	}
	// The room's own subscription need not hear of its write.
	err = qu.UpdateQuiet(ctx, nr, data, prev, r.subName)
	if err == nil {
		r.recBuf = data // the store holds none of it now: the next record's memory
	}
	return err
}

// landed reports whether nr, whose write failed with a conflict, was
// stored all the same: Redis may apply a write and then lose the
// connection before it answers (it restarted, say); the client sends the
// write again, and the compare-and-set then finds this very record in
// place. Without this check the mover is refused (not your turn) for a
// move that was made.
func (r *room) landed(ctx context.Context, nr *Record, err error) bool {
	if !errors.Is(err, ErrConflict) {
		return false
	}
	cur, gerr := r.m.cfg.Store.Get(ctx, r.id)
	return gerr == nil && isStored(cur, nr)
}

// isStored reports whether stored, as read back from the store, is the
// record nr that this room wrote. Comparing the version, the state and the
// time is not enough: a lobby write (a join) made in the same millisecond
// as a presence write has all three equal and different seats, and taking
// it for ours would leave the room without the join, refusing the new
// seat's hello. So the whole records are compared, as JSON.
func isStored(stored, nr *Record) bool {
	if stored.Version != nr.Version || stored.StateID != nr.StateID || stored.UpdatedAt != nr.UpdatedAt ||
		!bytes.Equal(stored.State, nr.State) {
		return false
	}
	a, err1 := json.Marshal(stored)
	b, err2 := json.Marshal(nr)
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}

// refreshForHello re-reads the record for a hello whose credentials did not
// match: a newer record is taken and shown to everyone as usual; one of
// the same version that differs from the room's (the room took another
// writer's record for its own) replaces it too, since the store's is the
// truth. A failure is logged and leaves the room as it was.
func (r *room) refreshForHello() {
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	rec, err := r.m.cfg.Store.Get(ctx, r.id)
	switch {
	case err != nil:
		r.log.Warn("cannot re-read the record for a hello", "err", err)
	case rec.Version > r.rec.Version || (rec.Version == r.rec.Version && !isStored(rec, r.rec)):
		r.takeAndShow(rec)
	}
}

// refresh re-reads the record and, if it is newer, takes it and shows it
// to everyone. changed says whether it was newer.
func (r *room) refresh() (changed bool, err error) {
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	rec, err := r.m.cfg.Store.Get(ctx, r.id)
	if err != nil {
		return false, err
	}
	if rec.Version <= r.rec.Version {
		return false, nil
	}
	r.takeAndShow(rec)
	return true, nil
}
