package rooms

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Playing a move: checking it against the rules and the stateID, building
// the successor record, committing it and showing it.

func (r *room) onMove(c cmdMove) {
	v := c.v
	if _, ok := r.viewers[v]; !ok {
		return
	}
	if v.seat < 0 {
		r.sendError(v, newError(protocol.CodeUnauthorized, "spectators cannot move"), c.id)
		return
	}
	if err := r.play(v.seat, c.name, c.args, c.stateID); err != nil {
		r.sendError(v, err, c.id)
		return
	}
	r.m.cfg.Metrics.MoveAccepted(r.rec.Game, time.Since(c.at))
	r.broadcast(v, c.id)
	r.schedule()
}

// play checks and applies one move for seat and stores it. This room's
// copy of the record may lag behind another process's write: a compare-and-
// set conflict re-reads the record and judges the move again (up to
// maxCASTries times: other writers may be storing presence or lobby
// changes), and a refusal that a newer state might not give (not your
// turn, …) re-reads it once, so a legal move is never refused for
// staleness and two conflicting moves never both land.
func (r *room) play(seat int, name string, args json.RawMessage, stateID *int64) *Error {
	return r.playAs(seat, name, args, stateID, false)
}

// playAs is play for a move that the bot makes because seat's clock ran
// out (timeout), or any other (not).
func (r *room) playAs(seat int, name string, args json.RawMessage, stateID *int64, timeout bool) *Error {
	for try := 0; ; try++ {
		e, conflict := r.tryPlay(seat, name, args, stateID, timeout)
		switch {
		case e == nil:
			return nil
		case conflict:
			// Another writer (a move on another process, a player's
			// presence, a lobby call) stored a record first: read it and
			// judge the move again, which may now be refused.
			if try+1 >= maxCASTries {
				return newError(protocol.CodeStaleState, "the match kept changing under your move; sync and retry")
			}
		case try > 0 || !mayBeStale(e.Code):
			return e
		}
		changed, err := r.refresh()
		if err != nil {
			return AsError(err)
		}
		if !changed && !conflict {
			return e
		}
	}
}

// mayBeStale lists the refusals a newer state could turn into acceptance.
func mayBeStale(code string) bool {
	switch code {
	case protocol.CodeNotYourTurn, protocol.CodeInvalidMove, protocol.CodeNotStarted,
		protocol.CodeGameOver, protocol.CodeStaleState:
		return true
	}
	return false
}

func (r *room) tryPlay(seat int, name string, args json.RawMessage, stateID *int64, timeout bool) (e *Error, conflict bool) {
	if stateID != nil && *stateID != r.rec.StateID {
		return newError(protocol.CodeStaleState, "your view is out of date (state %d, now %d); sync and retry", *stateID, r.rec.StateID), false
	}
	if !r.rec.started() {
		return newError(protocol.CodeNotStarted, "the match starts when every seat is taken"), false
	}
	if len(r.rec.Gameover) > 0 {
		return AsError(games.ErrGameOver), false
	}
	before := r.st.Status()
	next, err := r.st.Apply(seat, name, args)
	if err != nil {
		return AsError(err), false
	}
	// The record, the log, the replay and every viewer get the move's
	// arguments as the game parsed them, never the client's bytes
	// (padding, extra fields, another spelling).
	if args, err = r.game.CanonicalArgs(name, args); err != nil {
		return AsError(err), false
	}
	nr, err := r.successor(seat, name, args, before, next, timeout)
	if err != nil {
		return AsError(err), false
	}
	handed := credsChanged(r.rec.Seats, nr.Seats)
	err = r.commit(nr, next)
	if errors.Is(err, ErrConflict) {
		return AsError(err), true
	}
	if err == nil && handed {
		// The move passed a seat to the bot (the third timeout in a row):
		// its person's connections watch from now on, as after a Leave,
		// whose record reaches the room through takeAndShow.
		r.demoteUnseated()
	}
	return AsError(err), false
}

// credsChanged reports whether a seat's credentials differ between old and
// cur: a seat was taken, freed or handed to a bot.
func credsChanged(old, cur []Seat) bool {
	if len(old) != len(cur) {
		return true
	}
	for i := range old {
		if old[i].CredHash != cur[i].CredHash {
			return true
		}
	}
	return false
}

