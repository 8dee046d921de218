package threemonks

import (
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestGoldenViews pins the JSON of every seat's and the spectator's view at
// two moments of a fixed game: mid-choice (one card hidden) and at a pending
// drink decision. Rewrite with: go test ./games/threemonks -run Golden -update
func TestGoldenViews(t *testing.T) {
	s := table(Bucket, Mouse, BigBarrel, WoodenFish)
	s.Holder = 1
	s = choose(t, s, Fetch, Chant, Fetch, Rest)
	mid := mustApply(t, s, 0, "choose", Drink)
	mid = mustApply(t, mid, 2, "choose", Drink)
	pend := mustApply(t, mid, 1, "choose", Fetch)
	pend = mustApply(t, pend, 3, "choose", Chant)
	for _, moment := range []struct {
		name string
		s    State
	}{{"choosing", mid}, {"drinking", pend}} {
		for viewer := games.Spectator; viewer < moment.s.N; viewer++ {
			name := fmt.Sprintf("%s-seat%d.json", moment.name, viewer)
			if viewer == games.Spectator {
				name = moment.name + "-spectator.json"
			}
			t.Run(name, func(t *testing.T) {
				gametest.Golden(t, name, Rules{}.View(moment.s, viewer))
			})
		}
	}
}
