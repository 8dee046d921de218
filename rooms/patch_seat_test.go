package rooms

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/games/threemonks"
	"github.com/chaguan/chaguan/protocol"
)

// TestPatchSeatOpsFromSpectators checks seatOps: over 300 moves of Gong
// Zhu, a round's end among them, every seat's operations are the
// spectators' plus those on its own players object, and applied to the
// seat's view they give its new view; a game whose seat views are not
// the spectators' with an entry spliced in never takes that way. The
// seats' views are never encoded for it, and gLen gives their length.
func TestPatchSeatOpsFromSpectators(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 5)
	rng := rand.New(rand.NewPCG(5, 6))
	prev := r.frame()
	whole := 0
	for i := range 300 {
		r.easyStep(t, rng)
		f := r.frame()
		p := patchSet{to: f}
		var seatOps [4][]byte
		for seat := range 4 {
			ops, ok := p.seatOps(prev, seat)
			if !ok {
				// Only where the spectators' G is replaced whole (the
				// first round's end, when "lastRound" first appears).
				if spec := p.viewOps(prev, games.Spectator, games.Spectator); !strings.Contains(string(spec.ops), `"path":"/G",`) {
					t.Fatalf("move %d seat %d: seatOps not taken; the spectators' operations: %s", i, seat, spec.ops)
				}
				whole++
				continue
			}
			if _, built := f.views.get(seat); built {
				t.Fatalf("move %d seat %d: seatOps encoded the seat's view", i, seat)
			}
			seatOps[seat] = ops
		}
		for seat, ops := range seatOps {
			if ops == nil {
				continue
			}
			var list []protocol.PatchOp
			if err := json.Unmarshal(append(append([]byte("["), ops...), ']'), &list); err != nil {
				t.Fatalf("move %d seat %d: %v in %s", i, seat, err, ops)
			}
			// Applied keeping member order, as clients do: the very bytes.
			doc, _ := oparse(withG(prev.g(seat)))
			if err := oapply(doc, list); err != nil {
				t.Fatalf("move %d seat %d: %v", i, seat, err)
			}
			if got, want := doc.encode(nil), withG(f.g(seat)); !bytes.Equal(got, want) {
				t.Fatalf("move %d seat %d: the operations give\n%.300s\nnot\n%.300s\n(%s)", i, seat, got, want, ops)
			}
			if n := f.gLen(seat); n != len(f.g(seat)) {
				t.Fatalf("move %d seat %d: gLen %d, the view is %d bytes", i, seat, n, len(f.g(seat)))
			}
		}
		prev = f
	}
	if whole > 4 {
		t.Fatalf("seatOps not taken for %d seats' moves", whole)
	}

	tm := testRoom(t, threemonks.Game, 3, 5)
	a := tm.frame()
	p := patchSet{to: a}
	if _, ok := p.seatOps(a, 0); ok {
		t.Fatal("seatOps taken for threemonks")
	}
}

// withG is {"G":g}: the operations' paths start at the message's G.
func withG(g []byte) []byte { return append(append([]byte(`{"G":`), g...), '}') }
