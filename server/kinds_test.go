package server

import (
	"encoding/json"

	"github.com/chaguan/chaguan/rooms"
)

// kindOf is the rooms.Kind the room sends msg with, read from its JSON:
// the tests of the send queue build their messages by hand.
func kindOf(msg []byte) rooms.Kind {
	var head struct {
		Type string          `json:"type"`
		Ack  json.RawMessage `json:"ack"`
	}
	_ = json.Unmarshal(msg, &head)
	acked := len(head.Ack) > 0
	switch {
	case head.Type == "state" && acked:
		return rooms.KindAckedState
	case head.Type == "state":
		return rooms.KindState
	case head.Type == "patch" && acked:
		return rooms.KindAckedPatch
	case head.Type == "patch":
		return rooms.KindPatch
	}
	return rooms.KindOther
}

// kindsOf is kindOf of every message of a queue.
func kindsOf(queue [][]byte) []rooms.Kind {
	out := make([]rooms.Kind, len(queue))
	for i, m := range queue {
		out[i] = kindOf(m)
	}
	return out
}
