package gomoku

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// line returns n points from (x, y) stepping (dx, dy).
func line(x, y, dx, dy, n int) [][2]int {
	out := make([][2]int, n)
	for i := range out {
		out[i] = [2]int{x + i*dx, y + i*dy}
	}
	return out
}

// scattered are white stones far from any of the test lines, placed so no
// two are in a row of more than one.
var scattered = [][2]int{{0, 14}, {3, 12}, {6, 14}, {9, 12}, {12, 14}, {14, 11}}

func TestFiveWins(t *testing.T) {
	tests := []struct {
		name  string
		black [][2]int // played in this order; the last one completes the line
		white [][2]int
		want  [][2]int // the winning line in view order
	}{
		{"horizontal", line(3, 5, 1, 0, 5), scattered, line(3, 5, 1, 0, 5)},
		{"vertical", line(6, 2, 0, 1, 5), scattered, line(6, 2, 0, 1, 5)},
		{"diagonal down-right", line(2, 2, 1, 1, 5), scattered, line(2, 2, 1, 1, 5)},
		{"diagonal down-left", line(10, 1, -1, 1, 5), scattered, line(10, 1, -1, 1, 5)},
		{"completed in the middle", [][2]int{{3, 5}, {4, 5}, {6, 5}, {7, 5}, {5, 5}}, scattered, line(3, 5, 1, 0, 5)},
		{"overline of six", [][2]int{{3, 5}, {4, 5}, {5, 5}, {7, 5}, {8, 5}, {6, 5}}, scattered, line(3, 5, 1, 0, 6)},
		{"overline of seven", [][2]int{{1, 1}, {1, 2}, {1, 3}, {1, 5}, {1, 6}, {1, 7}, {1, 4}}, scattered, line(1, 1, 0, 1, 7)},
		{"top edge", line(0, 0, 1, 0, 5), scattered, line(0, 0, 1, 0, 5)},
		{"bottom right edge", line(10, 14, 1, 0, 5), [][2]int{{0, 0}, {2, 0}, {4, 0}, {6, 0}}, line(10, 14, 1, 0, 5)},
		{"left edge", line(0, 10, 0, 1, 5), [][2]int{{2, 0}, {4, 0}, {6, 0}, {8, 0}}, line(0, 10, 0, 1, 5)},
		{"right edge", line(14, 0, 0, 1, 5), scattered, line(14, 0, 0, 1, 5)},
		{"corner diagonal", line(0, 0, 1, 1, 5), scattered, line(0, 0, 1, 1, 5)},
		{"corner anti-diagonal", line(14, 0, -1, 1, 5), scattered, line(14, 0, -1, 1, 5)},
		{"far corner anti-diagonal", line(4, 10, -1, 1, 5), [][2]int{{14, 0}, {12, 0}, {10, 0}, {8, 0}, {6, 0}}, line(4, 10, -1, 1, 5)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			order := interleave(tc.black, tc.white[:len(tc.black)-1])
			st := playStones(t, order[:len(order)-1]...)
			if o := st.Status().Outcome; o != nil {
				t.Fatalf("game over before the last stone: %+v", o)
			}
			last := order[len(order)-1]
			st = mustApply(t, st, 0, movePlace, last[0], last[1])
			o := st.Status().Outcome
			if o == nil || o.Winner != "0" || o.Reason != "five" || o.Draw {
				t.Fatalf("outcome = %+v, want black wins by five", o)
			}
			want := sortedLine(tc.want)
			if d, ok := o.Detail.(FiveDetail); !ok || !reflect.DeepEqual(d.Line, want) {
				t.Fatalf("detail = %+v, want line %v", o.Detail, want)
			}
			v := viewOf(t, st, games.Spectator)
			if !reflect.DeepEqual(v.WinLine, want) {
				t.Fatalf("view winLine = %v, want %v", v.WinLine, want)
			}
			if v.Result == nil || v.Result.Winner == nil || *v.Result.Winner != "0" || v.Result.Reason != "five" {
				t.Fatalf("view result = %+v", v.Result)
			}
		})
	}
}

// sortedLine orders a line's points top first (left first on a row), as
// the view lists them.
func sortedLine(pts [][2]int) [][2]int {
	out := append([][2]int(nil), pts...)
	if len(out) > 1 && (out[0][1] > out[len(out)-1][1] || (out[0][1] == out[len(out)-1][1] && out[0][0] > out[len(out)-1][0])) {
		for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
			out[i], out[j] = out[j], out[i]
		}
	}
	return out
}

func TestWhiteWins(t *testing.T) {
	order := interleave([][2]int{{0, 0}, {2, 0}, {4, 0}, {6, 0}, {8, 0}}, line(5, 7, 0, 1, 5))
	st := playStones(t, order...)
	o := st.Status().Outcome
	if o == nil || o.Winner != "1" || o.Reason != "five" {
		t.Fatalf("outcome = %+v, want white wins by five", o)
	}
}

