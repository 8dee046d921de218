package gongzhu

import (
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestViewOps plays six rounds with 3 and 4 seats and checks the
// spectators' operations (AppendViewOps) from each of the last six
// states to the new one with the client's patch applier. The rules tell
// every move within a round, from any earlier state of it; they leave a
// round's end, and a seat's view, to the diff.
func TestViewOps(t *testing.T) {
	for _, n := range []int{3, 4} {
		st, err := Game.Setup(n, nil, 21)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 9))
		history := []games.State{st}
		rounds := []int{1} // each state's round
		told, left := 0, 0
		last := 6
		if testing.Short() { // CI's race run
			last = 3
		}
		for rounds[len(rounds)-1] <= last {
			seat := st.Status().Current
			name, args, err := st.Bot(LevelEasy, seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			next, err := st.Apply(seat, name, args)
			if err != nil {
				t.Fatal(err)
			}
			round := next.View(games.Spectator).(View).Round
			for back := 1; back <= 6 && back <= len(history); back++ {
				prev := history[len(history)-back]
				for viewer := games.Spectator; viewer < n; viewer++ {
					if err := gametest.CheckViewOps(prev, next, viewer); err != nil {
						t.Fatalf("%d seats, state %d, from %d back: %v", n, len(history), back, err)
					}
					_, ok := games.ViewOps(nil, prev, next, viewer, "/G")
					switch {
					case ok && viewer != games.Spectator:
						t.Fatalf("%d seats, state %d: operations told for seat %d's view", n, len(history), viewer)
					case viewer != games.Spectator:
					case ok:
						told++
					case rounds[len(rounds)-back] == round:
						t.Fatalf("%d seats, state %d, from %d back: no operations within round %d", n, len(history), back, round)
					default:
						left++
					}
				}
			}
			history, rounds = append(history, next), append(rounds, round)
			st = next
		}
		if told == 0 || left == 0 {
			t.Fatalf("%d seats: told %d times, left %d round ends to the diff", n, told, left)
		}
	}
}
