package client

import (
	"testing"

	"github.com/chaguan/chaguan/protocol"
)

// patchConn is a Conn with no network that takes patches, and the socket
// its frames come on.
func patchConn() (*Conn, *socket) {
	c := newDetached()
	c.opts.Patches = true
	return c, &socket{wantSync: make(chan struct{}, 1), closing: make(chan struct{})}
}

// waiter registers a move waiting for id.
func waiter(c *Conn, id int64) chan reply {
	w := make(chan reply, 1)
	c.waiters[id] = w
	return w
}

// answered returns the state w was answered with, nil if none.
func answered(t *testing.T, w chan reply) *protocol.State {
	t.Helper()
	select {
	case r := <-w:
		if r.st == nil {
			t.Fatalf("answered without a state: %+v", r)
		}
		return r.st
	default:
		return nil
	}
}

// TestDispatchPatches: a patch makes the state a full state would have,
// and its ack answers the move; a gap asks for one sync, skips the
// patches after it (keeping their acks) and the state that answers it
// answers them; a patch whose operation fails is a gap too.
func TestDispatchPatches(t *testing.T) {
	c, s := patchConn()
	c.dispatch(s, []byte(viewState))
	if st := c.Latest(); st == nil || st.StateID != 4 || st.You != "0" {
		t.Fatalf("first state %+v", st)
	}
	w9 := waiter(c, 9)
	c.dispatch(s, []byte(`{"type":"patch","stateID":5,"base":4,"ack":9,"ops":[{"op":"replace","path":"/G/board/0","value":".W"},{"op":"replace","path":"/ctx/currentPlayer","value":"0"}]}`))
	st := answered(t, w9)
	if st == nil || st.StateID != 5 || *st.Ack != 9 || st.Ctx.CurrentPlayer != "0" || string(st.G) != `{"board":[".W","B."],"moves":[[0,1]],"hands":{"0":["QS"]},"note":"a\"b"}` {
		t.Fatalf("the move's answer: %+v", st)
	}
	if c.Latest() != st || c.patched.Load() != 1 || len(s.wantSync) != 0 {
		t.Fatalf("Latest %+v, patched %d, sync asked %d", c.Latest(), c.patched.Load(), len(s.wantSync))
	}

	// A gap: base 7 is not the view's 5.
	w10 := waiter(c, 10)
	c.dispatch(s, []byte(`{"type":"patch","stateID":8,"base":7,"ops":[]}`))
	c.dispatch(s, []byte(`{"type":"patch","stateID":9,"base":8,"ack":10,"ops":[]}`))
	if len(s.wantSync) != 1 || c.resyncs.Load() != 1 {
		t.Fatalf("after a gap: sync asked %d, resyncs %d; want one", len(s.wantSync), c.resyncs.Load())
	}
	if answered(t, w10) != nil || c.Latest().StateID != 5 {
		t.Fatalf("a patch skipped while resyncing was delivered: Latest %d", c.Latest().StateID)
	}
	// Even one that would apply to the state 5 is skipped now.
	c.dispatch(s, []byte(`{"type":"patch","stateID":6,"base":5,"ops":[]}`))
	if c.Latest().StateID != 5 || c.resyncs.Load() != 1 {
		t.Fatal("a patch applied while resyncing")
	}
	<-s.wantSync
	full := `{"type":"state","matchID":"m1","stateID":9,"G":{"board":["WW","B."]},"ctx":{"currentPlayer":"1"},"players":[],"log":[],"you":"0"}`
	c.dispatch(s, []byte(full))
	if st := answered(t, w10); st == nil || st.StateID != 9 || string(st.G) != `{"board":["WW","B."]}` {
		t.Fatalf("the move acked on a skipped patch: %+v", st)
	}
	// Patches apply again from the state.
	c.dispatch(s, []byte(`{"type":"patch","stateID":10,"base":9,"ops":[{"op":"add","path":"/G/last","value":[0,0]}]}`))
	if st := c.Latest(); st.StateID != 10 || string(st.G) != `{"board":["WW","B."],"last":[0,0]}` {
		t.Fatalf("after the sync: %+v", st)
	}
	// An operation that does not apply is a gap too.
	c.dispatch(s, []byte(`{"type":"patch","stateID":11,"base":10,"ops":[{"op":"remove","path":"/G/nope"}]}`))
	if len(s.wantSync) != 1 || c.resyncs.Load() != 2 || c.Latest().StateID != 10 {
		t.Fatalf("a failed operation: sync asked %d, resyncs %d, Latest %d", len(s.wantSync), c.resyncs.Load(), c.Latest().StateID)
	}
	// A patch to a Conn that did not ask is ignored, as any unknown frame.
	plain := newDetached()
	plain.dispatch(s, []byte(viewState))
	plain.dispatch(s, []byte(`{"type":"patch","stateID":5,"base":4,"ops":[]}`))
	if plain.Latest().StateID != 4 || plain.patched.Load() != 0 {
		t.Fatal("a Conn that did not ask for patches applied one")
	}
}

// FuzzDispatchPatches: no patch frame makes the reader panic or block.
func FuzzDispatchPatches(f *testing.F) {
	f.Add([]byte(`{"type":"patch","stateID":5,"base":4,"ack":1,"ops":[{"op":"add","path":"/G/moves/-","value":[1,2]}]}`))
	f.Add([]byte(`{"type":"patch","stateID":5,"base":4,"ops":[{"op":"replace","path":"/ctx","value":{"turn":"x"}}]}`))
	f.Add([]byte(`{"type":"patch","stateID":5,"base":4,"ops":null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, s := patchConn()
		c.waiters[1] = make(chan reply, 1)
		c.dispatch(s, []byte(viewState))
		for range 3 {
			c.dispatch(s, data)
		}
	})
}
