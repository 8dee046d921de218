package carcassonne

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestConformance runs the shared suite with easy bots (10 playouts for 2
// and for 5 seats; 3 under -short, 2 under -race): no view may hold a "deck" or
// "rng" key.
func TestConformance(t *testing.T) {
	o := gametest.Options{SecretWords: []string{"deck", "rng"}, MaxMoves: 400, Games: 10}
	switch {
	case raceEnabled:
		o.Games = 2
	case testing.Short():
		o.Games = 3
	}
	gametest.Run(t, Game, o)
}

func TestConformanceNormal(t *testing.T) {
	o := gametest.Options{SecretWords: []string{"deck", "rng"}, MaxMoves: 400, Games: 3, Level: LevelNormal, Seats: []int{2, 3}}
	if testing.Short() || raceEnabled {
		o.Games, o.Seats = 1, []int{2}
	}
	gametest.Run(t, Game, o)
}

// TestDeckNeverInView plays whole games through the erased games.Game (the
// bots see the JSON round trip of their view) and, at every step, checks
// that every viewer's view is byte for byte the same when the secret deck
// is reordered: the view cannot depend on the order of the tiles still to
// draw, so it cannot show it.
func TestDeckNeverInView(t *testing.T) {
	seeds, seats := uint64(4), []int{2, 4}
	if testing.Short() || raceEnabled {
		seeds, seats = 1, []int{3}
	}
	r := Rules{}
	for _, n := range seats {
		for seed := uint64(1); seed <= seeds; seed++ {
			st, err := Game.Setup(n, nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(n)))
			levels := []string{LevelNormal, LevelEasy, LevelEasy, LevelNormal}
			for st.Status().Outcome == nil {
				s, ok := games.Typed[State](st)
				if !ok {
					t.Fatal("erased state does not hold a carcassonne State")
				}
				other := s.clone()
				slices.Reverse(other.Secret.Deck)
				if len(other.Secret.Deck) > 2 {
					other.Secret.Deck[0], other.Secret.Deck[len(other.Secret.Deck)/2] = other.Secret.Deck[len(other.Secret.Deck)/2], other.Secret.Deck[0]
				}
				for viewer := games.Spectator; viewer < n; viewer++ {
					a, _ := json.Marshal(st.View(viewer))
					b, _ := json.Marshal(r.View(other, viewer))
					if !bytes.Equal(a, b) {
						t.Fatalf("seats %d seed %d viewer %d: the view depends on the deck order", n, seed, viewer)
					}
					if err := gametest.CheckView(a, viewer, []string{"deck", "rng", "secret"}); err != nil {
						t.Fatalf("seats %d seed %d viewer %d: %v", n, seed, viewer, err)
					}
				}
				seat := st.Status().Current
				name, args, err := st.Bot(levels[seat%len(levels)], seat, rng)
				if err != nil {
					t.Fatal(err)
				}
				if st, err = st.Apply(seat, name, args); err != nil {
					t.Fatalf("bot move %s %s refused: %v", name, args, err)
				}
			}
		}
	}
}
