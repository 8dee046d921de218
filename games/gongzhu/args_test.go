package gongzhu

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

// TestCanonicalArgs: play takes one card code, in upper or lower case and
// with 10 for the ten but no space, stored in its wire code (["TC"]);
// padded, extra, wrong-type, wrong-arity, huge and null args are refused
// as invalid moves and change nothing.
func TestCanonicalArgs(t *testing.T) {
	b, err := json.Marshal(fixed(t, "2C 7H AS 5C", "3C 9H 2D TC", "4C KH 3D 6C", "JC QH 4D 7C"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	gametest.CheckArgs(t, Game, st, 0, []gametest.ArgsCase{
		gametest.Accept("canonical", MovePlay, `["2C"]`, `["2C"]`),
		gametest.Accept("lower case", MovePlay, `["2c"]`, `["2C"]`),
		gametest.Accept("spaced tokens", MovePlay, ` [ "2C" ] `, `["2C"]`),
		gametest.Parses("ten as 10", MovePlay, `["10c"]`, `["TC"]`),
		gametest.Parses("not held parses", MovePlay, `["QS"]`, `["QS"]`),
		gametest.Refuse("padded", MovePlay, `["5C   "]`),
		gametest.Refuse("padded 60000", MovePlay, `["5C`+strings.Repeat(" ", 60000)+`"]`),
		gametest.Refuse("leading space", MovePlay, `[" 2C"]`),
		gametest.Refuse("inner space", MovePlay, `["2 C"]`),
		gametest.Refuse("not a card", MovePlay, `["ZZ"]`),
		gametest.Refuse("long", MovePlay, `["`+strings.Repeat("2C", 20)+`"]`),
		gametest.Refuse("two cards", MovePlay, `["2C","7H"]`),
		gametest.Refuse("none", MovePlay, `[]`),
		gametest.Refuse("null", MovePlay, `null`),
		gametest.Refuse("null element", MovePlay, `[null]`),
		gametest.Refuse("number", MovePlay, `[2]`),
		gametest.Refuse("object", MovePlay, `{"card":"2C"}`),
		gametest.Refuse("bare string", MovePlay, `"2C"`),
		gametest.Refuse("nested", MovePlay, `[["2C"]]`),
		gametest.Refuse("trailing garbage", MovePlay, `["2C"] ["2C"]`),
	})
}
