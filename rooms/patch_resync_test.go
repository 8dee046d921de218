package rooms

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
)

// slowSink is a connection that does not read: it queues up to max
// messages, as server's conn does, and resyncs as conn.Resync does;
// drain hands the queued messages to the client.
type slowSink struct {
	max     int
	queue   [][]byte
	resyncs int
	closed  bool
}

func (s *slowSink) Send(msg []byte) bool {
	if len(s.queue) >= s.max {
		return false
	}
	s.queue = append(s.queue, msg)
	return true
}

func (s *slowSink) Resync(state []byte) bool {
	drop, ok := ResyncDroppable(s.queue)
	if !ok {
		return false
	}
	var kept [][]byte
	for i, m := range s.queue {
		if !drop[i] {
			kept = append(kept, m)
		}
	}
	if len(kept) >= s.max {
		return false
	}
	s.queue = append(kept, state)
	s.resyncs++
	return true
}

func (s *slowSink) Close() { s.closed = true }

func (s *slowSink) drain() [][]byte { q := s.queue; s.queue = nil; return q }

// TestPatchResyncSlowViewer: a patch viewer whose queue fills is not
// dropped: its queued patches give way to its whole view, and once it
// reads again it holds exactly what a full client holds and follows the
// next patches. (With an ack among the queued messages, its own move's
// answer, Resync refuses and the viewer is dropped as before:
// TestResyncDroppable.)
func TestPatchResyncSlowViewer(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 9)
	rng := rand.New(rand.NewPCG(9, 9))
	slow := &slowSink{max: 8}
	v := &Viewer{r: r, sink: slow, seat: games.Spectator, patches: true}
	full := &recSink{}
	fv := &Viewer{r: r, sink: full, seat: games.Spectator}
	r.viewers[v], r.viewers[fv] = struct{}{}, struct{}{}
	r.sendState(v, nil)
	r.sendFull(fv, r.last, nil)
	var h holder
	for _, m := range slow.drain() {
		h.take(t, m)
	}
	for round := range 3 {
		for range 20 { // more than the queue holds
			r.botMove(t, rng, nil)
		}
		if slow.closed {
			t.Fatalf("round %d: the slow patch viewer was dropped", round)
		}
		if slow.resyncs == 0 {
			t.Fatalf("round %d: no resync", round)
		}
		q := slow.drain()
		if len(q) > slow.max {
			t.Fatalf("%d messages queued, at most %d", len(q), slow.max)
		}
		for _, m := range q {
			h.take(t, m)
		}
		if got, want := h.doc.encode(nil), stateDoc(t, full.msgs[len(full.msgs)-1]); !bytes.Equal(got, want) {
			t.Fatalf("round %d: after the resync the view differs\n got %s\nwant %s", round, got, want)
		}
		// Reading again, it gets patches that apply.
		r.botMove(t, rng, nil)
		q = slow.drain()
		if len(q) != 1 || !IsPatch(q[0]) {
			t.Fatalf("round %d: after the resync %d messages, want one patch", round, len(q))
		}
		h.take(t, q[0])
		if got, want := h.doc.encode(nil), stateDoc(t, full.msgs[len(full.msgs)-1]); !bytes.Equal(got, want) {
			t.Fatalf("round %d: the patch after the resync gives another view", round)
		}
	}

}

// TestResyncDroppable: which queued messages a resync may drop.
func TestResyncDroppable(t *testing.T) {
	patch := []byte(`{"type":"patch","stateID":5,"base":4,"ops":[{"op":"add","path":"/log/-","value":{"ack":1}}]}`)
	acked := []byte(`{"type":"patch","stateID":6,"base":5,"ack":3,"ops":[]}`)
	state := []byte(`{"type":"state","matchID":"m","stateID":4,"G":{}}`)
	ackedState := []byte(`{"type":"state","matchID":"m","stateID":4,"ack":2,"G":{}}`)
	chat := []byte(`{"type":"chat","from":"0","text":"hi"}`)
	drop, ok := ResyncDroppable([][]byte{state, patch, chat, patch})
	if !ok || !drop[0] || !drop[1] || drop[2] || !drop[3] {
		t.Fatalf("drop %v ok %v", drop, ok)
	}
	for _, q := range [][][]byte{{patch, acked}, {ackedState, patch}} {
		if _, ok := ResyncDroppable(q); ok {
			t.Fatalf("%q: a resync would lose an ack", q)
		}
	}
}
