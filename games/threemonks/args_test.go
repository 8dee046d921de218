package threemonks

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

// TestCanonicalArgs: every move takes one typed value spelt exactly as the
// catalog spells it (["rest"], [2], ["left"], [true]); padded, extra,
// wrong-type, wrong-arity, huge and null args are refused as invalid
// moves and change nothing.
func TestCanonicalArgs(t *testing.T) {
	gametest.CheckArgs(t, Game, erased(t, table(Bucket, Mouse, Ladle)), 0, []gametest.ArgsCase{
		gametest.Accept("choose", "choose", `["rest"]`, `["rest"]`),
		gametest.Accept("choose spaced tokens", "choose", ` [ "chant" ] `, `["chant"]`),
		gametest.Refuse("choose other case", "choose", `["Rest"]`),
		gametest.Refuse("choose padded", "choose", `["rest "]`),
		gametest.Refuse("choose padded 60000", "choose", `["rest`+strings.Repeat(" ", 60000)+`"]`),
		gametest.Refuse("choose leading space", "choose", `[" rest"]`),
		gametest.Refuse("choose unknown card", "choose", `["sleep"]`),
		gametest.Refuse("choose two", "choose", `["rest","chant"]`),
		gametest.Refuse("choose none", "choose", `[]`),
		gametest.Refuse("choose null", "choose", `null`),
		gametest.Refuse("choose null element", "choose", `[null]`),
		gametest.Refuse("choose number", "choose", `[1]`),
		gametest.Refuse("choose object", "choose", `[{"card":"rest"}]`),
		gametest.Refuse("choose trailing garbage", "choose", `["rest"],`),
	})
	drink := table(BigBarrel, Pole, Ladle)
	drink.Items[0].Water = 4
	drink = choose(t, drink, Drink, Rest, Rest)
	gametest.CheckArgs(t, Game, erased(t, drink), 0, []gametest.ArgsCase{
		gametest.Accept("drink", DecideDrink, `[4]`, `[4]`),
		gametest.Accept("drink spaced", DecideDrink, `[ 2 ]`, `[2]`),
		gametest.Parses("drink too much parses", DecideDrink, `[99]`, `[99]`),
		gametest.Refuse("drink fraction", DecideDrink, `[2.5]`),
		gametest.Refuse("drink whole fraction", DecideDrink, `[2.0]`),
		gametest.Refuse("drink string", DecideDrink, `["2"]`),
		gametest.Refuse("drink two", DecideDrink, `[2,2]`),
		gametest.Refuse("drink null", DecideDrink, `[null]`),
		gametest.Refuse("drink huge", DecideDrink, `[1e99]`),
	})
	mouse := table(Bucket, Mouse, Ladle)
	mouse.Items[0].Water, mouse.Items[2].Water = 1, 1
	mouse = choose(t, mouse, Rest, Chant, Rest)
	gametest.CheckArgs(t, Game, erased(t, mouse), 1, []gametest.ArgsCase{
		gametest.Accept("mouse", DecideMouse, `["left"]`, `["left"]`),
		gametest.Accept("mouse right", DecideMouse, `[ "right" ]`, `["right"]`),
		gametest.Refuse("mouse padded", DecideMouse, `["left "]`),
		gametest.Refuse("mouse other case", DecideMouse, `["Left"]`),
		gametest.Refuse("mouse up", DecideMouse, `["up"]`),
		gametest.Refuse("mouse bool", DecideMouse, `[true]`),
	})
	bowl := table(BigBowl, Pole, Ladle)
	bowl.Centre = 2
	bowl = choose(t, bowl, Drink, Rest, Rest)
	gametest.CheckArgs(t, Game, erased(t, bowl), 0, []gametest.ArgsCase{
		gametest.Accept("bowl", DecideBowl, `[true]`, `[true]`),
		gametest.Accept("bowl no", DecideBowl, `[false]`, `[false]`),
		gametest.Refuse("bowl string", DecideBowl, `["yes"]`),
		gametest.Refuse("bowl none", DecideBowl, ``),
		gametest.Refuse("bowl extra", DecideBowl, `[true,{}]`),
	})
}
