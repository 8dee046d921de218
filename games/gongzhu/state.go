package gongzhu

import (
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// Play is one card played by one seat.
type Play struct {
	Seat int        `json:"seat"`
	Card cards.Card `json:"card"`
}

// Trick is a trick in progress or finished. Taker is -1 until it is complete.
type Trick struct {
	Leader int    `json:"leader"`
	Plays  []Play `json:"plays"`
	Taker  int    `json:"taker"`
}

// LedSuit is the suit of the first card, or 0 for an empty trick.
func (t Trick) LedSuit() cards.Suit {
	if len(t.Plays) == 0 {
		return 0
	}
	return t.Plays[0].Card.Suit
}

// Winner is the seat of the highest card of the led suit so far (-1 if empty).
func (t Trick) Winner() int {
	best := -1
	var top cards.Card
	for _, p := range t.Plays {
		if p.Card.Suit == t.LedSuit() && (best < 0 || p.Card.Rank > top.Rank) {
			best, top = p.Seat, p.Card
		}
	}
	return best
}

// Cards lists the trick's cards in the order played.
func (t Trick) Cards() []cards.Card {
	out := make([]cards.Card, len(t.Plays))
	for i, p := range t.Plays {
		out[i] = p.Card
	}
	return out
}

func (t Trick) clone() Trick {
	t.Plays = slices.Clone(t.Plays)
	return t
}

// RoundResult is a finished round, kept public until the next one ends.
type RoundResult struct {
	Round  int     `json:"round"`
	Leader int     `json:"leader"` // the round's first leader
	Tricks []Trick `json:"tricks"`
	Scores []int   `json:"scores"`
	// enc is the JSON every state of the next round writes alike,
	// encoded once for them all (roundjson.go); nil in a result that was
	// not made by the rules' round end (one decoded from JSON), whose
	// states encode it every time.
	enc *roundJSON
}

// Taken lists the cards each of n seats took in the round's tricks.
func (r RoundResult) Taken(n int) [][]cards.Card { return takenFrom(r.Tricks, n) }

// HistoryCap is how many finished rounds State.History keeps: the latest
// ones. People never get near it (a round takes minutes); it bounds the
// state and every view of a bot match left running for days. Each entry
// carries the running totals, so dropping the oldest loses nothing else.
const HistoryCap = 100

// RoundSummary is one finished round in the match's history: public, small,
// and kept for every round (up to HistoryCap), unlike LastRound's tricks.
// A seat field is -1 when no seat qualifies (only AllHearts, in practice).
type RoundSummary struct {
	Round       int   `json:"round"`
	Scores      []int `json:"scores"`      // each seat's round score
	Totals      []int `json:"totals"`      // the running totals after this round
	Pig         int   `json:"pig"`         // the seat that took ♠Q (猪)
	Sheep       int   `json:"sheep"`       // the seat that took ♦J (羊)
	Transformer int   `json:"transformer"` // the seat that took ♣10 (变压器)
	AllHearts   int   `json:"allHearts"`   // the seat that took all 13 hearts (全红), or -1
}

// summarize builds the history entry of a round from the cards each seat
// took, its scores and the totals after it.
func summarize(round int, taken [][]cards.Card, scores, totals []int) RoundSummary {
	return RoundSummary{
		Round:       round,
		Scores:      slices.Clone(scores),
		Totals:      slices.Clone(totals),
		Pig:         tookCard(taken, Pig),
		Sheep:       tookCard(taken, Sheep),
		Transformer: tookCard(taken, Transformer),
		AllHearts:   tookAllHearts(taken),
	}
}

// tookCard is the seat whose taken cards hold c, or -1.
func tookCard(taken [][]cards.Card, c cards.Card) int {
	for seat, cs := range taken {
		if cards.Contains(cs, c) {
			return seat
		}
	}
	return -1
}

// tookAllHearts is the seat that took all 13 hearts, or -1.
func tookAllHearts(taken [][]cards.Card) int {
	for seat, cs := range taken {
		if cards.CountSuit(cs, cards.Hearts) == heartsTotal {
			return seat
		}
	}
	return -1
}

// appendHistory adds e to h without writing into h's backing array (states
// share it) and keeps the latest HistoryCap entries.
func appendHistory(h []RoundSummary, e RoundSummary) []RoundSummary {
	h = append(slices.Clip(h), e)
	if len(h) > HistoryCap {
		h = slices.Clone(h[len(h)-HistoryCap:])
	}
	return h
}

// Secret is the part of the state no player may see.
type Secret struct {
	RNG *games.RNG `json:"rng"`
}

// State is the authoritative state of a Gong Zhu match. It is treated as
// immutable: Apply builds a new State.
type State struct {
	Seats int `json:"seats"`
	Round int `json:"round"` // 1-based
	// FirstLeader is the seat that led (or leads) the round's first trick.
	FirstLeader int `json:"firstLeader"`
	// Opening is the card the first trick of the match must be led with
	// (♣2, or ♣3 for 3 seats) until it is played; then zero.
	Opening cards.Card     `json:"opening,omitzero"`
	Hands   [][]cards.Card `json:"hands"` // private: only View(seat) shows hands[seat]
	Trick   Trick          `json:"trick"` // the trick in progress
	Tricks  []Trick        `json:"tricks"`
	// TricksPlayed counts the tricks finished in the whole match.
	TricksPlayed int          `json:"tricksPlayed"`
	Totals       []int        `json:"totals"`
	LastRound    *RoundResult `json:"lastRound,omitempty"`
	// History is every finished round, oldest first (the latest
	// HistoryCap). States stored before it existed decode with none.
	History []RoundSummary `json:"history,omitempty"`
	Secret  Secret         `json:"secret"`
}

// Current is the seat to play (0 for a zero State, which has no seats).
func (s State) Current() int {
	if s.Seats <= 0 {
		return 0
	}
	return (s.Trick.Leader + len(s.Trick.Plays)) % s.Seats
}

// Taken lists the cards each seat took in the finished tricks of this round.
func (s State) Taken() [][]cards.Card { return takenFrom(s.Tricks, s.Seats) }

func takenFrom(tricks []Trick, n int) [][]cards.Card {
	out := make([][]cards.Card, n)
	for i := range out {
		out[i] = []cards.Card{}
	}
	for _, t := range tricks {
		if t.Taker >= 0 && t.Taker < n {
			out[t.Taker] = append(out[t.Taker], t.Cards()...)
		}
	}
	return out
}

// clone copies everything Apply may change. The RNG is shared: Apply
// clones it before drawing from it.
func (s State) clone() State {
	n := s
	n.Hands = make([][]cards.Card, len(s.Hands))
	for i, h := range s.Hands {
		n.Hands[i] = slices.Clone(h)
	}
	n.Trick = s.Trick.clone()
	n.Tricks = slices.Clone(s.Tricks) // finished tricks are never changed
	n.Totals = slices.Clone(s.Totals)
	return n
}

// Deck is the deck for n seats: 52 cards for 4, 51 without ♣2 for 3.
func Deck(n int) []cards.Card {
	if n == 3 {
		return cards.Deck(cards.MustParse("2C"))
	}
	return cards.Deck()
}

// OpeningCard is the card that opens the match: ♣2, or ♣3 for 3 seats.
func OpeningCard(n int) cards.Card {
	if n == 3 {
		return cards.MustParse("3C")
	}
	return cards.MustParse("2C")
}
