package gomoku

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestAppendJSON: View.AppendJSON writes json.Marshal's bytes for views of
// every shape, including values no game produces (nil slices, strings that
// need escaping).
func TestAppendJSON(t *testing.T) {
	seat := "1"
	odd := "<a&b>\"\\\x01é\xff\u2028"
	winner := "0"
	views := []View{
		{},
		{Board: []string{}, Moves: [][2]int{}, WinLine: [][2]int{}},
		{Size: 15, Board: []string{"...", "BW."}, Moves: [][2]int{{7, 7}, {-1, 20}}, Last: &[2]int{-1, 20},
			ToMove: "0", UndoRequest: &seat},
		{ToMove: odd, UndoRequest: &odd, Board: []string{odd, ""}},
		{WinLine: [][2]int{{1, 1}, {2, 2}}, Result: &Result{Winner: &winner, Reason: "five"}},
		{Result: &Result{Draw: true, Reason: "full"}},
		{Result: &Result{Winner: &odd, Reason: odd}},
	}
	for i, v := range views {
		want, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got := v.AppendJSON([]byte("x")); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Errorf("view %d: AppendJSON wrote\n%s\njson.Marshal gives\nx%s", i, got, want)
		}
	}
}

// TestAppendViewStates checks AppendView on the states the rules make: an
// empty board, an undo request, a five, a resignation and random games to
// their end.
func TestAppendViewStates(t *testing.T) {
	check := func(st games.State) {
		t.Helper()
		for _, viewer := range []int{games.Spectator, 0, 1} {
			if err := gametest.CheckAppendView(st, viewer); err != nil {
				t.Fatal(err)
			}
		}
	}
	st := newMatch(t)
	check(st)
	st = mustApply(t, st, 0, movePlace, 7, 7)
	check(mustApply(t, st, 0, moveRequestUndo))
	check(mustApply(t, st, 1, moveResign))
	check(playStones(t, interleave([][2]int{{0, 0}, {1, 0}, {2, 0}, {3, 0}, {4, 0}}, [][2]int{{0, 5}, {1, 5}, {2, 5}, {3, 5}})...))
	rng := rand.New(rand.NewPCG(3, 4))
	for range 5 {
		st := newMatch(t)
		for st.Status().Outcome == nil {
			name, args, err := st.Bot("easy", st.Status().Movers(2)[0], rng)
			if err != nil {
				t.Fatal(err)
			}
			if st, err = st.Apply(st.Status().Movers(2)[0], name, args); err != nil {
				t.Fatal(err)
			}
			check(st)
		}
	}
}
