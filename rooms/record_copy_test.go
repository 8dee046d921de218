package rooms

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestWithSeatsCopied: writeMeta's copy of a record is the record, and
// what a presence change writes into its seats (names, holders, in place
// where there is room, and data) never reaches the original.
func TestWithSeatsCopied(t *testing.T) {
	holders := make([]string, 1, 4) // room to append in place
	holders[0] = "p1"
	rec := &Record{ID: "m", Game: "gomoku", NumPlayers: 2, Version: 3, StateID: 2, State: json.RawMessage(`{"x":1}`),
		Seats: []Seat{{Name: "Ann", CredHash: "h", Holders: holders, Data: json.RawMessage(`{"a":1}`)}, {Bot: "easy"}},
		Moves: []MoveRecord{{Seat: 0, Move: "place", Args: json.RawMessage(`[1,2]`)}}}
	before, _ := json.Marshal(rec)
	nr := rec.withSeatsCopied()
	if got, _ := json.Marshal(nr); !bytes.Equal(got, before) {
		t.Fatalf("the copy is\n%s\nnot\n%s", got, before)
	}
	s := &nr.Seats[0]
	s.Name = "Bob"
	s.join("p2")
	s.Holders[0] = "p9"
	s.Data[2] = 'b'
	nr.Seats[1].Bot = "normal"
	if after, _ := json.Marshal(rec); !bytes.Equal(after, before) {
		t.Fatalf("changing the copy's seats changed the record:\n%s\nwas\n%s", after, before)
	}
	if len(holders[:2]) == 2 && holders[:2][1] == "p2" {
		t.Fatal("join appended into the original's holders array")
	}
}
