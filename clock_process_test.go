package main

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
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
	// B's own state of black's turn, as B sent it to the spectator. (Not a
	// sync's answer: Sync returns the next state to arrive, which on a busy
	// machine can be white's turn, sent before and read late.)
	onB := awaitState(t, spec, "black's turn on B", func(s *protocol.State) bool { return s.StateID == 3 })
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

// TestClockRunsOutWithNobody: a turn clock is enforced with nobody
// connected. Both players are seated through process A and black is to
// move when A is killed (kill -9). In "restart", A alone comes back and
// nobody connects: its poller finds black's clock in the store's index of
// due clocks and plays the timeout. In "two processes", B (where nobody
// ever connected) plays it while A is down, then A comes back beside it
// and white's timeout is still played once. Each timeout lands within a
// few seconds of its due time (maxLate: a 250 ms poll, with room for a
// busy machine; a poller that missed it would take far longer), once: the
// next move is the other seat's, never before its own clock runs out.
func TestClockRunsOutWithNobody(t *testing.T) {
	const maxLate = 5 * time.Second
	if testing.Short() {
		t.Skip("starts server processes; skipped with -short")
	}
	for _, two := range []bool{false, true} {
		name := map[bool]string{false: "restart", true: "two processes"}[two]
		t.Run(name, func(t *testing.T) {
			url := redistest.URL(t)
			a, killA := startProcessGrace(t, url, time.Hour)
			if two {
				startProcessGrace(t, url, time.Hour)
			}
			store, err := redisstore.New(context.Background(), redisstore.Options{URL: url})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { store.Close() })
			ctx := context.Background()
			lobby := client.NewLobby(a, nil)
			id, err := lobby.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2, Clock: &protocol.ClockRequest{Bank: 5, PerMove: 2}})
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
			pa, pb := dialAs(t, ctx, a, id, black), dialAs(t, ctx, a, id, white)
			if _, err := pa.Move(ctx, "place", 7, 7); err != nil {
				t.Fatal(err)
			}
			if _, err := pb.Move(ctx, "place", 0, 0); err != nil {
				t.Fatal(err)
			}
			rec3 := awaitRecord(t, store, id, 10*time.Second, func(r *rooms.Record) bool { return r.StateID >= 3 })
			due := rec3.Clocks.Since + rec3.Clocks.Left[0] // black's clock runs out then
			killA()
			if !two {
				startProcessGrace(t, url, time.Hour) // A again; nobody connects
			}
			rec := awaitRecord(t, store, id, 30*time.Second, func(r *rooms.Record) bool { return r.StateID >= 4 })
			late := time.Duration(rec.Clocks.Since-due) * time.Millisecond
			mv := rec.Moves[len(rec.Moves)-1]
			if rec.StateID != 4 || mv.Seat != 0 || !mv.Timeout {
				t.Fatalf("after black's clock ran out: stateID %d, last move %+v; want black's timeout as move 3", rec.StateID, mv)
			}
			if late < 0 || late > maxLate {
				t.Fatalf("black's timeout landed %v after its due time, want within %v", late, maxLate)
			}
			if two {
				startProcessGrace(t, url, time.Hour) // A comes back beside B: two pollers
			}
			// White's clock has run since black's timeout: its timeout
			// comes next, once, and not before its time.
			rec2 := awaitRecord(t, store, id, 30*time.Second, func(r *rooms.Record) bool { return r.StateID >= 5 })
			due2 := rec.Clocks.Since + rec.Clocks.Left[1]
			late2 := time.Duration(rec2.Clocks.Since-due2) * time.Millisecond
			mv2 := rec2.Moves[len(rec2.Moves)-1]
			if rec2.StateID != 5 || mv2.Seat != 1 || !mv2.Timeout || late2 < 0 || late2 > maxLate {
				t.Fatalf("after white's clock ran out: stateID %d, last move %+v, %v after its due time; want white's timeout as move 4 within %v",
					rec2.StateID, mv2, late2, maxLate)
			}
			t.Logf("%s: black's timeout %v after its due time, white's %v", name, late.Round(time.Millisecond), late2.Round(time.Millisecond))
		})
	}
}

// awaitRecord polls the store until ok holds of match id's record.
func awaitRecord(t *testing.T, st rooms.Store, id string, limit time.Duration, ok func(*rooms.Record) bool) *rooms.Record {
	t.Helper()
	for end := time.Now().Add(limit); ; time.Sleep(20 * time.Millisecond) {
		rec, err := st.Get(context.Background(), id)
		if err == nil && ok(rec) {
			return rec
		}
		if time.Now().After(end) {
			t.Fatalf("match %s: condition not reached in %v (last error %v)", id, limit, err)
		}
	}
}
