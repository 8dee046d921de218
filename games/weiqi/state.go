package weiqi

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chaguan/chaguan/games"
)

// phase is where the game stands.
type phase byte

const (
	phasePlay    phase = iota // stones are played
	phaseScoring              // both players mark dead stones and approve
	phaseOver                 // resigned, or scored after the evolution
)

var phaseNames = [...]string{phasePlay: "play", phaseScoring: "scoring", phaseOver: "over"}

func (p phase) String() string { return phaseNames[p] }

// passMove stands for a pass in State.moves.
const passMove = -1

// State is the authoritative state of a weiqi match. Seat 0 plays black
// and moves first, so move i (0-based) was black's when i is even.
//
// Apply never writes into a State it was given: every slice a new state
// changes is copied first. Its JSON holds the move list and the flags only;
// the board, captures and position history are rebuilt by replaying the
// moves when it is decoded, so a stored state can never disagree with its
// own record.
type State struct {
	size   int
	komi   float64
	moves  []int16  // point index, or passMove
	caps   []int16  // stones each move captured
	hashes []uint64 // hashes[i]: the position after i moves (hashes[0]: empty)
	board  board
	// captured[c] is how many stones colour c+1 has captured.
	captured [2]int
	passes   int8 // passes in a row since the last stone (or resume)
	phase    phase
	undoBy   int8    // seat+1 of a pending undo request, 0 for none
	scoreBy  int8    // seat+1 of a pending scoring request, 0 for none
	resigned int8    // seat+1 of a player who resigned, 0 for none
	dead     []int16 // stones marked dead in scoring (sorted point indices)
	approved [2]bool
	edits    int // mark changes in this scoring session
	scorings int // times the game entered scoring
	fin      *final
}

// stateJSON is the stored form. Moves are SGF-style letter pairs ("dp" is
// column d, row p from the top), "--" for a pass; dead stones likewise.
type stateJSON struct {
	Size     int     `json:"size"`
	Komi     float64 `json:"komi"`
	Moves    string  `json:"moves"`
	Phase    string  `json:"phase,omitempty"`
	Passes   int8    `json:"passes,omitempty"`
	Undo     string  `json:"undo,omitempty"`
	Scoring  string  `json:"scoringRequest,omitempty"`
	Resigned string  `json:"resigned,omitempty"`
	Dead     string  `json:"dead,omitempty"`
	Approved [2]bool `json:"approved"`
	Edits    int     `json:"edits,omitempty"`
	Scorings int     `json:"scorings,omitempty"`
}

// toMove is the seat to play the next stone or pass.
func (s *State) toMove() int { return len(s.moves) % 2 }

// pending reports whether an undo or scoring request awaits its answer.
func (s *State) pending() bool { return s.undoBy != 0 || s.scoreBy != 0 }

// newState is an empty board with black to move.
func newState(size int, komi float64) State {
	return State{size: size, komi: komi, board: newBoard(size), hashes: []uint64{0}}
}

// play puts the side to move's stone at p, or passes when p is passMove,
// in place. It refuses an occupied point, a suicide and a position seen
// before (positional superko) with a reason a person reads; then s is
// unchanged. Only for a State whose slices the caller owns.
func (s *State) play(p int) error {
	c := colourOf(s.toMove())
	n := 0
	h := s.hashes[len(s.hashes)-1]
	if p != passMove {
		if s.board.pts[p] != Empty {
			return games.Invalid(pointName(p, s.size)+" is occupied", pointName(p, s.size)+" 此处已有棋子")
		}
		b := s.board.clone()
		var free bool
		n, free = b.place(p, c)
		if !free {
			return games.Invalid("suicide is not allowed", "禁止自杀")
		}
		h = b.hash()
		if slices.Contains(s.hashes, h) {
			return games.Invalid("superko (the position repeats)", "禁止打劫")
		}
		s.board = b
		s.captured[c-1] += n
		s.passes = 0
	} else {
		s.passes++
	}
	s.moves = append(s.moves, int16(p))
	s.caps = append(s.caps, int16(n))
	s.hashes = append(s.hashes, h)
	return nil
}

// owned returns a copy of s whose slices share nothing with s, with room
// for one more move.
func (s State) owned() State {
	s.moves = slices.Grow(slices.Clone(s.moves), 1)
	s.caps = slices.Grow(slices.Clone(s.caps), 1)
	s.hashes = slices.Grow(slices.Clone(s.hashes), 1)
	s.dead = slices.Clone(s.dead)
	return s
}

// replay plays moves from an empty board, refusing an illegal one.
func replay(size int, komi float64, moves []int16) (State, error) {
	s := newState(size, komi)
	s.moves = make([]int16, 0, len(moves)+1)
	s.caps = make([]int16, 0, len(moves)+1)
	s.hashes = make([]uint64, 1, len(moves)+2)
	for i, m := range moves {
		if m != passMove && (m < 0 || int(m) >= size*size) {
			return State{}, fmt.Errorf("weiqi: move %d is off the board", i+1)
		}
		if err := s.play(int(m)); err != nil {
			return State{}, fmt.Errorf("weiqi: move %d (%s): %w", i+1, moveName(m, size), err)
		}
	}
	// Passes in a row at the end count, but never enough to be in scoring:
	// replay serves undo and loading, which set the phase themselves.
	s.passes = min(s.passes, 1)
	return s, nil
}

