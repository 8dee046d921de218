package weiqi

import (
	"slices"
	"testing"
)

// sendTwoGame is a 9x9 game that reaches "send two, return one" on the
// left edge: black A4 (move 57) puts A3-A4 in atari, white A2 (58) takes
// the two, and black A3 would take white A2 back (one stone), making the
// position after move 56 again, with the other side to move. Simple ko
// (no immediate one-stone retake) allows it; positional superko does not.
var sendTwoGame = []string{"D7", "H7", "C3", "J9", "B1", "J6", "A3", "C9", "C8", "B4", "C2", "F7", "B2", "F4", "D8", "H2", "D1", "J8", "G1", "H8", "E2", "G6", "H5", "F8", "F9", "F2", "H1", "A6", "A1", "G5", "J2", "A8", "C7", "E9", "E4", "B8", "D9", "D3", "C5", "A9", "G2", "E1", "D2", "J5", "H4", "F5", "E5", "A5", "D6", "J4", "D5", "B3", "G3", "D4", "E6", "E7", "A4", "A2"}

func TestSendTwoReturnOne(t *testing.T) {
	s := moves(t, newGame(t, 9), sendTwoGame...)
	if s.caps[len(s.caps)-1] != 2 {
		t.Fatalf("white A2 should take two stones, took %d\n%s", s.caps[len(s.caps)-1], diagram(s))
	}
	// The retake takes one stone and is no simple-ko retake: it repeats
	// the position before white A2 and black A4 (after move 56), not the
	// one before white A2 (after move 57), which simple ko looks at.
	b := s.board.clone()
	n, free := b.place(pointIndex(t, s, "A3"), Black)
	if n != 1 || !free {
		t.Fatalf("A3 would take %d (free %v)", n, free)
	}
	if i := slices.Index(s.hashes, b.hash()); i != len(s.moves)-2 {
		t.Fatalf("A3 repeats the position after %d moves of %d", i, len(s.moves))
	}
	refuse(t, s, 0, "禁止打劫", movePlay, "A3")
	refuse(t, s, 0, "superko (the position repeats)", movePlay, "A3")
}

func pointIndex(t *testing.T, s State, name string) int {
	t.Helper()
	x, y, err := ParseCoord(name, s.size)
	if err != nil {
		t.Fatal(err)
	}
	return y*s.size + x
}

// gridOf builds a board from rows, the top first ('.', 'B', 'W').
func gridOf(rows ...string) board {
	b := newBoard(len(rows))
	for y, r := range rows {
		for x := range r {
			b.pts[y*b.size+x] = Stone(map[byte]Stone{'.': Empty, 'B': Black, 'W': White}[r[x]])
		}
	}
	return b
}

func TestEvolution(t *testing.T) {
	pad := func(rows ...string) []string { // 9x9 with rows at the top
		out := append([]string(nil), rows...)
		for len(out) < 9 {
			out = append(out, ".........")
		}
		return out
	}
	for _, tc := range []struct {
		name       string
		from, want []string
	}{
		{"lone stone dies", pad(".........", "....B...."), pad()},
		{"block is still", pad(".........", "...BB....", "...BB...."), pad(".........", "...BB....", "...BB....")},
		{"line: the middle survives with two, the ends die",
			pad(".........", "...BBB..."), pad(".........", "....B....")},
		{"birth: three of one colour, fourth empty",
			pad(".........", "....B....", "...B.B...", "........."), pad(".........", ".........", "....B....")},
		{"no birth beside the other colour, though that stone dies in the same generation",
			pad(".........", "....B....", "...B.B...", "....W...."), pad()},
		{"birth on the edge (fourth neighbour off the board)",
			pad("...W.W...", "....W...."), pad("....W....")},
		{"a stone with three survives, a stone with four dies",
			pad(".B.......", "BBB......", ".B.......", "...W.....", "..WWW...."),
			pad(".........", ".........", ".........", ".........", "...W.....")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := evolve(gridOf(tc.from...)).rows()
			if !slices.Equal(got, tc.want) {
				t.Fatalf("from\n%v\ngot\n%v\nwant\n%v", tc.from, got, tc.want)
			}
		})
	}
}
