package server_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// patchClient is what a client that asked for patches holds: the view as
// its messages built it, normalised (json.Marshal sorts the keys).
type patchClient struct {
	doc     any
	stateID int64
}

// viewOf is a state message's view: all but type, stateID and ack.
func viewOf(t *testing.T, msg []byte) map[string]any {
	t.Helper()
	doc, err := protocol.DecodeDoc(msg)
	if err != nil {
		t.Fatal(err)
	}
	m := doc.(map[string]any)
	delete(m, "type")
	delete(m, "stateID")
	delete(m, "ack")
	return m
}

func normal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// take applies a state or patch message; it fails t on a gap (a real
// client would sync) or an operation that does not apply.
func (c *patchClient) take(t *testing.T, typ string, msg []byte) *protocol.Patch {
	t.Helper()
	switch typ {
	case protocol.TypeState:
		var s protocol.State
		_ = json.Unmarshal(msg, &s)
		c.doc, c.stateID = viewOf(t, msg), s.StateID
	case protocol.TypePatch:
		var p protocol.Patch
		if err := json.Unmarshal(msg, &p); err != nil {
			t.Fatal(err)
		}
		if c.doc == nil || p.Base != c.stateID {
			t.Fatalf("patch from %d, the client holds %d", p.Base, c.stateID)
		}
		doc, err := protocol.ApplyPatch(c.doc, p.Ops)
		if err != nil {
			t.Fatalf("%v: %s", err, msg)
		}
		c.doc, c.stateID = doc, p.StateID
		return &p
	default:
		t.Fatalf("unexpected %s", msg)
	}
	return nil
}

// nextView reads w's next state or patch message (skipping chat) and
// returns its type, bytes and stateID.
func nextView(w *wsClient) (string, []byte, int64) {
	w.t.Helper()
	for {
		typ, b := w.read()
		switch typ {
		case protocol.TypeState, protocol.TypePatch:
			var h struct {
				StateID int64 `json:"stateID"`
			}
			_ = json.Unmarshal(b, &h)
			return typ, b, h.StateID
		case "error":
			w.t.Fatalf("unexpected error: %s", b)
		}
	}
}

// TestPatchWebSocketWholeGame: over real WebSockets, two seats play a
// whole Gomoku match watched by a spectator that asked for patches and
// one that did not: the one gets a full state and then only patches, the other
// full states as always, one message each per change; after every one
// the views agree (after JSON normalisation).
func TestPatchWebSocketWholeGame(t *testing.T) {
	// The seats move as fast as they can: lift the per-connection rate.
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1000, Burst: 100}})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	black, white := join(t, srv.URL, "gomoku", id, "Black"), join(t, srv.URL, "gomoku", id, "White")
	full := dial(t, srv.URL, "gomoku", id)
	full.hello(nil)
	patched := dial(t, srv.URL, "gomoku", id)
	patched.send(map[string]any{"type": "hello", "patches": true})
	var pc patchClient
	typ, msg, _ := nextView(patched)
	if typ != protocol.TypeState {
		t.Fatalf("first message %s, want a state", msg)
	}
	pc.take(t, typ, msg)
	b, w := dial(t, srv.URL, "gomoku", id), dial(t, srv.URL, "gomoku", id)
	b.hello(&black)
	w.hello(&white)
	for _, c := range []*wsClient{b, w} {
		go func() {
			for range c.msgs { // the seats' own messages are not read
			}
		}()
	}
	// The seats' connections are presence changes, of the same stateID.
	// Both seats play the first empty point, row by row: black wins.
	movers := []*wsClient{b, w}
	b.move("place", 0, 0)
	over := false
	patches, sameStateID := 0, 0
	for n := 0; !over; n++ {
		// Read both spectators up to the same message.
		ft, fm, fsid := nextView(full)
		if ft != protocol.TypeState {
			t.Fatalf("the full client got %s", fm)
		}
		pt, pm, psid := nextView(patched)
		if pt != protocol.TypePatch {
			t.Fatalf("the patch client got %.200s, want a patch", pm)
		}
		if fsid != psid {
			t.Fatalf("full client at %d, patch client at %d", fsid, psid)
		}
		p := pc.take(t, pt, pm)
		patches++
		if p.Base == p.StateID {
			sameStateID++
		}
		if got, want := normal(pc.doc), normal(viewOf(t, fm)); got != want {
			t.Fatalf("after %s:\n patched %.500s\n    full %.500s", pm, got, want)
		}
		var s protocol.State
		_ = json.Unmarshal(fm, &s)
		over = s.Ctx.Gameover != nil && string(s.Ctx.Gameover) != "null"
		if over || p.Base == p.StateID {
			continue
		}
		// After a move, the seat to move plays the first empty point.
		g := gview(t, &s)
		for y, row := range g.Board {
			if x := bytes.IndexByte([]byte(row), '.'); x >= 0 {
				seat := movers[map[string]int{"0": 0, "1": 1}[s.Ctx.CurrentPlayer]]
				seat.move("place", x, y)
				break
			}
		}
	}
	if sameStateID == 0 || patches < 20 {
		t.Fatalf("%d patches, %d of them keeping the stateID", patches, sameStateID)
	}
}

