package carcassonne

import (
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

// TestGoldenViews pins the view's JSON (the same for every seat and the
// spectator) at fixed positions of seed 5 with easy bots: after 6 turns in
// the tile phase, in a meeple step, and at the end of the game. Run with
// -update after a deliberate change of the view, and read the diff.
func TestGoldenViews(t *testing.T) {
	r := Rules{}
	s := newState(t, 2, 5)
	rng := botRNG(5)
	for s.Turn < 7 || s.Phase != PhaseTile {
		s = botMove(t, s, LevelEasy, rng)
	}
	gametest.Golden(t, "tile-phase.json", r.View(s, 0))
	for s.Phase != PhaseMeeple {
		s = botMove(t, s, LevelEasy, rng)
	}
	gametest.Golden(t, "meeple-phase.json", r.View(s, -1))
	s = playGame(t, s, []string{LevelNormal, LevelEasy}, rng, nil)
	gametest.Golden(t, "game-over.json", r.View(s, 1))
}
