package carcassonne

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// Kind is what a feature (or an edge) of a tile is.
type Kind uint8

// Feature kinds. An edge is a Field, a Road or a City; Cloister is only a
// feature.
const (
	Field Kind = iota
	Road
	City
	Cloister
)

var kindNames = [...]string{"field", "road", "city", "cloister"}
var kindZh = [...]string{"草地", "道路", "城堡", "修道院"}

func (k Kind) String() string { return kindNames[k] }

// Name is the kind's name in both languages.
func (k Kind) Name() games.Text { return games.Text{En: kindNames[k], Zh: kindZh[k]} }

// Directions: edges are numbered clockwise from north. x grows east, y
// grows south (docs/carcassonne.md), so north of (x, y) is (x, y-1).
const (
	North = iota
	East
	South
	West
)

var dirNames = [4]string{"N", "E", "S", "W"}
var dirEn = [4]string{"north", "east", "south", "west"}
var dirZh = [4]string{"北", "东", "南", "西"}

// step is the offset to the neighbour across each edge.
var step = [4][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}

// Half-edges carry fields: edge d has halves 2d and 2d+1, in clockwise
// order around the tile (0 = north edge, west half; 1 = north edge, east
// half; 2 = east edge, north half; ... 7 = west edge, north half). Half h of
// a tile touches half opposite(h) of the neighbour across its edge.
func opposite(h int) int {
	d := h / 2
	o := (d + 2) % 4
	return 2*o + 1 - h%2
}

// featDef is one feature of a tile type in its printed orientation.
type featDef struct {
	kind   Kind
	edges  []int // road and city: the edges it reaches
	halves []int // field: the half-edges it holds
	shield bool
	cities []int // field: indexes of the tile's city features it borders
}

// tileDef is one of the 24 tile types of the base game.
type tileDef struct {
	typ   string
	count int
	feats []featDef
}

func city(shield bool, edges ...int) featDef {
	return featDef{kind: City, edges: edges, shield: shield}
}
func road(edges ...int) featDef { return featDef{kind: Road, edges: edges} }
func field(cities []int, halves ...int) featDef {
	return featDef{kind: Field, halves: halves, cities: cities}
}

var cloister = featDef{kind: Cloister}

// none and c0, c01 name the city features a field borders.
var (
	none = []int(nil)
	c0   = []int{0}
	c01  = []int{0, 1}
)

const (
	n, e, s, w = North, East, South, West
)

// tileDefs is the official base game: 72 tiles, types A-X, as
// docs/carcassonne.md lists them. Feature order is fixed: it names the
// features ("city0", "road1", ...). D is the start tile.
var tileDefs = []tileDef{
	{"A", 2, []featDef{cloister, road(s), field(none, 0, 1, 2, 3, 4, 5, 6, 7)}},
	{"B", 4, []featDef{cloister, field(none, 0, 1, 2, 3, 4, 5, 6, 7)}},
	{"C", 1, []featDef{city(true, n, e, s, w)}},
	{"D", 4, []featDef{city(false, n), road(e, w), field(c0, 2, 7), field(none, 3, 4, 5, 6)}},
	{"E", 5, []featDef{city(false, n), field(c0, 2, 3, 4, 5, 6, 7)}},
	{"F", 2, []featDef{city(true, e, w), field(c0, 0, 1), field(c0, 4, 5)}},
	{"G", 1, []featDef{city(false, n, s), field(c0, 2, 3), field(c0, 6, 7)}},
	{"H", 3, []featDef{city(false, n), city(false, s), field(c01, 2, 3, 6, 7)}},
	{"I", 2, []featDef{city(false, n), city(false, w), field(c01, 2, 3, 4, 5)}},
	{"J", 3, []featDef{city(false, n), road(e, s), field(none, 3, 4), field(c0, 2, 5, 6, 7)}},
	{"K", 3, []featDef{city(false, n), road(s, w), field(none, 5, 6), field(c0, 2, 3, 4, 7)}},
	{"L", 3, []featDef{city(false, n), road(e), road(s), road(w), field(c0, 2, 7), field(none, 3, 4), field(none, 5, 6)}},
	{"M", 2, []featDef{city(true, n, w), field(c0, 2, 3, 4, 5)}},
	{"N", 3, []featDef{city(false, n, w), field(c0, 2, 3, 4, 5)}},
	{"O", 2, []featDef{city(true, n, w), road(e, s), field(none, 3, 4), field(c0, 2, 5)}},
	{"P", 3, []featDef{city(false, n, w), road(e, s), field(none, 3, 4), field(c0, 2, 5)}},
	{"Q", 1, []featDef{city(true, n, e, w), field(c0, 4, 5)}},
	{"R", 3, []featDef{city(false, n, e, w), field(c0, 4, 5)}},
	{"S", 2, []featDef{city(true, n, e, w), road(s), field(c0, 4), field(c0, 5)}},
	{"T", 1, []featDef{city(false, n, e, w), road(s), field(c0, 4), field(c0, 5)}},
	{"U", 8, []featDef{road(n, s), field(none, 1, 2, 3, 4), field(none, 5, 6, 7, 0)}},
	{"V", 9, []featDef{road(s, w), field(none, 5, 6), field(none, 0, 1, 2, 3, 4, 7)}},
	{"W", 4, []featDef{road(e), road(s), road(w), field(none, 7, 0, 1, 2), field(none, 3, 4), field(none, 5, 6)}},
	{"X", 1, []featDef{road(n), road(e), road(s), road(w), field(none, 7, 0), field(none, 1, 2), field(none, 3, 4), field(none, 5, 6)}},
}

