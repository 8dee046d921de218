package weiqi

import (
	"math"
	"sort"
)

// The normal bot's endgame. Weiqi here is not counted on the final board
// but after the evolution (5 generations of a 4-connected life), so
// a won area count can still lose: a filled territory hollows out, a
// one-stone wall crumbles from its ends and lets the territory leak. Once
// the area count is decided (the search wins nearly always), the bot
// therefore picks, among the moves the search found as good as the best
// for the area, the one whose position would score best under the real
// count (its judged dead stones removed, then the rules' own evolve and
// territory), and passes when none improves on passing, passing costs no
// area and passing wins. Against easy this turns won games into wipe-outs
// (TestNormalBeatsEasy); without it the evolution lost some of them.

// Endgame thresholds.
const (
	// endgameWinrate: the area count is decided once the best move wins
	// this often in the playouts.
	endgameWinrate = 0.95
	// endgameSlack: a move (or a pass) is as good as the best for the area
	// when its mean area margin is within this many points of the best...
	endgameSlack = 2.0
	// endgameVisits: ...over at least this many playouts.
	endgameVisits = 20
	// endgameK is how many of the best single moves the two-move
	// look-ahead tries to follow up.
	endgameK = 8
)

// rulesBoard is the rules' board of a playout board, without the stones at
// the dead points.
func (b *pboard) rulesBoard(dead []int32) board {
	rb := newBoard(b.size)
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			switch b.col[b.pt(x, y)] {
			case pBlack:
				rb.pts[y*b.size+x] = Black
			case pWhite:
				rb.pts[y*b.size+x] = White
			}
		}
	}
	for _, p := range dead {
		x, y := b.xy(p)
		rb.pts[y*b.size+x] = Empty
	}
	return rb
}

// evolvedMargin is what colour me leads by when the game is counted on b
// as the rules count it: the evolution, then area with komi.
func evolvedMargin(b board, komi float64, me pcol) float64 {
	for i := 0; i < Generations; i++ {
		b = evolve(b)
	}
	var area [3]int
	for p, c := range territory(b) {
		if s := b.pts[p]; s != Empty {
			c = s
		}
		area[c]++
	}
	m := float64(area[Black]-area[White]) - komi
	if me == pWhite {
		return -m
	}
	return m
}

// endgameMove applies the endgame policy to a finished search from b:
// ok is false when it does not apply (the count is not decided); else p is
// the move to play, 0 to pass. Among the safe moves (as good as the best
// for the area), it plays the one whose position counts best if that is
// better than passing; else it passes if passing is safe and wins; else it
// plays the first of the best two safe moves in a row if they improve on
// passing; else the best safe move.
func endgameMove(b *pboard, res mcResult, komi float64, dead []int32, r *xrand) (p int32, ok bool) {
	if len(res.cands) == 0 || res.winrate(0) < endgameWinrate {
		return 0, false
	}
	top := math.Inf(-1)
	for i, c := range res.cands {
		if c.visits >= endgameVisits {
			top = math.Max(top, res.meanScore(i))
		}
	}
	var safe []int32
	for i, c := range res.cands {
		if c.visits >= endgameVisits && res.meanScore(i) >= top-endgameSlack {
			safe = append(safe, c.p)
		}
	}
	me := b.toMove
	base := evolvedMargin(b.rulesBoard(dead), komi, me)
	passSafe := passScore(b, komi, endgamePassPlayouts, r) >= top-endgameSlack
	sc, sc2 := newPboard(b.size), newPboard(b.size)
	margins := make([]float64, len(safe))
	best := -1
	for i, p := range safe {
		sc.copyFrom(b)
		sc.play(p, me)
		margins[i] = evolvedMargin(sc.rulesBoard(stillDead(sc, dead)), komi, me)
		if best < 0 || margins[i] > margins[best] {
			best = i
		}
	}
	switch {
	case best < 0:
		return 0, false
	case margins[best] > base || !passSafe:
		return safe[best], true
	case base > 0:
		return 0, true
	}
	// Two moves in a row: the first of the best pair, if it improves.
	order := make([]int, len(safe))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(i, j int) bool { return margins[order[i]] > margins[order[j]] })
	pair, pairM := -1, base
	for _, i := range order[:min(endgameK, len(order))] {
		sc.copyFrom(b)
		sc.play(safe[i], me)
		for _, q := range safe {
			if !sc.legal(q, me) {
				continue
			}
			sc2.copyFrom(sc)
			sc2.play(q, me)
			if m := evolvedMargin(sc2.rulesBoard(stillDead(sc2, dead)), komi, me); m > pairM {
				pair, pairM = i, m
			}
		}
	}
	if pair >= 0 {
		return safe[pair], true
	}
	return safe[best], true
}

// endgamePassPlayouts is how many playouts estimate what a pass costs.
const endgamePassPlayouts = 200

// stillDead is the dead stones that are still on b.
func stillDead(b *pboard, dead []int32) []int32 {
	out := dead[:0:0]
	for _, d := range dead {
		if b.col[d] != pEmpty {
			out = append(out, d)
		}
	}
	return out
}
