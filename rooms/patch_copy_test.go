package rooms

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
)

// gDiff diffs two views' G as viewOps does (the memo set, so copies are
// tried) and returns the operations, checked to turn a into b exactly.
func gDiff(t *testing.T, a, b string) []protocol.PatchOp {
	t.Helper()
	var d differ
	var memo []memoOps
	d.path, d.memo = []byte("/G"), &memo
	if err := d.diff([]byte(a), []byte(b)); err != nil {
		t.Fatalf("%s -> %s: %v", a, b, err)
	}
	var ops []protocol.PatchOp
	if err := json.Unmarshal(append(append([]byte("["), d.out...), ']'), &ops); err != nil {
		t.Fatalf("operations are not JSON: %s", d.out)
	}
	doc, _ := oparse([]byte(`{"G":` + a + `}`))
	if err := oapply(doc, ops); err != nil {
		t.Fatalf("%s -> %s: %v\n%s", a, b, err, d.out)
	}
	if got, want := doc.encode(nil), []byte(`{"G":`+b+`}`); !bytes.Equal(got, want) {
		t.Fatalf("%s -> %s: patched into %s by %s", a, b, got, d.out)
	}
	return ops
}

// TestPatchCopiesFinishedTricks: when a round ends, the round's tricks
// (G.tricks, which the client holds) become lastRound.tricks with one
// more; the patch copies them there first, before G.tricks is emptied,
// and adds the last trick, instead of sending every trick again.
func TestPatchCopiesFinishedTricks(t *testing.T) {
	trick := func(i int) string {
		return `{"leader":1,"ledSuit":"H","plays":[{"seat":1,"card":"7H"},{"seat":2,"card":"5D"}],"winning":` + string(rune('0'+i%4)) + `}`
	}
	tricks := func(n int) string {
		var s []string
		for i := range n {
			s = append(s, trick(i))
		}
		return "[" + strings.Join(s, ",") + "]"
	}
	// history is what a view holds besides, unchanged: G is not worth
	// replacing whole.
	history := tricks(30)
	a := `{"round":2,"tricks":` + tricks(12) + `,"lastRound":{"round":1,"tricks":` + strings.ReplaceAll(tricks(3), "7H", "8H") + `,"scores":[1,2]},"history":` + history + `}`
	b := `{"round":3,"tricks":[],"lastRound":{"round":2,"tricks":` + tricks(13) + `,"scores":[3,4]},"history":` + history + `}`
	ops := gDiff(t, a, b)
	if len(ops) == 0 || ops[0].Op != "copy" || ops[0].From != "/G/tricks" || ops[0].Path != "/G/lastRound/tricks" {
		t.Fatalf("the first operation is not the copy of the tricks: %+v", ops)
	}
	var added int
	for _, op := range ops {
		if op.Path == "/G/lastRound/tricks/-" {
			added++
		}
		if op.Op == "replace" && (op.Path == "/G/lastRound" || op.Path == "/G/lastRound/tricks") {
			t.Fatalf("the tricks are sent again: %+v", op)
		}
	}
	if added != 1 {
		t.Fatalf("%d tricks added after the copy, want 1: %+v", added, ops)
	}

	// No copy when nothing held extends to the new array, when the array
	// only grew in place, or when the source is short.
	for _, c := range [][2]string{
		{`{"tricks":` + tricks(12) + `,"l":{"t":[]}}`, `{"tricks":[],"l":{"t":` + tricks(5) + `}}`},
		{`{"tricks":` + tricks(12) + `,"l":{"t":` + tricks(12) + `}}`, `{"tricks":` + tricks(12) + `,"l":{"t":` + tricks(13) + `}}`},
		{`{"tricks":[1,2],"l":{"t":[]}}`, `{"tricks":[],"l":{"t":[1,2,3]}}`},
		{`{"tricks":` + tricks(12) + `,"l":{"t":` + tricks(2) + `}}`, `{"tricks":[],"l":{"x":` + tricks(13) + `}}`},
	} {
		for _, op := range gDiff(t, c[0], c[1]) {
			if op.Op == "copy" {
				t.Errorf("%s -> %s: an unexpected copy %+v", c[0], c[1], op)
			}
		}
	}
}

// TestPatchCopiesInGongzhu plays Gong Zhu rounds: every round's end
// copies the tricks into lastRound for every viewer (after the first
// round, when lastRound first appears), and each patched view equals the
// full one.
func TestPatchCopiesInGongzhu(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 5)
	rng := rand.New(rand.NewPCG(5, 5))
	prev := r.frame()
	copies, ends := 0, 0
	for range 52 * 4 {
		r.botMove(t, rng, nil)
		f := r.frame()
		p := patchSet{to: f}
		for _, v := range []int{0, 1, 2, 3, games.Spectator} {
			m := p.message(sentView{f: prev, seat: v}, v)
			if !m.ok {
				t.Fatalf("no patch for viewer %d: %v", v, m.err)
			}
			var msg struct{ Ops []protocol.PatchOp }
			if err := json.Unmarshal(m.noAck(p.to), &msg); err != nil {
				t.Fatal(err)
			}
			doc, _ := oparse(stateDoc(t, prev.encode(v, nil)))
			if err := oapply(doc, msg.Ops); err != nil {
				t.Fatalf("viewer %d: %v", v, err)
			}
			if got, want := doc.encode(nil), stateDoc(t, f.encode(v, nil)); !bytes.Equal(got, want) {
				t.Fatalf("viewer %d: patched view differs:\n got %s\nwant %s", v, got, want)
			}
			for _, op := range msg.Ops {
				if op.Op == "copy" {
					copies++
				}
			}
		}
		if bytes.Contains(f.g(games.Spectator), []byte(`"tricks":[]`)) && !bytes.Contains(prev.g(games.Spectator), []byte(`"tricks":[]`)) {
			ends++
		}
		prev = f
	}
	if ends < 3 || copies != 5*(ends-1) {
		t.Fatalf("%d round ends, %d copies; want 5 per round end after the first", ends, copies)
	}
}