// TestPatchWebSocketSyncAndAck: a seat that takes patches gets its
// move's patch with ack; a sync answers with a full state, and the next
// patch starts from it.
func TestPatchWebSocketSyncAndAck(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, black, white := startedGomoku(t, srv.URL)
	b := dial(t, srv.URL, "gomoku", id)
	b.send(map[string]any{"type": "hello", "playerID": black.id, "credentials": black.creds, "patches": true})
	var pc patchClient
	typ, msg, _ := nextView(b)
	if typ != protocol.TypeState {
		t.Fatalf("first message %s, want a state", msg)
	}
	pc.take(t, typ, msg)
	w := dial(t, srv.URL, "gomoku", id)
	w.hello(&white)
	mid := b.move("place", 7, 7)
	for {
		typ, msg, _ := nextView(b)
		p := pc.take(t, typ, msg)
		if p != nil && p.Ack != nil {
			if *p.Ack != mid {
				t.Fatalf("ack %d, want %d", *p.Ack, mid)
			}
			break
		}
	}
	held := pc.stateID
	b.send(map[string]any{"type": "sync"})
	typ, msg, sid := nextView(b)
	if typ != protocol.TypeState || sid != held {
		t.Fatalf("sync answered %.200s, want the state at %d", msg, held)
	}
	before := normal(pc.doc)
	pc.take(t, typ, msg)
	if normal(pc.doc) != before {
		t.Fatalf("the sync's state differs from the patched view:\n%s\n%s", normal(pc.doc), before)
	}
	w.move("place", 0, 0)
	typ, msg, _ = nextView(b)
	if p := pc.take(t, typ, msg); p == nil || p.Base != held || p.StateID != held+1 {
		t.Fatalf("after the sync: %s", msg)
	}
}

// TestPatchHelloFields: a hello whose patches field is not a boolean is
// refused (and the connection stays open for another); an unknown field
// is ignored as ever, so "patchez" gets full states; patches false too.
func TestPatchHelloFields(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, black, _ := startedGomoku(t, srv.URL)
	c := dial(t, srv.URL, "gomoku", id)
	c.send(`{"type":"hello","patches":"yes"}`)
	c.expectError(protocol.CodeBadRequest)
	c.send(`{"type":"hello","patchez":true,"colour":"blue"}`)
	c.state()
	d := dial(t, srv.URL, "gomoku", id)
	d.send(`{"type":"hello","patches":false}`)
	d.state()
	e := dial(t, srv.URL, "gomoku", id)
	e.send(`{"type":"hello","patches":true,"colour":"blue"}`)
	if typ, msg, _ := nextView(e); typ != protocol.TypeState {
		t.Fatalf("first message %s", msg)
	}
	bl := dial(t, srv.URL, "gomoku", id)
	bl.hello(&black)
	bl.move("place", 7, 7)
	for _, x := range []*wsClient{c, d} {
		typ, msg, _ := nextView(x)
		typ2, msg2, _ := nextView(x) // black's presence, then the move
		if typ != protocol.TypeState || typ2 != protocol.TypeState {
			t.Fatalf("a client that did not ask got %.100s and %.100s", msg, msg2)
		}
	}
	for range 2 {
		if typ, msg, _ := nextView(e); typ != protocol.TypePatch {
			t.Fatalf("a client that asked got %.100s", msg)
		}
	}
}
