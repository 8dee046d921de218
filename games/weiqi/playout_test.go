package weiqi

import (
	"testing"
)

// checkBoard recomputes every chain's liberties by flood fill and compares
// them with the board's incremental bookkeeping.
func checkBoard(t *testing.T, b *pboard) {
	t.Helper()
	empties := 0
	for p := range b.col {
		q := int32(p)
		switch b.col[q] {
		case pEmpty:
			empties++
			if b.empty[b.eidx[q]] != q {
				t.Fatalf("empty list lost %d", q)
			}
		case pBlack, pWhite:
			h := b.head[q]
			if b.col[h] != b.col[q] {
				t.Fatalf("stone %d has head %d of another colour", q, h)
			}
			if h != q {
				continue
			}
			stones, libs := 0, map[int32]bool{}
			pseudo := 0
			for s := h; ; {
				stones++
				if b.head[s] != h {
					t.Fatalf("chain %d: stone %d has head %d", h, s, b.head[s])
				}
				for _, n := range b.nbrs(s) {
					if b.col[n] == pEmpty {
						libs[n] = true
						pseudo++
					}
					if b.col[n] == b.col[h] && b.head[n] != h {
						t.Fatalf("chain %d: neighbour %d of the same colour in chain %d", h, n, b.head[n])
					}
				}
				if s = b.next[s]; s == h {
					break
				}
			}
			if int32(stones) != b.stones[h] || int32(pseudo) != b.libs[h] {
				t.Fatalf("chain %d: %d stones %d pseudo-libs, recorded %d %d", h, stones, pseudo, b.stones[h], b.libs[h])
			}
			if len(libs) == 0 {
				t.Fatalf("chain %d has no liberty", h)
			}
			if (len(libs) == 1) != b.inAtari(h) {
				t.Fatalf("chain %d: %d liberties but inAtari %v", h, len(libs), b.inAtari(h))
			}
		}
	}
	if empties != len(b.empty) {
		t.Fatalf("%d empty points, list has %d", empties, len(b.empty))
	}
}

func TestPlayoutBoardInvariants(t *testing.T) {
	for _, size := range []int{9, 13, 19} {
		r := newXrand(uint64(size) * 7919)
		for g := 0; g < 20; g++ {
			b := newPboard(size)
			for i := 0; b.passes < 2 && i < 3*size*size; i++ {
				c := b.toMove
				if p := b.policyMove(c, r); p != 0 {
					if !b.legal(p, c) {
						t.Fatalf("size %d game %d: illegal policy move %d", size, g, p)
					}
					b.play(p, c)
				} else {
					b.pass()
				}
				checkBoard(t, b)
			}
		}
	}
}

// pboardOf builds a playout board from rows (top first), black to move.
func pboardOf(rows ...string) *pboard {
	b := newPboard(len(rows))
	for y, row := range rows {
		for x, ch := range row {
			switch ch {
			case 'B':
				b.play(b.pt(x, y), pBlack)
			case 'W':
				b.play(b.pt(x, y), pWhite)
			}
		}
	}
	b.toMove, b.ko, b.last = pBlack, 0, 0
	return b
}

func TestPlayoutBoardRules(t *testing.T) {
	b := pboardOf(
		".BW..",
		"BW.W.",
		".BW..",
		".....",
		".....",
	)
	// Black at C4 (x2,y1) captures the white stone at B4 and makes a ko.
	p := b.pt(2, 1)
	if !b.legal(p, pBlack) {
		t.Fatal("capture refused")
	}
	if n := b.play(p, pBlack); n != 1 {
		t.Fatalf("captured %d, want 1", n)
	}
	if b.ko != b.pt(1, 1) {
		t.Fatalf("ko at %d, want %d", b.ko, b.pt(1, 1))
	}
	if b.legal(b.pt(1, 1), pWhite) {
		t.Fatal("ko retake allowed")
	}
	checkBoard(t, b)
	// A1 corner (x0,y0) is suicide for white, an eye for black.
	if b.legal(b.pt(0, 0), pWhite) {
		t.Fatal("suicide allowed")
	}
	if !b.isEye(b.pt(0, 0), pBlack) {
		t.Fatal("corner eye not seen")
	}
	if b.score() <= 0 {
		t.Fatalf("score %d", b.score())
	}
}
