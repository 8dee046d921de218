package weiqi

import (
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// scoredGame is a finished 9x9 game: black's two-stone-thick wall on
// columns C-D, white's on E-F, white's B5-B6 inside black's area marked
// dead, both approved.
func scoredGame(t *testing.T) State {
	var black, white []string
	for row := 1; row <= 9; row++ {
		r := itoa(row)
		black = append(black, "C"+r, "D"+r)
		white = append(white, "E"+r, "F"+r)
	}
	white = append(white, "B5", "B6")
	s := setUp(t, 9, black, white, 0)
	s = moves(t, s, "pass", "pass")
	s = do(t, s, 1, moveToggleDead, "B6")
	s = do(t, s, 0, moveApprove)
	return do(t, s, 1, moveApprove)
}

// TestGoldenViews pins the view's JSON (one for everybody: nothing is
// hidden).
func TestGoldenViews(t *testing.T) {
	capture := do(t, setUp(t, 9, []string{"D5", "F5", "E6"}, []string{"E5", "A9"}, 0), 0, movePlay, "E4")
	scoring := moves(t, setUp(t, 9, []string{"C3", "C4"}, []string{"G7"}, 1), "pass", "pass")
	scoring = do(t, scoring, 0, moveToggleDead, "G7")
	for _, tc := range []struct {
		name string
		s    State
	}{
		{"empty9", newGame(t, 9)},
		{"capture_undo_pending", do(t, capture, 1, moveRequestUndo)},
		{"scoring_marked", scoring},
		{"scored", scoredGame(t)},
		{"resigned", do(t, moves(t, newGame(t, 13), "K10"), 1, moveResign)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gametest.Golden(t, "view_"+tc.name+".json", rules.View(tc.s, games.Spectator))
		})
	}
}

// TestScoredGame checks the count of a finished game by hand: after the
// evolution, black's and white's stones and territory, komi, and B+/W+.
func TestScoredGame(t *testing.T) {
	s := scoredGame(t)
	sc := s.fin.score
	last := s.fin.gens[Generations]
	if sc.Black.Stones != last.count(Black) || sc.White.Stones != last.count(White) || sc.White.Komi != 7.5 {
		t.Fatalf("score %+v", sc)
	}
	var terr [3]int
	for _, c := range territory(last) {
		terr[c]++
	}
	if sc.Black.Territory != terr[Black] || sc.White.Territory != terr[White] {
		t.Fatalf("territory %+v vs %v", sc, terr)
	}
	if sc.Black.Total != float64(sc.Black.Stones+sc.Black.Territory) || sc.White.Total != float64(sc.White.Stones+sc.White.Territory)+7.5 {
		t.Fatalf("totals %+v", sc)
	}
	// Two-thick walls are still lifes (every stone has two or three
	// neighbours of its colour, no empty point three): black keeps 18
	// stones and columns A-B (18, B5-B6 removed as dead), white 18 stones
	// and columns G-J (27): 36 against 45 + 7.5.
	if !slices.Equal(last.pts, s.fin.gens[0].pts) {
		t.Fatalf("the walls should not change:\n%v", last.rows())
	}
	if sc.Black.Stones != 18 || sc.White.Stones != 18 || sc.Black.Territory != 18 || sc.White.Territory != 27 {
		t.Fatalf("score %+v", sc)
	}
	if got := s.result(); got != "W+16.5" {
		t.Fatalf("result %s", got)
	}
}
