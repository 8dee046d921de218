package threemonks

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestDrinkCentre(t *testing.T) {
	s := table(Bucket, Pole, Ladle)
	s.Holder, s.Centre = 1, 2
	s = choose(t, s, Drink, Rest, Rest)
	eq(t, "order", find(s.LastEvents, EvPhase)[0].Seats, []int{1, 2, 0})
	eq(t, "water", s.Water, []int{2, 3, 3})
	eq(t, "centre", s.Centre, 0)
}

func TestWaterVat(t *testing.T) {
	t.Run("sits out unless it played drink", func(t *testing.T) {
		s := table(WaterVat, Pole, Ladle)
		s.Centre = 3
		s = choose(t, s, Rest, Drink, Rest)
		eq(t, "order", find(s.LastEvents, EvPhase)[0].Seats, []int{1, 2})
		eq(t, "water", s.Water, []int{2, 3, 3})
	})
	t.Run("drinks 1 more from the supply", func(t *testing.T) {
		s := table(WaterVat, Pole, Ladle)
		s.Centre = 3
		s = choose(t, s, Drink, Rest, Rest)
		eq(t, "water", s.Water, []int{4, 3, 3})
		eq(t, "taken", s.Taken, 1)
	})
	t.Run("even from an empty centre", func(t *testing.T) {
		s := table(WaterVat, Pole, Ladle)
		s = choose(t, s, Drink, Rest, Rest)
		eq(t, "water", s.Water, []int{3, 2, 2})
	})
}

// TestDrinkFromItem: the amount is a decision of the owner, asked only when
// the item holds water: 0-2, any amount from the big barrel, any item.
func TestDrinkFromItem(t *testing.T) {
	tests := []struct {
		name   string
		item   ItemKind
		water  int
		max    int // 0: no question
		answer int
	}{
		{"bucket with 3 drinks at most 2", Bucket, 3, 2, 2},
		{"one water: 0 or 1", Pole, 1, 1, 1},
		{"may drink nothing", Pole, 2, 2, 0},
		{"big barrel: any amount", BigBarrel, 5, 5, 5},
		{"non-fetching item: vase", Vase, 2, 2, 1},
		{"dry item: no question", Bucket, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := table(tc.item, Mouse, Ladle)
			s.Items[0].Water = tc.water
			s = choose(t, s, Drink, Rest, Rest)
			if tc.max == 0 {
				eq(t, "pending", s.Pending, (*Decide)(nil))
				return
			}
			st := Rules{}.Status(s)
			eq(t, "status", [2]any{st.Phase, st.Active}, [2]any{"drink", map[int]string{0: DecideDrink}})
			eq(t, "current", st.Current, 0)
			eq(t, "max", Rules{}.View(s, games.Spectator).Pending.Max, tc.max)
			refuse(t, s, 0, DecideDrink, games.Args(tc.max+1))
			refuse(t, s, 0, DecideDrink, games.Args(-1))
			s = mustApply(t, s, 0, DecideDrink, tc.answer)
			eq(t, "water", s.Water[0], 2+tc.answer)
			eq(t, "item", s.Items[0].Water, tc.water-tc.answer)
		})
	}
}

func TestBigBowl(t *testing.T) {
	tests := []struct {
		name              string
		bowl, centre      int
		drink             int  // answer to the drink question, if asked
		ask               bool // the bowl question comes
		fill              bool
		wantBowl, wantCtr int
	}{
		{"empty bowl, fills", 0, 4, 0, true, true, 1, 0},
		{"empty bowl, declines", 0, 4, 0, true, false, 0, 1},
		{"drank nothing from a full bowl", 2, 4, 0, true, true, 3, 0},
		{"drank from the bowl: no refill", 2, 4, 1, false, false, 1, 1},
		{"centre emptied before the bowl", 0, 3, 0, false, false, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := table(BigBowl, Mouse, Ladle)
			s.Items[0].Water, s.Centre = tc.bowl, tc.centre
			s.Holder = 1
			s = choose(t, s, Drink, Rest, Rest)
			// order 1, 2, 0: the bowl's owner drinks last.
			if tc.bowl > 0 {
				s = mustApply(t, s, 0, DecideDrink, tc.drink)
			}
			if tc.ask {
				eq(t, "active", Rules{}.Status(s).Active, map[int]string{0: DecideBowl})
				refuse(t, s, 0, DecideBowl, json.RawMessage(`["yes"]`))
				s = mustApply(t, s, 0, DecideBowl, tc.fill)
			}
			eq(t, "pending", s.Pending, (*Decide)(nil))
			eq(t, "bowl", s.Items[0].Water, tc.wantBowl)
			eq(t, "centre", s.Centre, tc.wantCtr)
		})
	}
}

func TestWin(t *testing.T) {
	t.Run("earlier in order wins first", func(t *testing.T) {
		s := table(Bucket, Pole, Ladle)
		s.Water = []int{9, 9, 2}
		s.Holder, s.Centre = 1, 2
		s = choose(t, s, Drink, Rest, Rest)
		st := Rules{}.Status(s)
		eq(t, "outcome", *st.Outcome, games.Outcome{Winner: "1", Reason: "water", Detail: map[string]any{"water": []int{9, 10, 2}}})
		eq(t, "phase", st.Phase, "over")
		eq(t, "seat 0 never drank", s.Centre, 1)
		eq(t, "last event", s.Events[len(s.Events)-1], Event{Kind: EvWin, Seat: 1, N: 10})
		if _, err := (Rules{}).Apply(s, 0, "choose", games.Args(Rest)); !errors.Is(err, games.ErrGameOver) {
			t.Fatalf("move after the win: %v", err)
		}
	})
	t.Run("win comes after the item drink", func(t *testing.T) {
		s := table(BigBarrel, Pole, Ladle)
		s.Water[0], s.Items[0].Water = 4, 7
		s = choose(t, s, Drink, Rest, Rest)
		s = mustApply(t, s, 0, DecideDrink, 6)
		eq(t, "winner", s.Winner, 0)
		eq(t, "water", s.Water[0], 10)
	})
	t.Run("nine is not enough", func(t *testing.T) {
		s := table(Bucket, Pole, Ladle)
		s.Water[0] = 9
		s = choose(t, s, Drink, Rest, Rest)
		eq(t, "winner", s.Winner, -1)
	})
}

func TestDecisionRefusals(t *testing.T) {
	s := table(Bucket, Pole, Ladle)
	s.Items[0].Water = 2
	s = choose(t, s, Drink, Rest, Rest)
	tests := []struct {
		name string
		seat int
		move string
		args string
	}{
		{"another seat", 1, DecideDrink, `[1]`},
		{"wrong decision", 0, DecideBowl, `[true]`},
		{"mouse unasked", 0, DecideMouse, `["left"]`},
		{"fraction", 0, DecideDrink, `[1.5]`},
		{"string", 0, DecideDrink, `["2"]`},
		{"two numbers", 0, DecideDrink, `[1,1]`},
		{"choose while deciding", 1, "choose", `["rest"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { refuse(t, s, tc.seat, tc.move, json.RawMessage(tc.args)) })
	}
	m := table(Bucket, Mouse, Ladle)
	m.Items[0].Water, m.Items[2].Water = 1, 1
	m = choose(t, m, Rest, Chant, Rest)
	refuse(t, m, 1, DecideMouse, json.RawMessage(`["up"]`))
	refuse(t, m, 1, DecideMouse, json.RawMessage(`[0]`))
}
