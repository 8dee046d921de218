package weiqi

// The bots' playout board: a mutable, allocation-free board for Monte-Carlo
// playouts, much faster than the immutable rules State. Chains are circular
// lists of stones with pseudo-liberties (each stone–empty-neighbour pair
// counts once), and an atari is detected from the sum and the sum of squares
// of those liberties. Inside playouts only simple ko is checked, not the
// real game's positional superko; every move a bot finally chooses is
// checked again with Rules.Apply.

// pcol is the colour of one point of a playout board.
type pcol int8

const (
	pEmpty pcol = iota
	pBlack
	pWhite
	pEdge // the border around the board
)

// other is the opposing colour of a stone colour.
func (c pcol) other() pcol { return 3 - c }

// pcolOf is the playout colour of a seat (0 black, 1 white).
func pcolOf(seat int) pcol { return pcol(seat + 1) }

// pboard is a playout board with a one-point border. Points are indices
// into the arrays; 0 (a border point) stands for a pass.
type pboard struct {
	size, stride int
	col          []pcol
	head         []int32 // chain head of each stone
	next         []int32 // next stone of the same chain (circular)
	// Per chain head: stones, pseudo-liberties, their sum and sum of squares.
	stones []int32
	libs   []int32
	lsum   []int32
	lsq    []int64
	empty  []int32 // the empty points, in no order
	eidx   []int32 // position of each empty point in empty
	ko     int32   // the point the player to move may not retake, 0 if none
	last   int32   // the last move, 0 for a pass or none
	toMove pcol
	passes int
	mark   []uint32 // scratch for counting distinct liberties
	stamp  uint32
}

// newPboard returns an empty board of the given size, black to move.
func newPboard(size int) *pboard {
	stride := size + 2
	n := stride * stride
	b := &pboard{
		size: size, stride: stride,
		col: make([]pcol, n), head: make([]int32, n), next: make([]int32, n),
		stones: make([]int32, n), libs: make([]int32, n), lsum: make([]int32, n),
		lsq: make([]int64, n), eidx: make([]int32, n), mark: make([]uint32, n),
		empty: make([]int32, 0, size*size), toMove: pBlack,
	}
	for p := range b.col {
		x, y := p%stride, p/stride
		if x == 0 || y == 0 || x == stride-1 || y == stride-1 {
			b.col[p] = pEdge
			continue
		}
		b.eidx[p] = int32(len(b.empty))
		b.empty = append(b.empty, int32(p))
	}
	return b
}

// copyFrom makes b an exact copy of src (same size), reusing b's memory.
func (b *pboard) copyFrom(src *pboard) {
	copy(b.col, src.col)
	copy(b.head, src.head)
	copy(b.next, src.next)
	copy(b.stones, src.stones)
	copy(b.libs, src.libs)
	copy(b.lsum, src.lsum)
	copy(b.lsq, src.lsq)
	copy(b.eidx, src.eidx)
	b.empty = append(b.empty[:0], src.empty...)
	b.ko, b.last, b.toMove, b.passes = src.ko, src.last, src.toMove, src.passes
}

// clone returns a fresh copy of b.
func (b *pboard) clone() *pboard {
	c := newPboard(b.size)
	c.copyFrom(b)
	return c
}

// pt is the index of column x, row y from the top (both 0-based).
func (b *pboard) pt(x, y int) int32 { return int32((y+1)*b.stride + x + 1) }

// xy is the inverse of pt.
func (b *pboard) xy(p int32) (x, y int) { return int(p)%b.stride - 1, int(p)/b.stride - 1 }

// nbrs returns the four orthogonal neighbours of p.
func (b *pboard) nbrs(p int32) [4]int32 {
	s := int32(b.stride)
	return [4]int32{p - s, p - 1, p + 1, p + s}
}

func (b *pboard) addLib(h, p int32) {
	b.libs[h]++
	b.lsum[h] += p
	b.lsq[h] += int64(p) * int64(p)
}

