package server

import (
	"fmt"
	"github.com/chaguan/chaguan/rooms"
	"slices"
	"testing"
)

// TestResyncReplacesQueuedViews: a patch connection whose queue is full
// gets its whole view instead of being dropped: the queued patches and
// states without ack give way to it, other messages keep their order; a
// queued ack refuses the resync (the room then drops the viewer), and so
// does a queue still full without them.
func TestResyncReplacesQueuedViews(t *testing.T) {
	state := func(sid int, ack string) []byte {
		return fmt.Appendf(nil, `{"type":"state","matchID":"m-1","stateID":%d%s,"G":{},"ctx":{},"players":[],"log":[]}`, sid, ack)
	}
	patch := func(sid int, ack string) []byte {
		return fmt.Appendf(nil, `{"type":"patch","stateID":%d,"base":%d%s,"ops":[]}`, sid, sid-1, ack)
	}
	chat := []byte(`{"type":"chat","from":"0","text":"hi"}`)
	s := &Server{cfg: Config{WS: WSConfig{SendBuffer: 4}}}
	for _, tc := range []struct {
		name  string
		queue [][]byte
		ok    bool
		want  [][]byte
	}{
		{"patches give way", [][]byte{state(1, ""), patch(2, ""), patch(3, ""), patch(4, "")}, true, [][]byte{state(9, "")}},
		{"chat stays in order", [][]byte{patch(2, ""), chat, patch(3, ""), chat}, true, [][]byte{chat, chat, state(9, "")}},
		{"a queued patch's ack refuses", [][]byte{patch(2, ""), patch(3, `,"ack":7`), patch(4, ""), patch(5, "")}, false, nil},
		{"a queued state's ack refuses", [][]byte{state(2, `,"ack":7`), patch(3, ""), patch(4, ""), patch(5, "")}, false, nil},
		{"still full", [][]byte{chat, chat, chat, chat}, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &conn{s: s, queue: slices.Clone(tc.queue), kinds: kindsOf(tc.queue), writing: true}
			if ok := c.Resync(state(9, ""), rooms.KindState); ok != tc.ok {
				t.Fatalf("Resync = %v, want %v", ok, tc.ok)
			}
			want := tc.want
			if !tc.ok {
				want = tc.queue // unchanged
			}
			if !slices.EqualFunc(c.queue, want, func(a, b []byte) bool { return string(a) == string(b) }) {
				t.Fatalf("queue\n%s\nwant\n%s", c.queue, want)
			}
		})
	}
}
