package main

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// retryPause is the pause after a failed setup or a refused move.
const retryPause = 50 * time.Millisecond

// runner holds what every match worker shares.
type runner struct {
	cfg   config
	load  *workload // the game played (cfg.Game)
	lobby *client.Lobby
	hc    *http.Client // for /metrics
	errs  errorCounts
	moves atomic.Int64 // accepted moves
	games atomic.Int64 // matches played to their end
	// seatBytes and watcherBytes count the bytes of the state (and patch)
	// frames the lean client's seats and spectators read.
	seatBytes, watcherBytes atomic.Int64
	// gaps counts the syncs lean connections sent for a patch that did not
	// apply (never, against a healthy server).
	gaps atomic.Int64
	// total is -rate, the cap on all seats' moves together; nil for none.
	total *rate.Limiter
}

// pairing is what the seats of one match share: when a seat sent its
// move (Unix ns), cleared by the next seat to see its turn.
type pairing struct {
	pending atomic.Int64
}

// match is one match set up and connected by one of the two clients.
type match interface {
	// play runs every seat until the game is over, ctx ends or a seat
	// fails; out has one entry per seat.
	play(ctx context.Context, out []samples)
	// close ends the match's connections; resign (the run has ended) first
	// resigns the match if it is not over, so that no bot takes over its
	// seats once the players' grace period ends and loads the server after
	// the run.
	close(resign bool)
}

// worker plays matches one after another until ctx ends. Its first setup
// waits for a slot in sem and then reports to ready; no seat moves before
// start is closed, and the first game then waits a random part of one
// pacing interval.
func (r *runner) worker(ctx context.Context, sem chan struct{}, ready *sync.WaitGroup, start <-chan struct{}, out []samples) {
	first, spread := true, true
	for ctx.Err() == nil {
		sem <- struct{}{}
		m, err := r.setup(ctx)
		<-sem
		if first {
			first = false
			ready.Done()
			select {
			case <-start:
			case <-ctx.Done():
			}
		}
		if err != nil {
			if ctx.Err() == nil {
				r.errs.add(err.Error())
				sleep(ctx, retryPause)
			}
			continue
		}
		if spread {
			// Spread the first games over one pacing interval, so slowly paced
			// matches do not all move in the same instant.
			sleep(ctx, r.firstDelay())
			spread = false
		}
		m.play(ctx, out)
		m.close(ctx.Err() != nil)
	}
}

// setup creates a match, joins every seat through the lobby and connects
// them (and the spectators) with the configured client. Its error's text
// is the error kind to count.
func (r *runner) setup(ctx context.Context) (match, error) {
	id, err := r.lobby.Create(ctx, r.load.name, protocol.CreateRequest{NumPlayers: r.load.seats, Unlisted: true})
	if err != nil {
		return nil, errors.New(errKind("create", err))
	}
	creds := make([]string, r.load.seats)
	for seat := range creds {
		pid := strconv.Itoa(seat)
		j, err := r.lobby.Join(ctx, r.load.name, id, protocol.JoinRequest{PlayerName: "load" + pid, PlayerID: &pid})
		if err != nil {
			if seat > 0 && r.load.resigns { // a full match may have started all the same
				r.abandon(id, creds[0])
			}
			return nil, errors.New(errKind("join", err))
		}
		creds[seat] = j.PlayerCredentials
	}
	var m match
	if r.cfg.Client == clientFull {
		m, err = r.dialFull(ctx, id, creds)
	} else {
		m, err = r.dialLeanSeats(ctx, id, creds)
	}
	if err != nil {
		return nil, errors.New(errKind("dial", err))
	}
	return m, nil
}

// abandon ends a match whose setup failed once seat 0 had joined, so no bot
// plays it later: it resigns as seat 0 on a new connection of the
// configured client (an unstarted match refuses the resign and simply
// expires). Best effort, at most a few seconds.
func (r *runner) abandon(id, creds0 string) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if r.cfg.Client != clientFull {
		if c, err := dialLean(ctx, r.cfg.URL, id, "0", creds0); err == nil {
			c.resign()
			c.Close()
		}
		return
	}
	if c, err := client.Dial(ctx, r.cfg.URL, gameName, id, "0", creds0); err == nil {
		resign(c)
		c.Close()
	}
}

// fullMatch is a match played by two clients/client connections.
type fullMatch struct {
	r     *runner
	conns [2]*client.Conn
}

// dialFull connects both seats of match id with clients/client.
func (r *runner) dialFull(ctx context.Context, id string, creds []string) (match, error) {
	m := &fullMatch{r: r}
	for seat := range 2 {
		c, err := client.DialWith(ctx, r.cfg.URL, gameName, id, strconv.Itoa(seat), creds[seat], client.Options{Patches: r.cfg.patches()})
		if err != nil {
			if seat == 1 {
				resign(m.conns[0])
				m.conns[0].Close()
			} else {
				r.abandon(id, creds[0])
			}
			return nil, err
		}
		m.conns[seat] = c
	}
	return m, nil
}

// close resigns as seat 0 if resign, then closes both connections.
func (m *fullMatch) close(resignFirst bool) {
	if resignFirst {
		resign(m.conns[0])
	}
	for _, c := range m.conns {
		c.Close()
	}
}

