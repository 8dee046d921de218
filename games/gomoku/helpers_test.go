package gomoku

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// newMatch returns a fresh two-seat match through the erased Game, the way
// the rooms package sees it.
func newMatch(t testing.TB) games.State {
	t.Helper()
	st, err := Game.Setup(2, nil, 1)
	if err != nil {
		t.Fatalf("setup: %v", err)
	}
	return st
}

// mustApply plays a move that must be accepted.
func mustApply(t testing.TB, st games.State, seat int, name string, args ...any) games.State {
	t.Helper()
	next, err := st.Apply(seat, name, games.Args(args...))
	if err != nil {
		t.Fatalf("%s %v by seat %d refused: %v", name, args, seat, err)
	}
	return next
}

// playStones places stones alternately from black, each [x, y].
func playStones(t testing.TB, pts ...[2]int) games.State {
	t.Helper()
	st := newMatch(t)
	for i, p := range pts {
		st = mustApply(t, st, i%2, movePlace, p[0], p[1])
	}
	return st
}

// interleave builds a play order from black's and white's stones: black,
// white, black, ... len(b) must be len(w) or len(w)+1.
func interleave(b, w [][2]int) [][2]int {
	var out [][2]int
	for i := range b {
		out = append(out, b[i])
		if i < len(w) {
			out = append(out, w[i])
		}
	}
	return out
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

// typed unwraps the erased state.
func typed(t testing.TB, st games.State) State {
	t.Helper()
	s, ok := games.Typed[State](st)
	if !ok {
		t.Fatalf("state is not a gomoku State")
	}
	return s
}

// viewOf is the typed view of a seat.
func viewOf(t testing.TB, st games.State, viewer int) View {
	t.Helper()
	return Rules{}.View(typed(t, st), viewer)
}
