package weiqi

import (
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
	p, err := argPoint(args, s.size, movePlay)
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
	p, err := argPoint(args, s.size, moveToggleDead)
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
	list, err := argPoints(args)
	if err != nil {
		return s, err
	}
	if len(list) > s.size*s.size {
		return s, games.Invalid(
			fmt.Sprintf("setDead lists %d points, more than the %d of the board", len(list), s.size*s.size),
			fmt.Sprintf("setDead 列出了 %d 个点，多于棋盘的 %d 个点", len(list), s.size*s.size))
	}
	marked := make([]bool, len(s.board.pts))
	for _, name := range list {
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

// CanonicalArgs parses the args of move name and returns their canonical
// JSON (games.ArgsParser): each point in its normal spelling (["D4"],
// upper case, half-width), [true] or [false] for an answer, [] for the
// moves that take nothing. A point is read as on the largest board: one
// off a smaller board parses here and is refused by Apply.
func (Rules) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case movePlay, moveToggleDead:
		p, err := argPoint(args, maxSize, name)
		if err != nil {
			return nil, err
		}
		return games.CanonicalJSON(pointName(p, maxSize))
	case moveSetDead:
		list, err := argPoints(args)
		if err != nil {
			return nil, err
		}
		out := make([]string, len(list))
		for i, name := range list {
			p, err := parsePoint(name, maxSize)
			if err != nil {
				return nil, err
			}
			out[i] = pointName(p, maxSize)
		}
		return games.CanonicalJSON(out)
	case moveAnswerUndo, moveAnswerScoring:
		yes, err := argBool(args, name)
		if err != nil {
			return nil, err
		}
		return games.CanonicalJSON(yes)
	case movePass, moveResign, moveRequestUndo, moveRequestScoring, moveApprove, moveResume:
		if err := noArgs(args, name); err != nil {
			return nil, err
		}
		return json.RawMessage("[]"), nil
	}
	return nil, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// maxSize is the largest board: CanonicalArgs reads points on it.
const maxSize = 19

// argPoint decodes move's ["D4"] (strictly: games.DecodeArgs) and reads
// the point on a board of size.
func argPoint(args json.RawMessage, size int, move string) (int, error) {
	var point string
	if err := games.DecodeArgs(move, `["D4"]`, args, &point); err != nil {
		return 0, err
	}
	return parsePoint(point, size)
}

// argPoints decodes setDead's [["D4", "Q16"]]: one list of at most
// maxSize*maxSize point names (read by the caller).
func argPoints(args json.RawMessage) ([]string, error) {
	var list []string
	if err := games.DecodeArgs(moveSetDead, `[["D4", "Q16"]]`, args, &list); err != nil {
		return nil, err
	}
	if len(list) > maxSize*maxSize {
		return nil, games.Invalid(
			fmt.Sprintf("setDead lists %d points, more than a board has", len(list)),
			fmt.Sprintf("setDead 列出了 %d 个点，多于棋盘的点数", len(list)))
	}
	return list, nil
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
	return games.DecodeArgs(name, "[]", args)
}

func argBool(args json.RawMessage, name string) (bool, error) {
	var yes bool
	err := games.DecodeArgs(name, "[true|false]", args, &yes)
	return yes, err
}
