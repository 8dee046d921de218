package games_test

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// tally is a two-seat game whose state is a number; each seat's view adds
// its own entry to the spectators' "players":{} (games.SeatEntries).
// publicTally writes the spectators' view itself
// (games.PublicViewAppender), counting how often in written.
type tally struct {
	written *int
}

type tallyView struct {
	N       int            `json:"n"`
	Players map[string]int `json:"players"`
}

func (tally) Info() games.Info {
	return games.Info{Name: "tally", MinPlayers: 2, MaxPlayers: 2, Moves: []games.MoveSpec{{Name: "add", Args: "[]"}}}
}
func (tally) Setup(int, json.RawMessage, *games.RNG) (int, error) { return 0, nil }
func (tally) Status(n int) games.Status                           { return games.Status{Current: n % 2} }
func (tally) Apply(n int, _ int, _ string, _ json.RawMessage) (int, error) {
	return n + 1, nil
}
func (tally) View(n int, viewer int) tallyView {
	v := tallyView{N: n, Players: map[string]int{}}
	if viewer >= 0 {
		v.Players[games.PlayerID(viewer)] = n * 10
	}
	return v
}
func (tally) Bot(string, tallyView, int, *rand.Rand) (string, json.RawMessage, error) {
	return "add", games.Args(), nil
}
func (tally) AppendSeatEntry(b []byte, n int, viewer int) []byte {
	return strconv.AppendInt(append(b, `"`+games.PlayerID(viewer)+`":`...), int64(n*10), 10)
}

// publicTally writes the spectators' view itself.
type publicTally struct{ tally }

func (t publicTally) AppendPublicView(b []byte, n int) []byte {
	*t.written++
	return append(strconv.AppendInt(append(b, `{"n":`...), int64(n), 10), `,"players":{}}`...)
}

// TestSeatEntryEncodesNoView: games.SeatEntry gives a seat's entry
// without writing the spectators' view when the rules write that view
// themselves (their "players":{} is theirs to write, and gametest checks
// it); for other rules it encodes the view once to check it holds one.
func TestSeatEntryEncodesNoView(t *testing.T) {
	written := 0
	g := games.Erase[int, tallyView](publicTally{tally{written: &written}})
	st, err := g.Setup(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = st.Apply(0, "add", games.Args()); err != nil {
		t.Fatal(err)
	}
	entry, ok := games.SeatEntry(st, nil, 1)
	if !ok || string(entry) != `"1":10` {
		t.Fatalf("SeatEntry = %s, %v", entry, ok)
	}
	if written != 0 {
		t.Fatalf("SeatEntry wrote the spectators' view %d times", written)
	}
	view, err := st.AppendView(nil, 1)
	if err != nil || string(view) != `{"n":1,"players":{"1":10}}` || written != 1 {
		t.Fatalf("AppendView(1) = %s, %v after %d writes", view, err, written)
	}

	plain := games.Erase[int, tallyView](tally{})
	st, _ = plain.Setup(2, nil, 1)
	if entry, ok := games.SeatEntry(st, nil, 0); !ok || string(entry) != `"0":0` {
		t.Fatalf("SeatEntry without PublicViewAppender = %s, %v", entry, ok)
	}
}
