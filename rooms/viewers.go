package rooms

import (
	"context"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// A room's viewers and seats: connecting and disconnecting, presence
// written to the record, chat and autoplay.

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
