package gomoku

import (
	"math/rand/v2"
	"slices"
)

// The hard bot's search: negamax with alpha-beta pruning over boardScore,
// hardDepth plies deep, trying at each node only the hardWidth candidates
// the seed's table rates best.
const (
	hardDepth = 4
	hardWidth = 10
	// scoreWin is the value of a won position; wins found sooner score
	// higher (scoreWin minus the ply), so the bot takes the quickest.
	scoreWin = 1 << 30
)

// searcher holds one search's board and per-ply scratch buffers, so the
// search allocates nothing per node.
type searcher struct {
	b    *botBoard
	bufs [hardDepth + 1][]candidate
}

// hardMove returns the hard bot's point for colour c: an immediate five,
// else a block of the opponent's five, else the best point of the search.
// rng breaks ties between equally rated candidates.
func (b *botBoard) hardMove(c cell, rng *rand.Rand) pos {
	cands := b.candidates(c, nil)
	rng.Shuffle(len(cands), func(i, j int) { cands[i], cands[j] = cands[j], cands[i] })
	moves, forced := order(cands, hardWidth)
	if len(moves) == 1 || moves[0].wins() || forced {
		return moves[0].p
	}
	s := &searcher{b: b}
	for i := range s.bufs {
		s.bufs[i] = make([]candidate, 0, Size*Size)
	}
	best, alpha := moves[0].p, -scoreWin-1
	for _, m := range moves {
		b.put(m.p, c)
		v := -s.negamax(c.other(), hardDepth-1, 1, -scoreWin-1, -alpha)
		b.take(m.p)
		if v > alpha {
			best, alpha = m.p, v
		}
	}
	return best
}

// negamax returns the value of the position for c, the side to move, as
// seen depth plies ahead; ply is the distance from the root.
func (s *searcher) negamax(c cell, depth, ply, alpha, beta int) int {
	if depth == 0 {
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
// the best width candidates by the seed's attack + 0.9 × defence.
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
