package gomoku

// scorePoint is the pattern scores of the empty point p for colour c to
// move: attack is the table's value of the shape a stone of c there makes
// in each of the four directions, summed; defence the same for an opposing
// stone. Both are read in one pass; the board is not changed.
func (g *grid) scorePoint(p pos, c cell) candidate {
	k := candidate{p: p}
	for _, d := range dirs {
		s := &lineShapes[g.rawKey(p, d)]
		k.attack += shapeScore[s[c-1]]
		k.defence += shapeScore[s[2-c]]
	}
	return k
}

// candidate is an empty point with its pattern scores for the side to move.
type candidate struct {
	p       pos
	attack  int // the table's score of a stone of the side to move here
	defence int // the same for an opposing stone
}

// total is the normal bot's attack + 0.9 × defence, times ten to stay in
// ints.
func (c candidate) total() int { return 10*c.attack + 9*c.defence }

// wins reports whether the side to move makes five here.
func (c candidate) wins() bool { return c.attack >= scoreFive }

// blocks reports whether the opponent would make five here.
func (c candidate) blocks() bool { return c.defence >= scoreFive }

// boardScore is the static evaluation of the whole board for colour c, the
// side to move, by the same table: every stone's shape in every direction
// (so a shape of three stones counts three times), c's minus the
// opponent's, adjusted for tempo: the side to move with a four wins next
// move; facing an open four without one it loses; with an open three
// against no four it makes an open four next move.
func (b *botBoard) boardScore(c cell) int {
	var sum [3]int
	var best [3]shape
	o := c.other()
	for _, p := range b.stones {
		col := b.g[p]
		for _, d := range dirs {
			s := b.g.shapeAt(p, d, col)
			sum[col] += shapeScore[s]
			best[col] = max(best[col], s)
		}
	}
	switch {
	case best[c] >= shapeFour:
		return scoreWin / 2
	case best[o] >= shapeOpenFour:
		return -scoreWin / 2
	case best[c] == shapeOpenThree && best[o] < shapeFour:
		return scoreWin / 4
	}
	return sum[c] - sum[o]
}
