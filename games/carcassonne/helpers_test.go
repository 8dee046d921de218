package carcassonne

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func newState(tb testing.TB, n int, seed uint64) State {
	tb.Helper()
	s, err := Rules{}.Setup(n, nil, games.NewRNG(seed))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func botRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }

// botMove asks the seat's bot (typed view, no JSON round trip) and applies
// its move.
func botMove(tb testing.TB, s State, level string, rng *rand.Rand) State {
	tb.Helper()
	r := Rules{}
	seat := s.Current
	name, args, err := r.Bot(level, r.View(s, seat), seat, rng)
	if err != nil {
		tb.Fatalf("bot %s seat %d: %v", level, seat, err)
	}
	next, err := r.Apply(s, seat, name, args)
	if err != nil {
		tb.Fatalf("bot %s seat %d move %s %s refused: %v", level, seat, name, args, err)
	}
	return next
}

// playGame plays to the end with levels[seat] for each seat, calling check
// (if not nil) after every move.
func playGame(tb testing.TB, s State, levels []string, rng *rand.Rand, check func(prev, next State)) State {
	tb.Helper()
	for s.Phase != PhaseOver {
		next := botMove(tb, s, levels[s.Current], rng)
		if check != nil {
			check(s, next)
		}
		s = next
	}
	return s
}

func apply(tb testing.TB, s State, name string, args string) State {
	tb.Helper()
	next, err := Rules{}.Apply(s, s.Current, name, json.RawMessage(args))
	if err != nil {
		tb.Fatalf("%s %s: %v", name, args, err)
	}
	return next
}
