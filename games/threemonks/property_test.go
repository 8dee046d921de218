package threemonks_test

import (
	"flag"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
)

// propertyGames overrides TestPropertyConservation's number of games.
var propertyGames = flag.Int("property-games", 0, "games TestPropertyConservation plays (0: 3,000; 500 under -race; 100 with -short; 10000 for the long run)")

// TestPropertyConservation plays 3,000 bot games (500 under -race, 100
// under -short, -property-games=10000 for the long run) with 3-8 monks and
// mixed bot levels. After every move the
// water in play (monks, items, centre) equals the starting water plus what
// was taken from the supply, nothing is negative, and every game ends by a
// win or the cap.
func TestPropertyConservation(t *testing.T) {
	total := 3000
	switch {
	case *propertyGames > 0:
		total = *propertyGames
	case testing.Short():
		total = 100
	case raceEnabled:
		total = 500
	}
	const workers = 2
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for g := w; g < total; g += workers {
				if t.Failed() {
					return
				}
				propertyGame(t, uint64(g))
			}
		}(w)
	}
	wg.Wait()
}

func propertyGame(t *testing.T, seed uint64) {
	pick := rand.New(rand.NewPCG(seed, 5))
	n := threemonks.MinPlayers + pick.IntN(threemonks.MaxPlayers-threemonks.MinPlayers+1)
	levels := make([]string, n)
	for i := range levels {
		levels[i] = []string{"easy", "normal"}[pick.IntN(2)]
	}
	var bad string
	final, err := playGame(n, seed, func(s int) string { return levels[s] }, func(st games.State) {
		s, ok := games.Typed[threemonks.State](st)
		switch {
		case !ok:
			bad = "not a threemonks.State"
		case s.Total() != n*threemonks.StartWater+s.Taken:
			bad = "water not conserved"
		case s.Centre < 0 || s.Round < 1 || s.Round > threemonks.RoundCap:
			bad = "centre or round out of range"
		}
		for i := 0; i < n && bad == ""; i++ {
			if s.Water[i] < 0 || s.Items[i].Water < 0 {
				bad = "negative water"
			}
		}
		if bad != "" {
			t.Errorf("seed %d (n=%d, levels %v), round %d: %s: %+v", seed, n, levels, s.Round, bad, s)
		}
	})
	if err != nil {
		t.Error(err)
	}
	if bad != "" || err != nil {
		return
	}
	out := final.Status().Outcome
	s, _ := games.Typed[threemonks.State](final)
	switch {
	case out.Draw && (out.Reason != "cap" || s.Round != threemonks.RoundCap):
		t.Errorf("seed %d: draw %+v before the cap (round %d)", seed, out, s.Round)
	case !out.Draw && (out.Reason != "water" || s.Water[s.Winner] < threemonks.WinWater || out.Winner != games.PlayerID(s.Winner)):
		t.Errorf("seed %d: winner %+v with water %v", seed, out, s.Water)
	}
}
