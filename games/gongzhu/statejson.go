package gongzhu

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// AppendJSON appends the state's JSON, byte for byte what json.Marshal
// writes (TestStateAppendJSON compares the two on every state of its
// playouts): the record stores the state after every move, and
// encoding/json's reflection over the hands, the tricks and up to
// HistoryCap rounds of history was a tenth of a move's time. A state
// holding a card json.Marshal cannot encode (never one the rules built)
// is written by json.Marshal itself, or refused with its error
// (games.StateAppender).
func (s State) AppendJSON(b []byte) ([]byte, error) {
	if !s.cardsValid() {
		j, err := json.Marshal(s)
		if err != nil {
			return b, err
		}
		return append(b, j...), nil
	}
	b = slices.Grow(b, 512+40*len(s.Tricks)+120*len(s.History))
	b = append(b, `{"seats":`...)
	b = strconv.AppendInt(b, int64(s.Seats), 10)
	b = append(b, `,"round":`...)
	b = strconv.AppendInt(b, int64(s.Round), 10)
	b = append(b, `,"firstLeader":`...)
	b = strconv.AppendInt(b, int64(s.FirstLeader), 10)
	if s.Opening != (cards.Card{}) {
		b = append(b, `,"opening":`...)
		b = appendCard(b, s.Opening)
	}
	b = append(b, `,"hands":`...)
	b = appendCardLists(b, s.Hands)
	b = append(b, `,"trick":`...)
	b = appendStateTrick(b, s.Trick)
	b = append(b, `,"tricks":`...)
	b = appendStateTricks(b, s.Tricks)
	b = append(b, `,"tricksPlayed":`...)
	b = strconv.AppendInt(b, int64(s.TricksPlayed), 10)
	b = append(b, `,"totals":`...)
	b = appendInts(b, s.Totals)
	if e := s.roundJSON(); e != nil && e.state != nil {
		b = append(b, e.state...)
	} else {
		b = s.appendRoundTail(b)
	}
	b = append(b, `,"secret":{"rng":`...)
	b, err := s.Secret.RNG.AppendJSON(b)
	if err != nil {
		return b, err
	}
	return append(b, "}}"...), nil
}

// appendRoundTail appends the state's "lastRound" and "history" members,
// which every state of a round holds alike (roundjson.go caches them).
func (s State) appendRoundTail(b []byte) []byte {
	if r := s.LastRound; r != nil {
		b = append(b, `,"lastRound":{"round":`...)
		b = strconv.AppendInt(b, int64(r.Round), 10)
		b = append(b, `,"leader":`...)
		b = strconv.AppendInt(b, int64(r.Leader), 10)
		b = append(b, `,"tricks":`...)
		b = appendStateTricks(b, r.Tricks)
		b = append(b, `,"scores":`...)
		b = appendInts(b, r.Scores)
		b = append(b, '}')
	}
	if len(s.History) > 0 {
		b = append(b, `,"history":`...)
		b = games.AppendList(b, s.History, appendRoundSummary)
	}
	return b
}

// cardsValid reports whether every card of the state can be encoded.
func (s State) cardsValid() bool {
	if s.Opening != (cards.Card{}) && !s.Opening.Valid() {
		return false
	}
	for _, h := range s.Hands {
		if !validCards(h) {
			return false
		}
	}
	trickOK := func(t Trick) bool { return playsValid(t.Plays) }
	tricksOK := func(ts []Trick) bool {
		for _, t := range ts {
			if !trickOK(t) {
				return false
			}
		}
		return true
	}
	return trickOK(s.Trick) && tricksOK(s.Tricks) && (s.LastRound == nil || tricksOK(s.LastRound.Tricks))
}

func appendStateTrick(b []byte, t Trick) []byte {
	b = append(b, `{"leader":`...)
	b = strconv.AppendInt(b, int64(t.Leader), 10)
	b = append(b, `,"plays":`...)
	b = appendPlays(b, t.Plays)
	b = append(b, `,"taker":`...)
	b = strconv.AppendInt(b, int64(t.Taker), 10)
	return append(b, '}')
}

func appendStateTricks(b []byte, ts []Trick) []byte { return games.AppendList(b, ts, appendStateTrick) }

func appendRoundSummary(b []byte, h RoundSummary) []byte {
	b = append(b, `{"round":`...)
	b = strconv.AppendInt(b, int64(h.Round), 10)
	b = append(b, `,"scores":`...)
	b = appendInts(b, h.Scores)
	b = append(b, `,"totals":`...)
	b = appendInts(b, h.Totals)
	b = append(b, `,"pig":`...)
	b = strconv.AppendInt(b, int64(h.Pig), 10)
	b = append(b, `,"sheep":`...)
	b = strconv.AppendInt(b, int64(h.Sheep), 10)
	b = append(b, `,"transformer":`...)
	b = strconv.AppendInt(b, int64(h.Transformer), 10)
	b = append(b, `,"allHearts":`...)
	b = strconv.AppendInt(b, int64(h.AllHearts), 10)
	return append(b, '}')
}
