package server

import (
	"fmt"
	"slices"
	"testing"
)

// TestSendSupersedes: a full queue takes a new state message by dropping
// the queued state messages it makes redundant, keeping acked states,
// errors and chat in order; with nothing to drop the viewer is too slow.
func TestSendSupersedes(t *testing.T) {
	state := func(sid int) []byte {
		return fmt.Appendf(nil, `{"type":"state","matchID":"m-1","stateID":%d,"G":{},"ctx":{},"players":[],"log":[]}`, sid)
	}
	acked := func(sid int) []byte {
		return fmt.Appendf(nil, `{"type":"state","matchID":"m-1","stateID":%d,"ack":%d,"G":{},"ctx":{}}`, sid, sid)
	}
	chat := []byte(`{"type":"chat","from":"1","name":"Ann","text":"\"G\":","at":1}`)
	refused := []byte(`{"type":"error","code":"not_your_turn","message":"it is not your turn","ref":3}`)
	newConn := func(queue ...[]byte) *conn {
		s := &Server{cfg: Config{WS: WSConfig{SendBuffer: 4}}}
		// writing: a writer is busy, so Send only queues.
		return &conn{s: s, queue: slices.Clone(queue), kinds: kindsOf(queue), writing: true}
	}
	names := func(q [][]byte) []string {
		var out []string
		for _, f := range q {
			out = append(out, string(f[:min(len(f), 40)]))
		}
		return out
	}
	for _, tc := range []struct {
		name  string
		queue [][]byte
		send  []byte
		ok    bool
		want  [][]byte
	}{
		{"room left", [][]byte{state(1)}, state(2), true, [][]byte{state(1), state(2)}},
		{"full of states", [][]byte{state(1), state(2), state(3), state(4)}, state(5), true, [][]byte{state(5)}},
		{"mixed", [][]byte{chat, state(1), acked(2), state(3)}, state(4), true, [][]byte{chat, acked(2), state(4)}},
		{"nothing to drop", [][]byte{acked(1), chat, refused, acked(2)}, state(3), false, [][]byte{acked(1), chat, refused, acked(2)}},
		{"an acked state drops nothing", [][]byte{state(1), state(2), state(3), state(4)}, acked(5), false, [][]byte{state(1), state(2), state(3), state(4)}},
		{"nor does chat", [][]byte{state(1), state(2), state(3), state(4)}, chat, false, [][]byte{state(1), state(2), state(3), state(4)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newConn(tc.queue...)
			if ok := c.Send(tc.send, kindOf(tc.send)); ok != tc.ok {
				t.Fatalf("Send = %v, want %v", ok, tc.ok)
			}
			if got, want := names(c.queue), names(tc.want); !slices.Equal(got, want) {
				t.Fatalf("queue\n%q\nwant\n%q", got, want)
			}
		})
	}
}
