package gongzhu

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestConformance runs the shared suite: 20 playouts of 300 moves per seat
// count (4 under -race or -short, which check the same code paths).
func TestConformance(t *testing.T) {
	o := gametest.Options{MayNotEnd: true, MaxMoves: 300}
	if testing.Short() || raceEnabled {
		o.Games = 4
	}
	gametest.Run(t, Game, o)
}

func TestConformanceNormal(t *testing.T) {
	o := gametest.Options{MayNotEnd: true, MaxMoves: 120, Games: 5, Level: LevelNormal}
	if testing.Short() || raceEnabled {
		o.Games = 2
	}
	gametest.Run(t, Game, o)
}

// TestNoLeak plays whole bot-driven matches through the erased games.Game
// (bots see the JSON round trip of their view) and checks every view of
// every seat and of a spectator at every step: no secret, no other seat's
// players entry, the viewer's own hand exactly, and no card of another
// seat's hand anywhere outside lastRound (a finished round, all public).
func TestNoLeak(t *testing.T) {
	for _, n := range []int{3, 4} {
		for seed := uint64(1); seed <= 4; seed++ {
			st, err := Game.Setup(n, nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(n)))
			levels := []string{LevelNormal, LevelEasy, LevelNormal, LevelEasy}
			for move := 0; move < 3*len(Deck(n))+5; move++ {
				typed, ok := games.Typed[State](st)
				if !ok {
					t.Fatal("erased state does not hold a gongzhu State")
				}
				for viewer := games.Spectator; viewer < n; viewer++ {
					checkViewLeak(t, typed, st.View(viewer), viewer, seed)
				}
				seat := st.Status().Current
				name, args, err := st.Bot(levels[seat], seat, rng)
				if err != nil {
					t.Fatalf("seats %d seed %d: bot: %v", n, seed, err)
				}
				if st, err = st.Apply(seat, name, args); err != nil {
					t.Fatalf("seats %d seed %d: bot move %s refused: %v", n, seed, args, err)
				}
			}
		}
	}
}

func checkViewLeak(t *testing.T, s State, view any, viewer int, seed uint64) {
	t.Helper()
	b, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}
	if err := gametest.CheckView(b, viewer, []string{"hands", "rng"}); err != nil {
		t.Fatalf("seed %d viewer %d: %v\n%s", seed, viewer, err, b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	players, _ := m["players"].(map[string]any)
	if viewer == games.Spectator && len(players) != 0 {
		t.Fatalf("seed %d: the spectator sees players %v", seed, players)
	}
	var v View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if viewer >= 0 {
		if got, want := v.Players[games.PlayerID(viewer)].Hand, cards.Sorted(s.Hands[viewer]); !reflect.DeepEqual(got, want) {
			t.Fatalf("seed %d viewer %d: hand %v, want %v", seed, viewer, got, want)
		}
	}
	hidden := map[string]bool{}
	for seat, h := range s.Hands {
		if seat != viewer {
			for _, c := range h {
				hidden[c.String()] = true
			}
		}
	}
	delete(m, "lastRound")
	delete(m, "players")
	if leak := findCard(m, hidden); leak != "" {
		t.Fatalf("seed %d viewer %d: the view shows %s from another hand\n%s", seed, viewer, leak, b)
	}
	// The players entry holds only the viewer's own cards.
	if viewer >= 0 {
		if leak := findCard(players, hidden); leak != "" {
			t.Fatalf("seed %d viewer %d: own entry shows %s from another hand", seed, viewer, leak)
		}
	}
}

// findCard returns the first string anywhere in v that is a hidden card code.
func findCard(v any, hidden map[string]bool) string {
	switch x := v.(type) {
	case string:
		if hidden[x] {
			return x
		}
	case map[string]any:
		for _, c := range x {
			if f := findCard(c, hidden); f != "" {
				return f
			}
		}
	case []any:
		for _, c := range x {
			if f := findCard(c, hidden); f != "" {
				return f
			}
		}
	}
	return ""
}
