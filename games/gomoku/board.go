package gomoku

// Size is the side of the board: 15 points, x and y from 0 to 14, (0,0) at
// the top left.
const Size = 15

// The board is kept padded with pad rings of wall cells, so a walk along a
// line from any point on the board stops at a wall before it can leave the
// array, and the bots can read the four cells either side of any point
// without bounds checks.
const (
	pad    = 4
	stride = Size + 2*pad
	cells  = stride * stride
)

// cell is what occupies one padded board cell.
type cell uint8

const (
	empty cell = iota
	black      // seat 0
	white      // seat 1
	wall       // off the board
)

// colour is the stone colour of a seat (0 black, 1 white).
func colour(seat int) cell { return cell(seat + 1) }

// other is the opposing stone colour.
func (c cell) other() cell { return 3 - c }

// pos is a padded board index.
type pos int16

// at returns the padded index of the board point (x, y); x and y must be in
// [0, Size).
func at(x, y int) pos { return pos((y+pad)*stride + x + pad) }

// xy returns the board coordinates of an on-board index.
func (p pos) xy() (x, y int) { return int(p)%stride - pad, int(p)/stride - pad }

// point returns p as the wire pair [x, y].
func (p pos) point() [2]int {
	x, y := p.xy()
	return [2]int{x, y}
}

// onBoard reports whether (x, y) is a point of the board.
func onBoard(x, y int) bool { return x >= 0 && x < Size && y >= 0 && y < Size }

// dirs are the four line directions: horizontal, vertical, the diagonal
// down-right and the diagonal down-left. Each is walked both ways.
var dirs = [4]pos{1, stride, stride + 1, stride - 1}

// grid is a padded board. Copying it is a 529-byte copy.
type grid [cells]cell

// emptyGrid is a board with no stones and its wall ring in place.
var emptyGrid = func() grid {
	var g grid
	for i := range g {
		x, y := pos(i).xy()
		if !onBoard(x, y) {
			g[i] = wall
		}
	}
	return g
}()

// run counts the stones of colour c next to p in direction d, p excluded.
func (g *grid) run(p, d pos, c cell) int {
	n := 0
	for q := p + d; g[q] == c; q += d {
		n++
	}
	return n
}

// fiveDir returns the index in dirs of the first direction in which the
// stone of colour c at p is part of five or more in a row, or -1.
func (g *grid) fiveDir(p pos, c cell) int {
	for i, d := range dirs {
		if 1+g.run(p, d, c)+g.run(p, -d, c) >= 5 {
			return i
		}
	}
	return -1
}

// line returns the whole run of colour c through p in direction dirs[di],
// from one end to the other, starting at the lower padded index (the top
// end, or the left end of a horizontal line).
func (g *grid) line(p pos, di int, c cell) []pos {
	d := dirs[di]
	start := p - pos(g.run(p, -d, c))*d
	n := 1 + g.run(p, d, c) + g.run(p, -d, c)
	out := make([]pos, n)
	for i := range out {
		out[i] = start + pos(i)*d
	}
	return out
}
