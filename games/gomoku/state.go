package gomoku

import (
	"encoding/json"
	"fmt"

	"github.com/chaguan/chaguan/games"
)

// State is the authoritative state of a gomoku match. Seat 0 plays black
// and moves first, so move i (0-based) was made by seat i%2.
//
// It is cheap to copy (a 529-byte board plus a slice header) and Apply
// never writes into a State it was given: the move list is copied, never
// appended to in place. The zero State is not a valid match; get one from
// Rules.Setup or by unmarshalling a stored state.
//
// Its JSON is only the move list and the two flags; the board and the
// result are rebuilt when it is decoded.
type State struct {
	moves    []pos // every stone in play order
	board    grid
	undoBy   int8 // seat+1 of a player whose undo request awaits an answer, 0 for none
	resigned int8 // seat+1 of a player who resigned, 0 for none
	winDir   int8 // 1 + index in dirs of the five made by the last stone, 0 for none
}

// stateJSON is the stored form: moves as SGF-style letter pairs ("hh" is
// (7,7)), two bytes a stone, and the seat IDs of a pending undo request and
// of a resignation.
type stateJSON struct {
	Moves    string `json:"moves"`
	Undo     string `json:"undo,omitempty"`
	Resigned string `json:"resigned,omitempty"`
}

// toMove is the seat whose turn it is to place a stone.
func (s *State) toMove() int { return len(s.moves) % 2 }

// over reports whether the match has ended.
func (s *State) over() bool {
	return s.resigned != 0 || s.winDir != 0 || len(s.moves) == Size*Size
}

// outcome is the match's result, or nil while it goes on.
func (s *State) outcome() *games.Outcome {
	switch {
	case s.resigned != 0:
		return &games.Outcome{Winner: games.PlayerID(2 - int(s.resigned)), Reason: "resign"}
	case s.winDir != 0:
		return &games.Outcome{
			Winner: games.PlayerID(1 - s.toMove()),
			Reason: "five",
			Detail: FiveDetail{Line: s.winLine()},
		}
	case len(s.moves) == Size*Size:
		return &games.Outcome{Draw: true, Reason: "full"}
	}
	return nil
}

// FiveDetail is Outcome.Detail for a win by five: the whole winning run
// (five or more points) from one end to the other.
type FiveDetail struct {
	Line [][2]int `json:"line"`
}

// winLine is the winning run as [x, y] pairs, or nil without a five.
func (s *State) winLine() [][2]int {
	if s.winDir == 0 {
		return nil
	}
	last := s.moves[len(s.moves)-1]
	run := s.board.line(last, int(s.winDir-1), s.board[last])
	out := make([][2]int, len(run))
	for i, p := range run {
		out[i] = p.point()
	}
	return out
}

// MarshalJSON writes the stored form.
func (s State) MarshalJSON() ([]byte, error) { return s.AppendJSON(nil) }

// AppendJSON appends the stored form, json.Marshal's bytes of stateJSON
// (games.StateAppender; TestStateAppendJSON compares them): the record
// stores the state on every move.
func (s State) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"moves":"`...)
	for _, p := range s.moves {
		x, y := p.xy()
		b = append(b, byte('a'+x), byte('a'+y))
	}
	b = append(b, '"')
	if s.undoBy != 0 {
		b = append(b, `,"undo":`...)
		b = games.AppendString(b, games.PlayerID(int(s.undoBy)-1))
	}
	if s.resigned != 0 {
		b = append(b, `,"resigned":`...)
		b = games.AppendString(b, games.PlayerID(int(s.resigned)-1))
	}
	return append(b, '}'), nil
}

// UnmarshalJSON rebuilds a state from its stored form. It refuses any
// record no sequence of legal moves could have produced (a point off the
// board or played twice, a stone after a five, an undo request by a player
// with no stone, an undo request beside a finished game), so a loaded State
// always keeps the invariants Apply relies on.
func (s *State) UnmarshalJSON(data []byte) error {
	var j stateJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return err
	}
	if len(j.Moves)%2 != 0 || len(j.Moves) > 2*Size*Size {
		return fmt.Errorf("gomoku: bad move list of %d bytes", len(j.Moves))
	}
	n := State{moves: make([]pos, 0, len(j.Moves)/2), board: emptyGrid}
	for i := 0; i < len(j.Moves); i += 2 {
		x, y := int(j.Moves[i])-'a', int(j.Moves[i+1])-'a'
		if !onBoard(x, y) {
			return fmt.Errorf("gomoku: move %d %q is off the board", i/2, j.Moves[i:i+2])
		}
		if n.winDir != 0 {
			return fmt.Errorf("gomoku: move %d comes after a five", i/2)
		}
		p := at(x, y)
		if n.board[p] != empty {
			return fmt.Errorf("gomoku: move %d %q is on an occupied point", i/2, j.Moves[i:i+2])
		}
		n.place(p)
	}
	var err error
	if n.undoBy, err = flagSeat(j.Undo); err != nil {
		return fmt.Errorf("gomoku: undo: %w", err)
	}
	if n.resigned, err = flagSeat(j.Resigned); err != nil {
		return fmt.Errorf("gomoku: resigned: %w", err)
	}
	if n.undoBy != 0 && (n.over() || n.undoFrom(int(n.undoBy)-1) < 0) {
		return fmt.Errorf("gomoku: undo request by seat %s cannot stand", j.Undo)
	}
	if n.resigned != 0 && (n.winDir != 0 || len(n.moves) == Size*Size) {
		return fmt.Errorf("gomoku: resignation after the game ended")
	}
	*s = n
	return nil
}

// flagSeat decodes an optional seat ID into seat+1 (0 when absent).
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

// place puts the next stone at the empty point p in place, for the side to
// move, and records a five. Only for a State the caller owns.
func (s *State) place(p pos) {
	c := colour(s.toMove())
	s.board[p] = c
	s.moves = append(s.moves, p)
	if d := s.board.fiveDir(p, c); d >= 0 {
		s.winDir = int8(d + 1)
	}
}

// undoFrom is the length the move list is cut back to when seat takes
// back its last move (games.TakeBack), or -1 when seat has made none.
func (s *State) undoFrom(seat int) int { return games.TakeBack(len(s.moves), seat) }