func (b *pboard) remLib(h, p int32) {
	b.libs[h]--
	b.lsum[h] -= p
	b.lsq[h] -= int64(p) * int64(p)
}

// inAtari reports whether chain h has exactly one (real) liberty: all its
// pseudo-liberties are the same point exactly when n·Σp² = (Σp)².
func (b *pboard) inAtari(h int32) bool {
	n := int64(b.libs[h])
	s := int64(b.lsum[h])
	return n > 0 && n*b.lsq[h] == s*s
}

// atariLib is the only liberty of chain h, which must be in atari.
func (b *pboard) atariLib(h int32) int32 { return b.lsum[h] / b.libs[h] }

func (b *pboard) removeEmpty(p int32) {
	i := b.eidx[p]
	last := b.empty[len(b.empty)-1]
	b.empty[i] = last
	b.eidx[last] = i
	b.empty = b.empty[:len(b.empty)-1]
}

func (b *pboard) addEmpty(p int32) {
	b.eidx[p] = int32(len(b.empty))
	b.empty = append(b.empty, p)
}

// legal reports whether colour c may play at p: empty, not the ko point,
// and not suicide.
func (b *pboard) legal(p int32, c pcol) bool {
	if b.col[p] != pEmpty || p == b.ko {
		return false
	}
	for _, n := range b.nbrs(p) {
		switch b.col[n] {
		case pEmpty:
			return true
		case c:
			if !b.inAtari(b.head[n]) {
				return true
			}
		case c.other():
			if b.inAtari(b.head[n]) {
				return true
			}
		}
	}
	return false
}

// isEye reports whether p is an eye of colour c: every neighbour is c or
// the border, and the diagonals do not make it false (one opposing stone
// on a diagonal on the edge, two in the middle).
func (b *pboard) isEye(p int32, c pcol) bool {
	for _, n := range b.nbrs(p) {
		if b.col[n] != c && b.col[n] != pEdge {
			return false
		}
	}
	s := int32(b.stride)
	bad, edge := 0, false
	for _, d := range [4]int32{p - s - 1, p - s + 1, p + s - 1, p + s + 1} {
		switch b.col[d] {
		case pEdge:
			edge = true
		case c.other():
			bad++
		}
	}
	if edge {
		return bad == 0
	}
	return bad < 2
}

// play puts a stone of colour c at p (which must be legal), captures, and
// gives the turn to the other colour. It returns the stones captured.
func (b *pboard) play(p int32, c pcol) int {
	b.removeEmpty(p)
	b.col[p] = c
	b.head[p], b.next[p], b.stones[p] = p, p, 1
	b.libs[p], b.lsum[p], b.lsq[p] = 0, 0, 0
	nb := b.nbrs(p)
	for _, n := range nb {
		switch b.col[n] {
		case pEmpty:
			b.addLib(p, n)
		case pBlack, pWhite:
			b.remLib(b.head[n], p)
		}
	}
	for _, n := range nb {
		if b.col[n] == c && b.head[n] != b.head[p] {
			b.merge(b.head[p], b.head[n])
		}
	}
	captured, capPt := 0, int32(0)
	for _, n := range nb {
		if b.col[n] == c.other() && b.libs[b.head[n]] == 0 {
			capPt = n
			captured += b.removeChain(b.head[n])
		}
	}
	h := b.head[p]
	b.ko = 0
	if captured == 1 && b.stones[h] == 1 && b.libs[h] == 1 {
		b.ko = capPt
	}
	b.last, b.toMove, b.passes = p, c.other(), 0
	return captured
}

// pass gives the turn away.
func (b *pboard) pass() {
	b.ko, b.last, b.toMove = 0, 0, b.toMove.other()
	b.passes++
}

