package rooms

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func turnOf(seat int) games.Status { return games.Status{Current: seat} }

func clockRecord(seats int, bank, perMove int64) *Record {
	rec := &Record{NumPlayers: seats, Seats: make([]Seat, seats), Options: Options{Clock: &ClockOptions{BankMs: bank, PerMoveMs: perMove}}}
	for i := range rec.Seats {
		rec.Seats[i].Bot = "easy"
	}
	return rec
}

// TestClocksFischer: the bank of the seat to move falls, the others stand;
// a move adds perMove to the mover; a timeout counts, a move of one's own
// starts the count again; no bank falls below zero.
func TestClocksFischer(t *testing.T) {
	rec := clockRecord(2, 60_000, 5_000)
	startClocks(rec, 1_000)
	c := rec.Clocks
	if !reflect.DeepEqual(c.Left, []int64{60_000, 60_000}) || c.Since != 1_000 {
		t.Fatalf("start: %+v", c)
	}
	if got := c.remaining(turnOf(0), 0, 11_000); got != 50_000 {
		t.Fatalf("seat 0 after 10 s of its turn: %d", got)
	}
	if got := c.remaining(turnOf(0), 1, 11_000); got != 60_000 {
		t.Fatalf("seat 1 waiting: %d", got)
	}
	if at, ok := c.deadline(turnOf(0), 0); !ok || at != 61_000 {
		t.Fatalf("deadline %d %v", at, ok)
	}
	if _, ok := c.deadline(turnOf(0), 1); ok {
		t.Fatal("a waiting seat has a deadline")
	}
	// Seat 0 moves after 10 s: 60-10+5 = 55 s; seat 1's runs now.
	c2 := c.afterMove(turnOf(0), 0, 11_000, 5_000, false)
	if !reflect.DeepEqual(c2.Left, []int64{55_000, 60_000}) || c2.Since != 11_000 {
		t.Fatalf("after seat 0's move: %+v", c2)
	}
	if c.Left[0] != 60_000 || c.Since != 1_000 {
		t.Fatalf("afterMove changed the old clocks: %+v", c)
	}
	// Seat 1 overruns by 20 s: its bank stops at 0, the bot's move adds
	// perMove and counts a timeout; the next own move clears the count.
	c3 := c2.afterMove(turnOf(1), 1, 91_000, 5_000, true)
	if !reflect.DeepEqual(c3.Left, []int64{55_000, 5_000}) || c3.Timeouts[1] != 1 {
		t.Fatalf("after a timeout: %+v", c3)
	}
	c4 := c3.afterMove(turnOf(1), 1, 92_000, 5_000, true)
	if c4.Timeouts[1] != 2 {
		t.Fatalf("two timeouts in a row: %+v", c4)
	}
	c5 := c4.afterMove(turnOf(1), 1, 93_000, 5_000, false)
	if c5.Timeouts[1] != 0 || c5.Left[1] != 13_000 {
		t.Fatalf("an own move: %+v", c5)
	}
}

// TestClocksSimultaneous: in a simultaneous stage every active seat's clock
// runs, and one seat's move settles all of them at once.
func TestClocksSimultaneous(t *testing.T) {
	rec := clockRecord(3, 30_000, 0)
	startClocks(rec, 1_000)
	both := games.Status{Current: -1, Active: map[int]string{0: "choose", 2: "choose"}}
	c := rec.Clocks.afterMove(both, 2, 5_000, 0, false)
	if !reflect.DeepEqual(c.Left, []int64{26_000, 30_000, 26_000}) {
		t.Fatalf("after 4 s of a stage for seats 0 and 2: %v", c.Left)
	}
	only0 := games.Status{Current: -1, Active: map[int]string{0: "choose"}}
	if got := c.remaining(only0, 0, 11_000); got != 20_000 {
		t.Fatalf("seat 0 still choosing: %d", got)
	}
	if got := c.remaining(only0, 2, 11_000); got != 26_000 {
		t.Fatalf("seat 2, done: %d", got)
	}
}

// TestClocksStart: clocks start only with a clock, once every seat is
// taken, and only once; a record without a clock shows none.
func TestClocksStart(t *testing.T) {
	rec := clockRecord(2, 10_000, 1_000)
	rec.Seats[1].Bot = ""
	startClocks(rec, 500)
	if rec.Clocks != nil {
		t.Fatal("clocks started with a free seat")
	}
	rec.Seats[1].CredHash = "x"
	startClocks(rec, 700)
	startClocks(rec, 900)
	if rec.Clocks == nil || rec.Clocks.Since != 700 {
		t.Fatalf("clocks: %+v", rec.Clocks)
	}
	v := rec.clockView(turnOf(1), 2_700)
	if v.ServerTime != 2_700 || v.Seats[0].RemainingMs != 10_000 || v.Seats[0].Running || v.Seats[1].RemainingMs != 8_000 || !v.Seats[1].Running {
		t.Fatalf("view: %+v", v)
	}
	if v := rec.clockView(turnOf(1), 60_000); v.Seats[1].RemainingMs != 0 {
		t.Fatalf("a run-out clock shows %d", v.Seats[1].RemainingMs)
	}
	none := clockRecord(2, 0, 0)
	none.Options.Clock = nil
	startClocks(none, 1)
	if none.Clocks != nil || none.clockView(turnOf(0), 1) != nil {
		t.Fatal("clocks without a clock")
	}
	// Stored and loaded, a record computes the same times: they come from
	// stored times only.
	b, _ := json.Marshal(rec)
	var back Record
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if a, b := rec.clockView(turnOf(1), 5_000), back.clockView(turnOf(1), 5_000); !reflect.DeepEqual(a, b) {
		t.Fatalf("loaded clocks differ: %+v vs %+v", a, b)
	}
}
