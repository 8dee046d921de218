package gomoku

import (
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestViewOps plays random matches with undo requests (accepted and
// refused), resignations, fives and dense boards, and checks the view's
// operations (AppendViewOps) from every one of the last twelve states to
// the new one: the client's applier makes the old view's JSON into the
// new one's, byte for byte. From the state just before, the rules always
// tell; from further back, past maxViewOps stones, they leave it to the
// diff.
func TestViewOps(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	told, leftToDiff := 0, 0
	matches := 24
	if testing.Short() { // CI's race run
		matches = 4
	}
	for match := range matches {
		st := newMatch(t)
		history := []games.State{st}
		for len(history) < 400 && st.Status().Outcome == nil {
			seat := rng.IntN(2)
			var next games.State
			var err error
			switch r := rng.IntN(20); {
			case r < 2:
				next, err = st.Apply(seat, moveRequestUndo, games.Args())
			case r < 4:
				next, err = st.Apply(seat, moveAnswerUndo, games.Args(rng.IntN(2) == 0))
			case r == 4 && match%4 == 0:
				next, err = st.Apply(seat, moveResign, games.Args())
			default:
				// Near the middle, so that fives come as well as full rows.
				next, err = st.Apply(seat, movePlace, games.Args(4+rng.IntN(7), 4+rng.IntN(7)))
			}
			if err != nil {
				continue
			}
			for back := 1; back <= 12 && back <= len(history); back++ {
				prev := history[len(history)-back]
				for _, viewer := range []int{games.Spectator, 0, 1} {
					if err := gametest.CheckViewOps(prev, next, viewer); err != nil {
						t.Fatalf("match %d, state %d, from %d back: %v", match, len(history), back, err)
					}
				}
				if _, ok := games.ViewOps(nil, prev, next, 0, "/G"); ok {
					told++
				} else if back == 1 {
					t.Fatalf("match %d, state %d: no operations from the state just before", match, len(history))
				} else {
					leftToDiff++
				}
			}
			history = append(history, next)
			st = next
		}
	}
	if told == 0 || leftToDiff == 0 {
		t.Fatalf("the rules told %d times and left %d to the diff: both should happen", told, leftToDiff)
	}
	t.Logf("the rules told %d times, left %d to the diff", told, leftToDiff)
}
