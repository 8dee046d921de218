package rooms

import (
	"context"
	"time"

	"github.com/chaguan/chaguan/games"
)

// A turn clock must run out with nobody connected, after a restart too:
// a room keeps its bot timer only while it is loaded, and a process that
// restarts has no room loaded. So every room tells the store, when it
// writes a record, when that match's earliest running clock of a person
// runs out (DueIndex.SetDue); each Manager polls the index (watchClocks)
// and loads the rooms whose time has come, and a loaded room plays the
// timeout from its record as usual. Claiming takes an entry out of the
// index atomically, so one process claims it; were two to load the room
// anyway (one had it loaded already), the timeout is a move like any
// other, written with compare-and-set: it lands once.

// DueIndex is implemented by stores that index matches by when a turn
// clock runs out (the memory and Redis stores).
type DueIndex interface {
	// SetDue records that match id of game has a clock that runs out at
	// (Unix ms); at 0 removes the entry. An entry is a hint: the room
	// that loads for it checks its record.
	SetDue(ctx context.Context, game, id string, at int64) error
	// ClaimDue removes and returns up to limit entries due at or before
	// now, oldest first. An entry is returned to one caller only.
	ClaimDue(ctx context.Context, now int64, limit int) ([]DueMatch, error)
}

// DueMatch is one entry of a DueIndex.
type DueMatch struct {
	Game, ID string
	At       int64 // Unix ms
}

// DefaultClockPoll is Config.ClockPoll's default: how often a Manager
// looks for clocks that ran out in matches it has not loaded.
const DefaultClockPoll = 250 * time.Millisecond

// clockSoon is how far ahead an unwatched room keeps a timer for a clock
// itself; a later one it leaves to the poller, so that it may unload.
const clockSoon = time.Second

// watchesClocks reports whether the manager polls a DueIndex.
func (m *Manager) watchesClocks() bool {
	_, ok := m.cfg.Store.(DueIndex)
	return ok && m.cfg.ClockPoll > 0
}

// dueAt is when the earliest running clock of a person (not a bot, not on
// autoplay) runs out in rec whose status is st; 0 when none runs.
func dueAt(rec *Record, st games.Status) int64 {
	if rec.Clocks == nil || len(rec.Gameover) > 0 {
		return 0
	}
	var first int64
	for seat, s := range rec.Seats {
		if s.CredHash == "" || s.Bot != "" || s.Autoplay {
			continue
		}
		if at, ok := rec.Clocks.deadline(st, seat); ok && (first == 0 || at < first) {
			first = at
		}
	}
	return first
}

// noteDue tells the store's DueIndex when rec's next clock runs out, if
// that changed since the room last told it. It is called before the
// record is written, so a crash between the two leaves an entry too many
// (a room loads, finds nothing due, and tells the index the truth), never
// one too few. Failures are logged: the room's own timer still runs.
func (r *room) noteDue(rec *Record, st games.Status) {
	idx, ok := r.m.cfg.Store.(DueIndex)
	if !ok || rec.Options.Clock == nil {
		return
	}
	at := dueAt(rec, st)
	if at == r.due {
		return
	}
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	if err := idx.SetDue(ctx, rec.Game, rec.ID, at); err != nil {
		r.log.Warn("cannot index the turn clock", "err", err)
		return
	}
	r.due = at
}

// watchClocks polls the store's DueIndex every ClockPoll until the
// manager stops, and loads the room of every match whose clock ran out,
// which plays the timeout. It runs only when the store has an index.
func (m *Manager) watchClocks(idx DueIndex) {
	defer m.wg.Done()
	t := time.NewTicker(m.cfg.ClockPoll)
	defer t.Stop()
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-m.drain:
			return
		case <-t.C:
		}
		m.claimDue(idx)
	}
}

// claimDue claims the matches whose clock ran out and wakes their rooms.
func (m *Manager) claimDue(idx DueIndex) {
	for {
		ctx, cancel := context.WithTimeout(m.ctx, m.cfg.OpTimeout)
		due, err := idx.ClaimDue(ctx, m.now(), 64)
		cancel()
		if err != nil {
			m.cfg.Logger.Warn("cannot read the turn clocks' index", "err", err)
			return
		}
		for _, d := range due {
			g, ok := m.cfg.Games.Get(d.Game)
			if !ok {
				continue
			}
			if err := m.post(d.ID, g, cmdClockDue{}); err != nil {
				// A busy or stopping room: put the entry back for the
				// next round (or another process).
				ctx, cancel := context.WithTimeout(m.ctx, m.cfg.OpTimeout)
				_ = idx.SetDue(ctx, d.Game, d.ID, d.At)
				cancel()
			}
		}
		if len(due) < 64 {
			return
		}
	}
}

// onClockDue handles cmdClockDue: the claim took the match's entry out of
// the index, so the room puts it back (a hint of the same time, or a retry
// a little later when the time has passed: a timeout that cannot be
// played yet is looked at again, and one another process is playing is
// not claimed in a tight loop), then schedules the bot from its record.
func (r *room) onClockDue() {
	r.due = -1
	if at := dueAt(r.rec, r.st.Status()); at > 0 && at <= r.m.now() {
		if idx, ok := r.m.cfg.Store.(DueIndex); ok {
			ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
			if err := idx.SetDue(ctx, r.rec.Game, r.id, r.m.now()+dueRetry.Milliseconds()); err == nil {
				r.due = at // what the room knows the record's time to be; the next change re-tells it
			}
			cancel()
		}
	} else {
		r.noteDue(r.rec, r.st.Status())
	}
	r.schedule()
}

// dueRetry is how long after a claim whose timeout the room could not play
// at once the index offers the match again.
const dueRetry = 2 * time.Second

// cmdClockDue wakes a room whose clock the index says ran out: loading
// schedules the bot, and a loaded room schedules again from its record.
// The room tells the index again when the next clock runs out, since the
// claim took the entry out.
type cmdClockDue struct{}
