package main

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// TestClockAcrossProcessKill: a turn clock lives in the stored record, not
// in a timer of one process. Black plays through process A, white through
// B; on black's turn A is killed (kill -9). B computes black's remaining
// time exactly as A did, and when it runs out B's bot plays black's turn,
// logged as a timeout, though black's grace period (an hour) is far off.
func TestClockAcrossProcessKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes; skipped with -short")
	}
	url := redistest.URL(t)
	a, killA := startProcessGrace(t, url, time.Hour)
	b, _ := startProcessGrace(t, url, time.Hour)
	ctx := context.Background()
	lobby := client.NewLobby(a, nil)
	id, err := lobby.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2, Clock: &protocol.ClockRequest{Bank: 4, PerMove: 1}})
	if err != nil {
		t.Fatal(err)
	}
	seat0, seat1 := "0", "1"
	black, err := lobby.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "Black", PlayerID: &seat0})
	if err != nil {
		t.Fatal(err)
	}
	white, err := lobby.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "White", PlayerID: &seat1})
	if err != nil {
		t.Fatal(err)
	}
	pa := dialAs(t, ctx, a, id, black)
	pb := dialAs(t, ctx, b, id, white)
	spec := dialAs(t, ctx, b, id, nil)
	if _, err := pa.Move(ctx, "place", 7, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := pb.Move(ctx, "place", 0, 0); err != nil {
		t.Fatal(err)
	}
	onA := awaitState(t, pa, "black's turn on A", func(s *protocol.State) bool { return s.StateID == 3 })
	onB, err := spec.Sync(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// Both processes count from the same stored times: black's remaining
	// time differs exactly by the time between their answers.
	ca, cb := onA.Clock, onB.Clock
	if ca == nil || cb == nil || !ca.Seats[0].Running || !cb.Seats[0].Running || cb.Seats[1].Running {
		t.Fatalf("clocks: A %+v, B %+v", ca, cb)
	}
	if da, db := ca.Seats[0].RemainingMs+ca.ServerTime, cb.Seats[0].RemainingMs+cb.ServerTime; da != db {
		t.Fatalf("A and B see black's time run out at different moments: %d vs %d", da, db)
	}
	deadline := ca.ServerTime + ca.Seats[0].RemainingMs
	killA()

	st := awaitStateFor(t, spec, 20*time.Second, "the bot's timeout move for black", func(s *protocol.State) bool {
		return s.StateID >= 4
	})
	rec := lastEntry(st, 4)
	if rec.PlayerID != "0" || rec.Text != rooms.TimeoutText {
		t.Fatalf("move 4 is %+v, want black's timeout", rec)
	}
	if got := st.Clock.ServerTime; got < deadline {
		t.Fatalf("the timeout came at %d, before black's time ran out at %d", got, deadline)
	}
	if c := st.Clock.Seats[0]; c.RemainingMs != 1_000 {
		t.Fatalf("after the timeout black has %d ms, want the 1 s a move", c.RemainingMs)
	}
}

// awaitStateFor is awaitState with its own limit.
func awaitStateFor(t *testing.T, c *client.Conn, limit time.Duration, what string, ok func(*protocol.State) bool) *protocol.State {
	t.Helper()
	for end := time.Now().Add(limit); ; time.Sleep(5 * time.Millisecond) {
		if s := c.Latest(); s != nil && ok(s) {
			return s
		}
		if time.Now().After(end) {
			t.Fatalf("never saw %s", what)
		}
	}
}

// lastEntry is the log entry of the move that made stateID seq, read back
// from the state st (each move logs one entry).
func lastEntry(st *protocol.State, seq int64) protocol.LogEntry {
	i := len(st.Log) - 1 - int(st.StateID-seq)
	if i < 0 || i >= len(st.Log) {
		return protocol.LogEntry{}
	}
	return st.Log[i]
}
