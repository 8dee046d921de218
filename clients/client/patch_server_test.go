package client

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// These tests run a patch client and a full client side by side against
// the real server (servertest): at every stateID both saw, their states
// must be equal, field by field and G byte for byte.

// recorder keeps every state one Conn delivered, in order.
type recorder struct {
	mu     sync.Mutex
	states []*protocol.State
}

func (r *recorder) observe(st *protocol.State) {
	r.mu.Lock()
	r.states = append(r.states, st)
	r.mu.Unlock()
}

// byID returns the last state delivered for each stateID, without its
// ack (only the mover's connection gets it) and the IDs in order.
func (r *recorder) byID() (map[int64]*protocol.State, []int64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[int64]*protocol.State{}
	var ids []int64
	for _, st := range r.states {
		if _, ok := m[st.StateID]; !ok {
			ids = append(ids, st.StateID)
		}
		cp := *st
		cp.Ack = nil
		m[st.StateID] = &cp
	}
	return m, ids
}

// pairConn is one connection under test and what it delivered.
type pairConn struct {
	c   *Conn
	rec *recorder
}

// dialRec dials with patches or not, recording every state.
func dialRec(t *testing.T, url, game, id, seat, creds string, patches bool) pairConn {
	t.Helper()
	rec := &recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := DialWith(ctx, url, game, id, seat, creds, Options{Patches: patches, observe: rec.observe})
	if err != nil {
		t.Fatalf("dial %s seat %q (patches %v): %v", game, seat, patches, err)
	}
	t.Cleanup(func() { c.Close() })
	return pairConn{c, rec}
}

// comparePair checks that full and patched delivered equal states at
// every stateID both saw, and that patched got its states as patches;
// it returns how many stateIDs were compared.
func comparePair(t *testing.T, name string, full, patched pairConn) int {
	t.Helper()
	fm, _ := full.rec.byID()
	pm, pids := patched.rec.byID()
	n := 0
	// The first is the answer to the hello, a full state of its own (a
	// clock's serverTime is the hello's).
	for _, id := range pids[1:] {
		f, ok := fm[id]
		if !ok {
			continue // the full client's queue may drop a state a newer one makes redundant
		}
		n++
		if p := pm[id]; !reflect.DeepEqual(f, p) {
			fj, _ := json.Marshal(f)
			pj, _ := json.Marshal(p)
			t.Fatalf("%s stateID %d:\nfull    %s\npatched %s", name, id, fj, pj)
		}
	}
	if got := patched.c.patched.Load(); got == 0 || got < int64(len(pids))-1 {
		t.Errorf("%s: %d patches applied for %d stateIDs: the states did not come as patches", name, got, len(pids))
	}
	if r := patched.c.resyncs.Load(); r != 0 {
		t.Errorf("%s: %d syncs for a gap against a server that sends none", name, r)
	}
	if n < (len(pids)-1)/2 {
		t.Errorf("%s: only %d of the patch client's %d stateIDs were seen by the full client", name, n, len(pids))
	}
	return n
}

// waitUntil reads c's states until ok holds for Latest.
func waitUntil(t *testing.T, c *Conn, what string, ok func(*protocol.State) bool) *protocol.State {
	t.Helper()
	guard := time.After(20 * time.Second)
	for {
		if st := c.Latest(); ok(st) {
			return st
		}
		select {
		case <-c.States():
		case <-c.Done():
			t.Fatalf("%s: the connection ended: %v", what, c.Err())
		case <-guard:
			t.Fatalf("%s: not seen; Latest is stateID %d", what, c.Latest().StateID)
		}
	}
}

func gameOver(st *protocol.State) bool {
	return len(st.Ctx.Gameover) > 0 && string(st.Ctx.Gameover) != "null"
}

