package gongzhu

import (
	"slices"
	"sync"

	"github.com/chaguan/chaguan/games"
)

// roundJSON is the JSON that every state of a round writes alike, encoded
// once for the round instead of on every move: the view's "lastRound",
// "history", "teams" and "scoreboard" and the state's "lastRound" and
// "history". They change only when a round ends, yet they are most of a
// view deep in a match (the last round's 13 tricks, up to HistoryCap rows
// of history), and the room encodes the spectators' view and the state on
// every card played.
//
// It hangs off the round's RoundResult, which every state of the round
// shares (State.clone copies the pointer) and the next round end
// replaces. What it holds was encoded from the first state that asked,
// and is used only for a state of the same round: same History (its
// first entry's address and its length), Totals and Seats (roundKey),
// so a state put together some other way (a test, a decoded record)
// encodes its own.
type roundJSON struct {
	once  sync.Once
	key   roundKey
	ok    bool   // the key could be taken; view and state are set
	view  []byte // the spectators' (and every seat's) view from `,"lastRound"` to its closing brace
	state []byte // the state's `,"lastRound":{…},"history":[…]`
}

// roundKey is what the cached JSON depends on besides the RoundResult.
type roundKey struct {
	seats   int
	history *RoundSummary // &History[0], nil when empty
	rows    int
	totals  [4]int
	nTotals int
}

func keyOf(s State) (roundKey, bool) {
	if len(s.Totals) > 4 {
		return roundKey{}, false
	}
	k := roundKey{seats: s.Seats, rows: len(s.History), nTotals: len(s.Totals)}
	if len(s.History) > 0 {
		k.history = &s.History[0]
	}
	copy(k.totals[:], s.Totals)
	return k, true
}

// roundJSON returns the round's cached JSON for s, encoding it on first
// use; nil when s has no cache or the cache is another state's.
func (s State) roundJSON() *roundJSON {
	r := s.LastRound
	if r == nil || r.enc == nil {
		return nil
	}
	k, ok := keyOf(s)
	if !ok {
		return nil
	}
	e := r.enc
	e.once.Do(func() {
		v := view(s, games.Spectator, true)
		if !s.cardsValid() || !v.cardsValid() {
			return // json.Marshal's path, every time (never a state the rules built)
		}
		e.key, e.ok = k, true
		e.view = v.appendTail(nil)
		e.state = s.appendRoundTail(nil)
	})
	if !e.ok || e.key != k {
		return nil
	}
	return e
}

// AppendPublicView appends the spectators' view of s, json.Marshal's bytes
// of View(s, games.Spectator) (games.PublicViewAppender; gametest checks
// them on every state of its playouts), with the part that changes only
// at a round's end taken from the round's cache.
func (Rules) AppendPublicView(b []byte, s State) []byte {
	e := s.roundJSON()
	if e == nil {
		return view(s, games.Spectator, true).AppendJSON(b)
	}
	v := view(s, games.Spectator, false)
	if !v.cardsValid() {
		return view(s, games.Spectator, true).AppendJSON(b)
	}
	b = slices.Grow(b, 1024+200*len(v.Tricks)+len(e.view))
	return append(v.appendHead(b), e.view...)
}
