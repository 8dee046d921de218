package gongzhu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// TestRoundJSONCache checks the round's cached JSON (roundjson.go): every
// state's spectator view and state JSON are json.Marshal's bytes, the
// cache is what writes them from the second round on, and a state that
// shares the round's result but not its totals or history (put together
// by hand), or that was decoded from JSON, writes its own.
func TestRoundJSONCache(t *testing.T) {
	check := func(what string, s State) {
		t.Helper()
		want, err := json.Marshal(Rules{}.View(s, games.Spectator))
		if err != nil {
			t.Fatal(err)
		}
		if got := (Rules{}).AppendPublicView([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("%s: AppendPublicView wrote\n%s\njson.Marshal gives\n%s", what, got[1:], want)
		}
		want, err = json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := s.AppendJSON(nil); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: AppendJSON wrote\n%s (%v)\njson.Marshal gives\n%s", what, got, err, want)
		}
	}
	for _, n := range []int{3, 4} {
		s := newState(t, n, 11)
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		cached := 0
		for i := 0; s.Round <= 6; i++ {
			what := fmt.Sprintf("%d seats, move %d (round %d)", n, i, s.Round)
			check(what, s)
			if s.Round > 1 {
				if s.roundJSON() == nil {
					t.Fatalf("%s: no cached round JSON", what)
				}
				cached++
			}
			if s.Round > 1 && len(s.Tricks) == 3 && len(s.Trick.Plays) == 0 {
				// The same round's result with other totals: not the cache's.
				odd := s.clone()
				odd.Totals[0] += 10
				if odd.roundJSON() != nil {
					t.Fatalf("%s: a state with other totals took the round's cache", what)
				}
				check(what+", other totals", odd)
				// And with a history of its own.
				odd = s.clone()
				odd.History = slices.Clone(odd.History)
				odd.History[len(odd.History)-1].Pig = (odd.History[len(odd.History)-1].Pig + 1) % n
				if odd.roundJSON() != nil {
					t.Fatalf("%s: a state with another history took the round's cache", what)
				}
				check(what+", other history", odd)
				// Decoded from its JSON: no cache, same bytes.
				js, _ := json.Marshal(s)
				var back State
				if err := json.Unmarshal(js, &back); err != nil {
					t.Fatal(err)
				}
				if back.roundJSON() != nil {
					t.Fatalf("%s: a decoded state has a cache", what)
				}
				check(what+", decoded", back)
			}
			s = easyMove(t, s, rng)
		}
		if cached < 5*len(Deck(n)) {
			t.Fatalf("%d seats: %d states used the cache", n, cached)
		}
	}
}
