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
//
// Two places check the holders, for two needs:
//   - a loaded room checks its seats' holders every liveCheckEvery and
//     writes the dead ones' connections closed (checkHolders): the seats
//     show away to its viewers, their grace period starts and bots cover
//     their turns;
//   - the lobby (Get and List) reads records no process may have loaded,
//     and shows the seats of dead holders away (hideDeadHolders) without
//     writing: a lobby read must not write, and in a match no live
//     process has loaded nobody is connected, so no bot needs to cover a
//     turn before someone comes back. The record is put right by the
//     first room that loads the match (a player connecting, a bot's
//     turn). The Redis store reuses each answer of Alive for a second, so
//     lobby reads cost little, and a crash shows at most a second later.
//
// There is no sweep of unloaded matches: it would read every record of
// every game, in every process, and start bots in matches nobody watches.
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
	return holdersOf(r.m.processID(), r.rec)
}

// holdersOf lists the processes other than me holding the records' seats,
// each once.
func holdersOf(me string, recs ...*Record) []string {
	var ids []string
	for _, rec := range recs {
		for _, s := range rec.Seats {
			for _, h := range s.Holders {
				if h != me && !slices.Contains(ids, h) {
					ids = append(ids, h)
				}
			}
		}
	}
	return ids
}

// dropDead counts the connections of the processes alive says are gone
// (those it was asked about and found dead) as closed in rec, and reports
// whether that changed anything.
func dropDead(rec *Record, alive map[string]bool, now int64) bool {
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
}

// hideDeadHolders shows, in records read for the lobby, the connections
// held by processes that are gone as closed, so isConnected is right in
// matches no process has loaded (see Liveness). It changes only these
// copies, with one Alive call for all of them; when that fails they are
// shown as stored.
func (m *Manager) hideDeadHolders(ctx context.Context, recs ...*Record) {
	if m.cfg.Liveness == nil {
		return
	}
	ids := holdersOf(m.processID(), recs...)
	if len(ids) == 0 {
		return
	}
	ctx, cancel := m.opCtx(ctx)
	alive, err := m.cfg.Liveness.Alive(ctx, ids)
	cancel()
	if err != nil {
		m.cfg.Logger.Warn("cannot check the other processes for the lobby", "err", err)
		return
	}
	now := m.now()
	for _, rec := range recs {
		dropDead(rec, alive, now)
	}
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
	r.writeMeta(func(rec *Record) bool { return dropDead(rec, alive, now) })
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
