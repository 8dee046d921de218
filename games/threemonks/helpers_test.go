package threemonks

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// table builds a state with the given items, every monk at 2 water, the
// token at seat 0, round 1.
func table(items ...ItemKind) State {
	n := len(items)
	s := State{
		N: n, Round: 1, Water: make([]int, n), Items: make([]Item, n), StartItems: items,
		Last: make([]Card, n), Events: []Event{}, LastEvents: []Event{}, Winner: -1,
		Secret: Secret{Choices: make([]Card, n)},
	}
	for i, k := range items {
		s.Water[i], s.Items[i] = StartWater, Item{Kind: k}
	}
	return s
}

func mustApply(t *testing.T, s State, seat int, name string, args ...any) State {
	t.Helper()
	n, err := Rules{}.Apply(s, seat, name, games.Args(args...))
	if err != nil {
		t.Fatalf("%s %v by seat %d: %v", name, args, seat, err)
	}
	return n
}

// choose has every monk play its card, seat 0 first.
func choose(t *testing.T, s State, cards ...Card) State {
	t.Helper()
	if len(cards) != s.N {
		t.Fatalf("choose: %d cards for %d monks", len(cards), s.N)
	}
	for i, c := range cards {
		s = mustApply(t, s, i, "choose", c)
	}
	return s
}

// refuse checks that a move is refused as invalid and changes nothing.
func refuse(t *testing.T, s State, seat int, name string, args json.RawMessage) {
	t.Helper()
	before, _ := json.Marshal(s)
	n, err := Rules{}.Apply(s, seat, name, args)
	if err == nil {
		t.Fatalf("%s %s by seat %d accepted", name, args, seat)
	}
	var me *games.MoveError
	if !errors.As(err, &me) || me.Reason.En == "" || me.Reason.Zh == "" {
		t.Fatalf("%s %s: error %v is not a bilingual games.Invalid", name, args, err)
	}
	after, _ := json.Marshal(s)
	if string(before) != string(after) {
		t.Fatalf("refused move mutated the input")
	}
	if nb, _ := json.Marshal(n); string(nb) != string(before) {
		t.Fatalf("refused move returned a changed state")
	}
}

// kinds lists the event kinds in order.
func kinds(evs []Event) []string {
	out := []string{}
	for _, e := range evs {
		out = append(out, e.Kind)
	}
	return out
}

// find returns the events of one kind.
func find(evs []Event, kind string) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

// phasesRun lists the phases that began, in order.
func phasesRun(evs []Event) []Card {
	var out []Card
	for _, e := range find(evs, EvPhase) {
		out = append(out, e.Phase)
	}
	return out
}

// roundEvents is the record of the round just resolved (it moved to
// LastEvents if the round ended).
func roundEvents(s State) []Event {
	if s.Revealed == nil && !s.over() {
		return s.LastEvents
	}
	return s.Events
}

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s = %v, want %v", what, got, want)
	}
}

// settle answers every pending decision the way a bot would by default.
func settle(t *testing.T, s State) State {
	t.Helper()
	for s.Pending != nil && !s.over() {
		v := Rules{}.View(s, s.Pending.Seat)
		name, args := defaultDecision(v, v.Pending)
		n, err := Rules{}.Apply(s, s.Pending.Seat, name, args)
		if err != nil {
			t.Fatalf("default %s %s: %v", name, args, err)
		}
		s = n
	}
	return s
}
