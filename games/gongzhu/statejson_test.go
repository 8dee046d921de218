package gongzhu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games/cards"
)

// TestStateAppendJSON: State.AppendJSON writes json.Marshal's bytes on
// every state of playouts at 3 and 4 seats past HistoryCap rounds (each
// field's zero form included: the opening card, no last round, no
// history), and what the erased state stores is those bytes.
func TestStateAppendJSON(t *testing.T) {
	check := func(what string, s State) {
		t.Helper()
		want, werr := json.Marshal(s)
		prefix := []byte("prefix:")
		got, err := s.AppendJSON(append([]byte(nil), prefix...))
		if werr != nil || err != nil {
			if werr == nil || err == nil || err.Error() != werr.Error() {
				t.Fatalf("%s: AppendJSON's error %v, json.Marshal's %v", what, err, werr)
			}
			return
		}
		if !bytes.Equal(got[len(prefix):], want) || !bytes.HasPrefix(got, prefix) {
			t.Fatalf("%s: AppendJSON wrote\n%s\njson.Marshal gives\n%s", what, got[len(prefix):], want)
		}
	}
	check("zero", State{})
	check("bad card", State{Seats: 4, Hands: [][]cards.Card{{{}}}})
	moves := 52 * (HistoryCap + 3)
	if testing.Short() {
		moves = 600
	}
	for _, n := range []int{3, 4} {
		s := newState(t, n, uint64(n)*7)
		rng := rand.New(rand.NewPCG(uint64(n), 3))
		for i := range moves {
			if i%3 == 0 || i > moves-60 {
				check(fmt.Sprintf("%d seats, move %d", n, i), s)
			}
			s = easyMove(t, s, rng)
		}
		if !testing.Short() && len(s.History) != HistoryCap {
			t.Fatalf("%d seats: %d rounds of history, want the cap %d", n, len(s.History), HistoryCap)
		}
		// The erased state stores what AppendJSON writes.
		want, _ := json.Marshal(s)
		st, err := Game.Load(want)
		if err != nil {
			t.Fatal(err)
		}
		if got, err := st.MarshalJSON(); err != nil || !bytes.Equal(got, want) {
			t.Fatalf("%d seats: the erased state marshals to %.80s…, %v", n, got, err)
		}
	}
}
