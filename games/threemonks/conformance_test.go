package threemonks_test

import (
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
	"github.com/chaguan/chaguan/games/threemonks"
)

func TestConformance(t *testing.T) {
	for _, level := range []string{"easy", "normal"} {
		t.Run(level, func(t *testing.T) {
			games := 10
			if testing.Short() || raceEnabled {
				games = 3
			}
			gametest.Run(t, threemonks.Game, gametest.Options{
				Seats: []int{3, 5, 8}, Games: games, MaxMoves: 8 * 3 * threemonks.RoundCap, Level: level,
				SecretWords: []string{"choices"},
			})
		})
	}
}
