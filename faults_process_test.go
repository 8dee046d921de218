package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// The fault tests of docs/reliability.md: real server processes, real
// WebSocket clients, and a fault injected mid-game (a process killed, Redis
// restarted, Redis unreachable). Each logs its figure with t.Logf; run
// them with -v to read it.

// faultRows are the rows a fault test's moves fill, left to right: two
// pairs of rows with an empty row between, so no colour ever gets five in
// a row and the game never ends (60 moves at most).
var faultRows = [...]int{0, 1, 3, 4}

// cellOf is the point of the i-th move of a fault test's game.
func cellOf(i int) [2]int {
	return [2]int{i % 15, faultRows[i/15]}
}

// faultGame is a Gomoku match played by two seated clients that can
// reconnect; move i is always cellOf(i), and the moves the server
// acknowledged are remembered.
type faultGame struct {
	t     *testing.T
	ctx   context.Context
	id    string
	seats [2]*protocol.JoinResponse
	conns [2]*client.Conn
	acked []int // the indexes of the acknowledged moves
	// unacked counts the moves refused as unavailable that landed all the
	// same (playThrough).
	unacked int
}

// newFaultGame creates a match on base and connects both players there.
func newFaultGame(t *testing.T, base string) *faultGame {
	t.Helper()
	g := &faultGame{t: t, ctx: context.Background()}
	id, black, white := newGomoku(t, g.ctx, base)
	g.id, g.seats = id, [2]*protocol.JoinResponse{black, white}
	g.reconnect(base)
	return g
}

// try sends move i once, from the player whose turn it is, and waits at
// most 15 s for the answer; nil means acknowledged. It does not record the
// move: the caller does (try may run on another goroutine).
func (g *faultGame) try(i int) error {
	ctx, cancel := context.WithTimeout(g.ctx, 15*time.Second)
	defer cancel()
	c := cellOf(i)
	_, err := g.conns[i%2].Move(ctx, "place", c[0], c[1])
	return err
}

// mustPlay plays move i and fails the test unless it is acknowledged.
func (g *faultGame) mustPlay(i int) {
	g.t.Helper()
	if err := g.try(i); err != nil {
		g.t.Fatalf("move %d %v: %v", i, cellOf(i), err)
	}
	g.acked = append(g.acked, i)
}

// playThrough plays move i, trying again every 50 ms while the server
// refuses it as unavailable, for at most limit. It returns the refusals;
// any other error ends it. A refusal does not promise that nothing
// changed (a write can land and its answer be lost), so after each one the
// player syncs: a move found in place counts as landed, unacknowledged.
func (g *faultGame) playThrough(i int, limit time.Duration) (refusals int, err error) {
	for end := time.Now().Add(limit); ; time.Sleep(50 * time.Millisecond) {
		err = g.try(i)
		if err == nil {
			g.acked = append(g.acked, i)
			return refusals, nil
		}
		if !client.IsCode(err, protocol.CodeUnavailable) {
			return refusals, err
		}
		refusals++
		if g.landed(i) {
			g.unacked++
			return refusals, nil
		}
		if time.Now().After(end) {
			return refusals, fmt.Errorf("still refused after %v: %w", limit, err)
		}
	}
}

// landed reports whether move i is in the match, as a sync of its
// player's connection shows it; false when the sync fails.
func (g *faultGame) landed(i int) bool {
	ctx, cancel := context.WithTimeout(g.ctx, 5*time.Second)
	defer cancel()
	st, err := g.conns[i%2].Sync(ctx)
	if err != nil {
		return false
	}
	var v gomoku.View
	return json.Unmarshal(st.G, &v) == nil && len(v.Moves) > i
}

// reconnect connects both players to base, closing their old connections
// (as a browser does on a lost socket), and returns the number of moves
// base shows: the index of the next move.
func (g *faultGame) reconnect(base string) int {
	g.t.Helper()
	for i, seat := range g.seats {
		if old := g.conns[i]; old != nil {
			old.Close()
		}
		g.conns[i] = dialAs(g.t, g.ctx, base, g.id, seat)
	}
	return len(viewIn(g.t, g.conns[0].Latest()).Moves)
}

