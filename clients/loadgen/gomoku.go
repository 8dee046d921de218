package main

import (
	"encoding/json"

	"github.com/chaguan/chaguan/protocol"
)

// What the workload knows of Gomoku: its name, its move and how to read a
// view. Everything else goes through the generic wire contract.
const (
	gameName = "gomoku"
	moveName = "place"
)

// owner is the seat the drawing pattern gives the point (x, y): seat 0 when
// (y + 2x) mod 4 < 2, else seat 1. No seat then has more than two stones
// in a row in any direction, seat 0 has 113 of the 225 points and seat 1
// the other 112, and a match played by it is a 225-move draw (the same
// pattern as the boardgame.io anchor's load driver).
func owner(x, y int) int {
	if (y+2*x)%4 < 2 {
		return 0
	}
	return 1
}

// firstEmpty scans the Gomoku view's board row by row for the first empty
// point that owner gives seat.
func firstEmpty(g json.RawMessage, seat int) (x, y int, ok bool) {
	var v struct {
		Board []string `json:"board"`
	}
	if json.Unmarshal(g, &v) != nil {
		return 0, 0, false
	}
	for y, row := range v.Board {
		for x := 0; x < len(row); x++ {
			if row[x] == '.' && owner(x, y) == seat {
				return x, y, true
			}
		}
	}
	return 0, 0, false
}

// over reports whether the state's game has ended.
func over(st *protocol.State) bool {
	g := st.Ctx.Gameover
	return len(g) > 0 && string(g) != "null"
}
