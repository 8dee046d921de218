package main

import (
	"context"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/clients/client"
)

// leanMatch is a match played by lean connections: its seats, and the
// spectators that only read.
type leanMatch struct {
	r        *runner
	seats    []*leanConn
	watchers []*leanConn
}

// dialLeanSeats connects every seat of match id (creds[i] is seat i's),
// then its spectators, with lean connections. On failure it closes what it
// opened, having resigned (or abandoned) the match when the game can be
// resigned.
func (r *runner) dialLeanSeats(ctx context.Context, id string, creds []string) (match, error) {
	m := &leanMatch{r: r}
	load := r.load
	for seat := range load.viewers() {
		pid, cred, count := "", "", &r.watcherBytes
		if seat < load.seats {
			pid, cred, count = strconv.Itoa(seat), creds[seat], &r.seatBytes
		}
		c, err := dialLeanGame(ctx, load, leanOptions{stateBytes: count, patches: r.cfg.patches(), gaps: &r.gaps}, r.cfg.URL, id, pid, cred)
		if err != nil {
			m.fail(id, creds[0])
			return nil, err
		}
		if seat < load.seats {
			m.seats = append(m.seats, c)
		} else {
			m.watchers = append(m.watchers, c)
		}
	}
	return m, nil
}

// fail ends a match whose connections could not all be opened: seat 0
// resigns (on its own connection if it has one) when the game allows it,
// and every open connection is closed.
func (m *leanMatch) fail(id, creds0 string) {
	if m.r.load.resigns {
		if len(m.seats) > 0 {
			m.seats[0].resign()
		} else {
			m.r.abandon(id, creds0)
		}
	}
	m.closeAll()
}

// play runs every seat and spectator, one goroutine each, until the game
// is over, ctx ends or a seat fails. A seat that stops before the game is
// over stops the others: at once if the run goes on or the game cannot be
// resigned, else after leanEndGrace, which leaves the seat that notices the
// end first the time to resign, so that the others read the game's end and
// no seat waits for a move that will not come.
func (m *leanMatch) play(ctx context.Context, out []samples) {
	pairCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var p pairing
	var wg sync.WaitGroup
	run := func(c *leanConn, body func() bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stop := context.AfterFunc(pairCtx, func() {
				if ctx.Err() != nil && m.r.load.resigns {
					c.interrupt(leanEndGrace)
				} else {
					c.interrupt(0)
				}
			})
			defer stop()
			if !body() {
				cancel()
			}
		}()
	}
	for seat, c := range m.seats {
		run(c, func() bool { return m.r.playLeanSeat(ctx, pairCtx, c, &p, &out[seat], m.r.pacer()) })
	}
	for _, c := range m.watchers {
		run(c, func() bool { return m.r.watchLean(pairCtx, c) })
	}
	wg.Wait()
}

// watchLean reads a spectator's frames until the game is over (true) or
// pairCtx ends or the connection fails (false).
func (r *runner) watchLean(pairCtx context.Context, c *leanConn) bool {
	for !c.v.over {
		c.armRead()
		if _, _, err := c.next(); err != nil {
			if pairCtx.Err() == nil {
				r.errs.add("watch/" + readErrKind(err, false, false))
			}
			return false
		}
	}
	return true
}

// close closes every connection. If resign (the run has ended), the game
// can be resigned and no seat has seen the game over or resigned while
// playing, seat 0 resigns first, as the full client does.
func (m *leanMatch) close(resign bool) {
	if resign && m.r.load.resigns && !m.endedOrResigned() {
		m.seats[0].resign()
	}
	m.closeAll()
}

// endedOrResigned reports whether a seat saw the game over or resigned.
func (m *leanMatch) endedOrResigned() bool {
	for _, c := range m.seats {
		if c.v.over || c.resigns {
			return true
		}
	}
	return false
}

// closeAll closes every open connection of the match.
func (m *leanMatch) closeAll() {
	for _, c := range slices.Concat(m.seats, m.watchers) {
		c.Close()
	}
}

