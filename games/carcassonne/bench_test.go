package carcassonne

import "testing"

// midGame plays easy bots from seed until the board holds at least tiles
// tiles and it is the tile phase.
func midGame(tb testing.TB, seats int, seed uint64, tiles int) State {
	tb.Helper()
	s := newState(tb, seats, seed)
	rng := botRNG(seed)
	for len(s.Tiles) < tiles || s.Phase != PhaseTile {
		if s.Phase == PhaseOver {
			tb.Fatalf("seed %d: game over before %d tiles", seed, tiles)
		}
		s = botMove(tb, s, LevelEasy, rng)
	}
	return s
}

// BenchmarkPlacements60 lists the legal placements of the drawn tile on a
// board of 60 tiles (index built from the tile list included).
func BenchmarkPlacements60(b *testing.B) {
	s := midGame(b, 2, 3, 60)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if len(s.board().placements(s.Tile)) == 0 {
			b.Fatal("no placement")
		}
	}
}

// BenchmarkAnalyze60 finds every connected feature of a 60-tile board.
func BenchmarkAnalyze60(b *testing.B) {
	s := midGame(b, 2, 3, 60)
	bd := s.board()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		analyze(bd, s.Meeples, s.Seats)
	}
}

func benchGame(b *testing.B, levels []string) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		playGame(b, newState(b, len(levels), uint64(i)), levels, botRNG(uint64(i)), nil)
	}
}

// BenchmarkGameNormal2 is a whole two-player game of normal bots: views,
// decisions and moves for every tile.
func BenchmarkGameNormal2(b *testing.B) { benchGame(b, []string{LevelNormal, LevelNormal}) }

// BenchmarkGameEasy2 is the same with easy bots: the floor of views and moves.
func BenchmarkGameEasy2(b *testing.B) { benchGame(b, []string{LevelEasy, LevelEasy}) }

// BenchmarkGameNormal5 is a whole five-player game of normal bots.
func BenchmarkGameNormal5(b *testing.B) {
	benchGame(b, []string{LevelNormal, LevelNormal, LevelNormal, LevelNormal, LevelNormal})
}

// BenchmarkNormalDecision times one normal placement decision on a board of
// 40 tiles (view built beforehand, no JSON).
func BenchmarkNormalDecision(b *testing.B) { benchDecision(b, 40) }

// BenchmarkNormalDecisionLate is the same on a board of 65 tiles.
func BenchmarkNormalDecisionLate(b *testing.B) { benchDecision(b, 65) }

func benchDecision(b *testing.B, tiles int) {
	s := midGame(b, 2, 5, tiles)
	r := Rules{}
	v := r.View(s, s.Current)
	rng := botRNG(5)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := r.Bot(LevelNormal, v, s.Current, rng); err != nil {
			b.Fatal(err)
		}
	}
}
