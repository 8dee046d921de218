package weiqi

import (
	"math"
)

// xrand is the playouts' xorshift generator: much cheaper than math/rand,
// seeded from the rng handed to the bot so a decision replays exactly.
type xrand uint64

func newXrand(seed uint64) *xrand {
	r := xrand(seed | 1)
	return &r
}

func (r *xrand) next() uint64 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = xrand(x)
	return x
}

// intn is uniform enough in [0, n) for playouts.
func (r *xrand) intn(n int) int { return int((r.next() >> 32) * uint64(n) >> 32) }

// tactical is the playout policy's answer to the last move: take a chain
// it left in atari, or save one of ours it put in atari by extending (when
// that gains a liberty). It returns 0 when neither applies.
func (b *pboard) tactical(c pcol) int32 {
	l := b.last
	if l == 0 || b.col[l] != c.other() {
		return 0
	}
	if h := b.head[l]; b.inAtari(h) {
		if p := b.atariLib(h); b.legal(p, c) {
			return p
		}
	}
	for _, n := range b.nbrs(l) {
		if b.col[n] != c || !b.inAtari(b.head[n]) {
			continue
		}
		if p := b.atariLib(b.head[n]); b.legal(p, c) && (b.captures(p, c) || b.libsAfter(p, c) >= 2) {
			return p
		}
	}
	return 0
}

// policyMove picks colour c's playout move, 0 for a pass: a tactical reply
// to the last move, else a random legal move that neither fills one of c's
// eyes nor puts two or more of c's stones in atari. It starts at a random
// empty point and takes the first acceptable one after it.
func (b *pboard) policyMove(c pcol, r *xrand) int32 {
	if p := b.tactical(c); p != 0 {
		return p
	}
	n := len(b.empty)
	if n == 0 {
		return 0
	}
	j := r.intn(n)
	for i := 0; i < n; i++ {
		p := b.empty[j]
		if b.legal(p, c) && !b.isEye(p, c) && !b.selfAtari(p, c) {
			return p
		}
		if j++; j == n {
			j = 0
		}
	}
	return 0
}

// playout plays the game out from b (modified) until two passes or the
// move cap, appending each move (0 for a pass) to rec.
func (b *pboard) playout(r *xrand, rec []int32) []int32 {
	limit := 3 * b.size * b.size
	for i := 0; b.passes < 2 && i < limit; i++ {
		c := b.toMove
		if p := b.policyMove(c, r); p != 0 {
			b.play(p, c)
			rec = append(rec, p)
		} else {
			b.pass()
			rec = append(rec, 0)
		}
	}
	return rec
}

// mcCand is one move of the search (a tree node's incoming move) with its
// statistics for the player making it; the prior knowledge is folded in
// as virtual visits.
type mcCand struct {
	p      int32
	n, w   float64 // visits and wins for the mover, priors included
	an, aw float64 // all-moves-as-first (RAVE) visits and wins
	visits int     // real playouts through this move
	score  float64 // sum of the mover's final area margins (komi included)
}

// mcResult is what a search learnt.
type mcResult struct {
	cands []mcCand // the root's moves, best first (most real visits)
	// own is, per board point, the mean final owner over all playouts:
	// +1 black, -1 white.
	own []float64
}

// winrate is the mover's mean result through candidate i.
func (s mcResult) winrate(i int) float64 {
	c := s.cands[i]
	if c.visits == 0 {
		return 0.5
	}
	return c.w / c.n
}

// meanScore is the mover's mean final area margin through candidate i.
func (s mcResult) meanScore(i int) float64 {
	c := s.cands[i]
	if c.visits == 0 {
		return math.Inf(-1)
	}
	return c.score / float64(c.visits)
}

// passScore is the mover's mean final area margin over n playouts that
// start with a pass from root.
func passScore(root *pboard, komi float64, n int, r *xrand) float64 {
	me := root.toMove
	b := root.clone()
	var rec []int32
	sum := 0.0
	for i := 0; i < n; i++ {
		b.copyFrom(root)
		b.pass()
		b.passes = 0 // the opponent may not end the playout at once
		rec = b.playout(r, rec[:0])
		sum += float64(b.score()) - komi
	}
	if me == pWhite {
		sum = -sum
	}
	return sum / float64(n)
}

// raveK sets how fast RAVE gives way to a move's own results; explore is
// the UCB exploration constant.
const (
	raveK   = 600.0
	explore = 0.35
	// priorN virtual visits carry the shape knowledge into each move.
	priorN = 10.0
)

// mcPrior is the shape knowledge: the virtual wins (out of priorN) a root
// move starts with. Captures and escapes from atari are good, self-atari
// bad, the first line bad while nothing is near it, contact with the last
// move slightly good.
func mcPrior(b *pboard, p int32, c pcol) float64 {
	w := priorN / 2
	if b.captures(p, c) {
		w += 3
		for _, n := range b.nbrs(p) {
			if b.col[n] == c.other() && b.inAtari(b.head[n]) && b.stones[b.head[n]] > 1 {
				w++
				break
			}
		}
	}
	for _, n := range b.nbrs(p) {
		if b.col[n] == c && b.inAtari(b.head[n]) && b.libsAfter(p, c) >= 2 {
			w += 3
			break
		}
	}
	if b.selfAtari(p, c) {
		w -= 4
	}
	x, y := b.xy(p)
	if (x == 0 || y == 0 || x == b.size-1 || y == b.size-1) && !b.near(p, 2) {
		w -= 3
	}
	if l := b.last; l != 0 {
		lx, ly := b.xy(l)
		if absInt(lx-x) <= 1 && absInt(ly-y) <= 1 {
			w++
		}
	}
	return math.Max(0.5, math.Min(priorN-0.5, w))
}

// near reports whether a stone lies within Manhattan distance d of p.
func (b *pboard) near(p int32, d int) bool {
	px, py := b.xy(p)
	for dy := -d; dy <= d; dy++ {
		for dx := -d; dx <= d; dx++ {
			x, y := px+dx, py+dy
			if absInt(dx)+absInt(dy) > d || x < 0 || y < 0 || x >= b.size || y >= b.size {
				continue
			}
			if c := b.col[b.pt(x, y)]; c == pBlack || c == pWhite {
				return true
			}
		}
	}
	return false
}

func absInt(a int) int {
	if a < 0 {
		return -a
	}
	return a
}
