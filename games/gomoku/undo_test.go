package gomoku

import (
	"errors"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestUndoFlows(t *testing.T) {
	stones := [][2]int{{7, 7}, {8, 8}, {6, 6}} // black, white, black: white to move
	tests := []struct {
		name   string
		asker  int
		accept bool
		want   [][2]int // stones left
	}{
		{"black takes back its last stone", 0, true, stones[:2]},
		{"white takes back its stone and black's reply", 1, true, stones[:1]},
		{"black refused", 0, false, stones},
		{"white refused", 1, false, stones},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := playStones(t, stones...)
			st = mustApply(t, st, tc.asker, moveRequestUndo)
			answerer := 1 - tc.asker
			status := st.Status()
			if !reflect.DeepEqual(status.Active, map[int]string{answerer: "answerUndo"}) {
				t.Fatalf("pending status Active = %v, want only seat %d answering", status.Active, answerer)
			}
			if v := viewOf(t, st, games.Spectator); v.UndoRequest == nil || *v.UndoRequest != games.PlayerID(tc.asker) {
				t.Fatalf("view undoRequest = %v", v.UndoRequest)
			}
			// Nobody places while the request waits; the asker cannot answer.
			for seat := 0; seat < 2; seat++ {
				if _, err := st.Apply(seat, movePlace, games.Args(0, 0)); err == nil {
					t.Fatalf("seat %d placed a stone while an undo request was pending", seat)
				}
			}
			if _, err := st.Apply(tc.asker, moveAnswerUndo, games.Args(true)); err == nil {
				t.Fatalf("the asker answered its own request")
			}
			if _, err := st.Apply(tc.asker, moveRequestUndo, nil); !errors.Is(err, games.ErrInvalidMove) {
				t.Fatalf("second request: err %v, want ErrInvalidMove", err)
			}
			if _, err := st.Apply(answerer, moveRequestUndo, nil); !errors.Is(err, games.ErrInvalidMove) {
				t.Fatalf("counter-request: err %v, want ErrInvalidMove", err)
			}

			st = mustApply(t, st, answerer, moveAnswerUndo, tc.accept)
			v := viewOf(t, st, 0)
			if v.UndoRequest != nil || st.Status().Active != nil {
				t.Fatalf("request still pending after the answer")
			}
			if !reflect.DeepEqual(v.Moves, tc.want) {
				t.Fatalf("moves = %v, want %v", v.Moves, tc.want)
			}
			wantTurn := len(tc.want) % 2
			if tc.accept {
				wantTurn = tc.asker
			}
			if s := st.Status(); s.Current != wantTurn || s.Turn != len(tc.want)+1 {
				t.Fatalf("status %+v, want seat %d on turn %d", s, wantTurn, len(tc.want)+1)
			}
			// The board and move list agree: the taken-back points are free again.
			for _, p := range stones[len(tc.want):] {
				if v.Board[p[1]][p[0]] != '.' {
					t.Fatalf("point %v still holds a stone", p)
				}
			}
			mustApply(t, st, wantTurn, movePlace, 0, 0)
		})
	}
}

