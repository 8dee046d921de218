package carcassonne

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// FuzzApplyArgs sends arbitrary args to every move in both phases: never a
// panic, and a refusal is always an invalid move.
func FuzzApplyArgs(f *testing.F) {
	for _, seed := range []string{`[{"x":1,"y":0,"rotation":90}]`, `[{"feature":"city0"}]`, `[]`, `[{"x":-1e9,"y":0,"rotation":270}]`,
		`[{"x":0,"y":-1,"rotation":180,"extra":1}]`, `[{"feature":""}]`, `null`, `[null]`, `{"x":1}`} {
		f.Add(seed)
	}
	tile := custom(2, []Placed{start()}, nil, "E", "U")
	meeple, err := Rules{}.Apply(tile, 0, MovePlaceTile, json.RawMessage(`[{"x":0,"y":-1,"rotation":180}]`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args string) {
		for _, s := range []State{tile, meeple} {
			for _, m := range []string{MovePlaceTile, MovePlaceMeeple, MoveSkipMeeple} {
				if _, err := (Rules{}).Apply(s, 0, m, json.RawMessage(args)); err != nil && !errors.Is(err, games.ErrInvalidMove) {
					t.Fatalf("%s %s: %v", m, args, err)
				}
			}
		}
	})
}
