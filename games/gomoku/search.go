package gomoku

import (
	"math/rand/v2"
	"slices"
)

// The hard bot's search: negamax with alpha-beta pruning over boardScore,
// trying at each node only the hardWidth candidates the shape table rates
// best. It deepens two plies at a time up to hardDepth and keeps the
// deepest search that finished within hardNodes nodes, so its time has a
// bound without reading a clock.
const (
	hardDepth = 4
	hardWidth = 10
	hardNodes = 5000 // over 3 times the most a search took in 100 test games (1,391)
	// scoreWin is the value of a won position; wins found sooner score
	// higher (scoreWin minus the ply), so the bot takes the quickest.
	scoreWin = 1 << 30
)

// searcher holds one search's board, node count and per-ply scratch
// buffers, so the search allocates nothing per node.
type searcher struct {
	b      *botBoard
	nodes  int
	budget int // nodes allowed, hardNodes but in tests
	bufs   [hardDepth + 1][]candidate
}

// hardMove returns the hard bot's point for colour c: an immediate five,
// else a block of the opponent's five, else the start of a victory by
// continuous fours, else the best point of the search.
// rng breaks ties between equally rated candidates.
func (b *botBoard) hardMove(c cell, rng *rand.Rand) pos {
	return b.search(c, rng, hardNodes)
}

// search is hardMove with a node budget.
func (b *botBoard) search(c cell, rng *rand.Rand, budget int) pos {
	cands := b.candidates(c, nil)
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	moves, forced := order(cands, hardWidth)
	if len(moves) == 1 || moves[0].wins() || forced {
		return moves[0].p
	}
	if p, ok := b.vcf(c); ok {
		return p
	}
	s := &searcher{b: b, budget: budget}
	for i := range s.bufs {
		s.bufs[i] = make([]candidate, 0, Size*Size)
	}
	best := moves[0].p
	for depth := 2; depth <= hardDepth; depth += 2 {
		p, ok := s.root(c, moves, depth)
		if !ok {
			break
		}
		best = p
		// Search the best move first next time: more cut-offs.
		i := slices.IndexFunc(moves, func(k candidate) bool { return k.p == p })
		k := moves[i]
		copy(moves[1:i+1], moves[:i])
		moves[0] = k
	}
	return best
}

// root searches moves to depth plies and returns the best; ok is false if
// the node budget ran out first.
func (s *searcher) root(c cell, moves []candidate, depth int) (best pos, ok bool) {
	alpha := -scoreWin - 1
	for _, m := range moves {
		s.b.put(m.p, c)
		v := -s.negamax(c.other(), depth-1, 1, -scoreWin-1, -alpha)
		s.b.take(m.p)
		if s.nodes > s.budget {
			return 0, false
		}
		if v > alpha {
			best, alpha = m.p, v
		}
	}
	return best, true
}

// negamax returns the value of the position for c, the side to move, as
// seen depth plies ahead; ply is the distance from the root. Once the node
// budget is spent it returns at once with a meaningless value, which root
// then discards.
func (s *searcher) negamax(c cell, depth, ply, alpha, beta int) int {
	s.nodes++
	if depth == 0 || s.nodes > s.budget {
		return s.b.boardScore(c)
	}
	cands := s.b.candidates(c, s.bufs[depth][:0])
	s.bufs[depth] = cands
	if len(cands) == 0 {
		return 0 // the board is full: a draw
	}
	moves, _ := order(cands, hardWidth)
	if moves[0].wins() {
		return scoreWin - ply
	}
	best := -scoreWin - 1
	for _, m := range moves {
		s.b.put(m.p, c)
		v := -s.negamax(c.other(), depth-1, ply+1, -beta, -alpha)
		s.b.take(m.p)
		if v > best {
			best = v
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			break
		}
	}
	return best
}

// order sorts cands in place, best first, and returns the moves worth
// searching: a winning point alone if there is one; else, if the opponent
// threatens five, only the blocking points (forced is then true); else
// the best width candidates by attack + 0.9 × defence (candidate.total).
// cands must not be empty.
func order(cands []candidate, width int) (moves []candidate, forced bool) {
	nBlocks := 0
	for i, k := range cands {
		if k.wins() {
			return cands[i : i+1], false
		}
		if k.blocks() {
			cands[i], cands[nBlocks] = cands[nBlocks], cands[i]
			nBlocks++
		}
	}
	if nBlocks > 0 {
		cands = cands[:nBlocks]
	}
	slices.SortStableFunc(cands, func(a, b candidate) int { return b.total() - a.total() })
	if len(cands) > width {
		cands = cands[:width]
	}
	return cands, nBlocks > 0
}