func TestUndoRefusals(t *testing.T) {
	tests := []struct {
		name   string
		stones [][2]int
		seat   int
		args   string
	}{
		{"nobody has moved", nil, 0, `[]`},
		{"white before its first stone", [][2]int{{7, 7}}, 1, `[]`},
		{"arguments", [][2]int{{7, 7}}, 0, `[true]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := playStones(t, tc.stones...)
			before := mustJSON(t, st)
			_, err := st.Apply(tc.seat, moveRequestUndo, []byte(tc.args))
			var me *games.MoveError
			if !errors.As(err, &me) || me.Reason.Zh == "" {
				t.Fatalf("err = %v, want an invalid move with reasons", err)
			}
			if string(mustJSON(t, st)) != string(before) {
				t.Fatalf("refused request changed the state")
			}
		})
	}
}

func TestUndoAnswerArgs(t *testing.T) {
	st := mustApply(t, playStones(t, [2]int{7, 7}), 0, moveRequestUndo)
	for _, args := range []string{`[]`, `["yes"]`, `[1]`, `true`, `[true,false]`, `[null]`} {
		t.Run(args, func(t *testing.T) {
			if _, err := st.Apply(1, moveAnswerUndo, []byte(args)); !errors.Is(err, games.ErrInvalidMove) {
				t.Fatalf("err = %v, want ErrInvalidMove", err)
			}
		})
	}
}

func TestUndoBackToEmptyAndAgain(t *testing.T) {
	st := playStones(t, [2]int{7, 7})
	st = mustApply(t, st, 0, moveRequestUndo)
	st = mustApply(t, st, 1, moveAnswerUndo, true)
	if v := viewOf(t, st, 1); len(v.Moves) != 0 || v.Last != nil || v.ToMove != "0" {
		t.Fatalf("after undoing the only stone: %+v", v)
	}
	// The point a taken-back stone held is free again: white's block of
	// black's four is undone, white plays elsewhere, and black wins there.
	four := interleave(line(3, 3, 1, 0, 4), scattered[:3])
	st = playStones(t, four...)               // black has four, white to move
	st = mustApply(t, st, 1, movePlace, 7, 3) // white blocks one end
	st = mustApply(t, st, 1, moveRequestUndo)
	st = mustApply(t, st, 0, moveAnswerUndo, true)
	st = mustApply(t, st, 1, movePlace, 2, 3) // white blocks the other end
	st = mustApply(t, st, 0, movePlace, 7, 3)
	if o := st.Status().Outcome; o == nil || o.Winner != "0" {
		t.Fatalf("black's five on the freed point: outcome %+v", o)
	}
}

func TestResign(t *testing.T) {
	for _, tc := range []struct {
		name    string
		seat    int
		pending bool
	}{
		{"on own turn", 0, false},
		{"out of turn", 1, false},
		{"while own undo request waits", 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := playStones(t, [2]int{7, 7}, [2]int{8, 8})
			if tc.pending {
				st = mustApply(t, st, tc.seat, moveRequestUndo)
			}
			st = mustApply(t, st, tc.seat, moveResign)
			o := st.Status().Outcome
			if o == nil || o.Winner != games.PlayerID(1-tc.seat) || o.Reason != "resign" {
				t.Fatalf("outcome %+v, want seat %d wins by resignation", o, 1-tc.seat)
			}
			v := viewOf(t, st, games.Spectator)
			if v.Result == nil || *v.Result.Winner != games.PlayerID(1-tc.seat) || v.UndoRequest != nil {
				t.Fatalf("view result %+v undo %v", v.Result, v.UndoRequest)
			}
			if _, err := st.Apply(1-tc.seat, movePlace, games.Args(0, 0)); !errors.Is(err, games.ErrGameOver) {
				t.Fatalf("move after resignation: %v", err)
			}
		})
	}
}

// TestApplyLeavesInputAlone applies every kind of move to one state, and
// two different stones to the same state, and checks the input and the
// earlier results never change (the move list must not be shared).
func TestApplyLeavesInputAlone(t *testing.T) {
	base := playStones(t, [2]int{7, 7}, [2]int{8, 8}, [2]int{6, 6})
	pending := mustApply(t, base, 1, moveRequestUndo)
	snap := func(st games.State) string { return string(mustJSON(t, st)) + string(mustJSON(t, st.View(0))) }
	baseBefore, pendingBefore := snap(base), snap(pending)

	a := mustApply(t, base, 1, movePlace, 0, 0)
	aBefore := snap(a)
	b := mustApply(t, base, 1, movePlace, 14, 14)
	mustApply(t, base, 0, moveResign)
	mustApply(t, pending, 0, moveAnswerUndo, true)
	mustApply(t, pending, 0, moveAnswerUndo, false)
	mustApply(t, a, 0, movePlace, 1, 1)

	if snap(base) != baseBefore || snap(pending) != pendingBefore || snap(a) != aBefore {
		t.Fatalf("a later Apply changed an earlier state")
	}
	if la, lb := *viewOf(t, a, 0).Last, *viewOf(t, b, 0).Last; la != [2]int{0, 0} || lb != [2]int{14, 14} {
		t.Fatalf("sibling states share stones: last %v and %v", la, lb)
	}
}
