package carcassonne

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// featureOf finds the feature of ev (a score or final event: a tile of the
// feature and the feature's id on it) in what Features returned for v.
func featureOf(t *testing.T, v View, fs []BoardFeature, at [][]int, ev Event) BoardFeature {
	t.Helper()
	for i, p := range v.Board {
		if p.X == ev.X && p.Y == ev.Y {
			f, err := strconv.Atoi(strings.TrimLeft(ev.Feature, "abcdefghijklmnopqrstuvwxyz"))
			if err != nil || f >= len(at[i]) {
				t.Fatalf("event feature %q", ev.Feature)
			}
			return fs[at[i][f]]
		}
	}
	t.Fatalf("no tile at (%d,%d)", ev.X, ev.Y)
	return BoardFeature{}
}

// TestFeaturesAgreeWithScoring: through whole bot games, every feature the
// rules score (when completed, and at the end) is, in Features of the board
// as it stood, of the same kind and size, with the same meeples, points and
// completeness; the meeple options of every placed tile are its
// TileFeatures less the taken ones.
func TestFeaturesAgreeWithScoring(t *testing.T) {
	r := Rules{}
	games := 6
	if testing.Short() {
		games = 2
	}
	checked := 0
	for g := range games {
		s := newState(t, 2+g%4, uint64(500+g))
		rng := botRNG(uint64(g))
		levels := []string{LevelNormal, LevelEasy, LevelNormal, LevelEasy, LevelEasy}
		for s.Phase != PhaseOver {
			next := botMove(t, s, levels[s.Current], rng)
			if s.Phase == PhaseMeeple {
				v := r.View(s, s.Current)
				opts, err := TileFeatures(v.LastPlaced.Type, v.LastPlaced.Rotation)
				if err != nil {
					t.Fatal(err)
				}
				for _, o := range v.MeepleOptions {
					i := slices.IndexFunc(opts, func(x MeepleOption) bool { return x.Feature == o.Feature })
					if i < 0 || !reflect.DeepEqual(opts[i], o) {
						t.Fatalf("meeple option %+v, TileFeatures %+v", o, opts)
					}
				}
			}
			// The features as they stand when the turn's scoring runs (the
			// board after the tile, the meeples after the meeple step) and
			// when the end scoring runs (the meeples left after it).
			scoring := slices.Clone(s.Meeples)
			for _, ev := range next.Events[len(s.Events):] {
				if ev.Kind == EvMeeple {
					sh, _ := shapeOf(tileAt(next.Tiles, ev.X, ev.Y))
					scoring = append(scoring, Meeple{Seat: ev.Seat, X: ev.X, Y: ev.Y, Feature: featureIndex(sh, ev.Feature)})
				}
			}
			for _, ev := range next.Events[len(s.Events):] {
				if ev.Kind != EvScore && ev.Kind != EvFinal {
					continue
				}
				at := next
				if ev.Kind == EvScore {
					at.Meeples = scoring
				}
				v := r.View(at, 0)
				fs, idx, err := Features(v.Board, v.Meeples, s.Seats)
				if err != nil {
					t.Fatal(err)
				}
				f := featureOf(t, v, fs, idx, ev)
				if f.Kind != ev.What || f.Points != ev.Points || f.Tiles != ev.Size || f.Shields != ev.Shields ||
					f.Complete != ev.Complete || !slices.Equal(f.Meeples, ev.Meeples) || (ev.Kind == EvScore && f.Open != 0) {
					t.Fatalf("game %d turn %d: %s event %+v, Features says %+v", g, s.Turn, ev.Kind, ev, f)
				}
				if f.Kind == "field" && len(f.Cities) < ev.Cities {
					t.Fatalf("field touches %v, event counts %d completed cities", f.Cities, ev.Cities)
				}
				checked++
			}
			s = next
		}
	}
	if checked < 20 {
		t.Fatalf("only %d scored features checked", checked)
	}
	t.Logf("%d scored features agree", checked)
}

// TestFeaturesOpenAndCities: a city of D and an unrotated E north of it is
// closed (2 tiles, 4 points), the road of D has 2 open edges, the field
// north of D's road touches that city, and the meeple counts by seat.
func TestFeaturesOpenAndCities(t *testing.T) {
	board := []PlacedView{{X: 0, Y: 0, Type: "D"}, {X: 0, Y: -1, Type: "E", Rotation: 180}}
	fs, at, err := Features(board, []MeepleView{{Seat: 1, X: 0, Y: 0, Feature: "road1"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	city, road, field := fs[at[0][0]], fs[at[0][1]], fs[at[0][2]]
	if city.Kind != "city" || !city.Complete || city.Points != 4 || city.Tiles != 2 || at[1][0] != at[0][0] {
		t.Errorf("city %+v", city)
	}
	if road.Kind != "road" || road.Open != 2 || road.Complete || road.Points != 1 || !slices.Equal(road.Meeples, []int{0, 1}) {
		t.Errorf("road %+v", road)
	}
	if field.Kind != "field" || !slices.Equal(field.Cities, []int{at[0][0]}) || field.Points != 3 {
		t.Errorf("field %+v", field)
	}
	opts, err := TileFeatures("D", 90)
	if err != nil || len(opts) != 4 || opts[0].Feature != "city0" || !slices.Equal(opts[0].Edges, []string{"E"}) ||
		!slices.Equal(opts[1].Edges, []string{"N", "S"}) || opts[0].Label.En != "city, east edge" {
		t.Errorf("TileFeatures(D, 90) = %+v, %v", opts, err)
	}
}

// TestFeaturesRefuses: bad boards and tiles are errors, never panics.
func TestFeaturesRefuses(t *testing.T) {
	d := PlacedView{Type: "D"}
	for name, c := range map[string]struct {
		board   []PlacedView
		meeples []MeepleView
		seats   int
	}{
		"no seats":          {[]PlacedView{d}, nil, 0},
		"six seats":         {[]PlacedView{d}, nil, 6},
		"unknown type":      {[]PlacedView{{Type: "Z"}}, nil, 2},
		"bad rotation":      {[]PlacedView{{Type: "D", Rotation: 45}}, nil, 2},
		"two on one spot":   {[]PlacedView{d, d}, nil, 2},
		"meeple off board":  {[]PlacedView{d}, []MeepleView{{X: 1, Feature: "city0"}}, 2},
		"unknown feature":   {[]PlacedView{d}, []MeepleView{{Feature: "city7"}}, 2},
		"seat out of range": {[]PlacedView{d}, []MeepleView{{Seat: 2, Feature: "city0"}}, 2},
	} {
		if _, _, err := Features(c.board, c.meeples, c.seats); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	for _, c := range []struct {
		typ string
		rot int
	}{{"Z", 0}, {"", 0}, {"D", 45}, {"D", 360}, {"D", -90}} {
		if _, err := TileFeatures(c.typ, c.rot); err == nil {
			t.Errorf("TileFeatures(%q, %d): no error", c.typ, c.rot)
		}
	}
}
