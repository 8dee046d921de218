package weiqi

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

func TestConformance9(t *testing.T) {
	n := 0 // the suite's default, 20
	if testing.Short() {
		n = 5 // CI's race stage: the same code paths in a quarter of the time
	}
	gametest.Run(t, Game, gametest.Options{Level: "easy", SetupData: json.RawMessage(`{"size":9}`), Games: n})
}

func TestConformance19(t *testing.T) {
	n := 3
	if testing.Short() {
		n = 1
	}
	gametest.Run(t, Game, gametest.Options{Level: "easy", Games: n})
}
