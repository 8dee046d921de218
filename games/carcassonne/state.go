package carcassonne

import (
	"slices"

	"github.com/chaguan/chaguan/games"
)

// Phases, as Status reports them and the view shows them.
const (
	PhaseTile   = "tile"   // the current seat places the drawn tile
	PhaseMeeple = "meeple" // the current seat may put a meeple on the tile it placed
	PhaseOver   = "over"
)

// Meeples is how many meeples each seat has.
const Meeples = 7

// Secret is the part of the state no player may see: the order of the
// tiles still to draw, and the generator that shuffled them.
type Secret struct {
	Deck []string   `json:"deck"`
	RNG  *games.RNG `json:"rng"`
}

// State is the authoritative state of a match. It is treated as
// immutable: Apply builds a new State. Everything but Secret is public.
type State struct {
	Seats       int      `json:"seats"`
	Tiles       []Placed `json:"tiles"` // in the order placed; Tiles[0] is the start tile
	Meeples     []Meeple `json:"meeples"`
	Scores      []int    `json:"scores"`
	MeeplesLeft []int    `json:"meeplesLeft"`
	Current     int      `json:"current"`
	Phase       string   `json:"phase"`
	Tile        string   `json:"tile"` // the drawn tile in phase tile; "" otherwise (placed: the last of Tiles)
	Turn        int      `json:"turn"` // 1-based; one turn per tile placed
	Removed     []string `json:"removed"`
	Events      []Event  `json:"events"`
	Final       *Final   `json:"final,omitempty"`
	Secret      Secret   `json:"secret"`
}

// Final is the end-of-game scoring: every feature that scored, and the
// result.
type Final struct {
	Scores    []int   `json:"scores"`  // final totals by seat
	Winners   []int   `json:"winners"` // the seats with the top total (several on a tie)
	Breakdown []Event `json:"breakdown"`
	// ByKind[seat] is what the end scoring gave seat for roads, cities,
	// cloisters and fields, in that order.
	ByKind [][4]int `json:"byKind"`
}

// clone copies everything Apply may change. Events, Removed and Tiles are
// only appended to, so the copies need no deep copy of their elements.
func (s State) clone() State {
	n := s
	n.Tiles = slices.Clone(s.Tiles)
	n.Meeples = slices.Clone(s.Meeples)
	n.Scores = slices.Clone(s.Scores)
	n.MeeplesLeft = slices.Clone(s.MeeplesLeft)
	n.Removed = slices.Clone(s.Removed)
	n.Events = slices.Clone(s.Events)
	n.Secret.Deck = slices.Clone(s.Secret.Deck)
	return n
}

func (s *State) board() *board { return newBoard(s.Tiles) }

// meepleOptions lists the features of the tile just placed that seat may
// put a meeple on: those whose connected whole holds no meeple. It is empty
// when seat has no meeple left or the phase is not the meeple step.
func (s *State) meepleOptions() []MeepleOption {
	if s.Phase != PhaseMeeple || len(s.Tiles) == 0 || s.MeeplesLeft[s.Current] == 0 {
		return nil
	}
	return meepleOptions(s.board(), s.Meeples, s.Seats, len(s.Tiles)-1, s.MeeplesLeft[s.Current])
}

// MeepleOption is one feature of the placed tile that may take a meeple.
type MeepleOption struct {
	Feature string     `json:"feature"` // id for placeMeeple, e.g. "city0"
	Kind    string     `json:"kind"`
	Edges   []string   `json:"edges,omitempty"`  // road and city: the edges it reaches, "N","E","S","W"
	Halves  []int      `json:"halves,omitempty"` // field: half-edges 0-7 (see docs)
	Label   games.Text `json:"label"`
}

func meepleOptions(b *board, meeples []Meeple, seats, tile, left int) []MeepleOption {
	if left <= 0 {
		return nil
	}
	a := analyze(b, meeples, seats)
	sh := b.shape(tile)
	var out []MeepleOption
	for fi, f := range sh.feats {
		if a.groupAt(tile, fi).hasMeeple() {
			continue
		}
		o := MeepleOption{Feature: f.id, Kind: f.kind.String(), Halves: f.halves, Label: f.label}
		for _, d := range f.edges {
			o.Edges = append(o.Edges, dirNames[d])
		}
		out = append(out, o)
	}
	return out
}

// featureIndex finds the feature with id on sh, or -1.
func featureIndex(sh *shape, id string) int {
	for i, f := range sh.feats {
		if f.id == id {
			return i
		}
	}
	return -1
}
