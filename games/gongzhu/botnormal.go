package gongzhu

import (
	"math"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// table is what the normal bot works out from one seat's view: the cards
// it has not seen, the voids others showed, who plays after it.
type table struct {
	v      View
	seat   int
	hand   []cards.Card
	legal  []cards.Card
	unseen map[cards.Card]bool
	// void[s][suit] is true once seat s failed to follow suit.
	void  []map[cards.Suit]bool
	later []int // seats still to play in the current trick, in order
	led   cards.Suit
	win   cards.Card // the winning card so far (zero if leading)
}

func newTable(v View, seat int) *table {
	me := v.Players[games.PlayerID(seat)]
	t := &table{v: v, seat: seat, hand: me.Hand, legal: me.Legal, unseen: map[cards.Card]bool{}}
	for _, c := range Deck(v.Seats) {
		t.unseen[c] = true
	}
	for _, c := range t.hand {
		delete(t.unseen, c)
	}
	t.void = make([]map[cards.Suit]bool, v.Seats)
	for i := range t.void {
		t.void[i] = map[cards.Suit]bool{}
	}
	all := append(append(make([]TrickView, 0, len(v.Tricks)+1), v.Tricks...), v.Trick)
	for _, tr := range all {
		led := cards.Suit(0)
		for i, p := range tr.Plays {
			delete(t.unseen, p.Card)
			if i == 0 {
				led = p.Card.Suit
			} else if p.Card.Suit != led {
				t.void[p.Seat][led] = true
			}
		}
	}
	for i := len(v.Trick.Plays) + 1; i < v.Seats; i++ {
		t.later = append(t.later, (v.Trick.Leader+i)%v.Seats)
	}
	if len(v.Trick.Plays) > 0 {
		t.led = v.Trick.Plays[0].Card.Suit
		for _, p := range v.Trick.Plays {
			if p.Card.Suit == t.led && p.Card.Rank > t.win.Rank {
				t.win = p.Card
			}
		}
	}
	return t
}

// choose returns the legal card with the best evaluation; rng breaks ties.
func (t *table) choose(rng *rand.Rand) cards.Card {
	best, bestVal, ties := t.legal[0], math.Inf(-1), 0
	for _, c := range t.legal {
		val := t.eval(c)
		switch {
		case val > bestVal+1e-9:
			best, bestVal, ties = c, val, 1
		case math.Abs(val-bestVal) <= 1e-9:
			ties++
			if rng.IntN(ties) == 0 {
				best = c
			}
		}
	}
	return best
}

// partner is the 4-seat partner, or -1.
func (t *table) partner(s int) int {
	if t.v.Seats == 4 {
		return (s + 2) % 4
	}
	return -1
}

// eval scores playing c: the expected change of my round score from this
// trick, plus half the value of getting c out of my hand.
func (t *table) eval(c cards.Card) float64 {
	trick := append(t.v.Trick.Cards(), c)
	leading := len(t.v.Trick.Plays) == 0
	wins := leading || (c.Suit == t.led && c.Rank > t.win.Rank)
	val := 0.5 * t.shed(c)
	if !wins {
		winner := t.v.Trick.Winner()
		if len(t.later) == 0 && winner == t.partner(t.seat) {
			val += 0.6 * float64(marginal(t.v.PointCards[winner], trick))
		}
		return val
	}
	if leading {
		val += t.leadBonus(c)
	}
	p := t.pWin(c, trick)
	return val + p*(float64(marginal(t.v.PointCards[t.seat], trick))+t.laterRisk(c, c.Suit))
}

// leadBonus favours leading a small spade to flush the pig out while it is
// out and I hold nothing it could fall on (♠K, ♠A, or the pig itself).
func (t *table) leadBonus(c cards.Card) float64 {
	if c.Suit != cards.Spades || c.Rank >= cards.Queen || !t.unseen[Pig] {
		return 0
	}
	for _, h := range t.hand {
		if h.Suit == cards.Spades && h.Rank >= cards.Queen {
			return 0
		}
	}
	return 12
}

// marginal is how much taking trick changes the score of a seat that took pts.
func marginal(pts, trick []cards.Card) int {
	with := append(append([]cards.Card{}, pts...), trick...)
	return Score(with) - Score(pts)
}

// pWin estimates the chance that c, now on top, still wins the trick.
func (t *table) pWin(c cards.Card, trick []cards.Card) float64 {
	higher := 0
	for u := range t.unseen {
		if u.Suit == c.Suit && u.Rank > c.Rank {
			higher++
		}
	}
	laterCards, total := 0, 0
	for s := 0; s < t.v.Seats; s++ {
		if s == t.seat {
			continue
		}
		total += t.v.HandCount(s)
	}
	for _, s := range t.later {
		if !t.void[s][c.Suit] {
			laterCards += t.v.HandCount(s)
		}
	}
	if higher == 0 || laterCards == 0 || total == 0 {
		return 1
	}
	held := 1 - math.Pow(1-float64(laterCards)/float64(total), float64(higher))
	willing := 0.8
	if marginal(nil, trick) < 0 {
		willing = 0.3 // nobody overtakes a trick with penalties unless forced
	}
	return 1 - held*willing
}

// laterRisk is what the seats still to play are expected to add to a trick
// I win with c: dumps from seats void in the suit, hearts when hearts are
// led, the pig under a high spade.
func (t *table) laterRisk(c cards.Card, suit cards.Suit) float64 {
	risk := 0.0
	pigOut := t.unseen[Pig]
	for _, s := range t.later {
		switch {
		case t.void[s][suit] || !t.anyUnseen(suit):
			risk -= 25
			if pigOut {
				risk -= 35
			}
		case suit == cards.Hearts:
			risk -= 12
		case suit == cards.Spades && c.Rank > cards.Queen && pigOut:
			risk -= 100 / float64(t.v.Seats-1)
		case suit == cards.Clubs && c.Rank > cards.Ten && t.unseen[Transformer]:
			// The ♣10 under my club doubles whatever I took.
			mine := t.v.PointCards[t.seat]
			risk += float64(marginal(mine, []cards.Card{Transformer})) / float64(t.v.Seats-1)
		}
	}
	return risk
}

func (t *table) anyUnseen(s cards.Suit) bool {
	for u := range t.unseen {
		if u.Suit == s {
			return true
		}
	}
	return false
}

// shed is the value of getting c out of my hand (positive: a liability).
func (t *table) shed(c cards.Card) float64 {
	switch {
	case c == Pig:
		return 90
	case c == Sheep:
		return -80
	case c == Transformer:
		if Score(t.v.PointCards[t.seat]) < 0 {
			return 15
		}
		return 0
	case c.Suit == cards.Hearts:
		return -0.6*float64(HeartPoints(c)) + 0.3*float64(c.Rank)
	case c.Suit == cards.Spades && c.Rank > cards.Queen && t.unseen[Pig]:
		return 30 + float64(c.Rank-cards.Queen)*5
	}
	v := 1.5 * float64(int(c.Rank)-8)
	if cards.CountSuit(t.hand, c.Suit) <= 2 {
		v += 4
	}
	return v
}