// play runs both seats of one match until it ends, ctx ends or a seat fails.
func (m *fullMatch) play(ctx context.Context, out []samples) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var p pairing
	var wg sync.WaitGroup
	for seat := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// A seat that stops before the game is over stops the other. One
			// that saw the end does not: the other sees it too, and stopping
			// it could make seat 0 miss its own winning ack and the game go
			// uncounted.
			if !m.r.playSeat(ctx, m.conns[seat], &p, &out[seat], m.r.pacer()) {
				cancel()
			}
		}()
	}
	wg.Wait()
}

// playSeat moves whenever the seat's view says it is its turn, until the
// game is over. It moves at most once per state, except to retry a refusal
// (after a pause). It returns true when the seat saw the game over, false
// when it stopped before (ctx ended or the connection failed).
func (r *runner) playSeat(ctx context.Context, c *client.Conn, p *pairing, s *samples, pace *rate.Limiter) bool {
	me := c.PlayerID()
	moved := int64(-1) // the stateID of the last state this seat moved on
	st := c.Latest()
	for {
		if over(st) {
			if me == "0" {
				r.games.Add(1)
			}
			return true
		}
		if st.Ctx.Started && st.Ctx.CurrentPlayer == me && st.StateID > moved {
			if sent := p.pending.Swap(0); sent != 0 {
				s.opp = append(s.opp, time.Since(time.Unix(0, sent)))
			}
			if r.wait(ctx, pace) != nil { // not timed: the pause is ours
				return false
			}
			next, ok := r.moveOnce(ctx, c, st, p, s)
			if !ok {
				return false
			}
			if next == nil { // refused: retry on the newest view
				st = c.Latest()
				continue
			}
			moved = st.StateID
			st = next
			continue
		}
		select {
		case st = <-c.States():
		case <-c.Done():
			if ctx.Err() == nil {
				r.errs.add("closed")
			}
			return false
		case <-ctx.Done():
			return false
		}
	}
}

// moveOnce plays the first empty point of st that owner gives the seat to
// move (the seat's own, as moveOnce is called on its turn). It returns the acked state,
// or nil after a refusal (having asked for a fresh state), and false when the
// seat must stop.
func (r *runner) moveOnce(ctx context.Context, c *client.Conn, st *protocol.State, p *pairing, s *samples) (*protocol.State, bool) {
	seat := 0
	if st.Ctx.CurrentPlayer == "1" {
		seat = 1
	}
	x, y, ok := firstEmpty(st.G, seat)
	if !ok {
		r.errs.add("no_empty_point")
		return nil, false
	}
	start := time.Now()
	p.pending.Store(start.UnixNano())
	mctx, cancel := context.WithTimeout(ctx, r.cfg.MoveTimeout)
	ack, err := c.Move(mctx, moveName, x, y)
	cancel()
	if err == nil {
		s.ack = append(s.ack, time.Since(start))
		r.moves.Add(1)
		return ack, true
	}
	p.pending.Store(0)
	if ctx.Err() != nil {
		return nil, false
	}
	r.errs.add(errKind("move", err))
	if errors.Is(err, client.ErrClosed) {
		return nil, false
	}
	// Refused or timed out: pause, then ask for the current view so the
	// loop sees a fresh state to retry on.
	sleep(ctx, retryPause)
	sctx, cancel := context.WithTimeout(ctx, r.cfg.MoveTimeout)
	defer cancel()
	if _, err := c.Sync(sctx); err != nil && ctx.Err() == nil {
		r.errs.add(errKind("sync", err))
	}
	return nil, true
}

// resign ends a match the run left unfinished, so that no bot takes over
// its seats once the players' grace period ends and loads the server after
// the run. Best effort: a rate-limited resign is retried twice.
func resign(c *client.Conn) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for range 3 {
		if over(c.Latest()) {
			return
		}
		_, err := c.Move(ctx, "resign")
		if !client.IsCode(err, protocol.CodeRateLimited) {
			return
		}
		sleep(ctx, time.Second/10)
	}
}

// firstDelay is a random pause of up to one pacing interval (at most 10 s).
func (r *runner) firstDelay() time.Duration {
	if r.cfg.SeatRate <= 0 {
		return 0
	}
	interval := min(time.Duration(float64(time.Second)/r.cfg.SeatRate), 10*time.Second)
	return rand.N(interval + 1)
}

// pacer returns a new connection's move pacing: one token per message, as
// the server counts them (rate.Inf when pacing is off).
func (r *runner) pacer() *rate.Limiter {
	if r.cfg.SeatRate == 0 {
		return rate.NewLimiter(rate.Inf, 0)
	}
	return rate.NewLimiter(rate.Limit(r.cfg.SeatRate), r.cfg.SeatBurst)
}

// wait waits for a seat's turn to send a move: its own pacing, then the
// cap on all seats' moves (-rate).
func (r *runner) wait(ctx context.Context, pace *rate.Limiter) error {
	if err := pace.Wait(ctx); err != nil {
		return err
	}
	if r.total != nil {
		return r.total.Wait(ctx)
	}
	return nil
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
