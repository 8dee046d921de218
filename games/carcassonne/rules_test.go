package carcassonne

import (
	"encoding/json"
	"errors"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestSetup(t *testing.T) {
	for n := 2; n <= 5; n++ {
		s := newState(t, n, 7)
		if len(s.Tiles) != 1 || s.Tiles[0] != (Placed{Type: "D"}) || s.Current != 0 || s.Phase != PhaseTile || s.Turn != 1 {
			t.Fatalf("n=%d: %+v", n, s)
		}
		if len(s.Secret.Deck) != 70 || s.Tile == "" {
			t.Fatalf("deck %d tile %q", len(s.Secret.Deck), s.Tile)
		}
		if !slices.Equal(s.MeeplesLeft, slices.Repeat([]int{7}, n)) {
			t.Fatalf("meeples %v", s.MeeplesLeft)
		}
	}
	for _, bad := range []string{`{"x":1}`, `[1]`, `"a"`} {
		if _, err := (Rules{}).Setup(2, json.RawMessage(bad), games.NewRNG(1)); !errors.Is(err, games.ErrBadSetup) {
			t.Errorf("setupData %s: %v", bad, err)
		}
	}
	if _, err := (Rules{}).Setup(6, nil, games.NewRNG(1)); !errors.Is(err, games.ErrBadSetup) {
		t.Error("6 seats accepted")
	}
}

// TestPlacementsAtStart: perft-style counts of the legal placements of
// every tile type next to the start tile alone. Worked by hand: the start
// tile asks for a city edge to the north, road edges east and west and a
// field edge south, and each edge of a tile faces a given side in exactly
// one rotation, so the count is cities + 2×roads + fields of the tile.
func TestPlacementsAtStart(t *testing.T) {
	b := newBoard([]Placed{start()})
	want := map[string]int{"A": 5, "B": 4, "C": 4, "D": 6, "E": 4, "F": 4, "G": 4, "H": 4, "I": 4, "J": 6,
		"K": 6, "L": 7, "M": 4, "N": 4, "O": 6, "P": 6, "Q": 4, "R": 4, "S": 5, "T": 5, "U": 6, "V": 6, "W": 7, "X": 8}
	for _, typ := range Types() {
		got := 0
		for _, p := range b.placements(typ) {
			got += len(p.Rotations)
		}
		if got != want[typ] {
			t.Errorf("%s: %d placements at the start, want %d", typ, got, want[typ])
		}
	}
}

func TestRefusals(t *testing.T) {
	s := custom(2, []Placed{start()}, nil, "E", "U")
	for _, c := range []struct{ name, args string }{
		{MovePlaceTile, `[{"x":0,"y":0,"rotation":0}]`},   // taken
		{MovePlaceTile, `[{"x":5,"y":5,"rotation":0}]`},   // touches nothing
		{MovePlaceTile, `[{"x":0,"y":-1,"rotation":0}]`},  // field edge against the city
		{MovePlaceTile, `[{"x":0,"y":-1,"rotation":45}]`}, // not a quarter turn
		{MovePlaceTile, `[{"x":0,"y":-1}]`},               // rotation missing
		{MovePlaceTile, `{"x":0,"y":-1,"rotation":180}`},  // not in an array
		{MovePlaceMeeple, `[{"feature":"city0"}]`},        // tile not placed yet
		{MoveSkipMeeple, `[]`},                            // tile not placed yet
	} {
		if _, err := (Rules{}).Apply(s, 0, c.name, json.RawMessage(c.args)); !errors.Is(err, games.ErrInvalidMove) {
			t.Errorf("%s %s: %v, want an invalid move", c.name, c.args, err)
		}
	}
	if _, err := (Rules{}).Apply(s, 1, MovePlaceTile, json.RawMessage(`[{"x":0,"y":-1,"rotation":180}]`)); !errors.Is(err, games.ErrNotYourTurn) {
		t.Errorf("seat 1 moved out of turn: %v", err)
	}
	s = apply(t, s, MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}]`)
	for _, c := range []struct{ name, args string }{
		{MovePlaceTile, `[{"x":1,"y":0,"rotation":0}]`},
		{MovePlaceMeeple, `[{"feature":"road7"}]`},
		{MovePlaceMeeple, `["city0"]`},
	} {
		if _, err := (Rules{}).Apply(s, 0, c.name, json.RawMessage(c.args)); !errors.Is(err, games.ErrInvalidMove) {
			t.Errorf("meeple step: %s %s: %v, want an invalid move", c.name, c.args, err)
		}
	}
}

// TestNoMeepleLeft: a seat with all 7 meeples out is not asked for one:
// the turn ends with the tile.
func TestNoMeepleLeft(t *testing.T) {
	var ms []Meeple
	for i := 0; i < Meeples; i++ {
		ms = append(ms, Meeple{Seat: 0, X: 0, Y: 0, Feature: 3})
	}
	s := custom(2, []Placed{start()}, ms, "E", "U")
	s = apply(t, s, MovePlaceTile, `[{"x":0,"y":1,"rotation":180}]`)
	if s.Phase != PhaseTile || s.Current != 1 || s.MeeplesLeft[0] != 0 {
		t.Fatalf("phase %s current %d meeples %v", s.Phase, s.Current, s.MeeplesLeft)
	}
}

// TestApplyDoesNotMutate plays a whole game and compares each input state's
// JSON before and after Apply.
func TestApplyDoesNotMutate(t *testing.T) {
	s := newState(t, 3, 11)
	rng := botRNG(11)
	r := Rules{}
	for s.Phase != PhaseOver {
		before, _ := json.Marshal(s)
		name, args, err := r.Bot(LevelNormal, r.View(s, s.Current), s.Current, rng)
		if err != nil {
			t.Fatal(err)
		}
		next, err := r.Apply(s, s.Current, name, args)
		if err != nil {
			t.Fatal(err)
		}
		if after, _ := json.Marshal(s); string(before) != string(after) {
			t.Fatalf("Apply %s %s mutated its input", name, args)
		}
		s = next
	}
}
