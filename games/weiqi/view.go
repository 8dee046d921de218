package weiqi

import (
	"encoding/json"
	"fmt"

	"github.com/chaguan/chaguan/games"
)

// RecentLen is how many of the latest moves the view's record holds.
const RecentLen = 20

// View is what every seat and spectator sees (weiqi hides nothing). Its
// JSON keys are listed in docs/weiqi.md.
type View struct {
	Size           int          `json:"size"`
	Komi           float64      `json:"komi"`
	Board          []string     `json:"board"`
	ToMove         string       `json:"toMove"`
	Phase          string       `json:"phase"`
	Captures       [2]int       `json:"captures"`
	Moves          []string     `json:"moves"`
	Recent         []RecentMove `json:"recent"`
	Last           *string      `json:"last"`
	Passes         int          `json:"passes"`
	UndoRequest    *string      `json:"undoRequest"`
	ScoringRequest *string      `json:"scoringRequest"`
	Dead           []string     `json:"dead"`
	Approved       [2]bool      `json:"approved"`
	Edits          int          `json:"edits"`
	Scorings       int          `json:"scorings"`
	Territory      []string     `json:"territory"`
	Evolution      [][]string   `json:"evolution"`
	Score          *Score       `json:"score"`
	Result         *string      `json:"result"`
}

// RecentMove is one entry of the view's record of the latest moves.
type RecentMove struct {
	N        int    `json:"n"`     // 1-based move number
	Color    string `json:"color"` // "B" or "W"
	Move     string `json:"move"`  // "D4" or "pass"
	Captured int    `json:"captured,omitempty"`
}

func strPtr(s string) *string { return &s }

// View builds the view; viewer does not matter (nothing is hidden).
func (Rules) View(s State, _ int) View {
	v := View{
		Size: s.size, Komi: s.komi, Board: s.board.rows(), ToMove: games.PlayerID(s.toMove()),
		Phase: s.phase.String(), Captures: s.captured, Moves: make([]string, len(s.moves)),
		Passes: int(s.passes), Dead: []string{}, Approved: s.approved, Edits: s.edits, Scorings: s.scorings,
	}
	for i, m := range s.moves {
		v.Moves[i] = moveName(m, s.size)
	}
	for i := max(0, len(s.moves)-RecentLen); i < len(s.moves); i++ {
		v.Recent = append(v.Recent, RecentMove{N: i + 1, Color: [...]string{"B", "W"}[i%2], Move: v.Moves[i], Captured: int(s.caps[i])})
	}
	if v.Recent == nil {
		v.Recent = []RecentMove{}
	}
	if n := len(v.Moves); n > 0 {
		v.Last = strPtr(v.Moves[n-1])
	}
	if s.undoBy != 0 {
		v.UndoRequest = strPtr(flagID(s.undoBy))
	}
	if s.scoreBy != 0 {
		v.ScoringRequest = strPtr(flagID(s.scoreBy))
	}
	for _, p := range s.dead {
		v.Dead = append(v.Dead, pointName(int(p), s.size))
	}
	switch {
	case s.fin != nil:
		v.Territory = marks(s.fin.territory, s.size)
		for _, g := range s.fin.gens {
			v.Evolution = append(v.Evolution, g.rows())
		}
		sc := s.fin.score
		v.Score = &sc
	case s.phase == phaseScoring:
		b := s.board.clone()
		for _, p := range s.dead {
			b.pts[p] = Empty
		}
		v.Territory = marks(territory(b), s.size)
	}
	if r := s.result(); r != "" {
		v.Result = strPtr(r)
	}
	return v
}

// marks writes territory as rows: 'b' and 'w' for each side's empty
// points, '.' for the rest.
func marks(t []Stone, size int) []string {
	buf := make([]byte, len(t))
	for p, c := range t {
		buf[p] = [...]byte{'.', 'b', 'w'}[c]
	}
	all := string(buf)
	out := make([]string, size)
	for y := range out {
		out[y] = all[y*size : (y+1)*size]
	}
	return out
}

// FromView rebuilds the play position a view shows by replaying its moves
// (the view holds every move: nothing in weiqi is hidden), so a bot can
// check a move against the real rules, superko included. Requests, marks
// and the phase are not restored.
func FromView(v View) (State, error) {
	if err := checkSetup(v.Size, v.Komi); err != nil {
		return State{}, err
	}
	moves := make([]int16, len(v.Moves))
	for i, m := range v.Moves {
		if m == "pass" {
			moves[i] = passMove
			continue
		}
		x, y, err := ParseCoord(m, v.Size)
		if err != nil {
			return State{}, fmt.Errorf("weiqi: view move %d: %w", i+1, err)
		}
		moves[i] = int16(y*v.Size + x)
	}
	return replay(v.Size, v.Komi, moves)
}

// MarshalJSON is here only so View's JSON stays the plain struct encoding
// when embedded elsewhere.
var _ json.Marshaler = State{}
