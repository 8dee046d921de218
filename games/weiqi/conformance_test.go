package weiqi

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

func TestConformance9(t *testing.T) {
	gametest.Run(t, Game, gametest.Options{Level: "easy", SetupData: json.RawMessage(`{"size":9}`), ShortGames: 5})
}

func TestConformance19(t *testing.T) {
	n := 3
	if testing.Short() {
		n = 1
	}
	gametest.Run(t, Game, gametest.Options{Level: "easy", Games: n})
}
