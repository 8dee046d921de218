// Package cards is the card vocabulary every Chaguan card game shares:
// suits, ranks and cards with their wire codes (docs/protocol.md: rank
// "23456789TJQKA" then suit "SHDC", e.g. "QS", "TC"), parsing with clear
// errors, decks, shuffling with the game's RNG, and sorting for display.
//
// A Card is a small comparable value; its JSON form is its wire code, so
// states and views that hold cards read naturally ("hand":["2C","QS"]).
package cards

import (
	"errors"
	"fmt"
	"strings"
)

// Suit is one of the four French suits. The zero value is not a suit.
type Suit uint8

// The suits, in the order of their wire codes "SHDC".
const (
	Spades Suit = iota + 1
	Hearts
	Diamonds
	Clubs
)

// Suits lists the four suits in wire-code order.
var Suits = []Suit{Spades, Hearts, Diamonds, Clubs}

const suitCodes = "SHDC"

// Valid reports whether s is one of the four suits.
func (s Suit) Valid() bool { return s >= Spades && s <= Clubs }

// String is the suit's wire code: "S", "H", "D" or "C" ("?" if invalid).
func (s Suit) String() string {
	if !s.Valid() {
		return "?"
	}
	return suitCodes[s-1 : s]
}

// Symbol is the suit's symbol: ♠ ♥ ♦ ♣.
func (s Suit) Symbol() string {
	switch s {
	case Spades:
		return "♠"
	case Hearts:
		return "♥"
	case Diamonds:
		return "♦"
	case Clubs:
		return "♣"
	}
	return "?"
}

// Name is the suit's English name in the plural, as people say "follow hearts".
func (s Suit) Name() string {
	switch s {
	case Spades:
		return "spades"
	case Hearts:
		return "hearts"
	case Diamonds:
		return "diamonds"
	case Clubs:
		return "clubs"
	}
	return "?"
}

// NameZh is the suit's Chinese name: 黑桃 红心 方块 梅花.
func (s Suit) NameZh() string {
	switch s {
	case Spades:
		return "黑桃"
	case Hearts:
		return "红心"
	case Diamonds:
		return "方块"
	case Clubs:
		return "梅花"
	}
	return "?"
}

// Red reports whether the suit is drawn red (hearts and diamonds).
func (s Suit) Red() bool { return s == Hearts || s == Diamonds }

// Rank is a card's rank, 2 to 14 with the ace high. The zero value is not a rank.
type Rank uint8

// Named ranks; the others are their own numbers.
const (
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
	Ace   Rank = 14
)

const rankCodes = "23456789TJQKA"

// Valid reports whether r is a rank from 2 to ace.
func (r Rank) Valid() bool { return r >= 2 && r <= Ace }

// String is the rank's wire code, one of "23456789TJQKA" ("?" if invalid).
func (r Rank) String() string {
	if !r.Valid() {
		return "?"
	}
	return rankCodes[r-2 : r-1]
}

// Label is the rank as printed on a card: "2"…"10", "J", "Q", "K", "A".
func (r Rank) Label() string {
	if r == Ten {
		return "10"
	}
	return r.String()
}

// Card is one playing card. The zero Card is not a card (Valid is false).
type Card struct {
	Rank Rank
	Suit Suit
}

// New returns the card of rank r and suit s (check Valid if unsure).
func New(r Rank, s Suit) Card { return Card{Rank: r, Suit: s} }

// Valid reports whether c is one of the 52 cards.
func (c Card) Valid() bool { return c.Rank.Valid() && c.Suit.Valid() }

// String is the card's wire code: rank then suit, "QS", "TC", "2H".
func (c Card) String() string { return c.Rank.String() + c.Suit.String() }

// Label is the card as people write it, suit symbol first: "♥7", "♠Q", "♣10".
func (c Card) Label() string { return c.Suit.Symbol() + c.Rank.Label() }

// ErrBadCard is wrapped by every parsing error.
var ErrBadCard = errors.New("bad card")

// Parse reads a card's wire code ("QS"). It also accepts lower case and
// "10" for the ten ("10c"), and returns the canonical card; anything else is
// an error wrapping ErrBadCard that says what is wrong.
func Parse(code string) (Card, error) {
	s := strings.ToUpper(strings.TrimSpace(code))
	if strings.HasPrefix(s, "10") {
		s = "T" + s[2:]
	}
	if len(s) != 2 {
		return Card{}, fmt.Errorf("%w %q: a card is a rank (one of %s) and a suit (one of %s), like \"QS\"",
			ErrBadCard, code, rankCodes, suitCodes)
	}
	ri := strings.IndexByte(rankCodes, s[0])
	if ri < 0 {
		return Card{}, fmt.Errorf("%w %q: rank %q is not one of %s", ErrBadCard, code, s[0:1], rankCodes)
	}
	si := strings.IndexByte(suitCodes, s[1])
	if si < 0 {
		return Card{}, fmt.Errorf("%w %q: suit %q is not one of %s", ErrBadCard, code, s[1:2], suitCodes)
	}
	return Card{Rank: Rank(ri + 2), Suit: Suit(si + 1)}, nil
}

// MustParse is Parse for constants in code and tests; it panics on a bad code.
func MustParse(code string) Card {
	c, err := Parse(code)
	if err != nil {
		panic(err)
	}
	return c
}

// MustParseAll parses space-separated codes ("2C QS TH"); it panics on a bad one.
func MustParseAll(codes string) []Card {
	var out []Card
	for _, f := range strings.Fields(codes) {
		out = append(out, MustParse(f))
	}
	return out
}

// MarshalText writes the wire code; an invalid card is an error.
func (c Card) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("%w: cannot encode rank %d suit %d", ErrBadCard, c.Rank, c.Suit)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a wire code with Parse.
func (c *Card) UnmarshalText(b []byte) error {
	p, err := Parse(string(b))
	if err != nil {
		return err
	}
	*c = p
	return nil
}