// TestPatchesBotMatches watches a bot-only match of every game with a
// full and a patch spectator for up to 250 stateIDs (or to its end).
func TestPatchesBotMatches(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := NewLobby(srv.URL, nil)
	for _, tc := range []struct {
		game  string
		seats int
		setup string
		clock *protocol.ClockRequest
	}{
		{"gongzhu", 4, "", nil},
		{"gomoku", 2, "", &protocol.ClockRequest{PerMove: 30, Bank: 600}},
		{"weiqi", 2, `{"size":9}`, nil},
		{"carcassonne", 3, "", nil},
		{"threemonks", 3, "", nil},
	} {
		t.Run(tc.game, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			bots := map[string]string{}
			for i := range tc.seats {
				bots[fmt.Sprint(i)] = "easy"
			}
			// A bot pause keeps the full spectator's queue from dropping
			// most states as superseded on a loaded machine.
			delay := 2
			req := protocol.CreateRequest{NumPlayers: tc.seats, Bots: bots, Unlisted: true, BotDelayMs: &delay, Clock: tc.clock}
			if tc.setup != "" {
				req.SetupData = json.RawMessage(tc.setup)
			}
			id, err := l.Create(ctx, tc.game, req)
			if err != nil {
				t.Fatalf("create: %v", err)
			}
			full := dialRec(t, srv.URL, tc.game, id, "", "", false)
			patched := dialRec(t, srv.URL, tc.game, id, "", "", true)
			start := patched.c.Latest().StateID
			last := waitUntil(t, patched.c, "250 stateIDs or the end", func(st *protocol.State) bool {
				return gameOver(st) || st.StateID >= start+250
			})
			waitUntil(t, full.c, "the full client at the same state", func(st *protocol.State) bool { return st.StateID >= last.StateID })
			patched.c.Close()
			full.c.Close()
			n := comparePair(t, tc.game, full, patched)
			t.Logf("%s: %d stateIDs compared, %d patches applied", tc.game, n, patched.c.patched.Load())
			// At least 10, or, of a match that ended sooner (easy bots
			// can make five in a row by the ninth move), all but one.
			want := int64(10)
			if gameOver(last) {
				want = min(want, last.StateID-start)
			}
			if int64(n) < want {
				t.Errorf("only %d stateIDs compared of %d to %d", n, start, last.StateID)
			}
		})
	}
}

// TestPatchesSeatAndAck: seat 0 of a Gong Zhu table (bots in the
// others) on a full and a patch connection, and a full and a patch
// spectator. The patch connection plays seat 0's first legal card 30
// times: each move's ack comes on a patch, and every state of either
// pair is the same.
func TestPatchesSeatAndAck(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1e9, Burst: 1 << 20}})
	l := NewLobby(srv.URL, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	delay := 1
	id, err := l.Create(ctx, "gongzhu", protocol.CreateRequest{NumPlayers: 4, Unlisted: true, BotDelayMs: &delay,
		Bots: map[string]string{"1": "easy", "2": "easy", "3": "easy"}})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	zero := "0"
	j, err := l.Join(ctx, "gongzhu", id, protocol.JoinRequest{PlayerName: "Ann", PlayerID: &zero})
	if err != nil {
		t.Fatalf("join: %v", err)
	}
	fullSeat := dialRec(t, srv.URL, "gongzhu", id, j.PlayerID, j.PlayerCredentials, false)
	patchSeat := dialRec(t, srv.URL, "gongzhu", id, j.PlayerID, j.PlayerCredentials, true)
	fullSpec := dialRec(t, srv.URL, "gongzhu", id, "", "", false)
	patchSpec := dialRec(t, srv.URL, "gongzhu", id, "", "", true)
	myCard := func(st *protocol.State) string {
		var g struct {
			Players map[string]struct {
				Legal []string `json:"legal"`
			} `json:"players"`
		}
		json.Unmarshal(st.G, &g)
		if legal := g.Players["0"].Legal; st.Ctx.CurrentPlayer == "0" && len(legal) > 0 {
			return legal[0]
		}
		return ""
	}
	var last *protocol.State
	for move := range 30 {
		st := waitUntil(t, patchSeat.c, "seat 0's turn", func(st *protocol.State) bool { return myCard(st) != "" })
		before := patchSeat.c.patched.Load()
		got, err := patchSeat.c.Move(ctx, "play", myCard(st))
		if err != nil {
			t.Fatalf("move %d: %v", move, err)
		}
		if got.Ack == nil || got.StateID <= st.StateID || patchSeat.c.patched.Load() <= before {
			t.Fatalf("move %d: answered with %+v (patches %d, were %d): not an acked patch", move, got, patchSeat.c.patched.Load(), before)
		}
		last = got
	}
	for _, c := range []*Conn{fullSeat.c, fullSpec.c, patchSpec.c} {
		waitUntil(t, c, "the last move", func(st *protocol.State) bool { return st.StateID >= last.StateID })
	}
	// The spectators first, then the patch seat: no presence change comes
	// while some are closed and others not.
	for _, c := range []*Conn{patchSpec.c, fullSpec.c, patchSeat.c, fullSeat.c} {
		c.Close()
	}
	comparePair(t, "seat 0", fullSeat, patchSeat)
	comparePair(t, "spectator", fullSpec, patchSpec)
	// The seat's view holds its hand, the spectator's none.
	if s := patchSeat.c.Latest(); s.You != "0" || !json.Valid(s.G) {
		t.Fatalf("seat's last state %+v", s)
	}
}
