package gomoku

import (
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

func TestConformanceEasy(t *testing.T) {
	gametest.Run(t, Game, gametest.Options{Level: "easy", ShortGames: 5})
}

func TestConformanceNormal(t *testing.T) {
	gametest.Run(t, Game, gametest.Options{Level: "normal", ShortGames: 5})
}

func TestConformanceHard(t *testing.T) {
	if testing.Short() {
		t.Skip("hard-bot playouts are slow; run without -short")
	}
	gametest.Run(t, Game, gametest.Options{Level: "hard", Seats: []int{2}, Games: 3})
}
