package weiqi

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

// TestCanonicalArgs: a point is one string in any spelling ParseCoord
// documents but with no space, stored in its normal spelling (["D4"]);
// the padded move that once stored 60 KB per stone is refused, as are
// extra, wrong-type, wrong-arity, huge and null args, and none of them
// changes the state.
func TestCanonicalArgs(t *testing.T) {
	padded := `["D4` + strings.Repeat(" ", 60000) + `"]`
	spaced := `["D4"` + strings.Repeat(" ", 60000) + `]`
	gametest.CheckArgs(t, Game, erased(t, newGame(t, 9)), 0, []gametest.ArgsCase{
		gametest.Accept("canonical", movePlay, `["D4"]`, `["D4"]`),
		gametest.Accept("lower case", movePlay, `["d4"]`, `["D4"]`),
		gametest.Accept("full-width", movePlay, `["Ｄ４"]`, `["D4"]`),
		gametest.Accept("full-width lower case", movePlay, `["ｄ４"]`, `["D4"]`),
		gametest.Accept("escaped", movePlay, `["\u0044\u0034"]`, `["D4"]`),
		gametest.Accept("spaced tokens", movePlay, ` [ "D4" ] `, `["D4"]`),
		gametest.Parses("off a 9x9 board parses", movePlay, `["T19"]`, `["T19"]`),
		gametest.Refuse("padded 60000", movePlay, padded),
		gametest.Refuse("spaced 60000", movePlay, spaced),
		gametest.Refuse("trailing space", movePlay, `["D4 "]`),
		gametest.Refuse("leading space", movePlay, `[" D4"]`),
		gametest.Refuse("inner space", movePlay, `["D 4"]`),
		gametest.Refuse("ideographic space", movePlay, `["D4　"]`),
		gametest.Refuse("tab", movePlay, `["D4\t"]`),
		gametest.Refuse("no I column", movePlay, `["I4"]`),
		gametest.Refuse("row with a zero", movePlay, `["D04"]`),
		gametest.Refuse("not a point", movePlay, `["Z99"]`),
		gametest.Refuse("long string", movePlay, `["D`+strings.Repeat("4", 40)+`"]`),
		gametest.Refuse("two points", movePlay, `["D4","E5"]`),
		gametest.Refuse("none", movePlay, `[]`),
		gametest.Refuse("null", movePlay, `null`),
		gametest.Refuse("null element", movePlay, `[null]`),
		gametest.Refuse("number", movePlay, `[4]`),
		gametest.Refuse("trailing garbage", movePlay, `["D4"]x`),
		gametest.Refuse("bare string", movePlay, `"D4"`),
		gametest.Refuse("nested", movePlay, `[["D4"]]`),
		gametest.Refuse("object", movePlay, `[{"point":"D4"}]`),
		gametest.Accept("pass", movePass, ``, `[]`),
		gametest.Accept("pass null", movePass, `null`, `[]`),
		gametest.Refuse("pass with a point", movePass, `["D4"]`),
		gametest.Refuse("pass with null", movePass, `[null]`),
		gametest.Parses("answerUndo spaced", moveAnswerUndo, `[ true ]`, `[true]`),
		gametest.Refuse("answerUndo string", moveAnswerUndo, `["yes"]`),
		gametest.Refuse("answerScoring null", moveAnswerScoring, `[null]`),
	})
	// In scoring (two stones, two passes): the dead-stone moves.
	scoring := erased(t, moves(t, newGame(t, 9), "E5", "C3", "pass", "pass"))
	many := `[["` + strings.Repeat(`A1","`, 400) + `A1"]]`
	gametest.CheckArgs(t, Game, scoring, 0, []gametest.ArgsCase{
		gametest.Accept("toggleDead", moveToggleDead, `["e5"]`, `["E5"]`),
		gametest.Refuse("toggleDead padded", moveToggleDead, `["E5 "]`),
		gametest.Accept("setDead", moveSetDead, `[["e5","Ｃ３"]]`, `[["E5","C3"]]`),
		gametest.Accept("setDead none", moveSetDead, `[[]]`, `[[]]`),
		gametest.Refuse("setDead padded", moveSetDead, `[["E5","C3 "]]`),
		gametest.Refuse("setDead null point", moveSetDead, `[["E5",null]]`),
		gametest.Refuse("setDead null list", moveSetDead, `[null]`),
		gametest.Refuse("setDead extra", moveSetDead, `[["E5"],1]`),
		gametest.Refuse("setDead bare list", moveSetDead, `["E5"]`),
		gametest.Refuse("setDead object", moveSetDead, `[{"points":["E5"]}]`),
		gametest.Refuse("setDead too many points", moveSetDead, many),
		gametest.Accept("approve", moveApprove, `[]`, `[]`),
		gametest.Refuse("approve with true", moveApprove, `[true]`),
	})
}
