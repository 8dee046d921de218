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
