package cards

import (
	"fmt"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// Deck returns the 52 cards in a fixed order (suits "SHDC", ranks 2 to ace),
// leaving out any card listed in without.
func Deck(without ...Card) []Card {
	out := make([]Card, 0, 52)
	for _, s := range Suits {
		for r := Rank(2); r <= Ace; r++ {
			c := Card{Rank: r, Suit: s}
			if !slices.Contains(without, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// Shuffle shuffles cs in place with the game's RNG, so a match replays from
// its seed.
func Shuffle(cs []Card, rng *games.RNG) {
	rng.Shuffle(len(cs), func(i, j int) { cs[i], cs[j] = cs[j], cs[i] })
}

// Deal splits cs into n hands of len(cs)/n cards, dealing them round the
// table one at a time as a person would. It returns an error if the cards do
// not divide evenly or n < 1. The hands are fresh slices.
func Deal(cs []Card, n int) ([][]Card, error) {
	if n < 1 || len(cs)%n != 0 {
		return nil, fmt.Errorf("cards: cannot deal %d cards to %d hands evenly", len(cs), n)
	}
	hands := make([][]Card, n)
	for i := range hands {
		hands[i] = make([]Card, 0, len(cs)/n)
	}
	for i, c := range cs {
		hands[i%n] = append(hands[i%n], c)
	}
	return hands, nil
}

// displaySuit orders suits for a hand on screen: black and red alternate
// (♠ ♥ ♣ ♦), so neighbouring suits are easy to tell apart.
var displaySuit = [5]int{Spades: 0, Hearts: 1, Clubs: 2, Diamonds: 3}

// Compare orders cards for display: by suit ♠ ♥ ♣ ♦, then by rank from low
// to high. It returns -1, 0 or +1.
func Compare(a, b Card) int {
	if a.Suit != b.Suit {
		if a.Suit.Valid() && b.Suit.Valid() {
			return cmpInt(displaySuit[a.Suit], displaySuit[b.Suit])
		}
		return cmpInt(int(a.Suit), int(b.Suit))
	}
	return cmpInt(int(a.Rank), int(b.Rank))
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Sort sorts cs in place for display (see Compare).
func Sort(cs []Card) { slices.SortFunc(cs, Compare) }

// Sorted returns a sorted copy of cs; cs is not changed.
func Sorted(cs []Card) []Card {
	out := slices.Clone(cs)
	Sort(out)
	return out
}

// Contains reports whether cs holds c.
func Contains(cs []Card, c Card) bool { return slices.Contains(cs, c) }

// Without returns a copy of cs with the first c removed, and whether it was
// there. cs is not changed.
func Without(cs []Card, c Card) ([]Card, bool) {
	i := slices.Index(cs, c)
	if i < 0 {
		return slices.Clone(cs), false
	}
	out := make([]Card, 0, len(cs)-1)
	out = append(out, cs[:i]...)
	return append(out, cs[i+1:]...), true
}

// OfSuit returns the cards of cs in suit s, in their order in cs.
func OfSuit(cs []Card, s Suit) []Card {
	var out []Card
	for _, c := range cs {
		if c.Suit == s {
			out = append(out, c)
		}
	}
	return out
}

// CountSuit counts the cards of cs in suit s.
func CountSuit(cs []Card, s Suit) int {
	n := 0
	for _, c := range cs {
		if c.Suit == s {
			n++
		}
	}
	return n
}

// Codes joins the wire codes of cs with spaces ("2C QS TH"), for messages
// and test failures.
func Codes(cs []Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}
