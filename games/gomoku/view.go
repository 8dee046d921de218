package gomoku

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/chaguan/chaguan/games"
)

// View is what the web client draws. Gomoku has no hidden information, so
// both seats and spectators get the same view. Its JSON keys are fixed:
//
//	size        15
//	board       15 rows (row y), char x: '.' empty, 'B' black, 'W' white
//	moves       every stone in play order, black first, as [x, y]
//	last        the last stone, or null on an empty board
//	toMove      "0" or "1": the seat to place the next stone
//	winLine     the winning run, or null
//	undoRequest the seat ID whose undo request awaits an answer, or null
//	result      null while the game goes on
type View struct {
	Size        int      `json:"size"`
	Board       []string `json:"board"`
	Moves       [][2]int `json:"moves"`
	Last        *[2]int  `json:"last"`
	ToMove      string   `json:"toMove"`
	WinLine     [][2]int `json:"winLine"`
	UndoRequest *string  `json:"undoRequest"`
	Result      *Result  `json:"result"`
}

// Result is how the game ended: Winner is a seat ID (null for a draw),
// Reason "five", "resign" or "full" (a draw on a full board).
type Result struct {
	Winner *string `json:"winner"`
	Draw   bool    `json:"draw"`
	Reason string  `json:"reason"`
}

// stoneChar is a cell's character in View.Board.
var stoneChar = [...]byte{empty: '.', black: 'B', white: 'W', wall: '#'}

// View builds the view; viewer does not matter (nothing is hidden).
func (Rules) View(s State, _ int) View {
	v := View{
		Size:    Size,
		Board:   make([]string, Size),
		Moves:   make([][2]int, len(s.moves)),
		ToMove:  games.PlayerID(s.toMove()),
		WinLine: s.winLine(),
	}
	// One string for the whole board, sliced into rows: one allocation.
	var buf [Size * Size]byte
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			buf[y*Size+x] = stoneChar[s.board[at(x, y)]]
		}
	}
	all := string(buf[:])
	for y := range v.Board {
		v.Board[y] = all[y*Size : (y+1)*Size]
	}
	for i, p := range s.moves {
		v.Moves[i] = p.point()
	}
	if n := len(v.Moves); n > 0 {
		last := v.Moves[n-1]
		v.Last = &last
	}
	v.UndoRequest = s.undoRequest()
	v.Result = s.result()
	return v
}

// undoRequest is View.UndoRequest.
func (s *State) undoRequest() *string {
	if s.undoBy == 0 {
		return nil
	}
	id := games.PlayerID(int(s.undoBy) - 1)
	return &id
}

// result is View.Result.
func (s *State) result() *Result {
	o := s.outcome()
	if o == nil {
		return nil
	}
	r := &Result{Draw: o.Draw, Reason: o.Reason}
	if o.Winner != "" {
		w := o.Winner
		r.Winner = &w
	}
	return r
}

// AppendJSON appends the view's JSON, byte for byte what json.Marshal
// writes (games.JSONAppender): the room encodes a view on every move, and
// encoding/json spends most of its time on the move list's pairs.
func (v View) AppendJSON(b []byte) []byte {
	// Room for all but a long Result: a row is 15 characters and quotes,
	// a point at most 8 bytes.
	b = slices.Grow(b, 160+18*len(v.Board)+8*(len(v.Moves)+len(v.WinLine)))
	b = append(b, `{"size":`...)
	b = strconv.AppendInt(b, int64(v.Size), 10)
	b = append(b, `,"board":`...)
	if v.Board == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, row := range v.Board {
			if i > 0 {
				b = append(b, ',')
			}
			b = games.AppendString(b, row)
		}
		b = append(b, ']')
	}
	b = append(b, `,"moves":`...)
	b = appendPoints(b, v.Moves)
	b = append(b, `,"last":`...)
	if v.Last == nil {
		b = append(b, "null"...)
	} else {
		b = appendPoint(b, *v.Last)
	}
	b = append(b, `,"toMove":`...)
	b = games.AppendString(b, v.ToMove)
	b = append(b, `,"winLine":`...)
	b = appendPoints(b, v.WinLine)
	b = append(b, `,"undoRequest":`...)
	if v.UndoRequest == nil {
		b = append(b, "null"...)
	} else {
		b = games.AppendString(b, *v.UndoRequest)
	}
	b = append(b, `,"result":`...)
	if v.Result == nil {
		b = append(b, "null"...)
	} else {
		r, _ := json.Marshal(v.Result) // once a game; it cannot fail
		b = append(b, r...)
	}
	return append(b, '}')
}

func appendPoint(b []byte, p [2]int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(p[0]), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(p[1]), 10)
	return append(b, ']')
}

func appendPoints(b []byte, ps [][2]int) []byte { return games.AppendList(b, ps, appendPoint) }