// merge joins chain from into chain into (relabelling the smaller one).
func (b *pboard) merge(into, from int32) {
	if b.stones[into] < b.stones[from] {
		into, from = from, into
	}
	for s := from; ; {
		b.head[s] = into
		if s = b.next[s]; s == from {
			break
		}
	}
	b.next[into], b.next[from] = b.next[from], b.next[into]
	b.stones[into] += b.stones[from]
	b.libs[into] += b.libs[from]
	b.lsum[into] += b.lsum[from]
	b.lsq[into] += b.lsq[from]
}

// removeChain takes chain h off the board and returns its size.
func (b *pboard) removeChain(h int32) int {
	n := int(b.stones[h])
	for s := h; ; {
		b.col[s] = pEmpty
		b.addEmpty(s)
		if s = b.next[s]; s == h {
			break
		}
	}
	for s := h; ; {
		for _, q := range b.nbrs(s) {
			if c := b.col[q]; c == pBlack || c == pWhite {
				b.addLib(b.head[q], s)
			}
		}
		if s = b.next[s]; s == h {
			break
		}
	}
	return n
}

// libsAfter counts, up to 2, the distinct liberties the chain of a stone of
// colour c played at p would have, ignoring captures (the caller checks
// those first).
func (b *pboard) libsAfter(p int32, c pcol) int {
	b.stamp++
	if b.stamp == 0 { // wrapped: clear the marks
		clear(b.mark)
		b.stamp = 1
	}
	b.mark[p] = b.stamp
	count := 0
	for _, n := range b.nbrs(p) {
		if b.col[n] == pEmpty && b.mark[n] != b.stamp {
			b.mark[n] = b.stamp
			if count++; count >= 2 {
				return count
			}
		}
	}
	for _, n := range b.nbrs(p) {
		if b.col[n] != c {
			continue
		}
		h := b.head[n]
		for s := h; ; {
			for _, q := range b.nbrs(s) {
				if b.col[q] == pEmpty && b.mark[q] != b.stamp {
					b.mark[q] = b.stamp
					if count++; count >= 2 {
						return count
					}
				}
			}
			if s = b.next[s]; s == h {
				break
			}
		}
	}
	return count
}

// captures reports whether a stone of c at p takes an opposing chain.
func (b *pboard) captures(p int32, c pcol) bool {
	for _, n := range b.nbrs(p) {
		if b.col[n] == c.other() && b.inAtari(b.head[n]) {
			return true
		}
	}
	return false
}

// selfAtari reports whether c at p, capturing nothing, leaves a chain of
// two or more stones with a single liberty (single-stone throw-ins are
// allowed: they are often good).
func (b *pboard) selfAtari(p int32, c pcol) bool {
	empties, friends := 0, false
	for _, n := range b.nbrs(p) {
		switch b.col[n] {
		case pEmpty:
			empties++
		case c:
			friends = true
		}
	}
	if empties >= 2 || !friends || b.captures(p, c) {
		return false
	}
	return b.libsAfter(p, c) < 2
}

// owner is the area-scoring owner of p at the end of a playout: the stone's
// colour, or for an empty point the only colour among its neighbours
// (pEmpty when it touches both or none).
func (b *pboard) owner(p int32) pcol {
	switch c := b.col[p]; c {
	case pBlack, pWhite:
		return c
	case pEmpty:
		var seen pcol
		for _, n := range b.nbrs(p) {
			if c := b.col[n]; c == pBlack || c == pWhite {
				if seen != pEmpty && seen != c {
					return pEmpty
				}
				seen = c
			}
		}
		return seen
	}
	return pEmpty
}

// addOwners adds each point's owner (+1 black, -1 white) to own.
func (b *pboard) addOwners(own []float64) {
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			p := b.pt(x, y)
			switch b.owner(p) {
			case pBlack:
				own[p]++
			case pWhite:
				own[p]--
			}
		}
	}
}

// score is black's area minus white's, without komi.
func (b *pboard) score() int {
	s := 0
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			switch b.owner(b.pt(x, y)) {
			case pBlack:
				s++
			case pWhite:
				s--
			}
		}
	}
	return s
}
