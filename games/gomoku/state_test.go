package gomoku

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
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

// TestStateAppendJSON: the state's JSON is json.Marshal's of its stored
// form (stateJSON) on every state of bot games, with undo requests and
// resignations among them, and reads back to the same state.
func TestStateAppendJSON(t *testing.T) {
	old := func(s State) []byte {
		b := make([]byte, 0, 2*len(s.moves))
		for _, p := range s.moves {
			x, y := p.xy()
			b = append(b, byte('a'+x), byte('a'+y))
		}
		j := stateJSON{Moves: string(b)}
		if s.undoBy != 0 {
			j.Undo = games.PlayerID(int(s.undoBy) - 1)
		}
		if s.resigned != 0 {
			j.Resigned = games.PlayerID(int(s.resigned) - 1)
		}
		out, _ := json.Marshal(j)
		return out
	}
	rng := rand.New(rand.NewPCG(3, 4))
	checked := map[string]bool{}
	for game := range 30 {
		st := newMatch(t)
		for turn := 0; st.Status().Outcome == nil; turn++ {
			s := typed(t, st)
			got, err := s.AppendJSON([]byte("x"))
			if want := old(s); err != nil || string(got[1:]) != string(want) {
				t.Fatalf("game %d turn %d: AppendJSON %s (%v), json.Marshal %s", game, turn, got[1:], err, want)
			}
			back, err := Game.Load(got[1:])
			if err != nil || string(mustJSON(t, back)) != string(got[1:]) {
				t.Fatalf("game %d turn %d: %s does not read back (%v)", game, turn, got[1:], err)
			}
			checked[map[bool]string{true: "undo", false: "plain"}[s.undoBy != 0]] = true
			seat := st.Status().Movers(2)[0]
			switch r := rng.IntN(40); {
			case r == 0 && turn > 10:
				st = mustApply(t, st, seat, moveResign)
				continue
			case r < 4 && s.undoBy == 0 && len(s.moves) > 0:
				if next, err := st.Apply(1-seat, moveRequestUndo, games.Args()); err == nil {
					st = next
					continue
				}
			}
			name, args, err := st.Bot("easy", seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			if st, err = st.Apply(seat, name, args); err != nil {
				t.Fatal(err)
			}
		}
		s := typed(t, st)
		if got, _ := s.AppendJSON(nil); string(got) != string(old(s)) {
			t.Fatalf("game %d, over: AppendJSON %s, json.Marshal %s", game, got, old(s))
		}
		checked[map[bool]string{true: "resigned", false: "five"}[s.resigned != 0]] = true
	}
	for _, k := range []string{"undo", "plain", "resigned", "five"} {
		if !checked[k] {
			t.Errorf("no %s state was checked", k)
		}
	}
}
