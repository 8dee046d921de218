package gomoku

// The seed's pattern table: the value of a run of stones in one direction
// by its length and by how many of its two ends are open (empty).
const (
	scoreFive      = 1000000 // 连五
	scoreOpenFour  = 100000  // 活四
	scoreFour      = 10000   // 冲四
	scoreOpenThree = 8000    // 活三
	scoreThree     = 500     // 眠三
	scoreOpenTwo   = 400     // 活二
	scoreTwo       = 50      // 眠二
)

// shapeScore values a run of n stones with open free ends (0, 1 or 2).
// A run with both ends closed can never grow to five and is worth nothing.
func shapeScore(n, open int) int {
	switch {
	case n >= 5:
		return scoreFive
	case open == 0:
		return 0
	case n == 4:
		if open == 2 {
			return scoreOpenFour
		}
		return scoreFour
	case n == 3:
		if open == 2 {
			return scoreOpenThree
		}
		return scoreThree
	case n == 2:
		if open == 2 {
			return scoreOpenTwo
		}
		return scoreTwo
	}
	return 0
}

// pointScore is the seed's score of a stone of colour c placed on the
// empty point p: over the four directions, the shape of the run it would
// join, summed. The board is not changed.
func (g *grid) pointScore(p pos, c cell) int {
	total := 0
	for _, d := range dirs {
		a, b := g.run(p, d, c), g.run(p, -d, c)
		open := 0
		if g[p+pos(a+1)*d] == empty {
			open++
		}
		if g[p-pos(b+1)*d] == empty {
			open++
		}
		total += shapeScore(1+a+b, open)
	}
	return total
}

// candidate is an empty point with its seed scores for the side to move.
type candidate struct {
	p       pos
	attack  int // pointScore for the side to move
	defence int // pointScore for the opponent
}

// total is the seed's attack + 0.9 × defence, times ten to stay in ints.
func (c candidate) total() int { return 10*c.attack + 9*c.defence }

// wins reports whether the side to move makes five here.
func (c candidate) wins() bool { return c.attack >= scoreFive }

// blocks reports whether the opponent would make five here.
func (c candidate) blocks() bool { return c.defence >= scoreFive }

// boardScore is the static evaluation of the whole board for colour c, the
// side to move: every maximal run of stones valued by the same table, c's
// runs minus the opponent's, adjusted for tempo. The side to move with a
// four (a run of four with an open end) wins next move; facing an open four
// or two fours without one of its own, it loses.
func (b *botBoard) boardScore(c cell) int {
	var sum [3]int
	var fours [3]int
	for _, p := range b.stones {
		col := b.g[p]
		for _, d := range dirs {
			if b.g[p-d] == col {
				continue // not the start of its run
			}
			n := 1 + b.g.run(p, d, col)
			open := 0
			if b.g[p-d] == empty {
				open++
			}
			if b.g[p+pos(n)*d] == empty {
				open++
			}
			s := shapeScore(n, open)
			sum[col] += s
			if n == 4 && open > 0 {
				fours[col] += open
			}
		}
	}
	o := c.other()
	switch {
	case fours[c] > 0:
		return scoreWin / 2
	case fours[o] >= 2:
		return -scoreWin / 2
	}
	return sum[c] - sum[o]
}
