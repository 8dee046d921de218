package rooms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

func (r *room) connect(c cmdConnect) error {
	if r.rec.Game != c.game {
		return newError(protocol.CodeNotFound, "no %s match %q", c.game, r.id)
	}
	v := c.v
	v.r = r
	if c.hello.PlayerID != nil {
		seat := r.rec.seatOf(*c.hello.PlayerID, c.hello.Credentials)
		if seat < 0 {
			// The credentials may come from a join this room has not
			// seen yet: read the stored record once before refusing.
			r.refreshForHello()
			seat = r.rec.seatOf(*c.hello.PlayerID, c.hello.Credentials)
		}
		if seat < 0 {
			return newError(protocol.CodeUnauthorized, "wrong playerID or credentials")
		}
		v.seat, v.credHash, v.name = seat, r.rec.Seats[seat].CredHash, r.rec.Seats[seat].Name
	} else {
		v.name = "Spectator"
		if name, err := validName("name", c.hello.Name); err == nil {
			v.name = name
		}
	}
	r.viewers[v] = struct{}{}
	r.sendState(v, nil)
	if len(r.viewers) == 1 {
		r.schedule() // a match stopped for want of watchers resumes
	}
	if v.seat >= 0 {
		r.presence[v.seat]++
		if r.presence[v.seat] == 1 {
			r.writeMeta(func(rec *Record) bool {
				s := &rec.Seats[v.seat]
				if s.CredHash != v.credHash {
					return false
				}
				s.join(r.m.processID())
				return true
			})
		}
	}
	return nil
}

func (r *room) disconnect(v *Viewer) {
	if _, ok := r.viewers[v]; !ok {
		return
	}
	delete(r.viewers, v)
	if len(r.viewers) == 0 {
		r.last = nil // its encoded views serve only viewers
	}
	if v.seat < 0 {
		return
	}
	r.presence[v.seat]--
	if r.presence[v.seat] > 0 {
		return
	}
	seat, hash := v.seat, v.credHash
	r.writeMeta(func(rec *Record) bool {
		s := &rec.Seats[seat]
		if s.CredHash != hash {
			return false
		}
		s.leave(r.m.now(), r.m.processID())
		return true
	})
}

// join counts one process more holding a connection for the seat, adding
// its holder entry ("" for none); the seat is no longer away.
func (s *Seat) join(holder string) {
	s.Processes++
	if holder != "" {
		s.Holders = append(slices.Clone(s.Holders), holder)
	}
	s.AwaySince = 0
}

// leave counts one process fewer holding a connection for the seat,
// removing one entry of holder ("" for none); the seat is away from now
// when none is left.
func (s *Seat) leave(now int64, holder string) {
	if s.Processes > 0 {
		s.Processes--
	}
	if i := slices.Index(s.Holders, holder); i >= 0 && holder != "" {
		s.Holders = slices.Delete(slices.Clone(s.Holders), i, i+1)
	}
	if s.Processes == 0 {
		s.AwaySince = now
	}
}

// connectedSeats maps each seat connected through this room to the
// credential hash its viewers joined with.
func (r *room) connectedSeats() map[int]string {
	hashes := map[int]string{}
	for v := range r.viewers {
		if v.seat >= 0 && r.presence[v.seat] > 0 {
			hashes[v.seat] = v.credHash
		}
	}
	return hashes
}

// depart stores, in one write, that every seat connected through this
// room has lost its connection here, as if each of its viewers had
// disconnected: the process is stopping.
func (r *room) depart() {
	hashes := r.connectedSeats()
	if len(hashes) == 0 {
		return
	}
	now := r.m.now()
	r.writeMeta(func(rec *Record) bool {
		changed := false
		for seat, hash := range hashes {
			s := &rec.Seats[seat]
			if s.CredHash != hash {
				continue
			}
			s.leave(now, r.m.processID())
			changed = true
		}
		return changed
	})
	for seat := range hashes {
		r.presence[seat] = 0
	}
}

// writeMeta applies fn to a copy of the record and stores it with
// compare-and-set, re-reading on conflict. fn returns false to write
// nothing. Failures are logged: presence is advisory.
func (r *room) writeMeta(fn func(*Record) bool) {
	for try := 0; try < maxCASTries; try++ {
		nr := r.rec.clone()
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
	// The stores encode nr with EncodeRecord; hand it the log's encoding,
	// which the state messages need too, and vouch for the state: the
	// game's State.MarshalJSON wrote it (with json.Marshal, in games.Erase)
	// or it was decoded with the record, so it is valid JSON either way.
	nr.pieces = &recordPieces{log: r.wire.log(nr), logOf: nr.Log, state: nr.State,
		moves: r.wire.movesJSON(nr), movesOf: nr.Moves}
	r.noteDue(nr, next.Status())
	if err := r.m.cfg.Store.Update(ctx, nr, prev); err != nil && !r.landed(ctx, nr, err) {
		r.due = -1 // the index may hold nr's time: tell it again once the record is known
		return err
	}
	r.rec, r.st, r.changed = nr, next, r.m.now()
	return nil
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

func (r *room) onChat(c cmdChat) {
	if _, ok := r.viewers[c.v]; !ok {
		return
	}
	from := ""
	if c.v.seat >= 0 {
		from = games.PlayerID(c.v.seat)
	}
	msg := &protocol.Chat{Type: protocol.TypeChat, From: from, Name: c.v.name, Text: c.text, At: r.m.now()}
	if c.v.seat >= 0 {
		msg.Name = r.rec.Seats[c.v.seat].Name
	}
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	// Delivery, to this process's viewers too, comes back as a store event.
	if err := r.m.cfg.Store.Publish(ctx, r.id, Event{Chat: msg}); err != nil {
		r.sendError(c.v, AsError(err), nil)
	}
}

func (r *room) onAutoplay(c cmdAutoplay) {
	if _, ok := r.viewers[c.v]; !ok {
		return
	}
	if c.v.seat < 0 {
		r.sendError(c.v, newError(protocol.CodeUnauthorized, "spectators have no seat to autoplay"), nil)
		return
	}
	seat, hash := c.v.seat, c.v.credHash
	r.writeMeta(func(rec *Record) bool {
		s := &rec.Seats[seat]
		if s.CredHash != hash || s.Autoplay == c.on {
			return false
		}
		s.Autoplay = c.on
		return true
	})
}

// send queues b, a message of the given kind, for v, dropping a viewer
// that cannot keep up.
func (r *room) send(v *Viewer, b []byte, kind Kind) {
	if v.sink.Send(b, kind) {
		return
	}
	r.log.Info("dropping slow viewer", "seat", v.seat)
	r.disconnect(v)
	v.sink.Close()
}

func (r *room) sendError(v *Viewer, e *Error, ref *int64) {
	r.m.cfg.Metrics.MoveRefused(e.Code)
	r.send(v, e.Frame(ref), KindOther)
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("rooms: marshal: " + err.Error())
	}
	return b
}
