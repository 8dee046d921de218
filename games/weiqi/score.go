package weiqi

import (
	"fmt"
	"strconv"

	"github.com/chaguan/chaguan/games"
)

// Generations is how many generations the evolution endgame runs
// (docs/weiqi.md, "Scoring and the evolution": 5).
const Generations = 5

// final is a game scored after both approved: every generation of the
// evolution (0 is the board with the dead stones removed), the territory
// of the last, and the score.
type final struct {
	gens      []board
	territory []Stone
	score     Score
}

// Score is the area count of the last generation.
type Score struct {
	Black BlackScore `json:"black"`
	White WhiteScore `json:"white"`
}

// BlackScore is black's stones, territory and total.
type BlackScore struct {
	Stones    int     `json:"stones"`
	Territory int     `json:"territory"`
	Total     float64 `json:"total"`
}

// WhiteScore is white's stones, territory, komi and total.
type WhiteScore struct {
	Stones    int     `json:"stones"`
	Territory int     `json:"territory"`
	Komi      float64 `json:"komi"`
	Total     float64 `json:"total"`
}

// finish removes the dead stones, runs the evolution and counts the last
// generation: black stones + territory against white stones + territory +
// komi (Chinese area scoring).
func (s *State) finish() *final {
	b := s.board.clone()
	for _, p := range s.dead {
		b.pts[p] = Empty
	}
	f := &final{gens: []board{b}}
	for i := 0; i < Generations; i++ {
		b = evolve(b)
		f.gens = append(f.gens, b)
	}
	f.territory = territory(b)
	var terr [3]int
	for _, c := range f.territory {
		terr[c]++
	}
	bs := BlackScore{Stones: b.count(Black), Territory: terr[Black]}
	bs.Total = float64(bs.Stones + bs.Territory)
	ws := WhiteScore{Stones: b.count(White), Territory: terr[White], Komi: s.komi}
	ws.Total = float64(ws.Stones+ws.Territory) + s.komi
	f.score = Score{Black: bs, White: ws}
	return f
}

// evolve is one generation of the design's 4-connected life, both colours
// computed from the same generation: a stone survives with exactly 2 or 3
// orthogonal neighbours of its colour, else dies; an empty point is born a
// stone when exactly three orthogonal neighbours are stones, all of one
// colour, and the fourth is empty or off the board.
func evolve(b board) board {
	next := newBoard(b.size)
	var nb [4]int
	for p, c := range b.pts {
		var n [3]int // neighbours by content
		ns := b.neighbours(nb[:0], p)
		for _, q := range ns {
			n[b.pts[q]]++
		}
		switch {
		case c != Empty:
			if same := n[c]; same == 2 || same == 3 {
				next.pts[p] = c
			}
		case n[Black] == 3 && n[White] == 0:
			next.pts[p] = Black
		case n[White] == 3 && n[Black] == 0:
			next.pts[p] = White
		}
	}
	return next
}

// territory gives each empty point the colour of the only colour its
// 4-connected empty region touches; a region touching both colours, or
// none, is neutral (Empty). Stones map to Empty.
func territory(b board) []Stone {
	out := make([]Stone, len(b.pts))
	seen := make([]bool, len(b.pts))
	var nb [4]int
	for start, c := range b.pts {
		if c != Empty || seen[start] {
			continue
		}
		region := []int{start}
		seen[start] = true
		var touches [3]bool
		for i := 0; i < len(region); i++ {
			for _, q := range b.neighbours(nb[:0], region[i]) {
				switch {
				case b.pts[q] != Empty:
					touches[b.pts[q]] = true
				case !seen[q]:
					seen[q] = true
					region = append(region, q)
				}
			}
		}
		owner := Empty
		switch {
		case touches[Black] && !touches[White]:
			owner = Black
		case touches[White] && !touches[Black]:
			owner = White
		}
		for _, p := range region {
			out[p] = owner
		}
	}
	return out
}

// result is the game's result as SGF and the view write it: "B+3.5",
// "W+R", "Draw", or "" while it goes on.
func (s *State) result() string {
	switch {
	case s.resigned != 0:
		return [...]string{"W+R", "B+R"}[s.resigned-1]
	case s.fin != nil:
		d := s.fin.score.Black.Total - s.fin.score.White.Total
		switch {
		case d > 0:
			return "B+" + strconv.FormatFloat(d, 'f', -1, 64)
		case d < 0:
			return "W+" + strconv.FormatFloat(-d, 'f', -1, 64)
		}
		return "Draw"
	}
	return ""
}

// ResultDetail is Outcome.Detail: the result as "B+3.5", and the score
// when the game was counted.
type ResultDetail struct {
	Result string `json:"result"`
	Score  *Score `json:"score,omitempty"`
}

// outcome is the match's result, or nil while it goes on.
func (s *State) outcome() *games.Outcome {
	r := s.result()
	if r == "" {
		return nil
	}
	o := &games.Outcome{Reason: "resign", Detail: ResultDetail{Result: r}}
	if s.fin != nil {
		sc := s.fin.score
		o.Reason, o.Detail = "score", ResultDetail{Result: r, Score: &sc}
	}
	switch r[0] {
	case 'B':
		o.Winner = "0"
	case 'W':
		o.Winner = "1"
	default:
		o.Draw = true
	}
	return o
}

// checkSetup refuses a size or komi the game does not offer.
func checkSetup(size int, komi float64) error {
	if size != 9 && size != 13 && size != 19 {
		return games.BadSetup("weiqi: size must be 9, 13 or 19, not %d", size)
	}
	if !(komi >= -150 && komi <= 150) || komi*2 != float64(int(komi*2)) {
		return games.BadSetup("weiqi: komi must be a multiple of 0.5 between -150 and 150, not %s", fmt.Sprint(komi))
	}
	return nil
}
