package carcassonne

import (
	"slices"
	"testing"
)

// custom builds a state in the tile phase with the given board, meeples,
// the drawn tile and the rest of the deck, for scoring scenarios. Seat 0
// moves first; meeples are taken from their seats' supplies.
func custom(seats int, tiles []Placed, meeples []Meeple, drawn string, deck ...string) State {
	s := State{
		Seats: seats, Tiles: tiles, Meeples: meeples, Scores: make([]int, seats), MeeplesLeft: make([]int, seats),
		Phase: PhaseTile, Tile: drawn, Turn: 1, Removed: []string{}, Events: []Event{},
		Secret: Secret{Deck: deck},
	}
	for i := range s.MeeplesLeft {
		s.MeeplesLeft[i] = Meeples
	}
	for _, m := range meeples {
		s.MeeplesLeft[m.Seat]--
	}
	return s
}

func start() Placed { return Placed{X: 0, Y: 0, Type: "D"} }

func lastEvent(s State, kind string) *Event {
	for i := len(s.Events) - 1; i >= 0; i-- {
		if s.Events[i].Kind == kind {
			return &s.Events[i]
		}
	}
	return nil
}

// TestRoadCompleted: a road D(0,0) between two junctions (L tiles) of 3
// tiles scores 3 for its owner when the second junction closes it, and the
// meeple comes home.
func TestRoadCompleted(t *testing.T) {
	s := custom(2, []Placed{start(), {X: 1, Y: 0, Type: "L"}}, []Meeple{{Seat: 1, X: 1, Y: 0, Feature: 3}}, "L", "U")
	s = apply(t, s, MovePlaceTile, `[{"x":-1,"y":0,"rotation":0}]`)
	if s.Phase != PhaseMeeple {
		t.Fatalf("phase %s, want meeple", s.Phase)
	}
	s = apply(t, s, MoveSkipMeeple, `[]`)
	if !slices.Equal(s.Scores, []int{0, 3}) || s.MeeplesLeft[1] != 7 || len(s.Meeples) != 0 {
		t.Fatalf("scores %v meeples left %v on board %v", s.Scores, s.MeeplesLeft, s.Meeples)
	}
	ev := lastEvent(s, EvScore)
	if ev == nil || ev.What != "road" || ev.Size != 3 || !ev.Complete || ev.text(s.Tiles).En != "player 1 scores 3 for a completed road of 3 tiles" {
		t.Fatalf("score event %+v", ev)
	}
}

// TestCityClosedByMeepleTile: the tile that closes a city (D + M with a
// shield + E: 3 tiles, 1 shield) also takes the meeple: 8 points at once,
// and the meeple comes straight back.
func TestCityClosedByMeepleTile(t *testing.T) {
	s := custom(2, []Placed{start(), {X: 0, Y: -1, Type: "M", Rot: 2}}, nil, "E", "U")
	s = apply(t, s, MovePlaceTile, `[{"x":1,"y":-1,"rotation":270}]`)
	var ids []string
	for _, o := range s.meepleOptions() {
		ids = append(ids, o.Feature+"="+o.Label.En)
	}
	if !slices.Equal(ids, []string{"city0=city, west edge", "field1=field, east"}) {
		t.Fatalf("meeple options %v", ids)
	}
	s = apply(t, s, MovePlaceMeeple, `[{"feature":"city0"}]`)
	if !slices.Equal(s.Scores, []int{8, 0}) || s.MeeplesLeft[0] != 7 || len(s.Meeples) != 0 {
		t.Fatalf("scores %v meeples left %v on board %v", s.Scores, s.MeeplesLeft, s.Meeples)
	}
	if ev := lastEvent(s, EvScore); ev.Size != 3 || ev.Shields != 1 || ev.Points != 8 {
		t.Fatalf("score event %+v", ev)
	}
}

