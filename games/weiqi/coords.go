package weiqi

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// columns are the column letters from the left: A to T without I, as on a
// real board (I is skipped so it is never read as J or 1).
const columns = "ABCDEFGHJKLMNOPQRST"

// ParseCoord reads a coordinate like "D4" on a board of size: the column
// letter (A-T without I, either case) from the left and the row number with
// row 1 at the bottom. Spaces around or between are ignored, and full-width
// letters and digits (Ｄ４) are read as half-width. It returns x, the column
// from the left, and y, the row from the TOP, both 0-based. A move's
// argument is stricter: games.DecodeArgs refuses a string holding any
// space before ParseCoord reads it, and the move is kept as FormatCoord
// writes it.
func ParseCoord(s string, size int) (x, y int, err error) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII block
			r -= 0xFEE0
		case r == 0x3000: // ideographic space
			r = ' '
		}
		if !unicode.IsSpace(r) {
			b.WriteRune(unicode.ToUpper(r))
		}
	}
	t := b.String()
	if len(t) < 2 {
		return 0, 0, fmt.Errorf("%q is not a point like D4", s)
	}
	x = strings.IndexByte(columns[:size], t[0])
	if x < 0 || t[0] > 'Z' {
		return 0, 0, fmt.Errorf("%q: column %q is not one of %s", s, t[:1], columns[:size])
	}
	row, perr := strconv.Atoi(t[1:])
	if perr != nil || t[1] == '0' || t[1] == '+' || t[1] == '-' {
		return 0, 0, fmt.Errorf("%q: the row must be a number from 1 to %d", s, size)
	}
	if row < 1 || row > size {
		return 0, 0, fmt.Errorf("%q: row %d is off a %dx%d board", s, row, size, size)
	}
	return x, size - row, nil
}

// FormatCoord writes the point (x from the left, y from the top, 0-based)
// as "D4".
func FormatCoord(x, y, size int) string {
	return columns[x:x+1] + strconv.Itoa(size-y)
}

// pointName is FormatCoord of a point index.
func pointName(p, size int) string { return FormatCoord(p%size, p/size, size) }
