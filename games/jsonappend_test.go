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
