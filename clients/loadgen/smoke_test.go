package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/server/servertest"
)

// TestSmoke runs the load generator in-process against a real server for
// about a second with two matches and a few idle spectators, with each
// client.
func TestSmoke(t *testing.T) {
	for _, c := range []string{clientLean, clientFull} {
		t.Run(c, func(t *testing.T) { testSmoke(t, c) })
	}
}

// TestIdleLive: against a server with pprof, the idle report also gives
// the memory the connections hold after a collection. The test server
// shares this process with the load generator's clients, so each
// connection counts the server's goroutine and the client's two.
func TestIdleLive(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Pprof: true})
	rep := runFor(t, srv.URL, "-matches", "1", "-duration", "200ms", "-idle", "50")
	live := rep.Idle.PerConnLive
	if live == nil {
		t.Fatalf("no live figures: %+v", rep.Idle)
	}
	// Other goroutines come and go (HTTP keep-alives, workers), so only
	// the floor is certain.
	if g := live["go_goroutines"]; g < 2.9 {
		t.Errorf("%.2f goroutines per idle connection after GC, want at least 3 (server 1, client 2)", g)
	}
	if live["go_memstats_stack_inuse_bytes"] <= 0 {
		t.Errorf("live per-connection stack %v", live["go_memstats_stack_inuse_bytes"])
	}
	if rep.Idle.AfterGC["go_memstats_heap_inuse_bytes"] > rep.Idle.After["go_memstats_heap_inuse_bytes"]*1.5 {
		t.Errorf("heap in use grew across a forced collection: %v -> %v", rep.Idle.After, rep.Idle.AfterGC)
	}
}

func testSmoke(t *testing.T, clientKind string) {
	srv := servertest.Start(t, servertest.Options{})
	rep := runFor(t, srv.URL, "-matches", "2", "-duration", "1s", "-idle", "5", "-client", clientKind)
	var out bytes.Buffer
	rep.writeText(&out)
	t.Logf("report:\n%s", out.String())
	if rep.Moves == 0 || rep.Ack.Count == 0 || rep.Opponent.Count == 0 {
		t.Fatalf("no moves acked or seen: moves=%d ack=%+v opp=%+v", rep.Moves, rep.Ack, rep.Opponent)
	}
	if rep.Ack.P50 <= 0 || rep.Ack.P50 > rep.Ack.P99 || rep.Ack.P99 > rep.Ack.Max {
		t.Fatalf("ack percentiles out of order: %+v", rep.Ack)
	}
	if n := total(rep.Errors); n != 0 {
		t.Fatalf("errors against a healthy server: %v", rep.Errors)
	}
	if rep.Idle == nil || rep.Idle.Conns != 5 {
		t.Fatalf("idle report %+v, want 5 open connections", rep.Idle)
	}
	if rep.Idle.PerConnLive != nil || !strings.Contains(rep.Idle.Note, "-pprof") {
		t.Errorf("live figures without pprof: %+v, note %q", rep.Idle.PerConnLive, rep.Idle.Note)
	}
	if !strings.Contains(out.String(), "summary: matches=2") {
		t.Fatalf("no summary line in:\n%s", out.String())
	}
	// Every started match is over: the run resigned what it left unfinished.
	recs, err := srv.Store.List(context.Background(), gameName)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range recs {
		started := rec.Seats[0].Taken() && rec.Seats[1].Taken()
		if started && len(rec.Gameover) == 0 {
			t.Errorf("match %s left unfinished at version %d", rec.ID, rec.Version)
		}
	}
	if rep.CPU == nil || rep.CPU.ServerSeconds <= 0 || rep.CPU.ServerPerMoveUs <= 0 {
		t.Errorf("no server CPU measured: %+v", rep.CPU)
	}
	if rep.Client != clientKind {
		t.Errorf("report says client %q, want %q", rep.Client, clientKind)
	}
}

