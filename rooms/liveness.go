package rooms

import (
	"context"
	"slices"
	"time"
)

// Liveness tells a process its own ID and which other processes sharing
// the store are still running. A seat's record lists the processes holding
// its connections (Seat.Holders); when a process dies without saying its
// players left (a crash: a stopping one says so, see Manager.Close), the
// others find its entries dead and count those connections as closed, so
// the players show away and their grace period starts. The Redis store
// implements it; without one (the memory store, a single process) no
// holders are recorded.
type Liveness interface {
	ProcessID() string
	// Alive reports, for each ID, whether that process is running.
	Alive(ctx context.Context, ids []string) (map[string]bool, error)
}

// liveCheckEvery is how often a loaded room checks the processes holding
// its seats' connections: often enough that a crash costs little of the
// grace period.
func liveCheckEvery(grace time.Duration) time.Duration {
	return min(10*time.Second, max(grace/4, 100*time.Millisecond))
}

// processID is this process's ID, "" without Liveness.
func (m *Manager) processID() string {
	if m.cfg.Liveness == nil {
		return ""
	}
	return m.cfg.Liveness.ProcessID()
}

// foreignHolders lists the other processes holding the record's seats.
func (r *room) foreignHolders() []string {
	me := r.m.processID()
	var ids []string
	for _, s := range r.rec.Seats {
		for _, h := range s.Holders {
			if h != me && !slices.Contains(ids, h) {
				ids = append(ids, h)
			}
		}
	}
	return ids
}

// armLiveCheck arms the room's liveness timer while other processes hold
// its seats; soon is for the first check after a load. Holders change only
// with presence writes and other processes' records (never with a move),
// so it is called after those, after a load and after each check.
func (r *room) armLiveCheck(soon bool) {
	if r.m.cfg.Liveness == nil || r.liveC != nil || len(r.foreignHolders()) == 0 {
		return
	}
	d := liveCheckEvery(r.m.cfg.Grace)
	if soon {
		d = 0
	}
	r.live = time.NewTimer(d)
	r.liveC = r.live.C
}

// checkHolders drops the connections of processes that are gone from the
// seats' records, in one write.
func (r *room) checkHolders() {
	ids := r.foreignHolders()
	if len(ids) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	alive, err := r.m.cfg.Liveness.Alive(ctx, ids)
	cancel()
	if err != nil {
		r.log.Warn("cannot check the other processes", "err", err)
		return
	}
	now := r.m.now()
	r.writeMeta(func(rec *Record) bool {
		changed := false
		for i := range rec.Seats {
			s := &rec.Seats[i]
			for _, h := range slices.Clone(s.Holders) {
				if seen, asked := alive[h]; asked && !seen {
					s.leave(now, h)
					changed = true
				}
			}
		}
		return changed
	})
}

// reassertHolders puts this process back among the holders of the seats
// it serves when another process's record dropped it (it found this one
// dead while its liveness subscription was reconnecting, say), so that a
// player who is connected is not covered by the bot.
func (r *room) reassertHolders() {
	me := r.m.processID()
	if me == "" {
		return
	}
	missing := r.connectedSeats()
	for seat := range missing {
		if slices.Contains(r.rec.Seats[seat].Holders, me) {
			delete(missing, seat)
		}
	}
	if len(missing) == 0 {
		return
	}
	r.writeMeta(func(rec *Record) bool {
		changed := false
		for seat, hash := range missing {
			s := &rec.Seats[seat]
			if s.CredHash != hash || slices.Contains(s.Holders, me) {
				continue
			}
			s.join(me)
			changed = true
		}
		return changed
	})
}
