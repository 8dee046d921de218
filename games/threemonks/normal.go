package threemonks

import (
	"math/rand/v2"
)

// samples is how many guesses of the others' cards the normal bot tries.
const samples = 24

// fromView rebuilds the public state a view shows, with no cards chosen.
func fromView(v View) State {
	s := State{
		N: v.NumPlayers, Round: v.Round, Water: make([]int, v.NumPlayers), Items: make([]Item, v.NumPlayers),
		Holder: v.Holder, Centre: v.Centre, Last: append([]Card(nil), v.LastCards...),
		Winner: -1, Secret: Secret{Choices: make([]Card, v.NumPlayers)}, quiet: true,
	}
	for i, m := range v.Monks {
		s.Water[i], s.Items[i] = m.Water, m.Item
	}
	return s
}

// guess draws a card another monk is likely to play, from what the view
// shows of them: drinking is likelier when there is water to drink, fetching
// when they hold a fetching item and can pay.
func guess(s *State, seat int, rng *rand.Rand) Card {
	hand := playable(s.Last[seat])
	w := make([]float64, len(hand))
	total := 0.0
	for i, c := range hand {
		w[i] = 1
		switch c {
		case Drink:
			if s.Centre > 0 || s.Items[seat].Water > 0 {
				w[i] = 2.5
			}
		case Fetch:
			if s.Items[seat].Kind.Fetching() && s.Water[seat] >= 2 {
				w[i] = 1.5
			}
		case Rest:
			w[i] = 0.6
		}
		total += w[i]
	}
	x := rng.Float64() * total
	for i := range hand {
		if x -= w[i]; x < 0 {
			return hand[i]
		}
	}
	return hand[len(hand)-1]
}

// bestCard plays each of seat's cards against the same sampled guesses of
// the others' cards, resolves the round with default decisions and returns
// the card with the best mean score (ties go to the earlier card).
func bestCard(v View, seat int, rng *rand.Rand) Card {
	base := fromView(v)
	hand := playable(base.Last[seat])
	score := make([]float64, len(hand))
	guesses := make([]Card, base.N)
	sc := base.clone() // scratch state, reset before each simulation
	for k := 0; k < samples; k++ {
		for i := range guesses {
			if i != seat {
				guesses[i] = guess(&base, i, rng)
			}
		}
		for ci, c := range hand {
			base.resetInto(&sc)
			copy(sc.Secret.Choices, guesses)
			sc.Secret.Choices[seat] = c
			sc.reveal()
			for sc.Pending != nil {
				sc.decideDefault()
			}
			score[ci] += evaluate(&sc, seat)
		}
	}
	best := 0
	for i := range hand {
		if score[i] > score[best] {
			best = i
		}
	}
	return hand[best]
}

// evaluate scores a resolved round for seat: a win or loss dominates; else
// seat's water and the water on its item, the token, against the leader.
func evaluate(s *State, seat int) float64 {
	switch {
	case s.Winner == seat:
		return 100
	case s.Winner >= 0:
		return -100
	}
	own := func(i int) float64 {
		it := 0.5
		if s.Items[i].Kind == BigBarrel {
			it = 0.8 // any amount drinks at once
		}
		return float64(s.Water[i]) + it*float64(s.Items[i].Water)
	}
	lead := 0.0
	for i := 0; i < s.N; i++ {
		if i != seat && own(i) > lead {
			lead = own(i)
		}
	}
	sc := own(seat) - 0.5*lead
	if s.Holder == seat {
		sc += 0.3
	}
	return sc
}

// resetInto copies s into dst reusing dst's slices, for the bot's
// simulations (dst must come from s.clone()). Events are not copied: the
// simulations are quiet.
func (s *State) resetInto(dst *State) {
	water, items, last, choices, order := dst.Water, dst.Items, dst.Last, dst.Secret.Choices, dst.Cur.Order
	*dst = *s
	dst.Water = append(water[:0], s.Water...)
	dst.Items = append(items[:0], s.Items...)
	dst.Last = append(last[:0], s.Last...)
	dst.Secret.Choices = append(choices[:0], s.Secret.Choices...)
	dst.Cur.Order = order[:0]
	dst.Revealed, dst.Pending, dst.Events = nil, nil, nil
}
