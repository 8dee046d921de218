package games

import (
	"encoding/json"
	"strconv"
	"testing"
)

func TestAppendStringIsMarshal(t *testing.T) {
	for _, s := range []string{"", "Ann", "QS", `a"b`, `back\slash`, "<b>&amp;", "tab\there", "\x00\x1f\x7f",
		"茶馆", "line\u2028sep", "bad \xff utf-8", "ends with \\"} {
		want, _ := json.Marshal(s)
		if got := AppendString([]byte("x"), s); string(got) != "x"+string(want) {
			t.Errorf("AppendString(%q) = %s, json.Marshal %s", s, got[1:], want)
		}
	}
}

func TestAppendListIsMarshal(t *testing.T) {
	one := func(b []byte, x int) []byte { return strconv.AppendInt(b, int64(x), 10) }
	for _, xs := range [][]int{nil, {}, {7}, {1, -2, 30}} {
		want, _ := json.Marshal(xs)
		if got := AppendList(nil, xs, one); string(got) != string(want) {
			t.Errorf("AppendList(%v) = %s, json.Marshal %s", xs, got, want)
		}
	}
}

// TestRNGAppendJSON: a generator's JSON is json.Marshal's of its binary
// state (a base64 string), null for none, and reads back to a generator
// that goes on with the same numbers.
func TestRNGAppendJSON(t *testing.T) {
	var none *RNG
	if got, err := none.AppendJSON([]byte("x")); err != nil || string(got) != "xnull" {
		t.Fatalf("nil: %s, %v", got, err)
	}
	if b, err := json.Marshal(struct{ R *RNG }{}); err != nil || string(b) != `{"R":null}` {
		t.Fatalf("json.Marshal of a nil generator: %s, %v", b, err)
	}
	g := NewRNG(42)
	for i := range 20 {
		bin, err := g.src.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(bin)
		got, err := g.AppendJSON([]byte("x"))
		if err != nil || string(got) != "x"+string(want) {
			t.Fatalf("step %d: AppendJSON %s, json.Marshal %s (%v)", i, got[1:], want, err)
		}
		viaMarshal, err := json.Marshal(g)
		if err != nil || string(viaMarshal) != string(want) {
			t.Fatalf("step %d: json.Marshal(g) %s, want %s", i, viaMarshal, want)
		}
		var back RNG
		if err := json.Unmarshal(got[1:], &back); err != nil {
			t.Fatal(err)
		}
		if a, b := g.Clone().Uint64(), back.Uint64(); a != b {
			t.Fatalf("step %d: the generator read back gives %d, not %d", i, b, a)
		}
		g.Uint64()
	}
}
