// Package gomoku is freestyle gomoku (五子棋) on a 15x15 board: black (seat
// 0) moves first, five or more stones in a row win (overlines too), a full
// board is a draw. A player may ask to take back their last move; the
// opponent answers. Bots: "easy" (a random point next to a stone),
// "normal" (pattern scoring: every empty point within two points of a stone,
// the centre on an empty board, scores attack + 0.9 × defence, where attack
// sums over the four directions the shape a stone of the side to move there
// would make and defence the same for an opposing stone: 连五 1000000, 活四
// 100000, 冲四 10000, 活三 8000, 眠三 500, 活二 400, 眠二 50; the best point
// wins, ties at random) and "hard" (alpha-beta search over the same
// evaluation). docs/decisions.md (section "Gomoku") has the rule
// choices and how the shapes are recognised.
//
// The rules are pure: no I/O, no clock and no randomness (gomoku needs none,
// so the state keeps no RNG).
package gomoku

import (
	"bytes"
	"encoding/json"

	"github.com/chaguan/chaguan/games"
)

// Game is gomoku as the rooms package drives it.
var Game = games.Erase[State, View](Rules{})

// Rules implements games.Rules for gomoku. It holds nothing; the zero value
// is ready to use and safe for concurrent use.
type Rules struct{}

var _ games.Rules[State, View] = Rules{}

// Move names.
const (
	movePlace       = "place"
	moveRequestUndo = "requestUndo"
	moveAnswerUndo  = "answerUndo"
	moveResign      = "resign"
)

var info = games.Info{
	Name:         "gomoku",
	Title:        games.Text{En: "Gomoku", Zh: "五子棋"},
	MinPlayers:   2,
	MaxPlayers:   2,
	SetupOptions: map[string]games.SetupOption{},
	Moves: []games.MoveSpec{
		{
			Name: movePlace,
			Args: "[x, y]",
			Description: games.Text{
				En: "Place a stone at (x, y); x and y go from 0 to 14, (0, 0) is the top left.",
				Zh: "在 (x, y) 落子；x、y 取 0 到 14，(0, 0) 为左上角。",
			},
		},
		{
			Name:    moveRequestUndo,
			Args:    "[]",
			AnySeat: true,
			Description: games.Text{
				En: "Ask to take back your last move (and the opponent's reply, if any); the opponent answers.",
				Zh: "请求悔棋：收回自己的上一手（若对手已应，连同对手那一手），由对手回应。",
			},
		},
		{
			Name: moveAnswerUndo,
			Args: "[true|false]",
			Description: games.Text{
				En: "Answer the opponent's undo request: true takes the moves back, false refuses.",
				Zh: "回应对手的悔棋请求：true 同意悔棋，false 拒绝。",
			},
		},
		{
			Name:    moveResign,
			Args:    "[]",
			AnySeat: true,
			Description: games.Text{
				En: "Resign: the opponent wins.",
				Zh: "认输：对手获胜。",
			},
		},
	},
	Bots: []string{"easy", "normal", "hard"},
	// Nothing is hidden in Gomoku: one view serves every seat.
	PublicView: true,
}

// Info describes gomoku for the catalog.
func (Rules) Info() games.Info { return info }

// Setup returns an empty board with black to move. Gomoku has no options:
// setupData may be absent, null or any JSON object (its keys are ignored);
// anything else is refused with an error wrapping games.ErrBadSetup.
func (Rules) Setup(numSeats int, setupData json.RawMessage, _ *games.RNG) (State, error) {
	if numSeats != 2 {
		return State{}, games.BadSetup("gomoku takes 2 players, not %d", numSeats)
	}
	if d := bytes.TrimSpace(setupData); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		var obj map[string]json.RawMessage
		if d[0] != '{' || json.Unmarshal(d, &obj) != nil {
			return State{}, games.BadSetup("gomoku setupData must be an object or null, not %.40s", d)
		}
	}
	return State{board: emptyGrid}, nil
}

// Status is phase "play"; Turn counts the stones placed plus one and
// Current is the seat to place the next stone. While an undo request is
// pending, Active names the opponent of the asker, in stage "answerUndo",
// and nobody else may move.
func (Rules) Status(s State) games.Status {
	st := games.Status{Phase: "play", Turn: len(s.moves) + 1, Current: s.toMove()}
	if o := s.outcome(); o != nil {
		st.Outcome = o
		return st
	}
	if s.undoBy != 0 {
		st.Active = map[int]string{2 - int(s.undoBy): "answerUndo"}
	}
	return st
}
