package server

import (
	"fmt"
	"slices"
	"testing"
)

// TestSendKeepsPatchBases: a connection that takes patches keeps every
// patch and the state each chain of patches starts from; a new state
// drops only the other states, and a patch finding the queue full makes
// no room (the viewer is too slow: it reconnects).
func TestSendKeepsPatchBases(t *testing.T) {
	state := func(sid int) []byte {
		return fmt.Appendf(nil, `{"type":"state","matchID":"m-1","stateID":%d,"G":{},"ctx":{},"players":[],"log":[]}`, sid)
	}
	patch := func(sid int) []byte {
		return fmt.Appendf(nil, `{"type":"patch","stateID":%d,"base":%d,"ops":[]}`, sid, sid-1)
	}
	s := &Server{cfg: Config{WS: WSConfig{SendBuffer: 4}}}
	for _, tc := range []struct {
		name  string
		queue [][]byte
		send  []byte
		ok    bool
		want  [][]byte
	}{
		{"a state then patches", [][]byte{state(1), patch(2), patch(3), patch(4)}, state(4), false, [][]byte{state(1), patch(2), patch(3), patch(4)}},
		{"a sync's state after patches", [][]byte{state(1), patch(2), patch(3), state(3)}, state(3), true, [][]byte{state(1), patch(2), patch(3), state(3)}},
		{"patches never make room", [][]byte{state(1), state(1), state(1), state(1)}, patch(2), false, [][]byte{state(1), state(1), state(1), state(1)}},
		{"a state a patch follows stays", [][]byte{state(1), state(2), patch(3), state(3)}, state(4), true, [][]byte{state(2), patch(3), state(4)}},
		{"the state before it goes", [][]byte{state(1), state(2), patch(3), patch(4)}, state(4), true, [][]byte{state(2), patch(3), patch(4), state(4)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &conn{s: s, queue: slices.Clone(tc.queue), kinds: kindsOf(tc.queue), writing: true}
			if ok := c.Send(tc.send, kindOf(tc.send)); ok != tc.ok {
				t.Fatalf("Send = %v, want %v", ok, tc.ok)
			}
			if !slices.EqualFunc(c.queue, tc.want, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Fatalf("queue\n%s\nwant\n%s", c.queue, tc.want)
			}
		})
	}
}
