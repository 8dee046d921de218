package gomoku

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/chaguan/chaguan/games"
)

// Apply plays one move for seat and returns the new state; s is never
// changed. Besides the game's own rules it re-checks what the framework
// checks (the game is not over, it is seat's turn), so calling it directly
// is safe too. Refusals wrap games.ErrInvalidMove (with a reason in English
// and Chinese), games.ErrNotYourTurn, games.ErrGameOver or
// games.ErrUnknownMove.
func (Rules) Apply(s State, seat int, name string, args json.RawMessage) (State, error) {
	if seat != 0 && seat != 1 {
		return s, fmt.Errorf("%w: seat %d does not play gomoku", games.ErrNotYourTurn, seat)
	}
	if s.over() {
		return s, games.ErrGameOver
	}
	switch name {
	case movePlace:
		return applyPlace(s, seat, args)
	case moveRequestUndo:
		return applyRequestUndo(s, seat, args)
	case moveAnswerUndo:
		return applyAnswerUndo(s, seat, args)
	case moveResign:
		if err := noArgs(moveResign, args); err != nil {
			return s, err
		}
		s.undoBy = 0
		s.resigned = int8(seat + 1)
		return s, nil
	}
	return s, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

func applyPlace(s State, seat int, args json.RawMessage) (State, error) {
	if s.undoBy != 0 {
		return s, games.Invalid("an undo request is waiting for an answer", "悔棋请求尚待回应，暂不能落子")
	}
	if seat != s.toMove() {
		return s, games.ErrNotYourTurn
	}
	x, y, err := parsePlace(args)
	if err != nil {
		return s, err
	}
	if !onBoard(x, y) {
		return s, games.Invalid(
			fmt.Sprintf("(%d, %d) is off the board: x and y go from 0 to 14", x, y),
			fmt.Sprintf("(%d, %d) 不在棋盘上：x、y 的范围是 0 到 14", x, y))
	}
	p := at(x, y)
	if s.board[p] != empty {
		return s, games.Invalid(
			fmt.Sprintf("(%d, %d) already holds a stone", x, y),
			fmt.Sprintf("(%d, %d) 已有棋子", x, y))
	}
	// s is our copy, but its move list shares the caller's array: copy it
	// with room for the new stone before place appends.
	moves := make([]pos, len(s.moves), len(s.moves)+1)
	copy(moves, s.moves)
	s.moves = moves
	s.place(p)
	return s, nil
}

func applyRequestUndo(s State, seat int, args json.RawMessage) (State, error) {
	if err := noArgs(moveRequestUndo, args); err != nil {
		return s, err
	}
	if s.undoBy != 0 {
		return s, games.Invalid("an undo request is already waiting for an answer", "已有悔棋请求等待回应")
	}
	if s.undoFrom(seat) < 0 {
		return s, games.Invalid("you have no move to take back", "你还没有可以悔的棋")
	}
	s.undoBy = int8(seat + 1)
	return s, nil
}

func applyAnswerUndo(s State, seat int, args json.RawMessage) (State, error) {
	var yes bool
	if err := games.DecodeArgs(moveAnswerUndo, "[true|false]", args, &yes); err != nil {
		return s, err
	}
	if s.undoBy == 0 {
		return s, games.Invalid("there is no undo request to answer", "没有待回应的悔棋请求")
	}
	asker := int(s.undoBy) - 1
	if seat == asker {
		return s, games.Invalid("you cannot answer your own undo request", "不能回应自己的悔棋请求")
	}
	s.undoBy = 0
	if !yes {
		return s, nil
	}
	keep := s.undoFrom(asker)
	// Rebuild on a fresh array: the caller's state shares s.moves.
	moves := s.moves[:keep]
	s.board, s.winDir = emptyGrid, 0
	s.moves = make([]pos, 0, keep)
	for _, p := range moves {
		s.place(p)
	}
	return s, nil
}

// CanonicalArgs parses the args of move name and returns their canonical
// JSON (games.ArgsParser): [x,y] for place, [true] or [false] for
// answerUndo, [] for the others. Apply refuses exactly what it refuses.
func (Rules) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case movePlace:
		x, y, err := parsePlace(args)
		if err != nil {
			return nil, err
		}
		b := append(make([]byte, 0, 16), '[')
		b = strconv.AppendInt(b, int64(x), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(y), 10)
		return append(b, ']'), nil
	case moveRequestUndo, moveResign:
		if err := noArgs(name, args); err != nil {
			return nil, err
		}
		return json.RawMessage("[]"), nil
	case moveAnswerUndo:
		var yes bool
		if err := games.DecodeArgs(name, "[true|false]", args, &yes); err != nil {
			return nil, err
		}
		if yes {
			return json.RawMessage("[true]"), nil
		}
		return json.RawMessage("[false]"), nil
	}
	return nil, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// noArgs refuses args other than the empty array (or absent args).
func noArgs(name string, args json.RawMessage) error {
	return games.DecodeArgs(name, "[]", args)
}

// parsePlace reads place's [x, y]: two JSON whole numbers, by parsePoint
// on the hot path and by games.DecodeArgs (the same rules, with a reason
// on failure) otherwise. The range is the caller's to check.
func parsePlace(args json.RawMessage) (x, y int, err error) {
	if len(args) <= games.MaxArgsBytes {
		if x, y, ok := parsePoint(args); ok {
			return x, y, nil
		}
	}
	if err := games.DecodeArgs(movePlace, "[x, y]", args, &x, &y); err != nil {
		return 0, 0, err
	}
	return x, y, nil
}

// parsePoint decodes [x, y] with two JSON integers (optional minus sign,
// digits only, JSON whitespace anywhere between tokens). It reads the bytes
// directly: this is the hot path of every stone placed. Integers are capped
// at 6 digits, far beyond the board, so they cannot overflow; the caller
// checks the range. It accepts a subset of what games.DecodeArgs accepts
// for the same two ints, and reads the same values from it.
func parsePoint(args json.RawMessage) (x, y int, ok bool) {
	b := []byte(args)
	i := 0
	ws := func() {
		for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
			i++
		}
	}
	lit := func(c byte) bool {
		ws()
		if i < len(b) && b[i] == c {
			i++
			return true
		}
		return false
	}
	num := func() (int, bool) {
		ws()
		neg := i < len(b) && b[i] == '-'
		if neg {
			i++
		}
		start, n := i, 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' && i-start < 6 {
			n = n*10 + int(b[i]-'0')
			i++
		}
		if i == start || (i-start > 1 && b[start] == '0') {
			return 0, false
		}
		if i < len(b) && (b[i] >= '0' && b[i] <= '9' || b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
			return 0, false // too long, or not a whole number
		}
		if neg {
			n = -n
		}
		return n, true
	}
	if !lit('[') {
		return 0, 0, false
	}
	if x, ok = num(); !ok || !lit(',') {
		return 0, 0, false
	}
	if y, ok = num(); !ok || !lit(']') {
		return 0, 0, false
	}
	ws()
	return x, y, i == len(b)
}
