package carcassonne

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// erased is s as the rooms package holds it.
func erased(t *testing.T, s State) games.State {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestCanonicalArgs: placeTile takes exactly the object {x, y, rotation}
// of whole numbers, stored as [{"x":0,"y":-1,"rotation":180}] in that
// order whatever order it came in; the spoofed "tile" field that once
// reached the log is refused, as are missing, null, wrong-type, padded,
// wrong-arity and huge args, and none of them changes the state.
func TestCanonicalArgs(t *testing.T) {
	tile := custom(2, []Placed{start()}, nil, "E", "U")
	gametest.CheckArgs(t, Game, erased(t, tile), 0, []gametest.ArgsCase{
		gametest.Accept("canonical", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}]`, `[{"x":0,"y":-1,"rotation":180}]`),
		gametest.Accept("sorted keys", MovePlaceTile, `[{"rotation":180,"x":0,"y":-1}]`, `[{"x":0,"y":-1,"rotation":180}]`),
		gametest.Accept("spaced", MovePlaceTile, ` [ { "y" : -1 , "x" : 0 , "rotation" : 180 } ] `, `[{"x":0,"y":-1,"rotation":180}]`),
		gametest.Parses("does not fit", MovePlaceTile, `[{"x":5,"y":5,"rotation":0}]`, `[{"x":5,"y":5,"rotation":0}]`),
		gametest.Refuse("spoofed tile", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180,"tile":"A"}]`),
		gametest.Refuse("missing rotation", MovePlaceTile, `[{"x":0,"y":-1}]`),
		gametest.Refuse("null rotation", MovePlaceTile, `[{"x":0,"y":-1,"rotation":null}]`),
		gametest.Refuse("repeated x", MovePlaceTile, `[{"x":0,"x":0,"y":-1,"rotation":180}]`),
		gametest.Refuse("upper-case X", MovePlaceTile, `[{"X":0,"y":-1,"rotation":180}]`),
		gametest.Refuse("rotation 45", MovePlaceTile, `[{"x":0,"y":-1,"rotation":45}]`),
		gametest.Refuse("rotation 360", MovePlaceTile, `[{"x":0,"y":-1,"rotation":360}]`),
		gametest.Refuse("rotation fraction", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180.0}]`),
		gametest.Refuse("rotation string", MovePlaceTile, `[{"x":0,"y":-1,"rotation":"180"}]`),
		gametest.Refuse("huge x", MovePlaceTile, `[{"x":1e99,"y":-1,"rotation":180}]`),
		gametest.Refuse("two objects", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180},{}]`),
		gametest.Refuse("bare object", MovePlaceTile, `{"x":0,"y":-1,"rotation":180}`),
		gametest.Refuse("array of numbers", MovePlaceTile, `[0,-1,180]`),
		gametest.Refuse("none", MovePlaceTile, `[]`),
		gametest.Refuse("null", MovePlaceTile, `null`),
		gametest.Refuse("null element", MovePlaceTile, `[null]`),
		gametest.Refuse("trailing garbage", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}]]`),
		gametest.Refuse("huge", MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}`+strings.Repeat(" ", 60000)+`]`),
	})
	meeple, err := Rules{}.Apply(tile, 0, MovePlaceTile, json.RawMessage(`[{"x":0,"y":-1,"rotation":180}]`))
	if err != nil {
		t.Fatal(err)
	}
	opts := Rules{}.View(meeple, 0).MeepleOptions
	if len(opts) == 0 {
		t.Fatal("no meeple option after the placement")
	}
	f := opts[0].Feature
	gametest.CheckArgs(t, Game, erased(t, meeple), 0, []gametest.ArgsCase{
		gametest.Accept("feature", MovePlaceMeeple, `[{"feature":"`+f+`"}]`, `[{"feature":"`+f+`"}]`),
		gametest.Accept("feature spaced", MovePlaceMeeple, `[ { "feature" : "`+f+`" } ]`, `[{"feature":"`+f+`"}]`),
		gametest.Parses("not an option", MovePlaceMeeple, `[{"feature":"city9"}]`, `[{"feature":"city9"}]`),
		gametest.Refuse("padded feature", MovePlaceMeeple, `[{"feature":"`+f+` "}]`),
		gametest.Refuse("extra field", MovePlaceMeeple, `[{"feature":"`+f+`","seat":1}]`),
		gametest.Refuse("no field", MovePlaceMeeple, `[{}]`),
		gametest.Refuse("null feature", MovePlaceMeeple, `[{"feature":null}]`),
		gametest.Refuse("empty feature", MovePlaceMeeple, `[{"feature":""}]`),
		gametest.Refuse("bare string", MovePlaceMeeple, `["`+f+`"]`),
		gametest.Accept("skip", MoveSkipMeeple, `[]`, `[]`),
		gametest.Accept("skip absent", MoveSkipMeeple, ``, `[]`),
		gametest.Refuse("skip with an object", MoveSkipMeeple, `[{}]`),
		gametest.Refuse("skip with a tile", MoveSkipMeeple, `[{"tile":"A"}]`),
	})
}