func TestFourIsNotFive(t *testing.T) {
	st := playStones(t, interleave(line(3, 3, 1, 0, 4), scattered[:3])...)
	if o := st.Status().Outcome; o != nil {
		t.Fatalf("four stones ended the game: %+v", o)
	}
	// A broken line of five (gap in the middle) is not a five either.
	st = playStones(t, interleave([][2]int{{3, 3}, {4, 3}, {6, 3}, {7, 3}, {8, 3}}, scattered[:4])...)
	if o := st.Status().Outcome; o != nil {
		t.Fatalf("a broken five ended the game: %+v", o)
	}
}

func TestAlternation(t *testing.T) {
	st := newMatch(t)
	for i, p := range [][2]int{{7, 7}, {8, 8}, {6, 6}, {9, 9}} {
		seat := i % 2
		status := st.Status()
		if status.Current != seat || status.Turn != i+1 || status.Phase != "play" || status.Active != nil {
			t.Fatalf("before stone %d: status %+v, want seat %d to move on turn %d", i, status, seat, i+1)
		}
		if v := viewOf(t, st, seat); v.ToMove != games.PlayerID(seat) {
			t.Fatalf("before stone %d: view toMove %q", i, v.ToMove)
		}
		if _, err := st.Apply(1-seat, movePlace, games.Args(0, i)); !errors.Is(err, games.ErrNotYourTurn) {
			t.Fatalf("seat %d out of turn: err %v, want ErrNotYourTurn", 1-seat, err)
		}
		st = mustApply(t, st, seat, movePlace, p[0], p[1])
	}
	v := viewOf(t, st, 0)
	want := []string{"......B........", ".......B.......", "........W......", ".........W....."}
	if !reflect.DeepEqual(v.Board[6:10], want) {
		t.Fatalf("board rows 6-9 = %q, want %q", v.Board[6:10], want)
	}
}

func TestIllegalMoves(t *testing.T) {
	mid := playStones(t, [2]int{7, 7}, [2]int{8, 8}) // black to move
	won := playStones(t, interleave(line(0, 0, 1, 0, 5), scattered[:4])...)
	tests := []struct {
		name    string
		st      games.State
		seat    int
		move    string
		args    string
		wantErr error
	}{
		{"occupied by own stone", mid, 0, "place", `[7,7]`, games.ErrInvalidMove},
		{"occupied by opponent", mid, 0, "place", `[8, 8]`, games.ErrInvalidMove},
		{"x too small", mid, 0, "place", `[-1,3]`, games.ErrInvalidMove},
		{"x too large", mid, 0, "place", `[15,3]`, games.ErrInvalidMove},
		{"y too large", mid, 0, "place", `[3,15]`, games.ErrInvalidMove},
		{"huge", mid, 0, "place", `[123456789012,3]`, games.ErrInvalidMove},
		{"no args", mid, 0, "place", `[]`, games.ErrInvalidMove},
		{"one arg", mid, 0, "place", `[3]`, games.ErrInvalidMove},
		{"three args", mid, 0, "place", `[3,4,5]`, games.ErrInvalidMove},
		{"string", mid, 0, "place", `["3",4]`, games.ErrInvalidMove},
		{"fraction", mid, 0, "place", `[3.5,4]`, games.ErrInvalidMove},
		{"float form", mid, 0, "place", `[3.0,4]`, games.ErrInvalidMove},
		{"exponent", mid, 0, "place", `[3e0,4]`, games.ErrInvalidMove},
		{"leading zero", mid, 0, "place", `[03,4]`, games.ErrInvalidMove},
		{"null coordinate", mid, 0, "place", `[null,4]`, games.ErrInvalidMove},
		{"null", mid, 0, "place", `null`, games.ErrInvalidMove},
		{"object", mid, 0, "place", `{"x":3,"y":4}`, games.ErrInvalidMove},
		{"trailing garbage", mid, 0, "place", `[3,4]x`, games.ErrInvalidMove},
		{"trailing comma", mid, 0, "place", `[3,4,]`, games.ErrInvalidMove},
		{"out of turn", mid, 1, "place", `[3,4]`, games.ErrNotYourTurn},
		{"spectator", mid, games.Spectator, "place", `[3,4]`, games.ErrNotYourTurn},
		{"no such seat", mid, 2, "resign", `[]`, games.ErrNotYourTurn},
		{"unknown move", mid, 0, "pass", `[]`, games.ErrUnknownMove},
		{"resign with args", mid, 0, "resign", `[1]`, games.ErrInvalidMove},
		{"answer without request", mid, 0, "answerUndo", `[true]`, games.ErrInvalidMove},
		{"place after five", won, 1, "place", `[3,4]`, games.ErrGameOver},
		{"resign after five", won, 1, "resign", `[]`, games.ErrGameOver},
		{"undo after five", won, 0, "requestUndo", `[]`, games.ErrGameOver},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := mustJSON(t, tc.st)
			_, err := tc.st.Apply(tc.seat, tc.move, json.RawMessage(tc.args))
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			var me *games.MoveError
			if errors.Is(tc.wantErr, games.ErrInvalidMove) && (!errors.As(err, &me) || me.Reason.En == "" || me.Reason.Zh == "") {
				t.Fatalf("err %v has no reason in both languages", err)
			}
			if after := mustJSON(t, tc.st); !bytes.Equal(before, after) {
				t.Fatalf("refused move changed the state:\n%s\n%s", before, after)
			}
		})
	}
}

