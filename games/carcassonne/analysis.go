package carcassonne

import (
	"fmt"
	"slices"
)

// BoardFeature is one connected feature of a board (a road, a city, a
// field, or one cloister with its neighbours) as the scoring counts it.
// Features and TileFeatures are for players outside this package (the LLM
// adapter) that reason from a view: pure, and sharing no memory with the
// tile tables.
type BoardFeature struct {
	Kind     string // road, city, cloister or field
	Tiles    int    // distinct tiles it covers (cloister: itself and its neighbours)
	Shields  int
	Open     int  // road and city: edges leading to an empty spot; cloister: empty neighbours; field: 0
	Complete bool // a road or city with no open edge, a cloister with 8 neighbours; never a field
	// Points is what it is worth as it stands: a completed road, city or
	// cloister in full, else what the end scoring would give (a field: 3
	// per completed city it touches).
	Points  int
	Meeples []int // meeples on it, by seat
	Cities  []int // field: the indexes (into the features) of the cities it touches
}

// Features finds the connected features of a board given as a view gives
// it (tiles in the order placed, meeples by feature id) for seats seats.
// at[i][f] is the index in features of feature f (its index in
// TileFeatures) of board[i]. An unknown tile type or rotation, two tiles
// on one spot, a meeple off the board or on an unknown feature, or seats
// outside 1-5 is an error.
func Features(board []PlacedView, meeples []MeepleView, seats int) (features []BoardFeature, at [][]int, err error) {
	if seats < 1 || seats > 5 {
		return nil, nil, fmt.Errorf("carcassonne: %d seats", seats)
	}
	tiles := make([]Placed, len(board))
	for i, t := range board {
		if typeIndex(t.Type) < 0 || t.Rotation%90 != 0 || t.Rotation < 0 || t.Rotation >= 360 {
			return nil, nil, fmt.Errorf("carcassonne: tile %q turned %d at (%d,%d)", t.Type, t.Rotation, t.X, t.Y)
		}
		tiles[i] = Placed{X: t.X, Y: t.Y, Type: t.Type, Rot: t.Rotation / 90}
	}
	b := newBoard(tiles)
	if len(b.at) != len(tiles) {
		return nil, nil, fmt.Errorf("carcassonne: two tiles on one spot")
	}
	ms := make([]Meeple, len(meeples))
	for k, m := range meeples {
		i, ok := b.index(m.X, m.Y)
		f := -1
		if ok {
			f = featureIndex(b.shape(i), m.Feature)
		}
		if f < 0 || m.Seat < 0 || m.Seat >= seats {
			return nil, nil, fmt.Errorf("carcassonne: meeple of seat %d on %q at (%d,%d)", m.Seat, m.Feature, m.X, m.Y)
		}
		ms[k] = Meeple{Seat: m.Seat, X: m.X, Y: m.Y, Feature: f}
	}
	a := analyze(b, ms, seats)
	features = make([]BoardFeature, len(a.groups))
	for gi := range a.groups {
		g := &a.groups[gi]
		features[gi] = BoardFeature{
			Kind: g.kind.String(), Tiles: g.tiles, Shields: g.shields, Complete: g.complete(),
			Points: a.points(g), Meeples: slices.Clone(g.meeples[:seats]), Cities: slices.Clone(g.cities),
		}
		if g.kind != Field {
			features[gi].Open = g.open
		}
	}
	at = make([][]int, len(tiles))
	for i := range tiles {
		sh := b.shape(i)
		at[i] = make([]int, len(sh.feats))
		for f := range sh.feats {
			at[i][f] = int(a.gi[a.find(i*maxFeats+f)])
		}
	}
	return features, at, nil
}

// TileFeatures lists the features of tile type typ turned rotation degrees
// clockwise, in the order of their ids (placeMeeple's "city0", "road1",
// ...), described as meeple options are: the edges each road or city
// reaches and the half-edges of each field after the turn.
func TileFeatures(typ string, rotation int) ([]MeepleOption, error) {
	if rotation%90 != 0 || rotation < 0 || rotation >= 360 {
		return nil, fmt.Errorf("carcassonne: rotation %d", rotation)
	}
	sh, ok := shapeOf(typ, rotation/90)
	if !ok {
		return nil, fmt.Errorf("carcassonne: tile type %q", typ)
	}
	out := make([]MeepleOption, len(sh.feats))
	for fi, f := range sh.feats {
		o := MeepleOption{Feature: f.id, Kind: f.kind.String(), Halves: slices.Clone(f.halves), Label: f.label}
		for _, d := range f.edges {
			o.Edges = append(o.Edges, dirNames[d])
		}
		out[fi] = o
	}
	return out, nil
}
