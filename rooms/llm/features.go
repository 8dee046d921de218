package llm

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/games/carcassonne"
)

// This file reads a seat's Carcassonne view into what the prompt says:
// the connected features of the board (carcassonne.Features) with names,
// owners, sizes and the empty spots that would extend them; the effect of
// every legal placement of the drawn tile with every meeple spot it
// offers; and an estimate of what each such move is worth. Everything is
// computed from the view alone.

// spot is a board position.
type spot struct{ x, y int }

// around lists the offsets of the 8 neighbours of a tile.
var around = [8]spot{{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}}

// step is the offset across each edge N, E, S, W.
var step = [4]spot{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

var dirIndex = map[string]int{"N": 0, "E": 1, "S": 2, "W": 3}

// tileFeats[type][rotation/90] is carcassonne.TileFeatures, computed once.
var tileFeats = func() map[string][4][]carcassonne.MeepleOption {
	out := map[string][4][]carcassonne.MeepleOption{}
	for _, typ := range carcassonne.Types() {
		var r [4][]carcassonne.MeepleOption
		for q := range 4 {
			fs, err := carcassonne.TileFeatures(typ, 90*q)
			if err != nil {
				panic(err) // the rules' own types and rotations
			}
			r[q] = fs
		}
		out[typ] = r
	}
	return out
}()

// layout is a board with its connected features: the view's board, or
// the view's board with the drawn tile placed on it (the last tile).
type layout struct {
	tiles []carcassonne.PlacedView
	pos   map[spot]int
	feats []carcassonne.BoardFeature
	at    [][]int // at[i][f]: the feature index of feature f of tile i
	// spots[g] lists the empty positions that extend feature g: across an
	// open edge of a road or city, around a cloister.
	spots [][]spot
}

func newLayout(tiles []carcassonne.PlacedView, meeples []carcassonne.MeepleView, seats int) (*layout, error) {
	feats, at, err := carcassonne.Features(tiles, meeples, seats)
	if err != nil {
		return nil, err
	}
	l := &layout{tiles: tiles, pos: make(map[spot]int, len(tiles)), feats: feats, at: at, spots: make([][]spot, len(feats))}
	for i, t := range tiles {
		l.pos[spot{t.X, t.Y}] = i
	}
	for i, t := range tiles {
		for f, o := range l.features(i) {
			g := at[i][f]
			switch o.Kind {
			case "road", "city":
				for _, e := range o.Edges {
					d := step[dirIndex[e]]
					s := spot{t.X + d.x, t.Y + d.y}
					if _, taken := l.pos[s]; !taken && !slices.Contains(l.spots[g], s) {
						l.spots[g] = append(l.spots[g], s)
					}
				}
			case "cloister":
				for _, d := range around {
					s := spot{t.X + d.x, t.Y + d.y}
					if _, taken := l.pos[s]; !taken {
						l.spots[g] = append(l.spots[g], s)
					}
				}
			}
		}
	}
	return l, nil
}

// features lists the features of tile i after its rotation.
func (l *layout) features(i int) []carcassonne.MeepleOption {
	t := l.tiles[i]
	return tileFeats[t.Type][(t.Rotation/90)%4]
}

// need is the edges a tile at s must have, N, E, S, W ('?' where no
// neighbour is).
func (l *layout) need(s spot) string {
	b := []byte("????")
	for d, o := range step {
		if j, ok := l.pos[spot{s.x + o.x, s.y + o.y}]; ok {
			t := l.tiles[j]
			b[d] = rotatedEdges(t.Type, t.Rotation)[(d+2)%4]
		}
	}
	return string(b)
}

// fitting counts the tiles in unseen (type to count) that fit a spot whose
// neighbours ask for edges need in some rotation.
func fitting(need string, unseen map[string]int) int {
	n := 0
	for typ, c := range unseen {
		for q := range 4 {
			e := rotatedEdges(typ, 90*q)
			ok := true
			for d := range 4 {
				if need[d] != '?' && need[d] != e[d] {
					ok = false
					break
				}
			}
			if ok {
				n += c
				break
			}
		}
	}
	return n
}

// table is the seat's view read for a decision.
type table struct {
	v      carcassonne.View
	seat   int
	cur    *layout  // the board as it is
	names  []string // names[g]: "c1", "r2", "k1", "f3" for feature g of cur
	fits   map[string]int
	before float64 // the evaluator's objective for the board as it is
}

// kindLetter names features in the prompt: c city, r road, k cloister, f field.
var kindLetter = map[string]string{"city": "c", "road": "r", "cloister": "k", "field": "f"}

// newTable reads v for seat: board is the whole board in the tile phase,
// and the board without the tile placed this turn in the meeple phase
// (meeplePrompt).
func newTable(v carcassonne.View, seat int, board []carcassonne.PlacedView) (*table, error) {
	if v.NumPlayers < 2 || v.NumPlayers > 5 || seat < 0 || seat >= v.NumPlayers || len(v.Scores) != v.NumPlayers || len(v.MeeplesLeft) != v.NumPlayers {
		return nil, fmt.Errorf("%w: %d seats, seat %d", ErrView, v.NumPlayers, seat)
	}
	cur, err := newLayout(board, v.Meeples, v.NumPlayers)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrView, err)
	}
	t := &table{v: v, seat: seat, cur: cur, names: make([]string, len(cur.feats)), fits: map[string]int{}}
	count := map[string]int{}
	for i := range cur.tiles {
		for f := range cur.at[i] {
			g := cur.at[i][f]
			if t.names[g] == "" {
				k := kindLetter[cur.feats[g].Kind]
				count[k]++
				t.names[g] = fmt.Sprint(k, count[k])
			}
		}
	}
	t.before = t.objective(cur, -1, nil)
	return t, nil
}