func TestAcceptedArgForms(t *testing.T) {
	for _, args := range []string{`[3,4]`, ` [ 3 , 4 ] `, "[\n3,\t4\r]", `[-0,4]`} {
		t.Run(args, func(t *testing.T) {
			st, err := newMatch(t).Apply(0, movePlace, json.RawMessage(args))
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			want := [2]int{3, 4}
			if args == `[-0,4]` {
				want = [2]int{0, 4}
			}
			if v := viewOf(t, st, 0); *v.Last != want {
				t.Fatalf("last = %v, want %v", *v.Last, want)
			}
		})
	}
}

// fullBoard colours the board so no line of five exists: colour by
// (x + 2y) mod 4 < 2, which leaves runs of at most two in every row,
// column and diagonal, with 113 black points and 112 white.
func fullBoard() (blacks, whites [][2]int) {
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			if (x+2*y)%4 < 2 {
				blacks = append(blacks, [2]int{x, y})
			} else {
				whites = append(whites, [2]int{x, y})
			}
		}
	}
	return blacks, whites
}

func TestDrawOnFullBoard(t *testing.T) {
	blacks, whites := fullBoard()
	if len(blacks) != len(whites)+1 {
		t.Fatalf("colouring has %d black and %d white points", len(blacks), len(whites))
	}
	order := interleave(blacks, whites)
	if len(order) != Size*Size {
		t.Fatalf("built %d stones", len(order))
	}
	st := playStones(t, order[:len(order)-1]...)
	if o := st.Status().Outcome; o != nil {
		t.Fatalf("game over before the board was full: %+v (the test's colouring has a five)", o)
	}
	last := order[len(order)-1]
	st = mustApply(t, st, 0, movePlace, last[0], last[1])
	o := st.Status().Outcome
	if o == nil || !o.Draw || o.Winner != "" || o.Reason != "full" {
		t.Fatalf("outcome = %+v, want a draw on a full board", o)
	}
	v := viewOf(t, st, 1)
	if v.Result == nil || !v.Result.Draw || v.Result.Winner != nil || v.WinLine != nil {
		t.Fatalf("view result %+v winLine %v", v.Result, v.WinLine)
	}
}

func TestSetup(t *testing.T) {
	tests := []struct {
		name  string
		seats int
		data  string
		ok    bool
	}{
		{"absent", 2, ``, true},
		{"null", 2, `null`, true},
		{"empty object", 2, `{}`, true},
		{"object with keys", 2, ` {"anything": 1} `, true},
		{"array", 2, `[]`, false},
		{"number", 2, `3`, false},
		{"string", 2, `"x"`, false},
		{"broken object", 2, `{"a":`, false},
		{"three seats", 3, ``, false},
		{"one seat", 1, ``, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Game.Setup(tc.seats, json.RawMessage(tc.data), 1)
			if !tc.ok {
				if !errors.Is(err, games.ErrBadSetup) {
					t.Fatalf("err = %v, want ErrBadSetup", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("setup: %v", err)
			}
			if s := st.Status(); s.Current != 0 || s.Turn != 1 || s.Outcome != nil {
				t.Fatalf("initial status %+v", s)
			}
		})
	}
}

func TestInfo(t *testing.T) {
	i := Game.Info()
	if i.Name != "gomoku" || i.Title.Zh != "五子棋" || i.MinPlayers != 2 || i.MaxPlayers != 2 {
		t.Fatalf("info %+v", i)
	}
	if !reflect.DeepEqual(i.Bots, []string{"easy", "normal", "hard"}) {
		t.Fatalf("bots %v", i.Bots)
	}
	for _, m := range []string{"place", "requestUndo", "answerUndo", "resign"} {
		spec, ok := i.Move(m)
		if !ok || spec.Description.En == "" || spec.Description.Zh == "" || spec.Args == "" {
			t.Fatalf("move %s: %+v %v", m, spec, ok)
		}
		if want := m == "requestUndo" || m == "resign"; spec.AnySeat != want {
			t.Fatalf("move %s AnySeat = %v", m, spec.AnySeat)
		}
	}
}
