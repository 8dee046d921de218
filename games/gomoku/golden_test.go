package gomoku

import (
	"bytes"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestGoldenViews pins the view's JSON, for both seats and a spectator
// (gomoku hides nothing, so all three must match the one file).
func TestGoldenViews(t *testing.T) {
	won := interleave(line(3, 3, 1, 1, 5), [][2]int{{4, 3}, {5, 3}, {6, 3}, {7, 3}})
	pending := mustApply(t, playStones(t, [2]int{7, 7}, [2]int{8, 7}, [2]int{7, 8}), 1, moveRequestUndo)
	tests := []struct {
		name string
		st   games.State
	}{
		{"empty", newMatch(t)},
		{"three_stones_undo_pending", pending},
		{"black_wins_diagonal", playStones(t, won...)},
		{"white_resigned", mustApply(t, playStones(t, [2]int{7, 7}, [2]int{0, 0}), 1, moveResign)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			gametest.Golden(t, "view_"+tc.name+".json", tc.st.View(games.Spectator))
			for seat := 0; seat < 2; seat++ {
				if b := mustJSON(t, tc.st.View(seat)); !bytes.Equal(b, mustJSON(t, tc.st.View(games.Spectator))) {
					t.Fatalf("seat %d sees a different view:\n%s", seat, b)
				}
			}
		})
	}
}

// TestGoldenState pins the stored form of a state and checks it loads back.
func TestGoldenState(t *testing.T) {
	st := mustApply(t, playStones(t, [2]int{7, 7}, [2]int{8, 7}, [2]int{0, 14}), 0, moveRequestUndo)
	got := mustJSON(t, st)
	const want = `{"moves":"hhihao","undo":"0"}`
	if string(got) != want {
		t.Fatalf("state JSON = %s, want %s", got, want)
	}
	back, err := Game.Load(got)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if b := mustJSON(t, back.View(0)); !bytes.Equal(b, mustJSON(t, st.View(0))) {
		t.Fatalf("loaded state shows a different view:\n%s", b)
	}
}
