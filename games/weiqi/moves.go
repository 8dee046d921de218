package weiqi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chaguan/chaguan/games"
)

// Apply plays one move for seat and returns the new state; s is never
// changed. Besides the game's own rules it re-checks what the framework
// checks (the game is not over, the seat may move), so calling it directly
// is safe too. Refusals wrap games.ErrInvalidMove (with a reason in English
// and Chinese), games.ErrNotYourTurn, games.ErrGameOver or
// games.ErrUnknownMove.
func (Rules) Apply(s State, seat int, name string, args json.RawMessage) (State, error) {
	if seat != 0 && seat != 1 {
		return s, fmt.Errorf("%w: seat %d does not play weiqi", games.ErrNotYourTurn, seat)
	}
	if s.phase == phaseOver {
		return s, games.ErrGameOver
	}
	if f, ok := handlers[name]; ok {
		return f(s.owned(), seat, args)
	}
	return s, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// handlers play each move on a copy of the state the move may change.
var handlers map[string]func(s State, seat int, args json.RawMessage) (State, error)

func init() {
	handlers = map[string]func(State, int, json.RawMessage) (State, error){
		movePlay: applyPlay, movePass: applyPass, moveResign: applyResign,
		moveRequestUndo: applyRequestUndo, moveAnswerUndo: applyAnswerUndo,
		moveRequestScoring: applyRequestScoring, moveAnswerScoring: applyAnswerScoring,
		moveToggleDead: applyToggleDead, moveSetDead: applySetDead,
		moveApprove: applyApprove, moveResume: applyResume,
	}
}

var (
	errNotInPlay    = games.Invalid("the game is being scored: resume to play on", "正在结算：取消结算后才能继续落子")
	errNotInScoring = games.Invalid("this move is only for scoring", "此操作只在结算时可用")
	errPending      = games.Invalid("a request is waiting for an answer", "有请求尚待回应")
)

// myTurn checks that seat may play a stone or pass now.
func myTurn(s *State, seat int) error {
	switch {
	case s.phase != phasePlay:
		return errNotInPlay
	case s.pending():
		return errPending
	case seat != s.toMove():
		return games.ErrNotYourTurn
	}
	return nil
}

func applyPlay(s State, seat int, args json.RawMessage) (State, error) {
	if err := myTurn(&s, seat); err != nil {
		return s, err
	}
	p, err := argPoint(args, s.size)
	if err != nil {
		return s, err
	}
	if err := s.play(p); err != nil {
		return s, err
	}
	return s, nil
}

func applyPass(s State, seat int, args json.RawMessage) (State, error) {
	if err := noArgs(args, movePass); err != nil {
		return s, err
	}
	if err := myTurn(&s, seat); err != nil {
		return s, err
	}
	_ = s.play(passMove) // a pass is always legal
	if s.passes >= 2 {
		s.enterScoring()
	}
	return s, nil
}

func applyResign(s State, seat int, args json.RawMessage) (State, error) {
	if err := noArgs(args, moveResign); err != nil {
		return s, err
	}
	s.undoBy, s.scoreBy = 0, 0
	s.resigned = int8(seat + 1)
	s.phase = phaseOver
	return s, nil
}

// request checks a requestUndo or requestScoring: in play, with no other
// request waiting.
func request(s *State, args json.RawMessage, name string) error {
	if err := noArgs(args, name); err != nil {
		return err
	}
	switch {
	case s.phase != phasePlay:
		return errNotInPlay
	case s.pending():
		return errPending
	}
	return nil
}

// answer reads an answerUndo or answerScoring to the request flag (seat+1
// of the asker, 0 for none); what names the request in both languages.
func answer(flag int8, seat int, args json.RawMessage, name string, what games.Text) (bool, error) {
	yes, err := argBool(args, name)
	switch {
	case err != nil:
		return false, err
	case flag == 0:
		return false, games.Invalid("there is no "+what.En+" request to answer", "没有待回应的"+what.Zh+"请求")
	case seat == int(flag)-1:
		return false, games.Invalid("you cannot answer your own "+what.En+" request", "不能回应自己的"+what.Zh+"请求")
	}
	return yes, nil
}

var (
	undoWords    = games.Text{En: "undo", Zh: "悔棋"}
	scoringWords = games.Text{En: "scoring", Zh: "结算"}
)

func applyRequestUndo(s State, seat int, args json.RawMessage) (State, error) {
	if err := request(&s, args, moveRequestUndo); err != nil {
		return s, err
	}
	if s.undoFrom(seat) < 0 {
		return s, games.Invalid("you have no move to take back", "你还没有可以悔的棋")
	}
	s.undoBy = int8(seat + 1)
	return s, nil
}

func applyAnswerUndo(s State, seat int, args json.RawMessage) (State, error) {
	yes, err := answer(s.undoBy, seat, args, moveAnswerUndo, undoWords)
	if err != nil {
		return s, err
	}
	asker := int(s.undoBy) - 1
	s.undoBy = 0
	if !yes {
		return s, nil
	}
	// Replaying the moves that stay puts every captured stone back with its
	// colour and rebuilds the captures and the position history.
	n, err := replay(s.size, s.komi, s.moves[:s.undoFrom(asker)])
	if err != nil {
		return s, fmt.Errorf("weiqi: undo replay: %w", err) // cannot happen: those moves were legal
	}
	n.scorings = s.scorings
	return n, nil
}

func applyRequestScoring(s State, seat int, args json.RawMessage) (State, error) {
	if err := request(&s, args, moveRequestScoring); err != nil {
		return s, err
	}
	s.scoreBy = int8(seat + 1)
	return s, nil
}

func applyAnswerScoring(s State, seat int, args json.RawMessage) (State, error) {
	yes, err := answer(s.scoreBy, seat, args, moveAnswerScoring, scoringWords)
	if err != nil {
		return s, err
	}
	s.scoreBy = 0
	if yes {
		s.enterScoring()
	}
	return s, nil
}

func applyToggleDead(s State, seat int, args json.RawMessage) (State, error) {
	if s.phase != phaseScoring {
		return s, errNotInScoring
	}
	p, err := argPoint(args, s.size)
	if err != nil {
		return s, err
	}
	if s.board.pts[p] == Empty {
		return s, games.Invalid(pointName(p, s.size)+" holds no stone", pointName(p, s.size)+" 没有棋子")
	}
	group := s.board.sameColour(p)
	if slices.Contains(s.dead, int16(p)) {
		s.dead = slices.DeleteFunc(s.dead, func(q int16) bool { return slices.Contains(group, int(q)) })
	} else {
		for _, q := range group {
			s.dead = append(s.dead, int16(q))
		}
		slices.Sort(s.dead)
	}
	s.approved, s.edits = [2]bool{}, s.edits+1
	return s, nil
}

func applySetDead(s State, seat int, args json.RawMessage) (State, error) {
	if s.phase != phaseScoring {
		return s, errNotInScoring
	}
	var a [][]string
	if json.Unmarshal(args, &a) != nil || len(a) != 1 || len(a[0]) > s.size*s.size {
		return s, games.Invalid(`setDead takes one list of points: [["D4", "Q16"]]`, `setDead 的参数应为一组坐标：[["D4", "Q16"]]`)
	}
	marked := make([]bool, len(s.board.pts))
	for _, name := range a[0] {
		p, err := parsePoint(name, s.size)
		if err != nil {
			return s, err
		}
		if s.board.pts[p] == Empty {
			return s, games.Invalid(pointName(p, s.size)+" holds no stone", pointName(p, s.size)+" 没有棋子")
		}
		for _, q := range s.board.sameColour(p) {
			marked[q] = true
		}
	}
	s.dead = nil
	for p, m := range marked {
		if m {
			s.dead = append(s.dead, int16(p))
		}
	}
	s.approved, s.edits = [2]bool{}, s.edits+1
	return s, nil
}

func applyApprove(s State, seat int, args json.RawMessage) (State, error) {
	if err := noArgs(args, moveApprove); err != nil {
		return s, err
	}
	switch {
	case s.phase != phaseScoring:
		return s, errNotInScoring
	case s.approved[seat]:
		return s, games.Invalid("you have approved already", "你已确认")
	}
	s.approved[seat] = true
	if s.approved[0] && s.approved[1] {
		s.phase = phaseOver
		s.fin = s.finish()
	}
	return s, nil
}

func applyResume(s State, seat int, args json.RawMessage) (State, error) {
	if err := noArgs(args, moveResume); err != nil {
		return s, err
	}
	if s.phase != phaseScoring {
		return s, errNotInScoring
	}
	s.phase, s.passes = phasePlay, 0
	s.dead, s.approved, s.edits = nil, [2]bool{}, 0
	return s, nil
}

// sameColour is the whole 4-connected group of one colour holding the
// stone at p: what toggleDead marks.
func (b board) sameColour(p int) []int {
	g, _ := b.group(p)
	return g
}

// argPoint decodes ["D4"].
func argPoint(args json.RawMessage, size int) (int, error) {
	var a []string
	if json.Unmarshal(args, &a) != nil || len(a) != 1 {
		return 0, games.Invalid(`this move takes one point: ["D4"]`, `此操作的参数应为一个坐标：["D4"]`)
	}
	return parsePoint(a[0], size)
}

// parsePoint reads a coordinate into a point index, with a reason a person
// reads on failure.
func parsePoint(name string, size int) (int, error) {
	x, y, err := ParseCoord(name, size)
	if err != nil {
		return 0, games.Invalid(err.Error(), fmt.Sprintf("无法识别的坐标 %q：列为 %s，行为 1 到 %d", name, columns[:size], size))
	}
	return y*size + x, nil
}

func noArgs(args json.RawMessage, name string) error {
	var a []json.RawMessage
	if json.Unmarshal(args, &a) != nil || len(a) != 0 {
		return games.Invalid(name+" takes no arguments: []", name+" 不带参数：[]")
	}
	return nil
}

func argBool(args json.RawMessage, name string) (bool, error) {
	var a []json.RawMessage
	if json.Unmarshal(args, &a) == nil && len(a) == 1 {
		switch string(bytes.TrimSpace(a[0])) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
	}
	return false, games.Invalid(name+" takes [true] or [false]", name+" 的参数应为 [true] 或 [false]")
}
