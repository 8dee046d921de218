package gomoku

// shape is what a stone makes along one line, by the usual definitions:
// a four can become five with one more stone (an open four in two ways, so
// it cannot be stopped), a three can become a four (an open three an open
// four), a two can become a three. Split shapes count: X.XXX is a four,
// .X.XX. an open three.
type shape uint8

const (
	shapeNone      shape = iota
	shapeTwo             // 眠二
	shapeOpenTwo         // 活二
	shapeThree           // 眠三
	shapeOpenThree       // 活三
	shapeFour            // 冲四
	shapeOpenFour        // 活四
	shapeFive            // 连五
)

// shapeScore is the normal bot's pattern-scoring table (package doc).
var shapeScore = [...]int{
	shapeNone:      0,
	shapeTwo:       50,
	shapeOpenTwo:   400,
	shapeThree:     500,
	shapeOpenThree: 8000,
	shapeFour:      10000,
	shapeOpenFour:  100000,
	shapeFive:      1000000,
}

// scoreFive is the value of a five.
var scoreFive = shapeScore[shapeFive]

// A line key encodes the eight cells around a point along one direction,
// four each side, as base-3 digits: 0 empty, 1 a stone of the colour being
// looked at, 2 anything else (an opposing stone, off the board). Digit i
// is the cell at offset i-4 for i < 4 and i-3 for i >= 4. The point itself
// is taken to hold a stone of that colour. Fives through the point fit in
// this window, so the key decides the point's shape along the line.
const lineKeys = 6561 // 3^8

// pow3[i] is the weight of digit i.
var pow3 = [8]int{1, 3, 9, 27, 81, 243, 729, 2187}

// lineShapes[raw][c-1] is the shape along one line of a stone of colour c
// (black or white), where raw holds the eight cells around it, two bits
// each, in the order of the line key's digits. Reading both colours' shapes
// from one key halves the bots' work. The table takes 128 KiB.
var lineShapes = buildLineShapes()

// rawKey is the raw line key of p along d.
func (g *grid) rawKey(p, d pos) int {
	q := p - 4*d
	return int(g[q]) | int(g[q+d])<<2 | int(g[q+2*d])<<4 | int(g[q+3*d])<<6 |
		int(g[p+d])<<8 | int(g[p+2*d])<<10 | int(g[p+3*d])<<12 | int(g[p+4*d])<<14
}

// shapeAt is the shape a stone of colour c at p makes (or would make, if
// p is empty) along d.
func (g *grid) shapeAt(p, d pos, c cell) shape {
	return lineShapes[g.rawKey(p, d)][c-1]
}

func buildLineShapes() *[1 << 16][2]shape {
	shapes := buildShapes()
	var t [1 << 16][2]shape
	for raw := range t {
		for c := black; c <= white; c++ {
			key := 0
			for i := 0; i < 8; i++ {
				digit := 2
				switch cell(raw >> (2 * i) & 3) {
				case empty:
					digit = 0
				case c:
					digit = 1
				}
				key += digit * pow3[i]
			}
			t[raw][c-1] = shapes[key]
		}
	}
	return &t
}

// buildShapes classifies every line key, each shape from the shapes one
// more stone makes.
func buildShapes() *[lineKeys]shape {
	var t [lineKeys]shape
	var done [lineKeys]bool
	var classify func(key int) shape
	classify = func(key int) shape {
		if done[key] {
			return t[key]
		}
		var line [9]int // the window, centre at 4
		for i := 0; i < 8; i++ {
			j := i
			if i >= 4 {
				j = i + 1
			}
			line[j] = key / pow3[i] % 3
		}
		line[4] = 1
		var s shape
		if fiveThroughCentre(line) {
			s = shapeFive
		} else {
			var best [shapeFive + 1]int // how many one-stone additions reach each shape
			for i := 0; i < 8; i++ {
				if key/pow3[i]%3 == 0 {
					best[classify(key+pow3[i])]++
				}
			}
			switch {
			case best[shapeFive] >= 2:
				s = shapeOpenFour
			case best[shapeFive] == 1:
				s = shapeFour
			case best[shapeOpenFour] > 0:
				s = shapeOpenThree
			case best[shapeFour] > 0:
				s = shapeThree
			case best[shapeOpenThree] > 0:
				s = shapeOpenTwo
			case best[shapeThree] > 0:
				s = shapeTwo
			}
		}
		t[key], done[key] = s, true
		return s
	}
	for key := range t {
		classify(key)
	}
	return &t
}

// fiveThroughCentre reports whether the window holds five or more stones
// in a row through its centre.
func fiveThroughCentre(line [9]int) bool {
	n := 1
	for i := 3; i >= 0 && line[i] == 1; i-- {
		n++
	}
	for i := 5; i < 9 && line[i] == 1; i++ {
		n++
	}
	return n >= 5
}