// StartTile is the type of the tile at (0,0), rotation 0.
const StartTile = "D"

// TileCount is the number of tiles in the game, the start tile included.
const TileCount = 72

// maxFeats is the most features a tile has (X: four roads, four fields).
const maxFeats = 8

// rfeat is a feature after rotation.
type rfeat struct {
	kind   Kind
	edges  []int
	halves []int
	shield bool
	cities []int
	id     string
	label  games.Text
}

// shape is a tile type at one rotation, precomputed for the board.
type shape struct {
	typ      string
	edges    [4]Kind
	edgeFeat [4]int8 // feature at each edge (road or city), -1 for a field edge
	halfFeat [8]int8 // field feature at each half-edge, -1 on a city edge
	cloister int8    // the cloister feature, or -1
	feats    []rfeat
}

// shapes[t][r] is tile type t (0 = A) turned r quarter turns clockwise.
var shapes [24][4]shape

// typeIndex maps "A".."X" to 0..23; -1 for anything else.
func typeIndex(t string) int {
	if len(t) != 1 || t[0] < 'A' || t[0] > 'X' {
		return -1
	}
	return int(t[0] - 'A')
}

func init() {
	for ti, def := range tileDefs {
		if typeIndex(def.typ) != ti {
			panic("carcassonne: tile table out of order at " + def.typ)
		}
		for r := 0; r < 4; r++ {
			shapes[ti][r] = buildShape(def, r)
		}
	}
}

func buildShape(def tileDef, r int) shape {
	sh := shape{typ: def.typ, cloister: -1}
	for i := range sh.edgeFeat {
		sh.edgeFeat[i] = -1
	}
	for i := range sh.halfFeat {
		sh.halfFeat[i] = -1
	}
	for fi, f := range def.feats {
		rf := rfeat{kind: f.kind, shield: f.shield, cities: f.cities, id: fmt.Sprintf("%s%d", f.kind, fi)}
		for _, d := range f.edges {
			d2 := (d + r) % 4
			rf.edges = append(rf.edges, d2)
			sh.edgeFeat[d2] = int8(fi)
			sh.edges[d2] = f.kind
		}
		for _, h := range f.halves {
			h2 := (h + 2*r) % 8
			rf.halves = append(rf.halves, h2)
			sh.halfFeat[h2] = int8(fi)
		}
		if f.kind == Cloister {
			sh.cloister = int8(fi)
		}
		slices.Sort(rf.edges)
		slices.Sort(rf.halves)
		sh.feats = append(sh.feats, rf)
	}
	seen := map[string]int{}
	for fi := range sh.feats {
		sh.feats[fi].label = describe(sh.feats[fi])
		seen[sh.feats[fi].label.En]++
	}
	// Two fields may share a compass point (O and P: the corner inside the
	// road's curve and the strip between road and city); the one that
	// borders the city is named by it.
	for fi, f := range sh.feats {
		if f.kind == Field && seen[f.label.En] > 1 && len(f.cities) > 0 {
			sh.feats[fi].label = games.Text{En: "field, beside the city", Zh: "草地 · 城堡一侧"}
		}
	}
	return sh
}

