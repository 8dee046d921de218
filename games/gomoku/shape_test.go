package gomoku

import "testing"

// TestShapes classifies the middle point of one row, written as a string:
// 'X' our stone, 'O' an opposing stone, '.' empty, '*' the point looked at
// (taken to be ours), '|' the board's edge.
func TestShapes(t *testing.T) {
	tests := []struct {
		row  string
		want shape
	}{
		{"....*....", shapeNone},
		{"...X*....", shapeOpenTwo},
		{"..X.*....", shapeOpenTwo},
		{"...OX*...", shapeTwo}, // closed at the left, room to the right
		{"..OX*....", shapeTwo},
		{"|X*.....", shapeTwo},
		{"...XX*...", shapeOpenThree},
		{"..X.X*...", shapeOpenThree},
		{"..XX.*...", shapeOpenThree},
		{"..OXX*...", shapeThree},
		{"..OXX*.O.", shapeNone},
		{".OXX*..O.", shapeThree},
		{"|XX*..", shapeThree},
		{"..XXX*...", shapeOpenFour},
		{"..XXX*O..", shapeFour},
		{"..XX.*X..", shapeFour},
		{".X.X*X...", shapeFour},
		{"|XXX*.", shapeFour},
		{"X.X*X.X", shapeOpenFour}, // two gaps, each makes five
		{"..XXXX*..", shapeFive},
		{"XXXXX*XX", shapeFive},
		{"OXXX*O...", shapeNone},
	}
	for _, tc := range tests {
		t.Run(tc.row, func(t *testing.T) {
			g, p := rowGrid(t, tc.row)
			if got := g.shapeAt(p, 1, black); got != tc.want {
				t.Fatalf("shape %d, want %d", got, tc.want)
			}
			// The same row with the colours swapped, read for white.
			sw, pw := rowGrid(t, swapColours(tc.row))
			if got := sw.shapeAt(pw, 1, white); got != tc.want {
				t.Fatalf("as white: shape %d, want %d", got, tc.want)
			}
		})
	}
}

// rowGrid lays out a row on row 7 of an empty board, starting at column 0
// (or right after a leading '|', which is the board's left edge), and
// returns the position of its '*'.
func rowGrid(t *testing.T, row string) (*grid, pos) {
	t.Helper()
	g := emptyGrid
	var star pos = -1
	x := 0
	if row[0] == '|' {
		row = row[1:]
	} else {
		x = 3 // leave room on the left
	}
	for i := 0; i < len(row); i++ {
		p := at(x+i, 7)
		switch row[i] {
		case 'X':
			g[p] = black
		case 'O':
			g[p] = white
		case '*':
			star = p
		}
	}
	if star < 0 {
		t.Fatalf("row %q has no '*'", row)
	}
	return &g, star
}

func swapColours(row string) string {
	b := []byte(row)
	for i, c := range b {
		switch c {
		case 'X':
			b[i] = 'O'
		case 'O':
			b[i] = 'X'
		}
	}
	return string(b)
}