// lost checks the match as a spectator on base sees it (a process that
// loads it from Redis): every move is the one of its index, and it returns
// how many moves there are and how many acknowledged ones are missing.
func (g *faultGame) lost(base string) (moves, lost int) {
	g.t.Helper()
	spec := dialAs(g.t, g.ctx, base, g.id, nil)
	defer spec.Close()
	got := viewIn(g.t, spec.Latest()).Moves
	for j, mv := range got {
		if mv != cellOf(j) {
			g.t.Fatalf("move %d on %s is %v, want %v", j, base, mv, cellOf(j))
		}
	}
	for _, i := range g.acked {
		if i >= len(got) {
			lost++
		}
	}
	return len(got), lost
}

// awaitEnded waits up to 10 s for c's connection to end.
func awaitEnded(t *testing.T, c *client.Conn) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(time.Minute):
		t.Fatal("the connection to a killed process is still open a minute later")
	}
}

// TestFaultProcessKilled: two processes share one Redis; both players of
// a match are on process A, which is killed (SIGKILL) with a move in
// flight. The clients see their sockets end, reconnect to process B and
// play on from the stored state; every acknowledged move is there.
// Figure: the time from the kill to the first acknowledged move on B, and
// the acknowledged moves lost (must be 0).
func TestFaultProcessKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes; skipped with -short")
	}
	url := redistest.URL(t)
	a, killA := startProcessGrace(t, url, time.Hour)
	b, _ := startProcessGrace(t, url, time.Hour)
	g := newFaultGame(t, a)
	for i := range 10 {
		g.mustPlay(i)
	}
	inflight := make(chan error, 1)
	go func() { inflight <- g.try(10) }()
	killA()
	killed := time.Now()
	err := <-inflight
	if err == nil {
		g.acked = append(g.acked, 10)
	}
	t.Logf("the move in flight as A died: %v", orAcked(err))
	for _, c := range g.conns {
		awaitEnded(t, c)
	}
	noticed := time.Since(killed)
	next := g.reconnect(b)
	g.mustPlay(next)
	resumed := time.Since(killed)
	for i := next + 1; i < next+10; i++ {
		g.mustPlay(i)
	}
	moves, lost := g.lost(b)
	t.Logf("FIGURE kill -9: sockets ended %v after the kill; first move acknowledged on B %v after it; %d moves stored, %d acknowledged, %d acknowledged moves lost",
		noticed.Round(time.Millisecond), resumed.Round(time.Millisecond), moves, len(g.acked), lost)
	if lost != 0 {
		t.Errorf("%d acknowledged moves lost with process A", lost)
	}
}

// orAcked describes the outcome of a move.
func orAcked(err error) string {
	if err == nil {
		return "acknowledged"
	}
	return err.Error()
}

// TestFaultRedisRestarted: a process plays on a redis-server of the
// test's own with an append-only file synced on every write (appendfsync
// always). Mid-game, with a player moving every 10 ms, Redis is killed
// (SIGKILL) and started again on its data. Moves are refused as
// unavailable meanwhile and land again by themselves; a new process, which
// loads the match from Redis, shows every acknowledged move. Figure: the
// refusals and the time from Redis being back to the next acknowledged
// move; acknowledged moves lost (must be 0).
func TestFaultRedisRestarted(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes; skipped with -short")
	}
	own := redistest.StartOwn(t)
	a := startProcess(t, own.URL)
	g := newFaultGame(t, a)
	halfway, restarted := make(chan struct{}), make(chan time.Time, 1)
	type result struct {
		refusals int
		resumed  time.Duration // from Redis back to the next acknowledgement
		slowest  time.Duration // the longest wait for a move's acknowledgement
		err      error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		for i := range 30 {
			if i == 10 {
				close(halfway)
			}
			start := time.Now()
			n, err := g.playThrough(i, 30*time.Second)
			r.refusals, r.slowest = r.refusals+n, max(r.slowest, time.Since(start))
			if err != nil {
				r.err = fmt.Errorf("move %d: %w", i, err)
				break
			}
			select {
			case at := <-restarted:
				r.resumed = time.Since(at)
			default:
			}
			time.Sleep(10 * time.Millisecond) // a pace that keeps moves coming across the restart
		}
		done <- r
	}()
	<-halfway
	start := time.Now()
	own.Restart(t)
	restarted <- time.Now()
	t.Logf("Redis was down and back in %v", time.Since(start).Round(time.Millisecond))
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	moves, lost := g.lost(startProcess(t, own.URL))
	t.Logf("FIGURE redis restart (appendfsync always): %d moves refused as unavailable; slowest move %v; next move acknowledged %v after Redis was back; %d moves stored, %d acknowledged, %d refused but landed, %d acknowledged moves lost",
		r.refusals, r.slowest.Round(time.Millisecond), r.resumed.Round(time.Millisecond), moves, len(g.acked), g.unacked, lost)
	if lost != 0 || moves != len(g.acked)+g.unacked {
		t.Errorf("after the restart Redis holds %d moves; %d were acknowledged (%d of them lost), %d more landed unacknowledged", moves, len(g.acked), lost, g.unacked)
	}
}

