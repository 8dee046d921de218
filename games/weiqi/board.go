package weiqi

// Stone is what stands on a point.
type Stone byte

// The contents of a point. Black is seat 0's colour, White seat 1's.
const (
	Empty Stone = iota
	Black
	White
)

// Other is the opposing colour (Empty stays Empty).
func (c Stone) Other() Stone {
	switch c {
	case Black:
		return White
	case White:
		return Black
	}
	return Empty
}

// String is the board character: '.', 'B' or 'W'.
func (c Stone) String() string { return string(stoneChar[c]) }

var stoneChar = [...]byte{Empty: '.', Black: 'B', White: 'W'}

// colourOf is the colour seat plays.
func colourOf(seat int) Stone { return Stone(seat + 1) }

// board is one position: size*size points, index y*size+x with y counted
// from the top row. It is a plain slice; code that changes a board owns it.
type board struct {
	size int
	pts  []Stone
}

func newBoard(size int) board { return board{size: size, pts: make([]Stone, size*size)} }

func (b board) clone() board {
	return board{size: b.size, pts: append([]Stone(nil), b.pts...)}
}

// neighbours appends the orthogonal neighbours of p that are on the board.
func (b board) neighbours(buf []int, p int) []int {
	x, y := p%b.size, p/b.size
	if x > 0 {
		buf = append(buf, p-1)
	}
	if x < b.size-1 {
		buf = append(buf, p+1)
	}
	if y > 0 {
		buf = append(buf, p-b.size)
	}
	if y < b.size-1 {
		buf = append(buf, p+b.size)
	}
	return buf
}

// group returns the 4-connected group of one colour holding p (p must not
// be empty) and whether it has at least one liberty.
func (b board) group(p int) (stones []int, free bool) {
	c := b.pts[p]
	seen := make([]bool, len(b.pts))
	seen[p] = true
	stones = []int{p}
	var nb [4]int
	for i := 0; i < len(stones); i++ {
		for _, q := range b.neighbours(nb[:0], stones[i]) {
			switch {
			case seen[q]:
			case b.pts[q] == Empty:
				free = true
			case b.pts[q] == c:
				seen[q] = true
				stones = append(stones, q)
			}
		}
	}
	return stones, free
}

// place puts colour c at the empty point p, removes the opponent groups it
// leaves without liberties and returns how many stones it removed and
// whether the placed stone's own group has a liberty afterwards (false: a
// suicide, which the caller refuses). The board is changed in place.
func (b board) place(p int, c Stone) (captured int, free bool) {
	b.pts[p] = c
	var nb [4]int
	for _, q := range b.neighbours(nb[:0], p) {
		if b.pts[q] != c.Other() {
			continue
		}
		if stones, ok := b.group(q); !ok {
			for _, s := range stones {
				b.pts[s] = Empty
			}
			captured += len(stones)
		}
	}
	_, free = b.group(p)
	return captured, free
}

// hash is the Zobrist hash of the position.
func (b board) hash() uint64 {
	var h uint64
	for p, c := range b.pts {
		if c != Empty {
			h ^= zobrist[c-1][p]
		}
	}
	return h
}

// zobrist holds a fixed random 64-bit key per colour and point (19x19 is
// the largest board). It is made by splitmix64 from a constant, so every
// process and every run hashes a position the same way; it is no source of
// randomness for the rules.
var zobrist = func() (t [2][19 * 19]uint64) {
	x := uint64(0x5EED_C4A6_0A11_3003)
	for c := range t {
		for p := range t[c] {
			x += 0x9E3779B97F4A7C15
			z := x
			z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
			z = (z ^ (z >> 27)) * 0x94D049BB133111EB
			t[c][p] = z ^ (z >> 31)
		}
	}
	return t
}()

// rows writes the board as size strings, the top row first.
func (b board) rows() []string {
	buf := make([]byte, len(b.pts))
	for p, c := range b.pts {
		buf[p] = stoneChar[c]
	}
	all := string(buf)
	out := make([]string, b.size)
	for y := range out {
		out[y] = all[y*b.size : (y+1)*b.size]
	}
	return out
}

// count returns the stones of colour c on the board.
func (b board) count(c Stone) int {
	n := 0
	for _, s := range b.pts {
		if s == c {
			n++
		}
	}
	return n
}
