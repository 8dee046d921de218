package threemonks

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// Bot chooses seat's move from its view only. Both levels answer in-phase
// decisions with the defaults docs/threemonks.md sets (drink the most, rob
// the richer item, fill the bowl). "easy" plays a random unlocked card;
// "normal" simulates the round against sampled guesses of the others'
// cards and plays the card that scores best.
func (Rules) Bot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	if level != "easy" && level != "normal" {
		return "", nil, fmt.Errorf("%w: %q", games.ErrNoBot, level)
	}
	if seat < 0 || seat >= v.NumPlayers || len(v.Monks) != v.NumPlayers || len(v.LastCards) != v.NumPlayers {
		return "", nil, fmt.Errorf("threemonks bot: seat %d not in a %d-seat view", seat, v.NumPlayers)
	}
	if p := v.Pending; p != nil {
		if p.Seat != seat {
			return "", nil, fmt.Errorf("threemonks bot: seat %d is not asked anything", seat)
		}
		name, args := defaultDecision(v, p)
		return name, args, nil
	}
	if v.Phase != "choose" {
		return "", nil, fmt.Errorf("threemonks bot: nothing to do in phase %s", v.Phase)
	}
	own, ok := v.Players[games.PlayerID(seat)]
	if !ok || own.Choice != "" {
		return "", nil, fmt.Errorf("threemonks bot: seat %d has nothing to choose", seat)
	}
	hand := playable(v.LastCards[seat])
	if level == "easy" {
		return "choose", games.Args(hand[rng.IntN(len(hand))]), nil
	}
	return "choose", games.Args(bestCard(v, seat, rng)), nil
}

// playable lists the cards a monk may choose when last is locked.
func playable(last Card) []Card {
	out := make([]Card, 0, len(Cards))
	for _, c := range Cards {
		if c != last {
			out = append(out, c)
		}
	}
	return out
}

// defaultDecision answers a pending decision the way docs/threemonks.md
// sets for bots and autoplay.
func defaultDecision(v View, p *Pending) (string, json.RawMessage) {
	switch p.Kind {
	case DecideDrink:
		return DecideDrink, games.Args(p.Max)
	case DecideMouse:
		dir := Left
		if p.Left != nil && p.Right != nil && validSeat(*p.Right, v) && validSeat(*p.Left, v) &&
			v.Monks[*p.Right].Item.Water > v.Monks[*p.Left].Item.Water {
			dir = Right
		}
		return DecideMouse, games.Args(dir)
	default:
		return DecideBowl, games.Args(true)
	}
}

func validSeat(s int, v View) bool { return s >= 0 && s < len(v.Monks) }

// decideDefault answers s's pending decision with the default, for the
// normal bot's simulations (which run on a reconstructed state).
func (s *State) decideDefault() {
	p := s.Pending
	s.Pending = nil
	switch p.Kind {
	case DecideDrink:
		s.drinkFrom(p.Seat, p.Max)
	case DecideMouse:
		victim := s.next(p.Seat)
		if r := s.prev(p.Seat); s.Items[r].Water > s.Items[victim].Water {
			victim = r
		}
		s.mouse(p.Seat, victim)
		s.Cur.Idx++
	default:
		s.fillBowl(p.Seat, true)
	}
	s.run()
}
