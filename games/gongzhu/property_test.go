package gongzhu

import (
	"testing"

	"github.com/chaguan/chaguan/games/cards"
)

// TestRoundProperties plays 10,000 bot rounds (1,000 under -short or -race) and
// checks, for each: every card of the deck is dealt exactly once and taken
// exactly once, the round's scores are ScoreRound of what each seat took,
// and the totals are the sum of all round scores.
func TestRoundProperties(t *testing.T) {
	rounds := 10000
	if testing.Short() || raceEnabled {
		rounds = 1000
	}
	perMatch := 50
	for m := 0; m*perMatch < rounds; m++ {
		n := 3 + m%2
		seed := uint64(m)
		levels := []string{LevelEasy, LevelNormal, LevelEasy, LevelEasy}[:n]
		rng := botRNG(seed)
		s := newState(t, n, seed)
		sums := make([]int, n)
		for r := 0; r < perMatch; r++ {
			checkDeal(t, s, seed)
			s = playRound(t, s, levels, rng)
			lr := s.LastRound
			taken := make([][]cards.Card, n)
			count := map[cards.Card]int{}
			for _, tr := range lr.Tricks {
				if len(tr.Plays) != n || tr.Taker != tr.Winner() {
					t.Fatalf("seed %d round %d: bad trick %+v", seed, lr.Round, tr)
				}
				for _, p := range tr.Plays {
					count[p.Card]++
				}
				taken[tr.Taker] = append(taken[tr.Taker], tr.Cards()...)
			}
			for _, c := range Deck(n) {
				if count[c] != 1 {
					t.Fatalf("seed %d round %d: %v taken %d times", seed, lr.Round, c, count[c])
				}
			}
			if len(count) != len(Deck(n)) {
				t.Fatalf("seed %d round %d: %d distinct cards taken", seed, lr.Round, len(count))
			}
			want := ScoreRound(taken)
			for i := range sums {
				if lr.Scores[i] != want[i] {
					t.Fatalf("seed %d round %d: scores %v, want %v", seed, lr.Round, lr.Scores, want)
				}
				sums[i] += lr.Scores[i]
				if s.Totals[i] != sums[i] {
					t.Fatalf("seed %d round %d: totals %v, sums of round scores %v", seed, lr.Round, s.Totals, sums)
				}
			}
		}
	}
}

func checkDeal(t *testing.T, s State, seed uint64) {
	t.Helper()
	seen := map[cards.Card]bool{}
	for _, h := range s.Hands {
		if len(h) != len(Deck(s.Seats))/s.Seats {
			t.Fatalf("seed %d round %d: a hand of %d cards", seed, s.Round, len(h))
		}
		for _, c := range h {
			if seen[c] {
				t.Fatalf("seed %d round %d: %v dealt twice", seed, s.Round, c)
			}
			seen[c] = true
		}
	}
	for _, c := range Deck(s.Seats) {
		if !seen[c] {
			t.Fatalf("seed %d round %d: %v not dealt", seed, s.Round, c)
		}
	}
}
