package gomoku

import (
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

// TestCanonicalArgs: place takes exactly two JSON whole numbers and is
// stored as [x,y]; the moves without arguments take only []; answerUndo
// takes one bool. Padded, extra, wrong-type, wrong-arity, huge and null
// args are refused as invalid moves and change nothing.
func TestCanonicalArgs(t *testing.T) {
	huge := `[7,7` + strings.Repeat(" ", 60000) + `]`
	gametest.CheckArgs(t, Game, newMatch(t), 0, []gametest.ArgsCase{
		gametest.Accept("canonical", movePlace, `[7,7]`, `[7,7]`),
		gametest.Accept("spaced", movePlace, ` [ 7 ,	7 ] `, `[7,7]`),
		gametest.Accept("minus zero", movePlace, `[-0,7]`, `[0,7]`),
		gametest.Parses("off the board parses", movePlace, `[1234567,0]`, `[1234567,0]`),
		gametest.Refuse("string", movePlace, `["7",7]`),
		gametest.Refuse("fraction", movePlace, `[7.0,7]`),
		gametest.Refuse("exponent", movePlace, `[7e0,7]`),
		gametest.Refuse("leading zero", movePlace, `[07,7]`),
		gametest.Refuse("one number", movePlace, `[7]`),
		gametest.Refuse("three numbers", movePlace, `[7,7,7]`),
		gametest.Refuse("null element", movePlace, `[null,7]`),
		gametest.Refuse("null", movePlace, `null`),
		gametest.Refuse("absent", movePlace, ``),
		gametest.Refuse("trailing garbage", movePlace, `[7,7]x`),
		gametest.Refuse("two arrays", movePlace, `[7,7][7,7]`),
		gametest.Refuse("object", movePlace, `{"x":7,"y":7}`),
		gametest.Refuse("nested", movePlace, `[[7,7]]`),
		gametest.Refuse("huge", movePlace, huge),
		gametest.Accept("resign", moveResign, `[]`, `[]`),
		gametest.Accept("resign absent", moveResign, ``, `[]`),
		gametest.Accept("resign null", moveResign, `null`, `[]`),
		gametest.Accept("resign spaced", moveResign, `[ ]`, `[]`),
		gametest.Refuse("resign with an argument", moveResign, `[1]`),
		gametest.Refuse("resign with null", moveResign, `[null]`),
		gametest.Refuse("resign object", moveResign, `{}`),
		gametest.Refuse("requestUndo with garbage", moveRequestUndo, `[] x`),
	})
	pending := mustApply(t, playStones(t, [2]int{7, 7}), 0, moveRequestUndo)
	gametest.CheckArgs(t, Game, pending, 1, []gametest.ArgsCase{
		gametest.Accept("yes", moveAnswerUndo, `[true]`, `[true]`),
		gametest.Accept("no spaced", moveAnswerUndo, `[ false ]`, `[false]`),
		gametest.Refuse("string", moveAnswerUndo, `["true"]`),
		gametest.Refuse("number", moveAnswerUndo, `[1]`),
		gametest.Refuse("none", moveAnswerUndo, `[]`),
		gametest.Refuse("two", moveAnswerUndo, `[true,true]`),
		gametest.Refuse("null", moveAnswerUndo, `null`),
		gametest.Refuse("null element", moveAnswerUndo, `[null]`),
	})
}
