package gongzhu

import (
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestGoldenViews pins the JSON of every seat's and the spectator's view at a
// fixed position (seed 5, easy bots, a round and five cards in) for 3 and
// 4 seats. Run with -update after a deliberate change of the view, and read
// the diff.
func TestGoldenViews(t *testing.T) {
	for _, n := range []int{3, 4} {
		s := newState(t, n, 5)
		rng := botRNG(5)
		levels := []string{LevelEasy, LevelEasy, LevelEasy, LevelEasy}[:n]
		s = playRound(t, s, levels, rng)
		r := Rules{}
		for i := 0; i < 5; i++ {
			seat := s.Current()
			_, args, err := r.Bot(LevelEasy, r.View(s, seat), seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			if s, err = r.Apply(s, seat, MovePlay, args); err != nil {
				t.Fatal(err)
			}
		}
		for viewer := games.Spectator; viewer < n; viewer++ {
			name := fmt.Sprintf("seats%d_viewer%d.json", n, viewer)
			if viewer == games.Spectator {
				name = fmt.Sprintf("seats%d_spectator.json", n)
			}
			t.Run(name, func(t *testing.T) {
				gametest.Golden(t, name, r.View(s, viewer))
			})
		}
	}
}