// TestRunRefusesBadServer checks that a server without the game, or no
// server at all, is an error and not a report full of failures.
func TestRunRefusesBadServer(t *testing.T) {
	ctx := context.Background()
	cfg, err := parseFlags([]string{"-url", "http://127.0.0.1:1", "-duration", "1s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := run(ctx, cfg, nil); err == nil {
		t.Fatal("run against a closed port succeeded")
	}
}

// TestServerGoesAway: when the server drops every connection and refuses
// new ones mid-run, the run still ends on time and counts the failures,
// with each client.
func TestServerGoesAway(t *testing.T) {
	for _, c := range []string{clientLean, clientFull} {
		t.Run(c, func(t *testing.T) { testServerGoesAway(t, c) })
	}
}

func testServerGoesAway(t *testing.T, clientKind string) {
	srv := servertest.Start(t, servertest.Options{})
	go func() {
		time.Sleep(500 * time.Millisecond)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Handler.Shutdown(ctx)
	}()
	begin := time.Now()
	rep := runFor(t, srv.URL, "-matches", "2", "-duration", "1500ms", "-client", clientKind)
	if took := time.Since(begin); took > 10*time.Second {
		t.Fatalf("run took %s after the server went away", took)
	}
	if total(rep.Errors) == 0 {
		t.Fatalf("no errors counted after the server went away: %+v", rep)
	}
	t.Logf("moves=%d errors=%v", rep.Moves, rep.Errors)
}

// runFor runs the load generator with args against url (without progress
// lines) and returns its report; it fails the test if the run fails or
// takes over 30 s.
func runFor(t *testing.T, url string, args ...string) *report {
	t.Helper()
	cfg, err := parseFlags(append([]string{"-url", url, "-progress=false"}, args...), nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rep, err := run(ctx, cfg, nil)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return rep
}

// TestSmokeGongzhu runs -game gongzhu against a real server for about a
// second with two matches: four lean seats each play legal cards their
// own view offers, a spectator per match reads every move, and the
// server's records show the cards played.
func TestSmokeGongzhu(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	rep := runFor(t, srv.URL, "-matches", "2", "-duration", "1s", "-game", "gongzhu")
	var out bytes.Buffer
	rep.writeText(&out)
	t.Logf("report:\n%s", out.String())
	if rep.Game != "gongzhu" || !strings.Contains(out.String(), "game=gongzhu") {
		t.Errorf("report names game %q", rep.Game)
	}
	// Four seats, and a trick passes the turn to its taker: more than a
	// trick's worth of moves means every seat has played.
	if rep.Moves < 8 || rep.Ack.Count < rep.Moves || rep.Opponent.Count == 0 {
		t.Fatalf("too few moves acked or seen: moves=%d ack=%+v opp=%+v", rep.Moves, rep.Ack, rep.Opponent)
	}
	if n := total(rep.Errors); n != 0 {
		t.Fatalf("errors against a healthy server: %v", rep.Errors)
	}
	if b := rep.Bytes; b == nil || b.SeatPerMove <= 0 || b.SpectatorPerMove <= 0 {
		t.Fatalf("state bytes per viewer not counted: %+v", rep.Bytes)
	}
	if rep.Games != 0 {
		t.Errorf("%d Gong Zhu games counted as ended; Gong Zhu never ends", rep.Games)
	}
	recs, err := srv.Store.List(context.Background(), "gongzhu")
	if err != nil {
		t.Fatal(err)
	}
	var states int64
	for _, rec := range recs {
		if len(rec.Seats) != 4 {
			t.Errorf("match %s has %d seats, want 4", rec.ID, len(rec.Seats))
		}
		states += rec.Version
	}
	if len(recs) == 0 || states < rep.Moves {
		t.Fatalf("%d Gong Zhu records at %d states in all, want at least the %d moves acked", len(recs), states, rep.Moves)
	}
}

// TestSmokeRate: -rate caps the moves of all seats together. Four
// unpaced Gomoku matches capped at 40 moves/s play no faster than the cap
// allows (the limiter's burst of one move at the start aside), and they
// do play.
func TestSmokeRate(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	rep := runFor(t, srv.URL, "-matches", "4", "-duration", "1s", "-seat-rate", "0", "-rate", "40")
	if rep.Moves == 0 || total(rep.Errors) != 0 {
		t.Fatalf("moves=%d errors=%v", rep.Moves, rep.Errors)
	}
	// The window is measured by the run itself; allow the burst and the
	// moves already waiting when it opened.
	if limit := 40*rep.Seconds + 10; float64(rep.Moves) > limit {
		t.Fatalf("%d moves in %.2f s at -rate 40 (at most %.0f)", rep.Moves, rep.Seconds, limit)
	}
}