// TestFaultRedisUnreachable: a process reaches Redis through a proxy,
// which is cut for 10 s mid-game. Every move tried meanwhile is refused
// with unavailable, over the same WebSocket, which stays open; when the
// proxy mends, the same move lands without the client reconnecting; and
// Redis then holds exactly the acknowledged moves: none of the refused
// ones half-applied. Figure: the refusals, the slowest refusal, and the
// time from the mend to the next acknowledged move.
func TestFaultRedisUnreachable(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes; skipped with -short")
	}
	url := redistest.URL(t)
	proxy := redistest.NewProxy(t, url)
	a := startProcess(t, proxy.URL)
	g := newFaultGame(t, a)
	for i := range 4 {
		g.mustPlay(i)
	}
	proxy.Cut()
	refusals, slowest := refusedFor(t, g, 4, 10*time.Second)
	proxy.Mend()
	mended := time.Now()
	if _, err := g.playThrough(4, 30*time.Second); err != nil {
		t.Fatalf("after Redis was back: %v", err)
	}
	resumed := time.Since(mended)
	for i := 5; i < 10; i++ {
		g.mustPlay(i)
	}
	for i, c := range g.conns {
		if c.Err() != nil {
			t.Errorf("player %d's connection ended: %v", i, c.Err())
		}
	}
	moves, lost := g.lost(startProcess(t, url))
	t.Logf("FIGURE redis unreachable 10 s: %d moves refused as unavailable, slowest refusal %v; next move landed %v after Redis was reachable; %d moves stored, %d acknowledged, %d refused but landed after the outage, %d lost",
		refusals, slowest.Round(time.Millisecond), resumed.Round(time.Millisecond), moves, len(g.acked), g.unacked, lost)
	if moves != len(g.acked)+g.unacked || lost != 0 {
		t.Errorf("Redis holds %d moves; %d were acknowledged (%d of them lost), %d more landed unacknowledged", moves, len(g.acked), lost, g.unacked)
	}
}

// refusedFor tries move i every 200 ms for d while Redis is unreachable:
// each try must be refused with unavailable. It returns the number of
// refusals and the longest wait for one.
func refusedFor(t *testing.T, g *faultGame, i int, d time.Duration) (refusals int, slowest time.Duration) {
	t.Helper()
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(200 * time.Millisecond) {
		start := time.Now()
		err := g.try(i)
		var me *client.MoveError
		if !errors.As(err, &me) || me.Code != protocol.CodeUnavailable {
			t.Fatalf("a move while Redis is unreachable: %v, want refused as unavailable", orAcked(err))
		}
		if me.Message == "" || me.MessageZh == "" {
			t.Fatalf("the refusal %+v does not say why in both languages", me)
		}
		if refusals == 0 {
			t.Logf("what the player is told: %q (zh %q)", me.Message, me.MessageZh)
		}
		refusals++
		slowest = max(slowest, time.Since(start))
	}
	return refusals, slowest
}