// TestMeepleOnlyOnFreeFeature: the city of the placed tile joins a city
// that holds a meeple, so it is not offered; placing there is refused.
func TestMeepleOnlyOnFreeFeature(t *testing.T) {
	s := custom(2, []Placed{start()}, []Meeple{{Seat: 1, X: 0, Y: 0, Feature: 0}}, "M", "U")
	s = apply(t, s, MovePlaceTile, `[{"x":0,"y":-1,"rotation":180}]`)
	for _, o := range s.meepleOptions() {
		if o.Kind == "city" {
			t.Fatalf("city offered though it holds a meeple: %+v", o)
		}
	}
	if _, err := (Rules{}).Apply(s, 0, MovePlaceMeeple, []byte(`[{"feature":"city0"}]`)); err == nil {
		t.Fatal("a meeple on an occupied city was accepted")
	}
}

// TestTiesScoreInFull: G joins two cities held by one meeple each: both
// seats score 6. With two meeples against one, only the majority scores.
func TestTiesScoreInFull(t *testing.T) {
	board := []Placed{start(), {X: 0, Y: -2, Type: "E", Rot: 2}}
	for _, c := range []struct {
		meeples []Meeple
		want    []int
	}{
		{[]Meeple{{Seat: 0, X: 0, Y: 0}, {Seat: 1, X: 0, Y: -2}}, []int{6, 6, 0}},
		{[]Meeple{{Seat: 0, X: 0, Y: 0}, {Seat: 1, X: 0, Y: -2}, {Seat: 0, X: 0, Y: -2}}, []int{6, 0, 0}},
	} {
		s := custom(3, slices.Clone(board), c.meeples, "G", "U")
		s.Current = 2
		s = apply(t, s, MovePlaceTile, `[{"x":0,"y":-1,"rotation":0}]`)
		if s.Phase == PhaseMeeple {
			s = apply(t, s, MoveSkipMeeple, `[]`)
		}
		if !slices.Equal(s.Scores, c.want) || s.MeeplesLeft[0] != 7 || s.MeeplesLeft[1] != 7 {
			t.Fatalf("scores %v, want %v; meeples left %v", s.Scores, c.want, s.MeeplesLeft)
		}
	}
}

// TestCloisterCompleted: a cloister surrounded on all 8 sides scores 9.
func TestCloisterCompleted(t *testing.T) {
	tiles := []Placed{start()}
	for y := 9; y <= 11; y++ {
		for x := 9; x <= 11; x++ {
			if x != 11 || y != 11 {
				tiles = append(tiles, Placed{X: x, Y: y, Type: "B"})
			}
		}
	}
	s := custom(2, tiles, []Meeple{{Seat: 0, X: 10, Y: 10, Feature: 0}}, "B", "U")
	s.Current = 1
	s = apply(t, s, MovePlaceTile, `[{"x":11,"y":11,"rotation":0}]`)
	s = apply(t, s, MoveSkipMeeple, `[]`)
	if !slices.Equal(s.Scores, []int{9, 0}) || s.MeeplesLeft[0] != 7 {
		t.Fatalf("scores %v meeples left %v", s.Scores, s.MeeplesLeft)
	}
}

// TestEndScoring: a cloister with two neighbours (one diagonal) scores 3, an unfinished
// city of 2 tiles and a shield 3, an unfinished road 1 per tile.
func TestEndScoring(t *testing.T) {
	s := custom(2, []Placed{start(), {X: 0, Y: 1, Type: "B"}, {X: 0, Y: -1, Type: "M", Rot: 2}, {X: 1, Y: 0, Type: "U", Rot: 1}},
		[]Meeple{{Seat: 0, X: 0, Y: 1, Feature: 0}, {Seat: 1, X: 0, Y: -1, Feature: 0}, {Seat: 1, X: 1, Y: 0, Feature: 0}}, "")
	s.finish()
	if !slices.Equal(s.Scores, []int{3, 5}) {
		t.Fatalf("scores %v, want [3 5]", s.Scores)
	}
	f := s.Final
	if len(f.Breakdown) != 3 || f.ByKind[0] != [4]int{0, 0, 3, 0} || f.ByKind[1] != [4]int{2, 3, 0, 0} {
		t.Fatalf("final %+v", f)
	}
	if !slices.Equal(f.Winners, []int{1}) {
		t.Fatalf("winners %v", f.Winners)
	}
	o := Rules{}.Status(s).Outcome
	if o == nil || o.Winner != "1" || o.Draw {
		t.Fatalf("outcome %+v", o)
	}
}

