package gomoku

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/chaguan/chaguan/games"
)

// maxViewOps bounds the stones a patch of the view adds or removes: past
// it (a viewer far behind) the framework's diff of the whole view does.
const maxViewOps = 8

// AppendViewOps implements games.ViewPatcher. A stone placed (or taken
// back by an undo) changes one row of the board, the end of the move
// list, last and toMove; the end of the game winLine and result; an undo
// request undoRequest. The operations replace those members, and add or
// remove the moves from where the two move lists part; the rest of the
// view stays as it is. Every viewer's view is the same.
func (Rules) AppendViewOps(b []byte, prev, next State, _ int, prefix string) ([]byte, bool) {
	k := 0 // the moves both lists start with
	for k < len(prev.moves) && k < len(next.moves) && prev.moves[k] == next.moves[k] {
		k++
	}
	if len(prev.moves)-k+len(next.moves)-k > maxViewOps {
		return b, false
	}
	start := len(b)
	op := func(kind, path string) { b = games.AppendPatchOp(b, start, kind, prefix, path) }
	// The rows the stones that differ lie on, each once, top to bottom.
	var rows [Size]bool
	for _, moves := range [2][]pos{prev.moves[k:], next.moves[k:]} {
		for _, p := range moves {
			_, y := p.xy()
			rows[y] = true
		}
	}
	for y, touched := range rows {
		if !touched {
			continue
		}
		var row [Size]byte
		same := true
		for x := range Size {
			row[x] = stoneChar[next.board[at(x, y)]]
			same = same && prev.board[at(x, y)] == next.board[at(x, y)]
		}
		if same {
			continue
		}
		op("replace", "/board/"+strconv.Itoa(y))
		b = games.AppendString(b, string(row[:]))
		b = append(b, '}')
	}
	for i := len(prev.moves) - 1; i >= k; i-- {
		op("remove", "/moves/"+strconv.Itoa(i))
		b = append(b, '}')
	}
	for _, p := range next.moves[k:] {
		op("add", "/moves/-")
		b = appendPoint(b, p.point())
		b = append(b, '}')
	}
	if lp, ln := lastMove(&prev), lastMove(&next); lp != ln {
		op("replace", "/last")
		if ln < 0 {
			b = append(b, "null"...)
		} else {
			b = appendPoint(b, ln.point())
		}
		b = append(b, '}')
	}
	if prev.toMove() != next.toMove() {
		op("replace", "/toMove")
		b = games.AppendString(b, games.PlayerID(next.toMove()))
		b = append(b, '}')
	}
	if wp, wn := prev.winLine(), next.winLine(); !slices.Equal(wp, wn) || (wp == nil) != (wn == nil) {
		op("replace", "/winLine")
		b = appendPoints(b, wn)
		b = append(b, '}')
	}
	if prev.undoBy != next.undoBy {
		op("replace", "/undoRequest")
		if u := next.undoRequest(); u == nil {
			b = append(b, "null"...)
		} else {
			b = games.AppendString(b, *u)
		}
		b = append(b, '}')
	}
	if !prev.over() && !next.over() {
		return b, true
	}
	if rp, rn := marshalResult(prev.result()), marshalResult(next.result()); string(rp) != string(rn) {
		op("replace", "/result")
		b = append(b, rn...)
		b = append(b, '}')
	}
	return b, true
}

// lastMove is the last stone (View.Last), or -1 on an empty board.
func lastMove(s *State) pos {
	if len(s.moves) == 0 {
		return -1
	}
	return s.moves[len(s.moves)-1]
}

// marshalResult is the JSON of View.Result.
func marshalResult(v *Result) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("gomoku: " + err.Error())
	}
	return b
}
