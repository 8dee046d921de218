package carcassonne

import (
	"testing"
	"time"
)

// TestGameProperties plays bot games (300; 1,000 with -report; 100 under
// -short, 50 under -race), 2 to 5 seats, mostly easy bots with a normal
// seat in one game of ten, and checks after every move: every tile of the
// box is on the board, removed, drawn or in the deck, exactly once, at
// distinct positions with matching edges; each seat's meeples on the board
// and in supply make 7; no completed feature keeps its meeples; no score
// falls; and at the end the scores are the sums of the scoring events.
func TestGameProperties(t *testing.T) {
	games := 300
	switch {
	case *report:
		games = 1000
	case raceEnabled:
		games = 50
	case testing.Short():
		games = 100
	}
	began := time.Now()
	for i := 0; i < games; i++ {
		n := 2 + i%4
		levels := make([]string, n)
		for seat := range levels {
			levels[seat] = LevelEasy
			if i%10 == 0 && seat == (i/10)%n {
				levels[seat] = LevelNormal // one game in ten has a normal seat: they are slower
			}
		}
		seed := uint64(i)
		s := playGame(t, newState(t, n, seed), levels, botRNG(seed), func(prev, next State) {
			checkInvariants(t, seed, next)
			for seat := range next.Scores {
				if next.Scores[seat] < prev.Scores[seat] {
					t.Fatalf("seed %d: seat %d's score fell from %d to %d", seed, seat, prev.Scores[seat], next.Scores[seat])
				}
			}
		})
		sums := make([]int, n)
		for _, ev := range s.Events {
			if ev.Kind == EvScore || ev.Kind == EvFinal {
				for _, seat := range ev.Seats {
					sums[seat] += ev.Points
				}
			}
		}
		for seat := range sums {
			if sums[seat] != s.Scores[seat] || s.Final.Scores[seat] != s.Scores[seat] {
				t.Fatalf("seed %d: scores %v, sums of events %v", seed, s.Scores, sums)
			}
		}
		if len(s.Tiles)+len(s.Removed) != TileCount || len(s.Secret.Deck) != 0 {
			t.Fatalf("seed %d: game over with %d placed, %d removed, %d in the deck", seed, len(s.Tiles), len(s.Removed), len(s.Secret.Deck))
		}
	}
	t.Logf("%d games in %v", games, time.Since(began))
}

func checkInvariants(t *testing.T, seed uint64, s State) {
	t.Helper()
	count := map[string]int{}
	for _, p := range s.Tiles {
		count[p.Type]++
	}
	for _, r := range s.Removed {
		count[r]++
	}
	for _, d := range s.Secret.Deck {
		count[d]++
	}
	if s.Tile != "" {
		count[s.Tile]++
	}
	for _, d := range tileDefs {
		if count[d.typ] != d.count {
			t.Fatalf("seed %d: %d tiles of type %s accounted for, want %d", seed, count[d.typ], d.typ, d.count)
		}
	}
	b := s.board()
	if len(b.at) != len(s.Tiles) {
		t.Fatalf("seed %d: two tiles share a position", seed)
	}
	for i, p := range s.Tiles {
		for d := 0; d < 4; d++ {
			if j, ok := b.index(p.X+step[d][0], p.Y+step[d][1]); ok && b.shape(i).edges[d] != b.shape(j).edges[(d+2)%4] {
				t.Fatalf("seed %d: tiles %v and %v do not match", seed, p, s.Tiles[j])
			}
		}
	}
	on := make([]int, s.Seats)
	for _, m := range s.Meeples {
		on[m.Seat]++
	}
	for seat := range on {
		if on[seat]+s.MeeplesLeft[seat] != Meeples || s.MeeplesLeft[seat] < 0 {
			t.Fatalf("seed %d: seat %d has %d meeples out and %d left", seed, seat, on[seat], s.MeeplesLeft[seat])
		}
	}
	if s.Phase != PhaseOver {
		a := analyze(b, s.Meeples, s.Seats)
		for _, g := range a.groups {
			if g.complete() && g.hasMeeple() && s.Phase == PhaseTile {
				t.Fatalf("seed %d: a completed %s still holds meeples", seed, g.kind)
			}
		}
	}
}
