package main

import (
	"fmt"
	"strconv"
)

// workload is what the load generator knows of one game (-game): how many
// seats and spectators a match has, how a lean seat reads its move from a
// state frame and writes it. Everything else goes through the generic
// wire contract.
type workload struct {
	name     string // the game's name on the server
	move     string // the move every seat plays
	seats    int    // players per match
	watchers int    // spectators per match (lean client only)
	// resigns is true when the game has a "resign" move: the run ends its
	// unfinished matches with it and counts games played to their end.
	resigns bool
	// noMove is the error kind counted when a seat's view offers no move.
	noMove string
	// scanG reads the move to play from the state's "G" into v.
	scanG func(g []byte, v *view)
	// part is the member of G that scanG reads, and scanPart reads it:
	// a connection with patches holds only it and ctx (pruneState), and
	// encodes only it.
	part     string
	scanPart func(val []byte, v *view)
	// rows is true when part is an array of strings changed a string at a
	// time (Gomoku's board): a connection with patches then holds its
	// view as a rowView instead of a client.View.
	rows bool
	// appendArgs appends the JSON args of the move v holds to b; false
	// when v holds none.
	appendArgs func(b []byte, v *view) ([]byte, bool)
}

// The games -game can drive.
var (
	// gomokuLoad: two seats, each placing on the first empty point its
	// pattern gives it (owner), so every match is a 225-move draw.
	gomokuLoad = workload{
		name: gameName, move: moveName, seats: 2, resigns: true, noMove: "no_empty_point",
		scanG: scanBoard, part: "board", scanPart: scanRows, rows: true, appendArgs: appendPoint,
	}
	// gongzhuLoad: four seats, each playing the first legal card of its own
	// view, and a spectator, so every move fans out five different views.
	// Gong Zhu never ends: matches run until the run does.
	gongzhuLoad = workload{
		name: "gongzhu", move: "play", seats: 4, watchers: 1, noMove: "no_legal_card",
		scanG: scanLegal, part: "players", scanPart: scanPlayers, appendArgs: appendCard,
	}
)

// workloadFor returns the workload of game name ("" is Gomoku's).
func workloadFor(name string) (*workload, error) {
	if name == "" {
		return &gomokuLoad, nil
	}
	for _, w := range []*workload{&gomokuLoad, &gongzhuLoad} {
		if w.name == name {
			return w, nil
		}
	}
	return nil, fmt.Errorf("-game %q: must be %s or %s", name, gomokuLoad.name, gongzhuLoad.name)
}

// viewers is the number of connections that receive each move's state.
func (w *workload) viewers() int { return w.seats + w.watchers }

// appendPoint appends Gomoku's [x,y] of the seat to move from v.
func appendPoint(b []byte, v *view) ([]byte, bool) {
	p, ok := v.next()
	if !ok {
		return b, false
	}
	return appendInts(b, p.x, p.y), true
}

// appendCard appends Gong Zhu's ["QS"] from v.
func appendCard(b []byte, v *view) ([]byte, bool) {
	if v.card == "" {
		return b, false
	}
	b = append(b, `["`...)
	b = append(b, v.card...)
	return append(b, `"]`...), true
}

// appendInts appends the JSON array of ints.
func appendInts(b []byte, args ...int) []byte {
	b = append(b, '[')
	for i, a := range args {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(a), 10)
	}
	return append(b, ']')
}