// fit is how many unseen tiles fit spot s of layout l.
func (t *table) fit(l *layout, s spot) int {
	need := l.need(s)
	n, ok := t.fits[need]
	if !ok {
		n = fitting(need, t.v.Unseen)
		t.fits[need] = n
	}
	return n
}

// dead reports whether feature g of l can never be completed: one of its
// spots fits no tile left.
func (t *table) dead(l *layout, g int) bool {
	for _, s := range l.spots[g] {
		if t.fit(l, s) == 0 {
			return true
		}
	}
	return false
}

// chance is a rough probability that feature g of l is completed before
// the end: 0 when a spot fits no tile left, smaller with more open ends and
// fewer tiles left (per is how many tiles an open end needs, roughly).
func (t *table) chance(l *layout, g int, per float64) float64 {
	f := l.feats[g]
	if f.Complete {
		return 1
	}
	left := t.v.TilesLeft
	open := f.Open
	if left == 0 || open == 0 || t.dead(l, g) {
		return 0
	}
	return math.Pow(0.8, float64(open)) * min(1, float64(left)/(per*float64(open)*float64(t.v.NumPlayers)/2))
}

// value is the points feature g of l may be expected to bring its owners:
// its points when complete, else a mix of what it gives completed and
// unfinished by its chance; a field counts its completed cities in full
// and the others by their chance.
func (t *table) value(l *layout, g int) float64 {
	f := l.feats[g]
	if f.Complete {
		return float64(f.Points)
	}
	switch f.Kind {
	case "road":
		return float64(f.Tiles) * (1 + 0.3*t.chance(l, g, 4))
	case "city":
		p := t.chance(l, g, 4)
		return p*float64(2*(f.Tiles+f.Shields)) + (1-p)*float64(f.Tiles+f.Shields)
	case "cloister":
		p := t.chance(l, g, 2)
		return p*9 + (1-p)*float64(f.Tiles)
	case "field":
		v := 0.0
		for _, c := range f.Cities {
			if l.feats[c].Complete {
				v += 3
			} else {
				v += 3 * t.chance(l, c, 4)
			}
		}
		return v
	}
	return 0
}

// owners lists the seats with the most meeples (none when there are none).
func owners(m []int) []int {
	best := 0
	for _, c := range m {
		best = max(best, c)
	}
	var out []int
	for seat, c := range m {
		if best > 0 && c == best {
			out = append(out, seat)
		}
	}
	return out
}

// meeplesOn is feature g's meeples by seat, with one more of the seat's
// when g is extra.
func (t *table) meeplesOn(l *layout, g, extra int) []int {
	m := l.feats[g].Meeples
	if g == extra {
		m = slices.Clone(m)
		m[t.seat]++
	}
	return m
}

