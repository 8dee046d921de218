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
	kinds   []Kind
	resyncs int
	closed  bool
}

func (s *slowSink) Send(msg []byte, kind Kind) bool {
	if len(s.queue) >= s.max {
		return false
	}
	s.queue, s.kinds = append(s.queue, msg), append(s.kinds, kind)
	return true
}

func (s *slowSink) Resync(state []byte, kind Kind) bool {
	drop, ok := ResyncDroppable(s.kinds)
	if !ok {
		return false
	}
	var kept [][]byte
	var kinds []Kind
	for i, m := range s.queue {
		if !drop[i] {
			kept, kinds = append(kept, m), append(kinds, s.kinds[i])
		}
	}
	if len(kept) >= s.max {
		return false
	}
	s.queue, s.kinds = append(kept, state), append(kinds, kind)
	s.resyncs++
	return true
}

func (s *slowSink) Close() { s.closed = true }

func (s *slowSink) drain() [][]byte { q := s.queue; s.queue, s.kinds = nil, nil; return q }

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
		if len(q) != 1 || !bytes.HasPrefix(q[0], []byte(`{"type":"patch"`)) {
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
	patch, acked, state, ackedState, chat := KindPatch, KindAckedPatch, KindState, KindAckedState, KindOther
	drop, ok := ResyncDroppable([]Kind{state, patch, chat, patch})
	if !ok || !drop[0] || !drop[1] || drop[2] || !drop[3] {
		t.Fatalf("drop %v ok %v", drop, ok)
	}
	for _, q := range [][]Kind{{patch, acked}, {ackedState, patch}} {
		if _, ok := ResyncDroppable(q); ok {
			t.Fatalf("%q: a resync would lose an ack", q)
		}
	}
}
