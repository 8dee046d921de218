package threemonks

import (
	"testing"
)

// TestChantToken: the token goes to the last chanter clockwise from the
// holder, and the new holder already leads the later phases of the round.
func TestChantToken(t *testing.T) {
	t.Run("last chanter clockwise from holder", func(t *testing.T) {
		s := table(WoodenBarrel, Ladle, Pole, Bucket)
		s.Holder = 2
		s = choose(t, s, Chant, Chant, Rest, Chant)
		ph := find(s.LastEvents, EvPhase)[0]
		eq(t, "chant order", ph.Seats, []int{3, 0, 1})
		eq(t, "holder", s.Holder, 1)
		tok := find(s.LastEvents, EvToken)
		eq(t, "token event", tok, []Event{{Kind: EvToken, Seat: 1, From: "seat:2", To: "seat:1", Reason: "chant"}})
	})
	t.Run("holder keeps it as the only chanter", func(t *testing.T) {
		s := table(WoodenBarrel, Ladle, Pole)
		s.Holder = 1
		s = choose(t, s, Rest, Chant, Rest)
		eq(t, "holder", s.Holder, 1)
		eq(t, "token events", len(find(s.LastEvents, EvToken)), 0)
	})
	t.Run("new holder drinks first", func(t *testing.T) {
		s := table(WoodenBarrel, Ladle, Pole)
		s.Centre = 1
		s = choose(t, s, Drink, Drink, Chant)
		eq(t, "drink order", find(s.LastEvents, EvPhase)[1].Seats, []int{2, 0, 1})
		eq(t, "water", s.Water, []int{2, 2, 3})
	})
}

func TestVase(t *testing.T) {
	s := table(Vase, Ladle, Pole)
	s = choose(t, s, Chant, Chant, Rest)
	eq(t, "vase water", s.Items[0].Water, 1)
	eq(t, "taken from supply", s.Taken, 1)
	eq(t, "vase event", find(s.LastEvents, EvVase), []Event{{Kind: EvVase, Seat: 0, N: 1, From: "supply", To: "item:0", Item: Vase}})
	// A vase whose owner does not chant stays dry.
	s = choose(t, table(Vase, Ladle, Pole), Rest, Chant, Rest)
	eq(t, "idle vase", s.Items[0].Water, 0)
}

// TestMouse: seat 1's mouse has seat 2 on its left (next clockwise) and
// seat 0 on its right.
func TestMouse(t *testing.T) {
	tests := []struct {
		name        string
		right, left int    // water on seat 0's and seat 2's items
		answer      string // "" when no decision is expected
		want        [3]int // item water afterwards
	}{
		{"only left has water", 0, 2, "", [3]int{0, 1, 1}},
		{"only right has water", 3, 0, "", [3]int{2, 1, 0}},
		{"both, robs right", 1, 1, Right, [3]int{0, 1, 1}},
		{"both, robs left", 1, 1, Left, [3]int{1, 1, 0}},
		{"nothing to steal", 0, 0, "", [3]int{0, 0, 0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := table(Bucket, Mouse, Ladle)
			s.Items[0].Water, s.Items[2].Water = tc.right, tc.left
			s = choose(t, s, Rest, Chant, Rest)
			if tc.answer != "" {
				st := Rules{}.Status(s)
				eq(t, "phase", st.Phase, "chant")
				eq(t, "active", st.Active, map[int]string{1: DecideMouse})
				v := Rules{}.View(s, 0)
				eq(t, "pending", *v.Pending.Left*10+*v.Pending.Right, 20)
				s = mustApply(t, s, 1, DecideMouse, tc.answer)
			}
			eq(t, "pending", s.Pending, (*Decide)(nil))
			eq(t, "items", [3]int{s.Items[0].Water, s.Items[1].Water, s.Items[2].Water}, tc.want)
			if tc.want[1] == 0 {
				eq(t, "idle event", len(find(s.LastEvents, EvMouseIdle)), 1)
			}
		})
	}
	t.Run("acts only when its owner chants", func(t *testing.T) {
		s := table(Bucket, Mouse, Ladle)
		s.Items[0].Water = 2
		s = choose(t, s, Chant, Rest, Rest)
		eq(t, "mouse", s.Items[1].Water, 0)
	})
}

// TestVaseMouseOrder: chanters act clockwise from the holder, so a mouse
// chanting after a vase can rob the vase's fresh water.
func TestVaseMouseOrder(t *testing.T) {
	for _, tc := range []struct {
		holder      int
		vase, mouse int
	}{{holder: 1, vase: 1, mouse: 0}, {holder: 2, vase: 0, mouse: 1}} {
		s := table(Bucket, Mouse, Vase)
		s.Holder = tc.holder
		s = choose(t, s, Rest, Chant, Chant)
		eq(t, "vase, mouse water", [2]int{s.Items[2].Water, s.Items[1].Water}, [2]int{tc.vase, tc.mouse})
	}
}
