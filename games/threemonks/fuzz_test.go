package threemonks

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// FuzzApply sends arbitrary moves to states at every kind of step (choosing,
// the mouse, drink and bowl questions): nothing may panic, and a refused
// move leaves the state as it was.
func FuzzApply(f *testing.F) {
	for _, seed := range []struct {
		seat       int
		name, args string
	}{
		{0, "choose", `["rest"]`}, {1, "drink", `[2]`}, {1, "mouse", `["left"]`}, {0, "bowl", `[true]`},
		{2, "choose", `[1e99]`}, {0, "drink", `[-1]`}, {7, "mouse", `null`}, {0, "bowl", `{"a":1}`},
	} {
		f.Add(seed.seat, seed.name, seed.args)
	}
	states := fuzzStates(f)
	f.Fuzz(func(t *testing.T, seat int, name, args string) {
		for _, s := range states {
			before, _ := json.Marshal(s)
			n, err := Rules{}.Apply(s, seat, name, json.RawMessage(args))
			if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
				t.Fatalf("Apply(%d, %q, %q) mutated its input", seat, name, args)
			}
			if err != nil {
				if got, _ := json.Marshal(n); !bytes.Equal(got, before) {
					t.Fatalf("refused Apply(%d, %q, %q) returned a changed state", seat, name, args)
				}
				continue
			}
			if n.Total()-n.Taken != s.Total()-s.Taken {
				t.Fatalf("Apply(%d, %q, %q) broke water conservation", seat, name, args)
			}
		}
	})
}

// fuzzStates builds one state waiting at each kind of step.
func fuzzStates(f *testing.F) []State {
	t := &testing.T{}
	mouse := table(Bucket, Mouse, Ladle)
	mouse.Items[0].Water, mouse.Items[2].Water = 1, 1
	mouse = choose(t, mouse, Rest, Chant, Rest)
	drink := table(Bucket, BigBarrel, Ladle)
	drink.Items[1].Water = 3
	drink = choose(t, drink, Rest, Drink, Rest)
	bowl := table(BigBowl, Pole, Ladle)
	bowl.Centre = 3
	bowl = choose(t, bowl, Drink, Rest, Rest)
	fresh, _ := Rules{}.Setup(4, nil, games.NewRNG(9))
	for _, s := range []State{mouse, drink, bowl} {
		if s.Pending == nil {
			f.Fatal("fuzz state has no pending decision")
		}
	}
	return []State{fresh, mouse, drink, bowl}
}