// TestFieldTouchesCityTwice: one field reaches the same completed city on
// two tiles (D's north field and E's field, joined through V and B): it
// scores 3, not 6.
func TestFieldTouchesCityTwice(t *testing.T) {
	tiles := []Placed{start(), {X: 0, Y: -1, Type: "E", Rot: 2}, {X: 1, Y: 0, Type: "V"}, {X: 1, Y: -1, Type: "B"}}
	s := custom(2, tiles, []Meeple{{Seat: 0, X: 0, Y: 0, Feature: 2}}, "")
	a := analyze(s.board(), s.Meeples, 2)
	if g1, g2 := a.groupAt(0, 2), a.groupAt(1, 1); g1 != g2 {
		t.Fatal("D's north field and E's field are not one field")
	}
	s.finish()
	if !slices.Equal(s.Scores, []int{3, 0}) {
		t.Fatalf("scores %v, want [3 0]", s.Scores)
	}
	if ev := s.Final.Breakdown[0]; ev.Cities != 1 || ev.Text.En != "End of game: player 0 scores 3 for a field touching 1 completed city" {
		t.Fatalf("breakdown %+v", ev)
	}
}

// TestFieldTwoCities: H turned 90° (cities east and west, field north
// and south) closed by an E on each side: its field touches two completed
// cities, 6 points. Without the west E that city is unfinished: 3.
func TestFieldTwoCities(t *testing.T) {
	h := Placed{X: 0, Y: -5, Type: "H", Rot: 1}
	east, west := Placed{X: 1, Y: -5, Type: "E", Rot: 3}, Placed{X: -1, Y: -5, Type: "E", Rot: 1}
	for _, c := range []struct {
		tiles []Placed
		want  int
	}{
		{[]Placed{start(), h, east, west}, 6},
		{[]Placed{start(), h, east}, 3},
	} {
		s := custom(2, c.tiles, []Meeple{{Seat: 1, X: 0, Y: -5, Feature: 2}}, "")
		s.finish()
		if !slices.Equal(s.Scores, []int{0, c.want}) {
			t.Fatalf("%d tiles: scores %v, want [0 %d]", len(c.tiles), s.Scores, c.want)
		}
	}
}

// TestUnplaceableTile: beside a lone C tile (city on every edge) a straight
// road fits nowhere: it is removed publicly and the next tile drawn; with
// nothing placeable left the game ends.
func TestUnplaceableTile(t *testing.T) {
	s := custom(2, []Placed{{X: 0, Y: 0, Type: "C"}}, nil, "", "U", "E")
	s.Current = 1
	s.draw()
	if s.Tile != "E" || !slices.Equal(s.Removed, []string{"U"}) || s.Current != 0 || s.Phase != PhaseTile {
		t.Fatalf("tile %q removed %v current %d phase %s", s.Tile, s.Removed, s.Current, s.Phase)
	}
	if ev := lastEvent(s, EvRemove); ev == nil || ev.Tile != "U" {
		t.Fatalf("no public remove event: %+v", s.Events)
	}
	s = custom(2, []Placed{{X: 0, Y: 0, Type: "C"}}, nil, "", "U", "V")
	s.draw()
	if s.Phase != PhaseOver || len(s.Removed) != 2 || s.Final == nil {
		t.Fatalf("phase %s removed %v", s.Phase, s.Removed)
	}
}

// TestTieOutcome: equal top scores end as a shared win (a draw).
func TestTieOutcome(t *testing.T) {
	s := custom(3, []Placed{start()}, nil, "")
	s.Scores = []int{10, 4, 10}
	s.finish()
	o := Rules{}.Status(s).Outcome
	if o == nil || !o.Draw || o.Winner != "" || !slices.Equal(s.Final.Winners, []int{0, 2}) {
		t.Fatalf("outcome %+v winners %v", o, s.Final.Winners)
	}
}
