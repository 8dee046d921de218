package gongzhu

import "github.com/chaguan/chaguan/games/cards"

// The special cards (docs/gongzhu.md, "Rules in short").
var (
	Pig         = cards.MustParse("QS") // ♠Q, −100
	Sheep       = cards.MustParse("JD") // ♦J, +100
	Transformer = cards.MustParse("TC") // ♣10, +50 alone, else doubles
)

// Round-level constants of the scoring table.
const (
	heartsTotal     = 13
	scoringCards    = 16 // 13 hearts, pig, sheep, transformer
	allHeartsBonus  = 200
	grandSlamScore  = 800
	transformerOnly = 50
	pigScore        = -100
	sheepScore      = 100
)

// HeartPoints is the value of one heart: ♥A −50, ♥K −40, ♥Q −30, ♥J −20,
// ♥10…♥5 −10 each, ♥4/♥3/♥2 0. It is 0 for any other card.
func HeartPoints(c cards.Card) int {
	if c.Suit != cards.Hearts {
		return 0
	}
	switch {
	case c.Rank == cards.Ace:
		return -50
	case c.Rank == cards.King:
		return -40
	case c.Rank == cards.Queen:
		return -30
	case c.Rank == cards.Jack:
		return -20
	case c.Rank >= 5:
		return -10
	}
	return 0
}

// IsScoring reports whether c is one of the 16 scoring cards: every heart
// (the 0-point ones too), the pig, the sheep and the transformer.
func IsScoring(c cards.Card) bool {
	return c.Suit == cards.Hearts || c == Pig || c == Sheep || c == Transformer
}

// CardValue is c's face value before the round-level rules (all hearts,
// transformer, all 16): the heart points, −100 for the pig, +100 for the
// sheep, 0 otherwise (the transformer included).
func CardValue(c cards.Card) int {
	switch c {
	case Pig:
		return pigScore
	case Sheep:
		return sheepScore
	}
	return HeartPoints(c)
}

// Score is one seat's round score from the cards it took, by the rules of
// docs/gongzhu.md:
//   - hearts by HeartPoints, the pig −100, the sheep +100;
//   - all 13 hearts: the hearts count +200 instead of −200 (pig and sheep
//     keep their signs);
//   - the transformer alone (none of the other 15 scoring cards): +50;
//     with any of them it doubles the whole score;
//   - all 16 scoring cards: +800.
//
// Cards that score nothing are ignored; the order does not matter.
func Score(taken []cards.Card) int {
	hearts, scoring, sum := 0, 0, 0
	transformer := false
	for _, c := range taken {
		if !IsScoring(c) {
			continue
		}
		scoring++
		switch {
		case c == Transformer:
			transformer = true
		case c.Suit == cards.Hearts:
			hearts++
		}
		sum += CardValue(c)
	}
	if scoring == scoringCards {
		return grandSlamScore
	}
	if hearts == heartsTotal {
		sum += 2 * allHeartsBonus // from −200 to +200
	}
	if transformer {
		if scoring == 1 {
			return transformerOnly
		}
		sum *= 2
	}
	return sum
}

// ScoreRound scores every seat from the cards each took (taken[seat]).
func ScoreRound(taken [][]cards.Card) []int {
	out := make([]int, len(taken))
	for i, t := range taken {
		out[i] = Score(t)
	}
	return out
}

// PointCards returns the scoring cards among cs, sorted for display.
func PointCards(cs []cards.Card) []cards.Card {
	out := []cards.Card{}
	for _, c := range cs {
		if IsScoring(c) {
			out = append(out, c)
		}
	}
	cards.Sort(out)
	return out
}
