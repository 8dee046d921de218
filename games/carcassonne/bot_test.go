package carcassonne

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func botChoice(t *testing.T, s State, level string) (string, string) {
	t.Helper()
	r := Rules{}
	name, args, err := r.Bot(level, r.View(s, s.Current), s.Current, botRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Apply(s, s.Current, name, args); err != nil {
		t.Fatalf("bot move %s %s refused: %v", name, args, err)
	}
	return name, string(args)
}

// TestNormalCompletesOwnCity: with its meeple on the start tile's city and
// an E drawn, normal closes the city (4 points now, the meeple back).
func TestNormalCompletesOwnCity(t *testing.T) {
	s := custom(2, []Placed{start()}, []Meeple{{Seat: 0, X: 0, Y: 0, Feature: 0}}, "E", slicesOf("U", 40)...)
	if _, args := botChoice(t, s, LevelNormal); args != `[{"x":0,"y":-1,"rotation":180}]` {
		t.Fatalf("normal placed %s, want the city closed at (0,-1) turned 180", args)
	}
}

// TestNormalTakesClosedCity: the tile it placed closes a free city: the
// meeple goes there (points at once, the meeple comes straight back).
func TestNormalTakesClosedCity(t *testing.T) {
	s := custom(2, []Placed{start()}, nil, "E", slicesOf("U", 40)...)
	s = apply(t, s, MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}]`)
	if name, args := botChoice(t, s, LevelNormal); name != MovePlaceMeeple || args != `[{"feature":"city0"}]` {
		t.Fatalf("normal chose %s %s, want the closed city", name, args)
	}
}

// TestNormalNoEarlyFarm: early in the game, on a fresh E with a city and a
// field free, normal does not sink its meeple in the field.
func TestNormalNoEarlyFarm(t *testing.T) {
	s := custom(2, []Placed{start()}, nil, "E", slicesOf("U", 60)...)
	s = apply(t, s, MovePlaceTile, `[{"x":0,"y":1,"rotation":180}]`)
	if _, args := botChoice(t, s, LevelNormal); args == `[{"feature":"field1"}]` {
		t.Fatalf("normal put an early meeple in a field")
	}
}

func TestBotErrors(t *testing.T) {
	r := Rules{}
	s := newState(t, 2, 1)
	if _, _, err := r.Bot("hard", r.View(s, 0), 0, botRNG(1)); !errors.Is(err, games.ErrNoBot) {
		t.Errorf("unknown level: %v", err)
	}
	if _, _, err := r.Bot(LevelEasy, r.View(s, 1), 1, botRNG(1)); err == nil {
		t.Error("a bot moved out of turn")
	}
	// Through the erased game the bot gets its view after a JSON round trip.
	st, err := Game.Setup(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	n, a, err := st.Bot(LevelEasy, 0, botRNG(2))
	if err != nil || n != MovePlaceTile || !json.Valid(a) {
		t.Fatalf("%s %s %v", n, a, err)
	}
}

func slicesOf(t string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = t
	}
	return out
}
