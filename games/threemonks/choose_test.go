package threemonks

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestChooseLocking(t *testing.T) {
	s := table(Vase, Mouse, BigBowl)
	// Round 1: every card may be chosen.
	for _, c := range Cards {
		if _, err := (Rules{}).Apply(s, 0, "choose", games.Args(c)); err != nil {
			t.Fatalf("round 1 refused %s: %v", c, err)
		}
	}
	s = choose(t, s, Rest, Rest, Rest)
	eq(t, "round", s.Round, 2)
	eq(t, "locked", s.Last, []Card{Rest, Rest, Rest})
	refuse(t, s, 0, "choose", games.Args(Rest))
	for _, c := range []Card{Chant, Fetch, Exchange, Drink} {
		if _, err := (Rules{}).Apply(s, 1, "choose", games.Args(c)); err != nil {
			t.Fatalf("round 2 refused %s: %v", c, err)
		}
	}
	// Round 2's card is locked in round 3 and rest is free again.
	s = settle(t, choose(t, s, Drink, Fetch, Exchange))
	eq(t, "locked", s.Last, []Card{Drink, Fetch, Exchange})
	if _, err := (Rules{}).Apply(s, 0, "choose", games.Args(Rest)); err != nil {
		t.Fatalf("rest refused after being unlocked: %v", err)
	}
	v := Rules{}.View(s, 1)
	for _, h := range v.Players["1"].Hand {
		eq(t, "hand "+string(h.Card)+" locked", h.Locked, h.Card == Fetch)
	}
}

func TestChooseRefusals(t *testing.T) {
	s := table(Vase, Mouse, BigBowl)
	chosen := mustApply(t, s, 0, "choose", Rest)
	tests := []struct {
		name string
		s    State
		seat int
		args string
	}{
		{"twice", chosen, 0, `["chant"]`},
		{"unknown card", s, 0, `["sleep"]`},
		{"no card", s, 0, `[]`},
		{"two cards", s, 0, `["rest","chant"]`},
		{"not a list", s, 0, `"rest"`},
		{"number", s, 0, `[3]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { refuse(t, tc.s, tc.seat, "choose", json.RawMessage(tc.args)) })
	}
}

// TestSimultaneousReveal: nothing resolves until the last monk chooses, and
// then the cards are revealed in seat order.
func TestSimultaneousReveal(t *testing.T) {
	s := table(Mouse, Bucket, BigBowl)
	s = mustApply(t, s, 2, "choose", Drink)
	s = mustApply(t, s, 0, "choose", Chant)
	st := Rules{}.Status(s)
	eq(t, "phase", st.Phase, "choose")
	eq(t, "active", st.Active, map[int]string{1: "choose"})
	eq(t, "revealed", s.Revealed, []Card(nil))
	eq(t, "events", len(s.Events), 0)
	s = mustApply(t, s, 1, "choose", Rest)
	ev := s.LastEvents
	eq(t, "first event", ev[0].Kind, EvReveal)
	eq(t, "revealed cards", ev[0].Cards, []Card{Chant, Rest, Drink})
	eq(t, "next round status", Rules{}.Status(s).Active, map[int]string{0: "choose", 1: "choose", 2: "choose"})
	eq(t, "turn", Rules{}.Status(s).Turn, 2)
}

// TestPhaseOrder: proposed phases run once each, in the fixed order, however
// many propose them and in whatever seat order; rest proposes nothing.
func TestPhaseOrder(t *testing.T) {
	tests := []struct {
		name  string
		cards []Card
		want  []Card
	}{
		{"all four, reverse seats", []Card{Drink, Exchange, Fetch, Chant}, []Card{Chant, Fetch, Exchange, Drink}},
		{"duplicates run once", []Card{Drink, Drink, Fetch, Fetch}, []Card{Fetch, Drink}},
		{"rest proposes nothing", []Card{Rest, Rest, Rest, Rest}, nil},
		{"exchange only", []Card{Rest, Exchange, Rest, Rest}, []Card{Exchange}},
		{"chant and drink", []Card{Drink, Rest, Chant, Rest}, []Card{Chant, Drink}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := settle(t, choose(t, table(Bucket, Vase, Ladle, Mouse), tc.cards...))
			eq(t, "phases", phasesRun(s.LastEvents), tc.want)
			runs := PhaseRuns{}
			for _, p := range tc.want {
				runs.add(p)
			}
			eq(t, "runs", s.Runs, runs)
		})
	}
}

// TestNoPhaseOnlyFish: with every monk resting only the wooden fish acts.
func TestNoPhaseOnlyFish(t *testing.T) {
	s := table(Vase, WoodenFish, BigBowl)
	before := s.clone()
	s = choose(t, s, Rest, Rest, Rest)
	eq(t, "events", kinds(s.LastEvents), []string{EvReveal, EvToken})
	eq(t, "holder", s.Holder, 1)
	eq(t, "water", s.Water, before.Water)
	eq(t, "items", s.Items, before.Items)
}
