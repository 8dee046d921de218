package weiqi

import (
	"math"
	"sort"
)

// The normal bot's search: UCT with RAVE over a tree of moves, the
// playout policy below the tree, the shape knowledge (mcPrior) as virtual
// visits of every new node.

// mcNode is a tree node: the move leading to it with its statistics for
// the player who made it, and its children in the tree's pool.
type mcNode struct {
	mcCand
	first, count int32 // children: nodes[first : first+count]
	expanded     bool
}

// mcTree is one search's tree; nodes[0] is the root.
type mcTree struct {
	nodes    []mcNode
	expandAt int // visits before a leaf gets children
}

// expand gives node i a child for every move the side to move on b may
// play without filling its own eye.
func (t *mcTree) expand(i int32, b *pboard) {
	c := b.toMove
	first := int32(len(t.nodes))
	for _, p := range b.empty {
		if b.legal(p, c) && !b.isEye(p, c) {
			w := mcPrior(b, p, c)
			t.nodes = append(t.nodes, mcNode{mcCand: mcCand{p: p, n: priorN, w: w, an: priorN, aw: w}})
		}
	}
	n := &t.nodes[i]
	n.first, n.count, n.expanded = first, int32(len(t.nodes))-first, true
}

// selectChild picks node i's child by UCB over the RAVE-blended value.
func (t *mcTree) selectChild(i int32) int32 {
	n := &t.nodes[i]
	best, bestV := n.first, math.Inf(-1)
	logN := math.Log(float64(n.visits) + 1)
	for j := n.first; j < n.first+n.count; j++ {
		c := &t.nodes[j].mcCand
		beta := math.Sqrt(raveK / (3*c.n + raveK))
		v := (1-beta)*c.w/c.n + beta*c.aw/c.an + explore*math.Sqrt(logN/c.n)
		if v > bestV {
			best, bestV = j, v
		}
	}
	return best
}

// rootDecided reports whether the search may stop early: the root's most
// visited move wins (or loses) nearly every playout, so more playouts
// cannot change the verdict. The count stays the only budget: no clock.
func (t *mcTree) rootDecided() bool {
	r := &t.nodes[0]
	var best *mcCand
	for j := r.first; j < r.first+r.count; j++ {
		if c := &t.nodes[j].mcCand; best == nil || c.visits > best.visits {
			best = c
		}
	}
	w := best.w / best.n
	return best.visits >= 100 && (w >= 0.97 || w <= 0.03)
}

// mcSearch runs up to playouts playouts from root, each descending the
// tree, growing it by one level at a leaf visited expandAt times, and
// playing out below it. The result's candidates are the root's children
// (every legal move that does not fill the mover's own eye), most visited
// first; with no such move, cands is empty.
func mcSearch(root *pboard, komi float64, playouts int, r *xrand) mcResult {
	me := root.toMove
	res := mcResult{own: make([]float64, len(root.col))}
	t := &mcTree{nodes: make([]mcNode, 1, 4096), expandAt: max(2, root.size*root.size/40)}
	t.expand(0, root)
	if t.nodes[0].count == 0 {
		return res
	}
	b := root.clone()
	path := make([]int32, 0, 64)
	seq := make([]int32, 0, 4*root.size*root.size)
	firstAt := make([]int32, len(root.col))
	stamp := make([]int32, len(root.col))
	st := int32(0)
	done := playouts
	for k := 1; k <= playouts; k++ {
		if k%256 == 0 && k >= playouts/4 && t.rootDecided() {
			done = k - 1
			break
		}
		b.copyFrom(root)
		path, seq = append(path[:0], 0), seq[:0]
		for node := int32(0); ; {
			if n := &t.nodes[node]; !n.expanded {
				if n.visits < t.expandAt {
					break
				}
				t.expand(node, b)
			}
			if t.nodes[node].count == 0 {
				break
			}
			node = t.selectChild(node)
			p := t.nodes[node].p
			b.play(p, b.toMove)
			seq = append(seq, p)
			path = append(path, node)
		}
		seq = b.playout(r, seq)
		marginB := float64(b.score()) - komi
		b.addOwners(res.own)
		// Back up: node path[d] was reached by the move seq[d-1], made by
		// me when d is odd; its children are moves of the side to move
		// there (me when d is even).
		for d, ni := range path {
			n := &t.nodes[ni]
			n.visits++
			if d > 0 {
				win, margin := outcome(marginB, mover(me, d-1))
				n.n++
				n.w += win
				n.score += margin
			}
			if n.count == 0 {
				continue
			}
			st++
			for j := len(seq) - 1; j >= d; j-- {
				if p := seq[j]; p != 0 {
					firstAt[p], stamp[p] = int32(j), st
				}
			}
			win, _ := outcome(marginB, mover(me, d))
			for ci := n.first; ci < n.first+n.count; ci++ {
				c := &t.nodes[ci].mcCand
				if stamp[c.p] == st && (int(firstAt[c.p])-d)%2 == 0 {
					c.an++
					c.aw += win
				}
			}
		}
	}
	for i := range res.own {
		res.own[i] /= float64(done)
	}
	rt := t.nodes[0]
	for j := rt.first; j < rt.first+rt.count; j++ {
		res.cands = append(res.cands, t.nodes[j].mcCand)
	}
	sort.SliceStable(res.cands, func(i, j int) bool {
		a, b := res.cands[i], res.cands[j]
		if a.visits != b.visits {
			return a.visits > b.visits
		}
		return a.w/a.n > b.w/b.n
	})
	return res
}

// mover is the colour making move number i (0-based) from a position
// where me is to move.
func mover(me pcol, i int) pcol {
	if i%2 == 0 {
		return me
	}
	return me.other()
}

// outcome turns black's final margin into c's result (1 win, 0.5 draw,
// 0 loss) and c's margin.
func outcome(marginB float64, c pcol) (win, margin float64) {
	if c == pWhite {
		marginB = -marginB
	}
	switch {
	case marginB > 0:
		return 1, marginB
	case marginB < 0:
		return 0, marginB
	}
	return 0.5, marginB
}