// playLeanSeat plays one seat on its own goroutine, as playSeat does with
// the full client: it moves once per state that gives it the turn (after
// the pacing wait), reads frames until its ack, and after a refusal pauses,
// syncs and retries on the fresh view. It returns true when the seat has
// seen the game over, false when it stopped before: pairCtx ended (the run
// ended, and then it resigns, or the other seat stopped), the connection
// failed, or an awaited answer was late (gorilla cannot read after a
// timeout, so the match is left, where the full client keeps trying).
func (r *runner) playLeanSeat(runCtx, pairCtx context.Context, c *leanConn, p *pairing, s *samples, pace *rate.Limiter) bool {
	moved := int64(-1) // the stateID of the last state this seat moved on and got acked
	var (
		pending int64     // the id of the move awaiting its answer; 0 for none
		movedOn int64     // the stateID pending was sent on
		start   time.Time // when pending was sent
		syncing bool      // a sync awaits its state; no move before it
	)
	for {
		v := &c.v
		if v.over {
			if c.me == "0" {
				r.games.Add(1)
			}
			return true
		}
		if pairCtx.Err() != nil {
			if runCtx.Err() != nil && r.load.resigns {
				c.resign()
			}
			return false
		}
		if pending == 0 && !syncing && v.started && v.current == c.me && v.stateID > moved {
			if sent := p.pending.Swap(0); sent != 0 {
				s.opp = append(s.opp, time.Since(time.Unix(0, sent)))
			}
			if r.wait(pairCtx, pace) != nil { // not timed: the pause is ours
				continue
			}
			start = time.Now()
			p.pending.Store(start.UnixNano())
			id, ok, err := c.playView(r.cfg.MoveTimeout)
			if !ok {
				p.pending.Store(0)
				r.errs.add(r.load.noMove)
				return false
			}
			if err != nil {
				p.pending.Store(0)
				if pairCtx.Err() == nil {
					r.errs.add(errKind("move", client.ErrClosed))
				}
				return false
			}
			pending, movedOn = id, v.stateID
		}
		c.armRead()
		kind, e, err := c.next()
		if err != nil {
			if pairCtx.Err() == nil {
				r.errs.add(readErrKind(err, pending != 0, syncing))
			}
			return false
		}
		switch {
		case kind == frameState && pending != 0 && v.hasAck && v.ack == pending:
			s.ack = append(s.ack, time.Since(start))
			r.moves.Add(1)
			moved, pending, c.due = movedOn, 0, time.Time{}
		case kind == frameState && syncing:
			syncing, c.due = false, time.Time{}
		case kind == frameError && pending != 0 && e.Ref != nil && *e.Ref == pending:
			// Refused: count it by code, pause, then ask for the current
			// view so the loop sees a fresh state to retry on.
			p.pending.Store(0)
			pending, c.due = 0, time.Time{}
			r.errs.add(e.Code)
			sleep(pairCtx, retryPause)
			if pairCtx.Err() != nil {
				continue
			}
			if err := c.sync(r.cfg.MoveTimeout); err != nil {
				r.errs.add(errKind("sync", client.ErrClosed))
				return false
			}
			syncing = true
		case kind == frameError && syncing && e.Ref == nil:
			// The sync itself was refused (rate_limited): retry on the
			// view at hand, as the full client does after a failed sync.
			r.errs.add("sync/" + e.Code)
			syncing, c.due = false, time.Time{}
		}
	}
}

// readErrKind names a failed read for the error counts: a late ack or
// sync state as the full client names them, a connection that went quiet
// for leanIdleWait as "wait/timeout", anything else as "closed".
func readErrKind(err error, pending, syncing bool) string {
	switch {
	case !isTimeout(err):
		if pending {
			return "move/closed"
		}
		return "closed"
	case pending:
		return "move/timeout"
	case syncing:
		return "sync/timeout"
	}
	return "wait/timeout"
}
