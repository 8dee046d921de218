package rooms

import (
	"fmt"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
)

// TestSuccessorLog: each move's record keeps the newest maxLog entries,
// the new one last, in a slice of its own: the record before it is left
// as it was.
func TestSuccessorLog(t *testing.T) {
	st, err := gomoku.Game.Setup(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	r := &room{game: gomoku.Game, st: st, rec: &Record{ID: "m", Game: "gomoku", NumPlayers: 2, StateID: 1}}
	var prevs []*Record
	var prevLogs [][]protocol.LogEntry
	for i := range 2 * maxLog {
		seat := i % 2
		args := games.Args(i%15, i/15)
		before := r.st.Status()
		next, err := r.st.Apply(seat, "place", args)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		nr, err := r.successor(seat, "place", args, before, next, false)
		if err != nil {
			t.Fatal(err)
		}
		if want := min(i+1, maxLog); len(nr.Log) != want {
			t.Fatalf("after %d moves the log holds %d entries, want %d", i+1, len(nr.Log), want)
		}
		for j, e := range nr.Log {
			want := i + 1 - len(nr.Log) + j // the move index this entry is for
			if e.PlayerID != games.PlayerID(want%2) || string(e.Args) != fmt.Sprintf("[%d,%d]", want%15, want/15) {
				t.Fatalf("after %d moves entry %d is %+v, want move %d", i+1, j, e, want)
			}
		}
		prevs, prevLogs = append(prevs, r.rec), append(prevLogs, slices.Clone(r.rec.Log))
		r.rec, r.st = nr, next
	}
	for i, rec := range prevs {
		if !sameEntries(rec.Log, prevLogs[i]) {
			t.Fatalf("record %d's log changed after later moves", i)
		}
	}
}

// TestSeatCache: entries for any number of seats, the spectator included,
// come back as they were put.
func TestSeatCache(t *testing.T) {
	var c seatCache
	for seat := games.Spectator; seat < 9; seat++ {
		if _, ok := c.get(seat); ok {
			t.Fatalf("seat %d found before it was put", seat)
		}
		c.put(seat, []byte(fmt.Sprint(seat)))
	}
	for seat := games.Spectator; seat < 9; seat++ {
		if b, ok := c.get(seat); !ok || string(b) != fmt.Sprint(seat) {
			t.Fatalf("seat %d: %q, %v", seat, b, ok)
		}
	}
	if _, ok := c.get(9); ok {
		t.Fatal("seat 9 found, never put")
	}
}