// moveName is a move as the wire writes it: "D4" or "pass".
func moveName(m int16, size int) string {
	if m == passMove {
		return "pass"
	}
	return pointName(int(m), size)
}

// enterScoring starts a scoring session.
func (s *State) enterScoring() {
	s.phase = phaseScoring
	s.undoBy, s.scoreBy = 0, 0
	s.dead, s.approved, s.edits = nil, [2]bool{}, 0
	s.scorings++
}

// undoFrom is the length the move list is cut back to when seat takes
// back its last move (games.TakeBack), or -1 when seat has made none.
func (s *State) undoFrom(seat int) int { return games.TakeBack(len(s.moves), seat) }

func encodePoints(ps []int16, size int) string {
	b := make([]byte, 0, 2*len(ps))
	for _, p := range ps {
		if p == passMove {
			b = append(b, '-', '-')
			continue
		}
		b = append(b, byte('a'+int(p)%size), byte('a'+int(p)/size))
	}
	return string(b)
}

func decodePoints(s string, size int) ([]int16, error) {
	if len(s)%2 != 0 {
		return nil, fmt.Errorf("weiqi: bad point list of %d bytes", len(s))
	}
	out := make([]int16, 0, len(s)/2)
	for i := 0; i < len(s); i += 2 {
		if s[i:i+2] == "--" {
			out = append(out, passMove)
			continue
		}
		x, y := int(s[i])-'a', int(s[i+1])-'a'
		if x < 0 || x >= size || y < 0 || y >= size {
			return nil, fmt.Errorf("weiqi: point %q is off the board", s[i:i+2])
		}
		out = append(out, int16(y*size+x))
	}
	return out, nil
}

// MarshalJSON writes the stored form.
func (s State) MarshalJSON() ([]byte, error) {
	j := stateJSON{
		Size: s.size, Komi: s.komi, Moves: encodePoints(s.moves, s.size),
		Passes: s.passes, Dead: encodePoints(s.dead, s.size), Approved: s.approved,
		Edits: s.edits, Scorings: s.scorings,
	}
	if s.phase != phasePlay {
		j.Phase = s.phase.String()
	}
	j.Undo, j.Scoring, j.Resigned = flagID(s.undoBy), flagID(s.scoreBy), flagID(s.resigned)
	return json.Marshal(j)
}

func flagID(f int8) string {
	if f == 0 {
		return ""
	}
	return games.PlayerID(int(f) - 1)
}

func flagSeat(id string) (int8, error) {
	if id == "" {
		return 0, nil
	}
	seat, ok := games.ParseSeat(id, 2)
	if !ok {
		return 0, fmt.Errorf("bad seat %q", id)
	}
	return int8(seat + 1), nil
}

// UnmarshalJSON rebuilds a state from its stored form, replaying every
// move; it refuses a record that no legal game could have produced.
func (s *State) UnmarshalJSON(data []byte) error {
	var j stateJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if err := checkSetup(j.Size, j.Komi); err != nil {
		return err
	}
	moves, err := decodePoints(j.Moves, j.Size)
	if err != nil {
		return err
	}
	n, err := replay(j.Size, j.Komi, moves)
	if err != nil {
		return err
	}
	switch j.Phase {
	case "":
	case "scoring":
		n.phase = phaseScoring
	case "over":
		n.phase = phaseOver
	default:
		return fmt.Errorf("weiqi: unknown phase %q", j.Phase)
	}
	if j.Passes < 0 || j.Passes > 2 || j.Edits < 0 || j.Scorings < 0 {
		return fmt.Errorf("weiqi: bad counters")
	}
	n.passes, n.approved, n.edits, n.scorings = j.Passes, j.Approved, j.Edits, j.Scorings
	if n.undoBy, err = flagSeat(j.Undo); err != nil {
		return err
	}
	if n.scoreBy, err = flagSeat(j.Scoring); err != nil {
		return err
	}
	if n.resigned, err = flagSeat(j.Resigned); err != nil {
		return err
	}
	if n.dead, err = decodePoints(j.Dead, j.Size); err != nil {
		return err
	}
	for _, p := range n.dead {
		if p == passMove || n.board.pts[p] == Empty {
			return fmt.Errorf("weiqi: a dead mark on an empty point")
		}
	}
	if (n.undoBy != 0 || n.scoreBy != 0) && n.phase != phasePlay {
		return fmt.Errorf("weiqi: a request outside play")
	}
	if n.phase == phaseOver && n.resigned == 0 {
		if !n.approved[0] || !n.approved[1] {
			return fmt.Errorf("weiqi: scored without both approvals")
		}
		n.fin = n.finish()
	}
	*s = n
	return nil
}
