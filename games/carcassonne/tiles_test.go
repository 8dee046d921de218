package carcassonne

import (
	"testing"
)

// TestDistribution checks the tile table against the official base game:
// 72 tiles, 10 shields, and the edge totals counted by hand from the list
// in docs/carcassonne.md (type: edges N,E,S,W × count):
//
//	A F,F,R,F×2  B F,F,F,F×4  C C,C,C,C×1  D C,R,F,R×4  E C,F,F,F×5
//	F F,C,F,C×2  G C,F,C,F×1  H C,F,C,F×3  I C,F,F,C×2  J C,R,R,F×3
//	K C,F,R,R×3  L C,R,R,R×3  M C,F,F,C×2  N C,F,F,C×3  O C,R,R,C×2
//	P C,R,R,C×3  Q C,C,F,C×1  R C,C,F,C×3  S C,C,R,C×2  T C,C,R,C×1
//	U R,F,R,F×8  V F,F,R,R×9  W F,R,R,R×4  X R,R,R,R×1
//
// city edges 4+4+5+4+2+6+4+3+3+3+4+6+4+6+3+9+6+3 = 79,
// road edges 2+8+6+6+9+4+6+2+1+16+18+12+4 = 94,
// field edges 6+16+4+15+4+2+6+4+3+3+4+6+1+3+16+18+4 = 115; 79+94+115 = 288 = 72×4.
func TestDistribution(t *testing.T) {
	tiles, shields, cloisters := 0, 0, 0
	edges := map[Kind]int{}
	for ti, d := range tileDefs {
		tiles += d.count
		sh := shapes[ti][0]
		for _, f := range sh.feats {
			if f.shield {
				shields += d.count
			}
			if f.kind == Cloister {
				cloisters += d.count
			}
		}
		for _, k := range sh.edges {
			edges[k] += d.count
		}
	}
	if tiles != 72 || shields != 10 || cloisters != 6 {
		t.Fatalf("tiles %d shields %d cloisters %d, want 72, 10, 6", tiles, shields, cloisters)
	}
	if edges[City] != 79 || edges[Road] != 94 || edges[Field] != 115 {
		t.Fatalf("edges city %d road %d field %d, want 79, 94, 115", edges[City], edges[Road], edges[Field])
	}
	if got := len(fullDeck()); got != 71 {
		t.Fatalf("deck of %d tiles, want 71 (72 less the start tile)", got)
	}
	want := map[string]string{"A": "FFRF", "B": "FFFF", "C": "CCCC", "D": "CRFR", "E": "CFFF", "F": "FCFC",
		"G": "CFCF", "H": "CFCF", "I": "CFFC", "J": "CRRF", "K": "CFRR", "L": "CRRR", "M": "CFFC", "N": "CFFC",
		"O": "CRRC", "P": "CRRC", "Q": "CCFC", "R": "CCFC", "S": "CCRC", "T": "CCRC", "U": "RFRF", "V": "FFRR",
		"W": "FRRR", "X": "RRRR"}
	for ti, d := range tileDefs {
		got := ""
		for _, k := range shapes[ti][0].edges {
			got += map[Kind]string{Field: "F", Road: "R", City: "C"}[k]
		}
		if got != want[d.typ] {
			t.Errorf("tile %s edges %s, want %s", d.typ, got, want[d.typ])
		}
	}
}

// TestShapes checks every tile at every rotation: each edge is covered by
// exactly one road or city feature or is a field edge whose two halves
// belong to fields; a road edge has a field on both halves (the same one
// only where the road ends at a cloister), a city edge on neither; fields border only city features; feature labels are distinct.
func TestShapes(t *testing.T) {
	for ti := range tileDefs {
		for r := 0; r < 4; r++ {
			sh := &shapes[ti][r]
			for d := 0; d < 4; d++ {
				h1, h2 := sh.halfFeat[2*d], sh.halfFeat[2*d+1]
				switch sh.edges[d] {
				case City:
					if sh.edgeFeat[d] < 0 || h1 >= 0 || h2 >= 0 {
						t.Errorf("%s r%d edge %d: city edge with field halves or no feature", sh.typ, r, d)
					}
				case Road:
					if sh.edgeFeat[d] < 0 || h1 < 0 || h2 < 0 || (h1 == h2 && sh.cloister < 0) {
						t.Errorf("%s r%d edge %d: a road must split two fields", sh.typ, r, d)
					}
				case Field:
					if sh.edgeFeat[d] >= 0 || h1 < 0 || h2 < 0 {
						t.Errorf("%s r%d edge %d: field edge must have field halves", sh.typ, r, d)
					}
				}
			}
			labels := map[string]bool{}
			for _, f := range sh.feats {
				for _, c := range f.cities {
					if sh.feats[c].kind != City {
						t.Errorf("%s: field borders non-city feature %d", sh.typ, c)
					}
				}
				if labels[f.label.En] || labels[f.label.Zh] {
					t.Errorf("%s r%d: label %q not unique", sh.typ, r, f.label.En)
				}
				labels[f.label.En], labels[f.label.Zh] = true, true
			}
			next := &shapes[ti][(r+1)%4]
			for d := 0; d < 4; d++ {
				if next.edges[(d+1)%4] != sh.edges[d] {
					t.Errorf("%s: rotating r%d by 90° moves edge %d wrongly", sh.typ, r, d)
				}
			}
		}
	}
}

func TestLabels(t *testing.T) {
	for _, c := range []struct {
		typ  string
		rot  int
		want []string
	}{
		{"D", 0, []string{"city, north edge|城堡 · 北边", "road, east and west edges|道路 · 东西边", "field, north|草地 · 北", "field, south|草地 · 南"}},
		{"E", 1, []string{"city, east edge|城堡 · 东边", "field, west|草地 · 西"}},
		{"P", 0, []string{"city, north and west edges|城堡 · 北西边", "road, east and south edges|道路 · 东南边", "field, south-east|草地 · 东南", "field, beside the city|草地 · 城堡一侧"}},
		{"S", 0, []string{"city, north, east and west edges|城堡 · 北东西边", "road, south edge|道路 · 南边", "field, south edge, east part|草地 · 南边偏东", "field, south edge, west part|草地 · 南边偏西"}},
		{"B", 0, []string{"cloister|修道院", "field, all around|草地 · 四周"}},
		{"H", 1, []string{"city, east edge|城堡 · 东边", "city, west edge|城堡 · 西边", "field, north and south sides|草地 · 北南两侧"}},
	} {
		sh, _ := shapeOf(c.typ, c.rot)
		for i, f := range sh.feats {
			if got := f.label.En + "|" + f.label.Zh; got != c.want[i] {
				t.Errorf("%s r%d feature %d: %q, want %q", c.typ, c.rot, i, got, c.want[i])
			}
		}
	}
}

func TestOpposite(t *testing.T) {
	// North edge, west half touches the tile above at its south edge, west half.
	for h, want := range []int{5, 4, 7, 6, 1, 0, 3, 2} {
		if got := opposite(h); got != want {
			t.Errorf("opposite(%d) = %d, want %d", h, got, want)
		}
	}
}
