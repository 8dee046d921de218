// Package weiqi is weiqi (围棋, Go) on a 9x9, 13x13 or 19x19 board, as
// docs/weiqi.md and docs/decisions.md (section "Weiqi") give it: captures,
// no suicide, positional superko with Zobrist hashing, passes (two in a row
// enter scoring), undo and scoring by request and consent, dead stones
// marked by either player and approved by both, then the evolution endgame
// (5 generations of a 4-connected life) and Chinese area scoring with komi.
//
// Seat 0 plays black and moves first. The rules are pure: no I/O, no
// clock and no randomness (weiqi needs none, so the state keeps no RNG).
package weiqi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// Game is weiqi as the rooms package drives it.
var Game = games.Erase[State, View](Rules{})

// Rules implements games.Rules for weiqi. The zero value is ready to use
// and safe for concurrent use.
type Rules struct{}

var _ games.Rules[State, View] = Rules{}

// Move names.
const (
	movePlay           = "play"
	movePass           = "pass"
	moveResign         = "resign"
	moveRequestUndo    = "requestUndo"
	moveAnswerUndo     = "answerUndo"
	moveRequestScoring = "requestScoring"
	moveAnswerScoring  = "answerScoring"
	moveToggleDead     = "toggleDead"
	moveSetDead        = "setDead"
	moveApprove        = "approve"
	moveResume         = "resume"
)

func fptr(f float64) *float64 { return &f }

var info = games.Info{
	Name:       "weiqi",
	Title:      games.Text{En: "Weiqi (Go)", Zh: "围棋"},
	MinPlayers: 2,
	MaxPlayers: 2,
	SetupOptions: map[string]games.SetupOption{
		"size": {Label: games.Text{En: "Board size", Zh: "棋盘大小"}, Type: "enum", Default: 19, Choices: []any{9, 13, 19}},
		"komi": {Label: games.Text{En: "Komi", Zh: "贴目"}, Type: "float", Default: 7.5, Min: fptr(-150), Max: fptr(150)},
	},
	Moves: []games.MoveSpec{
		{Name: movePlay, Args: `["D4"]`, Description: games.Text{
			En: "Place a stone: column A-T without I from the left, row 1 at the bottom.",
			Zh: "落子：列为 A-T（不含 I）自左起，行 1 在最下方。"}},
		{Name: movePass, Args: "[]", Description: games.Text{
			En: "Pass; two passes in a row enter scoring.",
			Zh: "虚手（停一手）；双方连续虚手即进入结算。"}},
		{Name: moveResign, Args: "[]", AnySeat: true, Description: games.Text{
			En: "Resign: the opponent wins.", Zh: "认输：对手获胜。"}},
		{Name: moveRequestUndo, Args: "[]", AnySeat: true, Description: games.Text{
			En: "Ask to take back your last move (and the opponent's reply, if any); the opponent answers.",
			Zh: "请求悔棋：收回自己的上一手（若对手已应，连同那一手），由对手回应。"}},
		{Name: moveAnswerUndo, Args: "[true|false]", Description: games.Text{
			En: "Answer the opponent's undo request.", Zh: "回应对手的悔棋请求。"}},
		{Name: moveRequestScoring, Args: "[]", AnySeat: true, Description: games.Text{
			En: "Ask to stop and count (scoring); the opponent answers.",
			Zh: "请求结算（主动结算），由对手回应。"}},
		{Name: moveAnswerScoring, Args: "[true|false]", Description: games.Text{
			En: "Answer the opponent's scoring request.", Zh: "回应对手的结算请求。"}},
		{Name: moveToggleDead, Args: `["D4"]`, AnySeat: true, Description: games.Text{
			En: "In scoring: mark or unmark the whole group at a point as dead; clears both approvals.",
			Zh: "结算中：把该点所在的整块棋标为死子或取消；双方的确认随之清除。"}},
		{Name: moveSetDead, Args: `[["D4", "Q16"]]`, AnySeat: true, Description: games.Text{
			En: "In scoring: replace every mark: the groups at the listed points are dead; clears both approvals.",
			Zh: "结算中：重设全部死子标记，所列各点所在的整块棋为死子；双方的确认随之清除。"}},
		{Name: moveApprove, Args: "[]", Description: games.Text{
			En: "In scoring: accept the marks; when both have, the evolution runs and the game is counted.",
			Zh: "结算中：确认死子标记；双方都确认后进入演化终局并计分。"}},
		{Name: moveResume, Args: "[]", AnySeat: true, Description: games.Text{
			En: "In scoring: leave scoring and play on.", Zh: "结算中：取消结算，继续对局。"}},
	},
	Bots: []string{"easy", "normal"},
	// Nothing is hidden in weiqi: one view serves every seat.
	PublicView: true,
}

// Info describes weiqi for the catalog.
func (Rules) Info() games.Info { return info }

// setup is setupData's shape.
type setup struct {
	Size *int     `json:"size"`
	Komi *float64 `json:"komi"`
}

// Setup returns an empty board with black to move. setupData may be
// absent, null, or an object with "size" (9, 13, 19; default 19) and
// "komi" (a multiple of 0.5 from -150 to 150; default 7.5).
func (Rules) Setup(numSeats int, setupData json.RawMessage, _ *games.RNG) (State, error) {
	if numSeats != 2 {
		return State{}, games.BadSetup("weiqi takes 2 players, not %d", numSeats)
	}
	size, komi := 19, 7.5
	if d := bytes.TrimSpace(setupData); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		var o setup
		if d[0] != '{' || json.Unmarshal(d, &o) != nil {
			return State{}, games.BadSetup("weiqi setupData must be an object like {\"size\":19,\"komi\":7.5}, not %.40s", d)
		}
		if o.Size != nil {
			size = *o.Size
		}
		if o.Komi != nil {
			komi = *o.Komi
		}
	}
	if err := checkSetup(size, komi); err != nil {
		return State{}, err
	}
	return newState(size, komi), nil
}

// Status: in phase "play" Current is the seat to move, and a pending
// request makes its asker's opponent the only Active seat (stage
// "answerUndo" or "answerScoring"). In phase "scoring" Active holds each
// seat that has not approved, in stage "scoring". Turn counts the moves
// (passes included) plus one.
func (Rules) Status(s State) games.Status {
	st := games.Status{Phase: s.phase.String(), Turn: len(s.moves) + 1, Current: s.toMove()}
	if o := s.outcome(); o != nil {
		st.Outcome = o
		return st
	}
	switch {
	case s.phase == phaseScoring:
		st.Current = -1
		st.Active = map[int]string{}
		for seat, ok := range s.approved {
			if !ok {
				st.Active[seat] = "scoring"
			}
		}
	case s.undoBy != 0:
		st.Active = map[int]string{2 - int(s.undoBy): "answerUndo"}
	case s.scoreBy != 0:
		st.Active = map[int]string{2 - int(s.scoreBy): "answerScoring"}
	}
	return st
}

// Bot chooses seat's move from its view.
func (Rules) Bot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	return chooseBot(level, v, seat, rng)
}