// objective is the seat's expected total less the best other seat's: the
// scores, the points now (by seat; nil for none) and what the features
// with meeples (extra: one more of the seat's, -1 for none) may bring.
// A completed road, city or cloister is in now, not here: it scores and
// its meeples come back at once.
func (t *table) objective(l *layout, extra int, now []int) float64 {
	total := make([]float64, t.v.NumPlayers)
	for seat := range total {
		total[seat] = float64(t.v.Scores[seat])
		if now != nil {
			total[seat] += float64(now[seat])
		}
	}
	for g, f := range l.feats {
		if f.Complete {
			continue
		}
		m := t.meeplesOn(l, g, extra)
		who := owners(m)
		if len(who) == 0 {
			continue
		}
		val := t.value(l, g)
		for _, seat := range who {
			total[seat] += val
		}
	}
	other := math.Inf(-1)
	for seat, v := range total {
		if seat != t.seat {
			other = max(other, v)
		}
	}
	return total[t.seat] - other
}

// meepleCost is what putting a meeple on feature g gives up: nothing if
// it comes back at once, more while few are left and early in the game; a
// field's never comes back.
func (t *table) meepleCost(l *layout, g int) float64 {
	f := l.feats[g]
	if f.Complete {
		return 0
	}
	if f.Kind == "field" {
		early := float64(t.v.TilesLeft) / float64(carcassonne.TileCount-1)
		return 2 + 10*early + 3*t.scarce()
	}
	return t.meepleWorth()
}

// scarce grows from 1/7 with all meeples at home to 1 with none left.
func (t *table) scarce() float64 {
	return float64(carcassonne.Meeples-t.v.MeeplesLeft[t.seat]+1) / carcassonne.Meeples
}

// meepleWorth is what a meeple at home is worth: what one placed on a
// road or city gives up, and what one that comes back regains.
func (t *table) meepleWorth() float64 {
	early := float64(t.v.TilesLeft) / float64(carcassonne.TileCount-1)
	return 1 + 2*early*t.scarce() + 2*t.scarce()
}

// pick is one meeple choice of a placement: a feature of the placed tile
// ("" for no meeple).
type pick struct {
	feature string // the feature id for placeMeeple, "" for none
	label   string // "city N", "field SE", "no meeple"
	g       int    // its feature in the placement's layout; -1 for none
	now     []int  // points by seat scored at once
	est     float64
}

// placement is one legal placement of the drawn tile (one of its
// rotations that are not the same as an earlier one) and its choices.
type placement struct {
	x, y, rot int
	edges     string // N, E, S, W after rotation
	l         *layout
	effect    string // what the tile does to the board, for the prompt
	picks     []pick
}

// shapeKey is the geometry of a rotated tile: its features' kinds, edges
// and half-edges, in a canonical order. Two rotations of one tile with the
// same key are the same placement (C, B, X at every turn; G, F, H, U at
// half a turn).
func shapeKey(fs []carcassonne.MeepleOption) string {
	parts := make([]string, len(fs))
	for i, f := range fs {
		parts[i] = fmt.Sprint(f.Kind, f.Edges, f.Halves)
	}
	slices.Sort(parts)
	return strings.Join(parts, ";")
}

