package threemonks

import "testing"

// TestFetch covers the participants (fetching items, not resting, proposer
// or not), each item's cost, all-or-nothing payment, the supply and the
// ladle. Non-fetchers chant (which is harmless for these items) so that
// only chant and fetch run.
func TestFetch(t *testing.T) {
	tests := []struct {
		name      string
		items     []ItemKind
		water     []int
		centre    int
		cards     []Card
		wantWater []int
		wantItem  []int
		centreOut int
		takenOut  int
		order     []int // fetch participants
	}{
		{"bucket 1, pole 2, vase and rester out", []ItemKind{Bucket, Pole, Vase, Ladle}, []int{2, 2, 2, 2}, 0,
			[]Card{Fetch, Chant, Fetch, Rest}, []int{1, 0, 2, 2}, []int{1, 2, 0, 0}, 2, 2, []int{1, 0}},
		{"wooden barrel free with company", []ItemKind{WoodenBarrel, BigBarrel, Mouse}, []int{2, 2, 2}, 0,
			[]Card{Fetch, Chant, Chant}, []int{2, 0, 2}, []int{0, 2, 0}, 1, 1, []int{0, 1}},
		{"wooden barrel alone pays 2", []ItemKind{WoodenBarrel, BigBarrel, Mouse}, []int{2, 2, 2}, 0,
			[]Card{Fetch, Rest, Chant}, []int{0, 2, 2}, []int{2, 0, 0}, 2, 2, []int{0}},
		{"cannot pay: nothing moves, still counts", []ItemKind{Pole, Bucket, Mouse}, []int{1, 0, 2}, 0,
			[]Card{Fetch, Fetch, Chant}, []int{1, 0, 2}, []int{0, 0, 0}, 1, 1, []int{0, 1}},
		{"ladle scoops after the supply", []ItemKind{Ladle, Mouse, Vase}, []int{2, 2, 2}, 0,
			[]Card{Fetch, Chant, Rest}, []int{0, 2, 2}, []int{3, 0, 0}, 1, 2, []int{0}},
		{"ladle on an empty centre", []ItemKind{Ladle, Bucket, Pole}, []int{2, 2, 2}, 0,
			[]Card{Fetch, Fetch, Fetch}, []int{0, 1, 0}, []int{2, 1, 2}, 0, 0, []int{0, 1, 2}},
		{"resting ladle does not scoop", []ItemKind{Ladle, Bucket, Mouse}, []int{2, 2, 2}, 3,
			[]Card{Rest, Fetch, Chant}, []int{2, 1, 2}, []int{0, 1, 0}, 5, 2, []int{1}},
		{"nobody can fetch: all from the supply", []ItemKind{Vase, Mouse, BigBowl}, []int{2, 2, 2}, 0,
			[]Card{Fetch, Chant, Chant}, []int{2, 2, 2}, []int{0, 0, 0}, 3, 3, []int{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := table(tc.items...)
			copy(s.Water, tc.water)
			s.Centre = tc.centre
			start := s.Total()
			s = choose(t, s, tc.cards...)
			ev := roundEvents(s)
			for _, e := range find(ev, EvPhase) {
				if e.Phase == Fetch {
					eq(t, "participants", e.Seats, tc.order)
				}
			}
			eq(t, "water", s.Water, tc.wantWater)
			var iw []int
			for _, it := range s.Items {
				iw = append(iw, it.Water)
			}
			eq(t, "item water", iw, tc.wantItem)
			eq(t, "centre", s.Centre, tc.centreOut)
			eq(t, "taken", s.Taken, tc.takenOut)
			eq(t, "conserved", s.Total(), start+s.Taken)
		})
	}
}

// TestFetchOrder: payments go clockwise from the holder, then the supply.
func TestFetchOrder(t *testing.T) {
	s := table(Bucket, Pole, Ladle)
	s.Holder = 1
	s = choose(t, s, Fetch, Fetch, Fetch)
	eq(t, "events", kinds(s.LastEvents), []string{EvReveal, EvPhase, EvPay, EvPay, EvPay, EvSupply})
	var who []int
	for _, e := range find(s.LastEvents, EvPay) {
		who = append(who, e.Seat)
	}
	eq(t, "payers", who, []int{1, 2, 0})
}

// TestExchange: everyone who did not chant passes their item with its water
// to the next participant clockwise, all at once.
func TestExchange(t *testing.T) {
	t.Run("skips the chanter, rester included", func(t *testing.T) {
		s := table(Bucket, Vase, Ladle, BigBowl)
		for i := range s.Items {
			s.Items[i].Water = 0
		}
		s.Items[2].Water = 1
		s = choose(t, s, Rest, Exchange, Chant, Rest)
		eq(t, "items", []ItemKind{s.Items[0].Kind, s.Items[1].Kind, s.Items[2].Kind, s.Items[3].Kind},
			[]ItemKind{BigBowl, Bucket, Ladle, Vase})
		eq(t, "chanter keeps its water", s.Items[2].Water, 1)
	})
	t.Run("water travels with the item", func(t *testing.T) {
		s := table(Bucket, Mouse, WoodenBarrel)
		s.Items[0].Water, s.Items[2].Water = 1, 2
		s = choose(t, s, Exchange, Exchange, Exchange)
		eq(t, "items", s.Items, []Item{{WoodenBarrel, 2}, {Bucket, 1}, {Mouse, 0}})
	})
	t.Run("one participant: nothing moves", func(t *testing.T) {
		s := table(Bucket, Ladle, Pole)
		s.Items[0].Water = 2
		s = choose(t, s, Exchange, Chant, Chant)
		eq(t, "items", s.Items, []Item{{Bucket, 2}, {Ladle, 0}, {Pole, 0}})
		eq(t, "pass events", len(find(s.LastEvents, EvPass)), 0)
	})
	t.Run("two participants swap", func(t *testing.T) {
		s := table(Bucket, Mouse, Vase, Ladle)
		s = choose(t, s, Exchange, Chant, Rest, Chant)
		eq(t, "kinds", []ItemKind{s.Items[0].Kind, s.Items[2].Kind}, []ItemKind{Vase, Bucket})
	})
	t.Run("carrying pole spills into the centre", func(t *testing.T) {
		s := table(Pole, Mouse, Ladle)
		s.Items[0].Water = 3
		s = choose(t, s, Exchange, Rest, Chant)
		eq(t, "items", s.Items, []Item{{Mouse, 0}, {Pole, 0}, {Ladle, 0}})
		eq(t, "centre", s.Centre, 3)
		eq(t, "pole event", find(s.LastEvents, EvPole)[0].N, 3)
	})
}
