package threemonks

import (
	"testing"

	"github.com/chaguan/chaguan/games"
)

// TestWoodenFish: at the end of a round the fish's current owner takes the
// token, over whatever chanting gave.
func TestWoodenFish(t *testing.T) {
	t.Run("overrides the chant", func(t *testing.T) {
		s := table(WoodenFish, Pole, Ladle)
		s.Holder = 1
		s = choose(t, s, Rest, Rest, Chant)
		toks := find(s.LastEvents, EvToken)
		eq(t, "token reasons", []string{toks[0].Reason, toks[1].Reason}, []string{"chant", "fish"})
		eq(t, "holder", s.Holder, 0)
	})
	t.Run("the current owner after an exchange", func(t *testing.T) {
		s := table(WoodenFish, Pole, Ladle)
		s = choose(t, s, Exchange, Exchange, Rest)
		eq(t, "fish owner", s.Owner(WoodenFish), 1)
		eq(t, "holder", s.Holder, 1)
	})
	t.Run("no fish in play: the chant's token stays", func(t *testing.T) {
		s := table(Bucket, Pole, Ladle)
		s = choose(t, s, Rest, Rest, Chant)
		eq(t, "holder", s.Holder, 2)
	})
}

func TestRoundCap(t *testing.T) {
	s := table(Bucket, Pole, Ladle)
	s.Round = RoundCap - 1
	s = choose(t, s, Rest, Rest, Rest)
	eq(t, "round", s.Round, RoundCap)
	if (Rules{}).Status(s).Outcome != nil {
		t.Fatalf("over before round %d resolved", RoundCap)
	}
	s = choose(t, s, Chant, Chant, Chant)
	st := Rules{}.Status(s)
	if st.Outcome == nil || !st.Outcome.Draw || st.Outcome.Reason != "cap" || st.Outcome.Winner != "" {
		t.Fatalf("outcome %+v, want a draw by cap", st.Outcome)
	}
	eq(t, "turn", st.Turn, RoundCap)
	eq(t, "last event", s.Events[len(s.Events)-1].Kind, EvCap)
}

// TestEventsKeepTwoRounds: the view holds this round's events and the last
// round's, and every event narrates in both languages.
func TestEventsKeepTwoRounds(t *testing.T) {
	s := table(Vase, Mouse, WoodenFish, Ladle)
	s = settle(t, choose(t, s, Chant, Fetch, Drink, Exchange))
	first := s.LastEvents
	s = settle(t, choose(t, s, Drink, Chant, Fetch, Rest))
	v := Rules{}.View(s, games.Spectator)
	if len(v.LastEvents) == 0 || len(v.Events) != 0 || v.LastEvents[0].Kind != EvReveal {
		t.Fatalf("view events %v / last %v", kinds(v.Events), kinds(v.LastEvents))
	}
	eq(t, "last round's cards", v.LastCards, []Card{Drink, Chant, Fetch, Rest})
	for _, e := range append(first, v.LastEvents...) {
		tx := e.Text()
		if tx.En == "" || tx.Zh == "" || tx.En == e.Kind {
			t.Fatalf("event %+v narrates as %+v", e, tx)
		}
	}
}
