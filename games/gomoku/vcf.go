package gomoku

// Victory by continuous fours (VCF, 连续冲四): a sequence of stones, each
// making a four, so every reply of the opponent is forced, that ends in a
// five or in two fours at once. The hard bot looks for one before its
// alpha-beta search, which is too shallow to see long ones.
const (
	vcfDepth = 12   // fours in a sequence at most
	vcfNodes = 2000 // stones tried at most, for one search
)

// vcf returns the first stone of a VCF for c, the side to move, if one is
// found within the depth and node limits. The caller makes sure neither
// side can make five at once (c would play it, or must block it). The
// board is left as it was found.
func (b *botBoard) vcf(c cell) (pos, bool) {
	nodes := 0
	return b.vcfFrom(c, vcfDepth, &nodes)
}

func (b *botBoard) vcfFrom(c cell, depth int, nodes *int) (pos, bool) {
	if depth == 0 {
		return 0, false
	}
	o := c.other()
	for i := range b.g {
		p := pos(i)
		if b.near[p] == 0 || b.g[p] != empty || !b.g.makes(p, c, shapeFour) {
			continue
		}
		if *nodes++; *nodes > vcfNodes {
			return 0, false
		}
		b.put(p, c)
		won := false
		switch replies := b.fivePoints(p, c); {
		case b.g.makes(p, c, shapeFive), len(replies) >= 2:
			won = true
		case len(replies) == 1:
			q := replies[0]
			b.put(q, o)
			// A block that gives the opponent a four (or five) takes the
			// initiative away: that line fails.
			if !b.g.makes(q, o, shapeFour) {
				_, won = b.vcfFrom(c, depth-1, nodes)
			}
			b.take(q)
		}
		b.take(p)
		if won {
			return p, true
		}
	}
	return 0, false
}

// makes reports whether a stone of colour c at p makes shape s or better
// in some direction.
func (g *grid) makes(p pos, c cell, s shape) bool {
	for _, d := range dirs {
		if g.shapeAt(p, d, c) >= s {
			return true
		}
	}
	return false
}

// fivePoints lists the empty points where c would make five along a line
// through its stone at p.
func (b *botBoard) fivePoints(p pos, c cell) []pos {
	var out []pos
	for _, d := range dirs {
		for k := pos(-4); k <= 4; k++ {
			q := p + k*d
			if k == 0 || b.g[q] != empty || b.g.shapeAt(q, d, c) != shapeFive {
				continue
			}
			out = append(out, q)
		}
	}
	return out
}