// successor builds the record that follows the current one after a move.
// It copies only what changes, so the hot path stays cheap.
// A move the bot made because the seat's clock ran out (timeout) says so
// in the log, and the third in a row passes the seat to the bot for good.
func (r *room) successor(seat int, name string, args json.RawMessage, before games.Status, next games.State, timeout bool) (*Record, error) {
	nr := *r.rec
	nr.Seats = append([]Seat(nil), r.rec.Seats...)
	// Sized from the last state's JSON: a move adds a little to it.
	state, err := next.AppendJSON(make([]byte, 0, len(r.rec.State)+64))
	if err != nil {
		return nil, err
	}
	nr.State = state
	nr.StateID++
	entry := moveLogEntry(r.game.Info(), before, seat, name, args)
	if n := r.note; n != nil && n.seat == seat {
		// A bot's move: the Engine's reason, or the fallback that played.
		entry.BotReason, entry.Fallback = n.reason, n.fallback
	}
	if c := nr.Options.Clock; c != nil {
		now := r.m.now()
		startClocks(&nr, now) // a record from before the start was stored with none
		nr.Clocks = nr.Clocks.afterMove(before, seat, now, c.PerMoveMs, timeout)
		if timeout && nr.Clocks != nil {
			entry.Text = timeoutText(nr.Clocks.Timeouts[seat])
			if nr.Clocks.Timeouts[seat] >= MaxTimeouts {
				s := &nr.Seats[seat]
				s.CredHash, s.Left, s.Autoplay = "", true, false
				s.Bot = r.m.defaultBot(r.game.Info())
			}
		}
	}
	nr.Log = appendMoveLog(r.rec.Log, entry)
	nr.Moves = appendMove(r.rec, MoveRecord{Seat: seat, Move: name, Args: moveArgs(args), Timeout: timeout, Reason: entry.BotReason, Fallback: entry.Fallback})
	if out := next.Status().Outcome; out != nil {
		if nr.Gameover, err = json.Marshal(out); err != nil {
			return nil, err
		}
	}
	return &nr, nil
}

// appendMoveLog returns the newest maxLog entries of log and e. As
// appendMove does with the moves, it appends in place after log when
// log's array has room, so that a move costs one entry and not a copy of
// the window; when it has none, the window is copied into an array with
// room for maxLog more. log keeps seeing its own entries, which nothing
// writes again; the entry after them is written by each successor, of
// which one is committed, and the log's encoding cache compares the last
// entry by value, not only the slice (wireCache.log).
func appendMoveLog(log []protocol.LogEntry, e protocol.LogEntry) []protocol.LogEntry {
	log = log[max(0, len(log)+1-maxLog):]
	if len(log) == cap(log) {
		log = append(make([]protocol.LogEntry, 0, len(log)+maxLog), log...)
	}
	return append(log, e)
}

// appendMove returns rec's unsealed moves with mv added. It appends in
// place when rec's array has room, as append does, so that a move costs
// one entry and not a copy of up to MovesPerChunk of them: rec keeps
// seeing its own len(rec.Moves) entries, which nothing writes again. The
// entry after them is written by each successor of rec, and only one
// successor of a record is ever committed: the room builds one at a time
// and drops it when its write fails (then rec, or a record read back
// from the store, is current again, and the next successor writes the
// entry anew). Nothing keeps a dropped successor's moves (the moves'
// encoding cache keeps a copy of its last entry, not the array). A record
// whose moves are already incomplete (see Record.Moves), or that holds
// maxMoves, gets none: they can never replay, so the record stops
// carrying them.
func appendMove(rec *Record, mv MoveRecord) []MoveRecord {
	if !rec.movesComplete() || rec.SealedMoves+int64(len(rec.Moves)) >= maxMoves {
		return nil
	}
	return append(rec.Moves, mv)
}

// moveArgs is a move's arguments as the record keeps them: none for an
// empty list.
func moveArgs(args json.RawMessage) json.RawMessage {
	if len(args) == 0 || string(args) == "[]" {
		return nil
	}
	return args
}
