package weiqi

import (
	"encoding/json"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// judgePlayouts is how many playouts judgeDead runs from the position.
func judgePlayouts(size int) int {
	switch size {
	case 9:
		return 400
	case 13:
		return 300
	}
	return 200
}

// judgeDead is the bots' dead-stone judgement by Monte-Carlo ownership
// (judgeDeadPoints) of the view's position. It returns every dead stone's
// coordinate in board order (top row first, left to right, as View.Dead).
func judgeDead(v View, rng *rand.Rand) ([]string, error) {
	b, err := boardFromView(v)
	if err != nil {
		return nil, err
	}
	dead := []string{}
	for _, p := range judgeDeadPoints(b, rng) {
		x, y := b.xy(p)
		dead = append(dead, FormatCoord(x, y, v.Size))
	}
	return dead, nil
}

// judgeDeadPoints runs judgePlayouts playouts from b (the side to move
// first) and returns the dead stones by their ownership (deadByOwner).
func judgeDeadPoints(b *pboard, rng *rand.Rand) []int32 {
	n := judgePlayouts(b.size)
	own := make([]float64, len(b.col))
	sc := newPboard(b.size)
	r := newXrand(rng.Uint64())
	var rec []int32
	for i := 0; i < n; i++ {
		sc.copyFrom(b)
		sc.passes = 0
		rec = sc.playout(r, rec[:0])
		sc.addOwners(own)
	}
	for p := range own {
		own[p] /= float64(n)
	}
	return deadByOwner(b, own)
}

// deadByOwner returns b's dead stones in board order, given own, each
// point's mean owner at the end of playouts (+1 black, -1 white): a group
// is dead when its points, summed, end owned by the other colour more
// often than by their own (at the end of a playout almost every point is
// owned, so: in most playouts).
func deadByOwner(b *pboard, own []float64) []int32 {
	sum := make([]float64, len(b.col)) // per chain head
	for p, c := range b.col {
		switch c {
		case pBlack:
			sum[b.head[p]] += own[p]
		case pWhite:
			sum[b.head[p]] -= own[p]
		}
	}
	var dead []int32
	for y := 0; y < b.size; y++ {
		for x := 0; x < b.size; x++ {
			p := b.pt(x, y)
			if c := b.col[p]; (c == pBlack || c == pWhite) && sum[b.head[p]] < 0 {
				dead = append(dead, p)
			}
		}
	}
	return dead
}

// ScoringReply is a bot's move in phase "scoring" for seat, given its
// judgement of the dead stones (judgedDead: coordinates like "D4"; the
// built-in bots' Monte-Carlo judgement, or GNU Go's final_status_list
// dead). With M the marks on the board (v.Dead) and D the judgement, the
// bot corrects only what hurts it:
//
//	M' = (M without seat's own stones that D holds alive) ∪ (opponent stones in D)
//
// and answers approve when M' = M; approve anyway from the third scoring
// session on (two bots can never loop); resume (play the dispute out) once
// this session has seen 6 edits; otherwise setDead M'. Unreadable
// coordinates and empty points in judgedDead are ignored. It assumes
// v.Phase is "scoring" and seat has not approved.
func ScoringReply(v View, seat int, judgedDead []string) (name string, args json.RawMessage) {
	mine := "BW"[seat]
	stone := func(s string) (string, byte) {
		x, y, err := ParseCoord(s, v.Size)
		if err != nil || y >= len(v.Board) || x >= len(v.Board[y]) {
			return "", '.'
		}
		return FormatCoord(x, y, v.Size), v.Board[y][x]
	}
	judged := map[string]bool{}
	for _, s := range judgedDead {
		if p, c := stone(s); c == 'B' || c == 'W' {
			judged[p] = true
		}
	}
	marked := map[string]bool{}
	for _, s := range v.Dead {
		if p, c := stone(s); c == 'B' || c == 'W' {
			marked[p] = true
		}
	}
	next, changed := []string{}, false
	for y, row := range v.Board {
		for x := 0; x < len(row) && x < v.Size; x++ {
			c := row[x]
			if c != 'B' && c != 'W' {
				continue
			}
			p := FormatCoord(x, y, v.Size)
			keep := marked[p]
			switch {
			case c == mine && keep && !judged[p]:
				keep = false
			case c != mine && judged[p]:
				keep = true
			}
			if keep {
				next = append(next, p)
			}
			changed = changed || keep != marked[p]
		}
	}
	switch {
	case !changed, v.Scorings > 2:
		return moveApprove, games.Args()
	case v.Edits >= 6:
		return moveResume, games.Args()
	}
	return moveSetDead, games.Args(next)
}

// winsIfEnded reports whether seat wins when the game ends now: the
// missing passes are played, both sides accept seat's own dead-stone
// judgement, and the real rules score it (evolution included).
func winsIfEnded(v View, st State, seat int, rng *rand.Rand) bool {
	dead, err := judgeDead(v, rng)
	if err != nil {
		return false
	}
	r := Rules{}
	s := st
	for i := 0; i < 2 && r.Status(s).Phase == "play"; i++ {
		if s, err = r.Apply(s, r.Status(s).Current, movePass, games.Args()); err != nil {
			return false
		}
	}
	if s, err = r.Apply(s, seat, moveSetDead, games.Args(dead)); err != nil {
		return false
	}
	for _, who := range []int{seat, 1 - seat} {
		if s, err = r.Apply(s, who, moveApprove, games.Args()); err != nil {
			return false
		}
	}
	o := r.Status(s).Outcome
	return o != nil && o.Winner == games.PlayerID(seat)
}