// describe names a rotated feature for a person: "city, north edge" /
// "城堡 · 北边"; fields by the compass point of their half-edges.
func describe(f rfeat) games.Text {
	k := f.kind.Name()
	switch f.kind {
	case Cloister:
		return games.Text{En: "cloister", Zh: "修道院"}
	case Road, City:
		var en, zh []string
		for _, d := range sortedDirs(f.edges) {
			en = append(en, dirEn[d])
			zh = append(zh, dirZh[d])
		}
		word := " edge"
		if len(en) > 1 {
			word = " edges"
		}
		return games.Text{En: k.En + ", " + joinAnd(en) + word, Zh: k.Zh + " · " + strings.Join(zh, "") + "边"}
	}
	en, zh := fieldPlace(f.halves)
	return games.Text{En: k.En + ", " + en, Zh: k.Zh + " · " + zh}
}

func sortedDirs(ds []int) []int {
	var out []int
	for d := 0; d < 4; d++ {
		for _, x := range ds {
			if x == d {
				out = append(out, d)
				break
			}
		}
	}
	return out
}

func joinAnd(xs []string) string {
	if len(xs) <= 1 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " and " + xs[len(xs)-1]
}

var compassEn = [8]string{"north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"}
var compassZh = [8]string{"北", "东北", "东", "东南", "南", "西南", "西", "西北"}

// fieldPlace names where a field lies: the compass point of the mean of its
// half-edges' directions; a single half-edge by its edge and side; a field
// all around (or balanced on two sides) by the edges it reaches.
func fieldPlace(halves []int) (string, string) {
	if len(halves) == 1 {
		h := halves[0]
		d := h / 2
		// The first half of an edge (clockwise) lies toward the previous
		// corner: west on the north edge, north on the east edge, ...
		side := [4][2]int{{West, East}, {North, South}, {East, West}, {South, North}}[d][h%2]
		return fmt.Sprintf("%s edge, %s part", dirEn[d], dirEn[side]),
			fmt.Sprintf("%s边偏%s", dirZh[d], dirZh[side])
	}
	var x, y float64
	for _, h := range halves {
		a := (-22.5 + 45*float64(h)) * math.Pi / 180 // 0 = north, clockwise
		x += math.Sin(a)
		y += math.Cos(a)
	}
	if math.Hypot(x, y) < 0.3 {
		if len(halves) == 8 {
			return "all around", "四周"
		}
		seen := map[int]bool{}
		for _, h := range halves {
			seen[h/2] = true
		}
		var en []string
		zh := ""
		for d := 0; d < 4; d++ {
			if seen[d] {
				en = append(en, dirEn[d])
				zh += dirZh[d]
			}
		}
		return joinAnd(en) + " sides", zh + "两侧"
	}
	a := math.Atan2(x, y) * 180 / math.Pi
	i := int(math.Round(a/45+8)) % 8
	return compassEn[i], compassZh[i]
}

// shapeOf returns tile type t turned r quarter turns; ok is false for an
// unknown type.
func shapeOf(t string, r int) (*shape, bool) {
	ti := typeIndex(t)
	if ti < 0 || r < 0 || r > 3 {
		return nil, false
	}
	return &shapes[ti][r], true
}

// Types lists the tile types A-X.
func Types() []string {
	out := make([]string, len(tileDefs))
	for i, d := range tileDefs {
		out[i] = d.typ
	}
	return out
}

// fullDeck is every tile but the start tile, in type order.
func fullDeck() []string {
	var out []string
	for _, d := range tileDefs {
		c := d.count
		if d.typ == StartTile {
			c--
		}
		for i := 0; i < c; i++ {
			out = append(out, d.typ)
		}
	}
	return out
}
