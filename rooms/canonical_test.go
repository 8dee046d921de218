package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/rooms/memstore"
)

// TestMovesStoredCanonical: a move's arguments are stored, logged and
// broadcast as the game parsed them. A weiqi stone padded with 60,000
// spaces is refused and changes nothing; one spelled "ｄ４" (full width,
// lower case) is played and kept everywhere as ["D4"].
func TestMovesStoredCanonical(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	_, id, sinks, seats := weiqiPair(t, mem)
	ctx := context.Background()
	padded := json.RawMessage(`["D4` + strings.Repeat(" ", 60000) + `"]`)
	ref := int64(1)
	if err := seats[0].Move(&ref, "play", padded, nil); err != nil {
		t.Fatal(err)
	}
	sinks[0].await(t, "the padded move refused", func(b []byte) bool {
		return bytes.Contains(b, []byte(`"code":"invalid_move"`)) && bytes.Contains(b, []byte(`"ref":1`))
	})
	if got := seqOf(t, mem, id); got != 1 {
		t.Fatalf("the refused move changed the match: stateID %d", got)
	}

	ref = 2
	if err := seats[0].Move(&ref, "play", json.RawMessage(`["ｄ４"]`), nil); err != nil {
		t.Fatal(err)
	}
	sinks[0].await(t, "the move acknowledged", func(b []byte) bool { return bytes.Contains(b, []byte(`"ack":2`)) })
	rec, err := mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != 1 || string(rec.Moves[0].Args) != `["D4"]` {
		t.Fatalf("stored moves %+v, want play [\"D4\"]", rec.Moves)
	}
	if e := rec.Log[len(rec.Log)-1]; string(e.Args) != `["D4"]` {
		t.Fatalf("logged %+v, want [\"D4\"]", e)
	}
	msg := sinks[1].await(t, "white's state after the move", func(b []byte) bool {
		return bytes.Contains(b, []byte(`"stateID":2`))
	})
	if !bytes.Contains(msg, []byte(`"move":"play","args":["D4"]`)) || bytes.Contains(msg, []byte("ｄ４")) {
		t.Fatalf("white's state does not log the canonical move: %s", msg)
	}
}
