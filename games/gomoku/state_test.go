package gomoku

import (
	"strings"
	"testing"
)

func TestLoadRefusesImpossibleStates(t *testing.T) {
	tests := []struct {
		name string
		json string
	}{
		{"not JSON", `{"moves":`},
		{"moves not a string", `{"moves":[[7,7]]}`},
		{"odd length", `{"moves":"hhi"}`},
		{"letter off the board", `{"moves":"hp"}`},
		{"capital letter", `{"moves":"HH"}`},
		{"point played twice", `{"moves":"hhiihh"}`},
		{"stone after a five", `{"moves":"aaoabaobcaocdaodeaoe"}`},
		{"bad undo seat", `{"moves":"hh","undo":"2"}`},
		{"undo seat with no stone", `{"moves":"hh","undo":"1"}`},
		{"undo on an empty board", `{"moves":"","undo":"0"}`},
		{"undo after a five", `{"moves":"aaoabaobcaocdaodea","undo":"0"}`},
		{"bad resigned seat", `{"moves":"","resigned":"01"}`},
		{"resigned after a five", `{"moves":"aaoabaobcaocdaodea","resigned":"1"}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Game.Load([]byte(tc.json)); err == nil {
				t.Fatalf("loaded %s", tc.json)
			}
		})
	}
}

func TestLoadRebuildsResult(t *testing.T) {
	tests := []struct {
		name   string
		json   string
		winner string
		reason string
	}{
		{"in play", `{"moves":"hhii"}`, "", ""},
		{"five", `{"moves":"aaoabaobcaocdaodea"}`, "0", "five"},
		{"resigned", `{"moves":"hh","resigned":"0"}`, "1", "resign"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st, err := Game.Load([]byte(tc.json))
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			o := st.Status().Outcome
			switch {
			case tc.reason == "" && o != nil:
				t.Fatalf("outcome %+v, want none", o)
			case tc.reason != "" && (o == nil || o.Winner != tc.winner || o.Reason != tc.reason):
				t.Fatalf("outcome %+v, want %s by %s", o, tc.winner, tc.reason)
			}
			if got := string(mustJSON(t, st)); got != tc.json {
				t.Fatalf("re-encoded as %s", got)
			}
		})
	}
}

// TestLoadErrors checks each refusal names its own cause, so a fixture
// refused for the wrong reason does not pass unnoticed.
func TestLoadErrors(t *testing.T) {
	tests := []struct{ json, want string }{
		{`{"moves":"aaoabaobcaocdaodeaoe"}`, "after a five"},
		{`{"moves":"hhiihh"}`, "occupied"},
		{`{"moves":"hp"}`, "off the board"},
		{`{"moves":"aaoabaobcaocdaodea","undo":"0"}`, "cannot stand"},
		{`{"moves":"aaoabaobcaocdaodea","resigned":"1"}`, "after the game ended"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			_, err := Game.Load([]byte(tc.json))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}