// placements lists the legal placements of the drawn tile with their
// effects and choices: the view's placements, one per distinct rotation.
func (t *table) placements() ([]*placement, error) {
	var out []*placement
	for _, pl := range t.v.Placements {
		seen := map[string]bool{}
		for _, rot := range pl.Rotations {
			fs, ok := tileFeats[t.v.Tile]
			if !ok || rot%90 != 0 || rot < 0 || rot >= 360 {
				return nil, fmt.Errorf("%w: tile %q turned %d", ErrView, t.v.Tile, rot)
			}
			k := shapeKey(fs[rot/90])
			if seen[k] {
				continue
			}
			seen[k] = true
			p, err := t.place(carcassonne.PlacedView{X: pl.X, Y: pl.Y, Type: t.v.Tile, Rotation: rot}, nil)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// place puts tile on the board (it must be legal) and works out its
// effect and choices: no meeple, and, when the seat has a meeple left, one
// per feature of the tile whose whole holds no meeple. allowed, when not
// nil, keeps only the meeple choices it lists (the meeple phase's own
// options).
func (t *table) place(tile carcassonne.PlacedView, allowed []carcassonne.MeepleOption) (*placement, error) {
	board := append(slices.Clip(t.cur.tiles), tile)
	l, err := newLayout(board, t.v.Meeples, t.v.NumPlayers)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrView, err)
	}
	last := len(board) - 1
	p := &placement{x: tile.X, y: tile.Y, rot: tile.Rotation, edges: rotatedEdges(tile.Type, tile.Rotation), l: l}
	fs := l.features(last)
	p.picks = append(p.picks, t.pickFor(l, last, "", "no meeple", -1))
	if t.v.MeeplesLeft[t.seat] > 0 {
		for f, o := range fs {
			g := l.at[last][f]
			if slices.ContainsFunc(l.feats[g].Meeples, func(c int) bool { return c > 0 }) {
				continue
			}
			if allowed != nil && !slices.ContainsFunc(allowed, func(a carcassonne.MeepleOption) bool { return a.Feature == o.Feature }) {
				continue
			}
			label := shortLabel(o)
			if o.Kind == "field" {
				label += fieldCities(l, g)
			}
			p.picks = append(p.picks, t.pickFor(l, last, o.Feature, label, g))
		}
	}
	p.effect = t.effect(l, last)
	return p, nil
}

// fieldCities says what field g of l touches: " (cities: 1 done, 2 open)",
// " (no city)".
func fieldCities(l *layout, g int) string {
	done, open := 0, 0
	for _, c := range l.feats[g].Cities {
		if l.feats[c].Complete {
			done++
		} else {
			open++
		}
	}
	if done+open == 0 {
		return " (no city)"
	}
	return fmt.Sprintf(" (cities: %d done, %d open)", done, open)
}

// touched lists the features that the tile at index last of l belongs to
// or borders as a cloister's neighbour, each once: those whose scoring the
// tile may trigger.
func touched(l *layout, last int) []int {
	var out []int
	for _, g := range l.at[last] {
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	t := l.tiles[last]
	for _, d := range around {
		j, ok := l.pos[spot{t.X + d.x, t.Y + d.y}]
		if !ok {
			continue
		}
		for f, o := range l.features(j) {
			if g := l.at[j][f]; o.Kind == "cloister" && !slices.Contains(out, g) {
				out = append(out, g)
			}
		}
	}
	return out
}

// pickFor works out one choice: the points it scores at once (by seat)
// and its estimate.
func (t *table) pickFor(l *layout, last int, feature, label string, g int) pick {
	now := make([]int, t.v.NumPlayers)
	back := 0 // the seat's meeples that come back
	for _, h := range touched(l, last) {
		f := l.feats[h]
		if !f.Complete || f.Kind == "field" {
			continue
		}
		for _, seat := range owners(t.meeplesOn(l, h, g)) {
			now[seat] += f.Points
		}
		back += f.Meeples[t.seat]
	}
	est := t.objective(l, g, now) - t.before + float64(back)*t.meepleWorth()
	if g >= 0 {
		est -= t.meepleCost(l, g)
	}
	return pick{feature: feature, label: label, g: g, now: now, est: est}
}

// halfNames names the half-edges 0-7 (docs/carcassonne.md): the north
// edge's west half, its east half, the east edge's north half, ...
var halfNames = [8]string{"Nw", "Ne", "En", "Es", "Se", "Sw", "Ws", "Wn"}

// shortLabel names a feature of the placed tile for a choice: its kind and
// the edges it reaches ("city N", "road EW"); a field by the edges and
// half-edges it covers ("field En+S+Ws").
func shortLabel(o carcassonne.MeepleOption) string {
	switch o.Kind {
	case "road", "city":
		return o.Kind + " " + strings.Join(o.Edges, "")
	case "cloister":
		return "cloister"
	}
	var parts []string
	for d := range 4 {
		a, b := slices.Contains(o.Halves, 2*d), slices.Contains(o.Halves, 2*d+1)
		switch {
		case a && b:
			parts = append(parts, "NESW"[d:d+1])
		case a:
			parts = append(parts, halfNames[2*d])
		case b:
			parts = append(parts, halfNames[2*d+1])
		}
	}
	if len(parts) == 4 && len(o.Halves) == 8 {
		return "field all round"
	}
	return "field " + strings.Join(parts, "+")
}
