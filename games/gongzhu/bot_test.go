package gongzhu

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// situation is a position for the normal bot: seat 0's hand, the
// cards already played in the current trick (by the seats before it) and
// earlier tricks of the round.
type situation struct {
	name   string
	hands  []string // every seat's hand (others only for a consistent deal)
	tricks [][]string
	trick  []string // the current trick, led by seat (seat0 - len) mod n
	want   []string // acceptable choices
}

func (sit situation) state(t *testing.T) State {
	n := len(sit.hands)
	s := State{Seats: n, Round: 2, Totals: make([]int, n), Secret: Secret{RNG: games.NewRNG(1)}}
	for _, h := range sit.hands {
		s.Hands = append(s.Hands, cards.MustParseAll(h))
	}
	leader := (n - len(sit.trick)) % n
	for _, tr := range sit.tricks {
		done := Trick{Leader: leader, Taker: -1}
		for i, code := range cards.MustParseAll(tr[0]) {
			done.Plays = append(done.Plays, Play{Seat: (leader + i) % n, Card: code})
		}
		done.Taker = done.Winner()
		s.Tricks = append(s.Tricks, done)
	}
	s.Trick = Trick{Leader: leader, Taker: -1}
	for i, code := range sit.trick {
		s.Trick.Plays = append(s.Trick.Plays, Play{Seat: (leader + i) % n, Card: cards.MustParse(code)})
	}
	if s.Current() != 0 {
		t.Fatalf("%s: seat %d to play, want 0", sit.name, s.Current())
	}
	return s
}

func TestNormalBot(t *testing.T) {
	tests := []situation{
		{name: "dumps the pig when void",
			hands: []string{"QS AH 3D", "4C 5C", "6C 7C", "8C 9C"}, trick: []string{"2C", "JC", "KC"}, want: []string{"QS"}},
		{name: "dumps the high heart when void and pigless",
			hands: []string{"AH 2H 3D", "4C 5C", "6C 7C", "8C 9C"}, trick: []string{"2C", "JC", "KC"}, want: []string{"AH"}},
		{name: "ducks under the winner",
			hands: []string{"4C AC 3D", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"JC", "2C", "9H"}, want: []string{"4C"}},
		{name: "takes a small heart rather than give it to its partner",
			hands: []string{"4C AC 3D", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"2C", "JC", "9H"}, want: []string{"AC"}},
		{name: "plays the pig under a higher spade",
			hands: []string{"QS 2S 3D", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"KS", "3S", "4S"}, want: []string{"QS"}},
		{name: "takes the sheep when last",
			hands: []string{"AD 2D 3C", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"JD", "3D", "4D"}, want: []string{"AD"}},
		{name: "wins its own sheep when last",
			hands: []string{"JD 2D 3C", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"9D", "3D", "4D"}, want: []string{"JD"}},
		{name: "keeps the sheep when ducking",
			hands: []string{"JD 2D 3C", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"QD", "3D", "4D"}, want: []string{"2D"}},
		{name: "sheds a high card on a clean trick it must take",
			hands: []string{"KC AC 3D", "5H 5C", "6C 7C", "8C 9C"}, trick: []string{"2C", "3C", "4C"}, want: []string{"AC"}},
		{name: "does not lead the pig",
			hands: []string{"QS 2C 3D", "AS 5C 4D", "KS 7C 5D", "8C 9C 6D"}, want: []string{"2C", "3D"}},
		{name: "leads a small spade to flush the pig",
			hands: []string{"2S 5D 9C 3H", "AS 5C 4D", "KS 7C 5D", "QS 9C 6D"}, want: []string{"2S"}},
		{name: "no spade lead while holding the king",
			hands: []string{"2S KS 9C 3H", "AS 5C 4D", "JS 7C 5D", "QS 8C 6D"}, want: []string{"9C", "3H"}},
		{name: "three seats: dumps the pig",
			hands: []string{"QS AH 3D", "4C 5C", "6C 7C"}, trick: []string{"2C", "JC"}, want: []string{"QS"}},
	}
	for _, sit := range tests {
		t.Run(sit.name, func(t *testing.T) {
			s := sit.state(t)
			v := Rules{}.View(s, 0)
			for seed := uint64(0); seed < 5; seed++ {
				_, args, err := Rules{}.Bot(LevelNormal, v, 0, botRNG(seed))
				if err != nil {
					t.Fatal(err)
				}
				var got []string
				if err := json.Unmarshal(args, &got); err != nil || len(got) != 1 {
					t.Fatalf("args %s", args)
				}
				ok := false
				for _, w := range sit.want {
					ok = ok || got[0] == w
				}
				if !ok {
					t.Fatalf("seed %d: played %s, want one of %v (hand %s)", seed, got[0], sit.want, sit.hands[0])
				}
			}
		})
	}
}

func TestBotErrors(t *testing.T) {
	s := newState(t, 4, 1)
	r := Rules{}
	lead := s.Current()
	if _, _, err := r.Bot("grandmaster", r.View(s, lead), lead, botRNG(1)); !errors.Is(err, games.ErrNoBot) {
		t.Fatalf("unknown level: %v", err)
	}
	other := (lead + 1) % 4
	if _, _, err := r.Bot(LevelEasy, r.View(s, other), other, botRNG(1)); err == nil {
		t.Fatal("a bot moved out of turn")
	}
	if _, _, err := r.Bot(LevelEasy, r.View(s, games.Spectator), lead, botRNG(1)); err == nil {
		t.Fatal("a bot moved from a spectator's view")
	}
}

// TestBotsPlayLegal checks both levels only ever pick a legal card, over
// many positions.
func TestBotsPlayLegal(t *testing.T) {
	for _, level := range []string{LevelEasy, LevelNormal} {
		for _, n := range []int{3, 4} {
			s := newState(t, n, 42)
			rng := botRNG(42)
			r := Rules{}
			for i := 0; i < 4*len(Deck(n)); i++ {
				seat := s.Current()
				legal := s.Legal(seat)
				_, args, err := r.Bot(level, r.View(s, seat), seat, rng)
				if err != nil {
					t.Fatal(err)
				}
				var a []string
				_ = json.Unmarshal(args, &a)
				if len(a) != 1 || !cards.Contains(legal, cards.MustParse(a[0])) {
					t.Fatalf("%s seats %d move %d: %s not in %s", level, n, i, args, cards.Codes(legal))
				}
				if s, err = r.Apply(s, seat, MovePlay, args); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
