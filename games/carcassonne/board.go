package carcassonne

import "sort"

// Placed is one tile on the board. Rotation is in quarter turns clockwise
// inside the state; the wire uses degrees (see PlacedView).
type Placed struct {
	X    int    `json:"x"`
	Y    int    `json:"y"`
	Type string `json:"type"`
	Rot  int    `json:"rot"`
}

// Meeple is a meeple on feature Feature (an index into the tile type's
// features) of the tile at (X, Y).
type Meeple struct {
	Seat    int `json:"seat"`
	X       int `json:"x"`
	Y       int `json:"y"`
	Feature int `json:"feature"`
}

type pos struct{ x, y int }

// key packs a position into a map key (coordinates stay within ±72).
func key(x, y int) int32 { return int32(x)<<16 | int32(uint16(int16(y))) }

// board indexes a list of placed tiles by position. It is built from a
// state or a view and never stored.
type board struct {
	tiles []Placed
	at    map[int32]int32
}

func newBoard(tiles []Placed) *board {
	b := &board{tiles: tiles, at: make(map[int32]int32, len(tiles)+8)}
	for i, t := range tiles {
		b.at[key(t.X, t.Y)] = int32(i)
	}
	return b
}

// index is the tile at (x, y), if any.
func (b *board) index(x, y int) (int, bool) {
	i, ok := b.at[key(x, y)]
	return int(i), ok
}

func (b *board) shape(i int) *shape {
	t := b.tiles[i]
	return &shapes[typeIndex(t.Type)][t.Rot]
}

// push adds p to a board the caller owns (the bot's own copy); pop takes
// the last tile away again.
func (b *board) push(p Placed) {
	b.at[key(p.X, p.Y)] = int32(len(b.tiles))
	b.tiles = append(b.tiles, p)
}

func (b *board) pop() {
	p := b.tiles[len(b.tiles)-1]
	delete(b.at, key(p.X, p.Y))
	b.tiles = b.tiles[:len(b.tiles)-1]
}

// fits reports whether sh may go at (x, y): the spot is empty, it touches
// at least one tile, and every edge matches its neighbour.
func (b *board) fits(sh *shape, x, y int) bool {
	if _, taken := b.index(x, y); taken {
		return false
	}
	touch := false
	for d := 0; d < 4; d++ {
		j, ok := b.index(x+step[d][0], y+step[d][1])
		if !ok {
			continue
		}
		touch = true
		if b.shape(j).edges[(d+2)%4] != sh.edges[d] {
			return false
		}
	}
	return touch
}

// Placement is a legal position for the current tile and the rotations
// (in degrees) it fits in there.
type Placement struct {
	X         int   `json:"x"`
	Y         int   `json:"y"`
	Rotations []int `json:"rotations"`
}

// frontier lists the empty positions next to a tile, sorted by y then x.
func (b *board) frontier() []pos {
	seen := map[pos]bool{}
	var out []pos
	for _, t := range b.tiles {
		for d := 0; d < 4; d++ {
			p := pos{t.X + step[d][0], t.Y + step[d][1]}
			if _, taken := b.index(p.x, p.y); taken || seen[p] {
				continue
			}
			seen[p] = true
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].y != out[j].y {
			return out[i].y < out[j].y
		}
		return out[i].x < out[j].x
	})
	return out
}

// placements lists every legal position of tile type t with its rotations.
func (b *board) placements(t string) []Placement {
	ti := typeIndex(t)
	if ti < 0 {
		return nil
	}
	var out []Placement
	for _, p := range b.frontier() {
		var rots []int
		for r := 0; r < 4; r++ {
			if b.fits(&shapes[ti][r], p.x, p.y) {
				rots = append(rots, r*90)
			}
		}
		if len(rots) > 0 {
			out = append(out, Placement{X: p.x, Y: p.y, Rotations: rots})
		}
	}
	return out
}

// canPlace reports whether tile type t fits anywhere.
func (b *board) canPlace(t string) bool {
	ti := typeIndex(t)
	for _, p := range b.frontier() {
		for r := 0; r < 4; r++ {
			if b.fits(&shapes[ti][r], p.x, p.y) {
				return true
			}
		}
	}
	return false
}

// neighbours counts the tiles in the eight positions around (x, y).
func (b *board) neighbours(x, y int) int {
	c := 0
	for dx := -1; dx <= 1; dx++ {
		for dy := -1; dy <= 1; dy++ {
			if dx == 0 && dy == 0 {
				continue
			}
			if _, ok := b.index(x+dx, y+dy); ok {
				c++
			}
		}
	}
	return c
}
