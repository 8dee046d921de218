package rooms

import (
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Turn clocks (Fischer): each seat has a bank of time that runs down while
// the seat may move (every seat of a simultaneous stage at once), and
// gains PerMoveMs after each of its moves. Everything is derived from
// stored times (Clocks.Since and the banks at that moment), never from a
// timer only one process knows, so any process that loads the room, after
// a restart or on another node, computes the same remaining time. When a
// person's bank runs out, the seat's bot plays that turn (the grace
// period's path), the log says so, and after MaxTimeouts in a row the seat
// passes to the bot for good, as if the player had left.

// ClockOptions are a match's clock, fixed at creation.
type ClockOptions struct {
	PerMoveMs int64 `json:"perMoveMs"`
	BankMs    int64 `json:"bankMs"`
}

// Clocks are a match's running clocks.
type Clocks struct {
	// Left is each seat's bank at Since, in ms (0 or less once run out).
	Left []int64 `json:"left"`
	// Since is when the current period began (Unix ms): the start of the
	// match, then each accepted move. 0 until the match starts.
	Since int64 `json:"since"`
	// Timeouts counts each seat's timeouts in a row.
	Timeouts []int `json:"timeouts,omitempty"`
}

// Clock limits, checked on create.
const (
	MaxClockBank    = 24 * 3600 // seconds
	MaxClockPerMove = 3600      // seconds
	// MaxTimeouts in a row pass a seat to the bot for good.
	MaxTimeouts = 3
	// TimeoutText is the log entry's text of a move the bot made because
	// the seat's clock ran out; TimeoutLeftText when it was the last.
	TimeoutText     = "timeout"
	TimeoutLeftText = "timeout: the seat passes to the bot"
)

// startClocks starts rec's clocks at now once the match has started: each
// seat's bank full. It does nothing without a clock, before the start, or
// once they run.
func startClocks(rec *Record, now int64) {
	c := rec.Options.Clock
	if c == nil || !rec.started() || (rec.Clocks != nil && rec.Clocks.Since > 0) {
		return
	}
	cl := &Clocks{Left: make([]int64, rec.NumPlayers), Since: now, Timeouts: make([]int, rec.NumPlayers)}
	for i := range cl.Left {
		cl.Left[i] = c.BankMs
	}
	rec.Clocks = cl
}

// running reports whether seat's clock runs in status (it may move).
func (c *Clocks) running(st games.Status, seat int) bool {
	return c != nil && c.Since > 0 && st.Outcome == nil && st.CanMove(seat)
}

// remaining is seat's bank at now (ms; 0 or less once run out).
func (c *Clocks) remaining(st games.Status, seat int, now int64) int64 {
	if c == nil || seat < 0 || seat >= len(c.Left) {
		return 0
	}
	if c.running(st, seat) {
		return c.Left[seat] - max(0, now-c.Since)
	}
	return c.Left[seat]
}

// deadline is when seat's bank runs out in status, if it runs.
func (c *Clocks) deadline(st games.Status, seat int) (int64, bool) {
	if !c.running(st, seat) || seat >= len(c.Left) {
		return 0, false
	}
	return c.Since + c.Left[seat], true
}

// afterMove returns the clocks after seat moved at now in the state whose
// status was before: every seat that could move pays the time since
// Since (no bank falls below 0), the mover gains perMove, and its count
// of timeouts in a row grows with a timeout or starts again. The receiver
// is unchanged (records are copied, not shared).
func (c *Clocks) afterMove(before games.Status, seat int, now int64, perMove int64, timeout bool) *Clocks {
	if c == nil || c.Since == 0 {
		return c
	}
	n := &Clocks{Left: append([]int64(nil), c.Left...), Since: now, Timeouts: append([]int(nil), c.Timeouts...)}
	for len(n.Timeouts) < len(n.Left) {
		n.Timeouts = append(n.Timeouts, 0)
	}
	spent := max(0, now-c.Since)
	for s := range n.Left {
		if c.running(before, s) {
			n.Left[s] = max(0, n.Left[s]-spent)
		}
	}
	if seat >= 0 && seat < len(n.Left) {
		n.Left[seat] += perMove
		if timeout {
			n.Timeouts[seat]++
		} else {
			n.Timeouts[seat] = 0
		}
	}
	return n
}

// clockView is what the state message carries of the clocks at now: each
// seat's remaining time and whether it runs, with the server's time, so
// that clients count down without drift. nil without a clock.
func (r *Record) clockView(st games.Status, now int64) *protocol.ClockView {
	c := r.Options.Clock
	if c == nil {
		return nil
	}
	v := &protocol.ClockView{ServerTime: now, PerMoveMs: c.PerMoveMs, BankMs: c.BankMs, Seats: make([]protocol.SeatClock, r.NumPlayers)}
	for i := range v.Seats {
		left := c.BankMs
		running := false
		if r.Clocks != nil && r.Clocks.Since > 0 {
			left = max(0, r.Clocks.remaining(st, i, now))
			running = r.Clocks.running(st, i)
		}
		v.Seats[i] = protocol.SeatClock{RemainingMs: left, Running: running}
	}
	return v
}

// timeoutText is the log text of a timeout move, the count-th in a row.
func timeoutText(count int) string {
	if count >= MaxTimeouts {
		return TimeoutLeftText
	}
	return TimeoutText
}
