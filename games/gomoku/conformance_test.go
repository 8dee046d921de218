package gomoku

import (
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

// shortGames is the playouts per seat count under -short (CI's race
// stage): the same code paths as the default 20, in a quarter of the time.
func shortGames() int {
	if testing.Short() {
		return 5
	}
	return 0 // the suite's default
}

func TestConformanceEasy(t *testing.T) {
	gametest.Run(t, Game, gametest.Options{Level: "easy", Games: shortGames()})
}

func TestConformanceNormal(t *testing.T) {
	gametest.Run(t, Game, gametest.Options{Level: "normal", Games: shortGames()})
}

func TestConformanceHard(t *testing.T) {
	if testing.Short() {
		t.Skip("hard-bot playouts are slow; run without -short")
	}
	gametest.Run(t, Game, gametest.Options{Level: "hard", Seats: []int{2}, Games: 3})
}
