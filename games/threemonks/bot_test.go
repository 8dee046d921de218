package threemonks

import (
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// botMove asks a bot for seat's move from seat's view.
func botMove(t *testing.T, level string, s State, seat int) (string, string) {
	t.Helper()
	name, args, err := Rules{}.Bot(level, Rules{}.View(s, seat), seat, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatalf("bot %s seat %d: %v", level, seat, err)
	}
	return name, string(args)
}

// TestBotDefaults: both levels drink the most, rob the richer item (left on
// a tie) and fill the bowl.
func TestBotDefaults(t *testing.T) {
	mouse := func(right, left int) State {
		s := table(Bucket, Mouse, Ladle)
		s.Items[0].Water, s.Items[2].Water = right, left
		return choose(t, s, Rest, Chant, Rest)
	}
	drink := table(BigBarrel, Pole, Ladle)
	drink.Items[0].Water = 4
	drink = choose(t, drink, Drink, Rest, Rest)
	bowl := table(BigBowl, Pole, Ladle)
	bowl.Centre = 2
	bowl = choose(t, bowl, Drink, Rest, Rest)
	tests := []struct {
		name       string
		s          State
		seat       int
		move, args string
	}{
		{"drinks all from the big barrel", drink, 0, DecideDrink, `[4]`},
		{"robs the richer right", mouse(2, 1), 1, DecideMouse, `["right"]`},
		{"robs the richer left", mouse(1, 3), 1, DecideMouse, `["left"]`},
		{"tie robs left", mouse(1, 1), 1, DecideMouse, `["left"]`},
		{"fills the bowl", bowl, 0, DecideBowl, `[true]`},
	}
	for _, tc := range tests {
		for _, level := range []string{"easy", "normal"} {
			t.Run(tc.name+"/"+level, func(t *testing.T) {
				name, args := botMove(t, level, tc.s, tc.seat)
				eq(t, "move", name+" "+args, tc.move+" "+tc.args)
			})
		}
	}
}

func TestBotRefuses(t *testing.T) {
	s := table(Bucket, Pole, Ladle)
	rng := rand.New(rand.NewPCG(1, 1))
	if _, _, err := (Rules{}).Bot("hard", Rules{}.View(s, 0), 0, rng); !errors.Is(err, games.ErrNoBot) {
		t.Fatalf("unknown level: %v", err)
	}
	chosen := mustApply(t, s, 0, "choose", Rest)
	if _, _, err := (Rules{}).Bot("normal", Rules{}.View(chosen, 0), 0, rng); err == nil {
		t.Fatal("bot chose twice")
	}
	if _, _, err := (Rules{}).Bot("easy", Rules{}.View(s, games.Spectator), 0, rng); err == nil {
		t.Fatal("bot played from a spectator's view")
	}
}

// TestBotsRespectLock: from round 2 neither level plays its locked card.
func TestBotsRespectLock(t *testing.T) {
	for seed := uint64(0); seed < 30; seed++ {
		s, _ := Rules{}.Setup(4, nil, games.NewRNG(seed))
		s = settle(t, choose(t, s, Chant, Fetch, Exchange, Drink))
		for seat, level := range []string{"easy", "normal", "easy", "normal"} {
			_, args := botMove(t, level, s, seat)
			if args == `["`+string(s.Last[seat])+`"]` {
				t.Fatalf("seed %d: %s bot at seat %d played its locked %s", seed, level, seat, s.Last[seat])
			}
		}
	}
}

// TestNormalBeatsEasy: over fixed seeds, normal bots in half the seats win
// far more than half the games.
func TestNormalBeatsEasy(t *testing.T) {
	total, normalWins := 60, 0
	if testing.Short() {
		total = 20
	}
	for g := 0; g < total; g++ {
		s, _ := Rules{}.Setup(4, nil, games.NewRNG(uint64(g)))
		rng := rand.New(rand.NewPCG(uint64(g), 3))
		level := func(seat int) string { return []string{"normal", "easy"}[(seat+g)%2] }
		for s.Winner < 0 && !s.Draw {
			st := Rules{}.Status(s)
			seat := st.Movers(s.N)[0]
			name, args, err := Rules{}.Bot(level(seat), Rules{}.View(s, seat), seat, rng)
			if err != nil {
				t.Fatalf("seed %d: %v", g, err)
			}
			if s, err = (Rules{}).Apply(s, seat, name, args); err != nil {
				t.Fatalf("seed %d: %v", g, err)
			}
		}
		if !s.Draw && level(s.Winner) == "normal" {
			normalWins++
		}
	}
	if normalWins*10 < total*7 {
		t.Fatalf("normal bots won %d of %d games, want at least 70%%", normalWins, total)
	}
}
