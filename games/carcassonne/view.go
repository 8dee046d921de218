package carcassonne

import (
	"slices"
)

// View is what every seat and every spectator sees (Carcassonne has no
// private hand: the drawn tile is shown to all). It is built field by field
// from the public part of the state; the deck's order is never in it, only
// its size and the multiset of unseen tiles (which anyone can count from
// the box list and the board). docs/carcassonne.md documents its JSON.
type View struct {
	NumPlayers  int          `json:"numPlayers"`
	Phase       string       `json:"phase"`   // tile, meeple or over
	Current     int          `json:"current"` // seat to move; -1 when over
	Turn        int          `json:"turn"`
	Tile        string       `json:"tile,omitempty"` // the drawn tile (phase tile only)
	TilesLeft   int          `json:"tilesLeft"`      // still to draw after the current tile
	Board       []PlacedView `json:"board"`          // in the order placed
	Meeples     []MeepleView `json:"meeples"`
	Scores      []int        `json:"scores"`
	MeeplesLeft []int        `json:"meeplesLeft"`
	// LastPlaced is the most recently placed tile (in phase meeple: the tile
	// that may take a meeple).
	LastPlaced *PlacedView `json:"lastPlaced,omitempty"`
	// Placements lists every legal position of the drawn tile with its
	// rotations (phase tile only, else empty).
	Placements []Placement `json:"placements"`
	// MeepleOptions lists the features of the placed tile that may take a
	// meeple (phase meeple only, else empty).
	MeepleOptions []MeepleOption `json:"meepleOptions"`
	// Unseen counts the tiles of each type still to draw (the drawn tile
	// not included).
	Unseen  map[string]int `json:"unseen"`
	Removed []string       `json:"removed"`
	// Events is the latest ViewEvents events of the public record, oldest
	// first (the state keeps the whole record).
	Events []Event `json:"events"`
	Final  *Final  `json:"final,omitempty"`
}

// PlacedView is a tile on the board; Rotation is in degrees clockwise.
type PlacedView struct {
	X        int    `json:"x"`
	Y        int    `json:"y"`
	Type     string `json:"type"`
	Rotation int    `json:"rotation"`
}

// MeepleView is a meeple on feature Feature ("city0", ...) of the tile at
// (X, Y).
type MeepleView struct {
	Seat    int    `json:"seat"`
	X       int    `json:"x"`
	Y       int    `json:"y"`
	Feature string `json:"feature"`
	Kind    string `json:"kind"`
}

// ViewEvents is how many of the latest events a view carries: a whole
// round of five seats with its scores, and a log panel's worth.
const ViewEvents = 60

// View builds the view; it is the same for every viewer. It shares no
// memory with the state or the tile tables: bots are handed it directly.
func (Rules) View(s State, viewer int) View {
	v := View{
		NumPlayers: s.Seats, Phase: s.Phase, Current: s.Current, Turn: s.Turn, Tile: s.Tile,
		TilesLeft: len(s.Secret.Deck), Board: make([]PlacedView, len(s.Tiles)), Meeples: make([]MeepleView, len(s.Meeples)),
		Scores: slices.Clone(s.Scores), MeeplesLeft: slices.Clone(s.MeeplesLeft),
		Placements: []Placement{}, MeepleOptions: []MeepleOption{},
		Unseen: map[string]int{}, Removed: slices.Clone(s.Removed), Final: cloneFinal(s.Final),
	}
	v.Events = cloneEvents(s.Events[max(0, len(s.Events)-ViewEvents):])
	for i := range v.Events {
		v.Events[i].Text = v.Events[i].text(s.Tiles)
	}
	if s.Phase == PhaseOver {
		v.Current = -1
	}
	for i, t := range s.Tiles {
		v.Board[i] = PlacedView{X: t.X, Y: t.Y, Type: t.Type, Rotation: t.Rot * 90}
	}
	if len(v.Board) > 1 {
		last := v.Board[len(v.Board)-1]
		v.LastPlaced = &last
	}
	for i, m := range s.Meeples {
		sh, _ := shapeOf(tileAt(s.Tiles, m.X, m.Y))
		f := sh.feats[m.Feature]
		v.Meeples[i] = MeepleView{Seat: m.Seat, X: m.X, Y: m.Y, Feature: f.id, Kind: f.kind.String()}
	}
	switch s.Phase {
	case PhaseTile:
		v.Placements = s.board().placements(s.Tile)
	case PhaseMeeple:
		if o := s.meepleOptions(); o != nil {
			v.MeepleOptions = cloneOptions(o)
		}
	}
	v.Unseen = unseen(s.Tiles, s.Removed, s.Tile)
	return v
}

// cloneEvents copies events with their slices (nil stays nil).
func cloneEvents(events []Event) []Event {
	out := slices.Clone(events)
	for i, e := range out {
		out[i].Seats, out[i].Meeples, out[i].Cells = slices.Clone(e.Seats), slices.Clone(e.Meeples), slices.Clone(e.Cells)
	}
	return out
}

// cloneFinal copies the end scoring, nil for none.
func cloneFinal(f *Final) *Final {
	if f == nil {
		return nil
	}
	return &Final{
		Scores: slices.Clone(f.Scores), Winners: slices.Clone(f.Winners),
		Breakdown: cloneEvents(f.Breakdown), ByKind: slices.Clone(f.ByKind),
	}
}

// cloneOptions copies meeple options: their half-edges are the tile
// table's own.
func cloneOptions(opts []MeepleOption) []MeepleOption {
	out := slices.Clone(opts)
	for i := range out {
		out[i].Halves = slices.Clone(out[i].Halves)
	}
	return out
}

// unseen counts the tiles not yet drawn: the box less the board, the
// removed tiles and the drawn tile. Only public facts go in.
func unseen(tiles []Placed, removed []string, drawn string) map[string]int {
	out := map[string]int{}
	for _, d := range tileDefs {
		out[d.typ] = d.count
	}
	for _, t := range tiles {
		out[t.Type]--
	}
	for _, t := range removed {
		out[t]--
	}
	if drawn != "" {
		out[drawn]--
	}
	for k, c := range out {
		if c == 0 {
			delete(out, k)
		}
	}
	return out
}

func tileAt(tiles []Placed, x, y int) (string, int) {
	for _, t := range tiles {
		if t.X == x && t.Y == y {
			return t.Type, t.Rot
		}
	}
	return "", 0
}
