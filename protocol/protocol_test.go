package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func i64(n int64) *int64 { return &n }

// TestGolden pins the wire shape of every server message.
func TestGolden(t *testing.T) {
	msgs := map[string]any{
		"state": State{Type: TypeState, MatchID: "m1", StateID: 13, Ack: i64(7),
			G: json.RawMessage(`{"board":[]}`),
			Ctx: Ctx{NumPlayers: 2, PlayOrder: []string{"0", "1"}, CurrentPlayer: "0",
				Phase: "play", Turn: 3, Started: true, Gameover: json.RawMessage("null")},
			Players: []Player{{ID: 0, Name: "Ann", IsConnected: true}, {ID: 1, IsBot: true, BotLevel: "normal", IsConnected: true}},
			Log:     []LogEntry{{Turn: 2, PlayerID: "1", Move: "place", Args: json.RawMessage(`[7,7]`)}},
			You:     "0"},
		"patch": Patch{Type: TypePatch, StateID: 14, Base: 13, Ack: i64(7), Ops: []PatchOp{
			{Op: "add", Path: "/G/tricks/-", Value: json.RawMessage(`{"leader":1,"plays":[]}`)},
			{Op: "remove", Path: "/log/0"}, {Op: "replace", Path: "/players/1/isConnected", Value: json.RawMessage(`false`)}}},
		"error": Error{Type: TypeError, Code: CodeInvalidMove, Message: "must follow suit", MessageZh: "必须跟出同花色", Ref: i64(7)},
		"chat":  Chat{Type: TypeChat, From: "2", Name: "Ann", Text: "你好", At: 1760000000000},
		"match": Match{MatchID: "m1", GameName: "gomoku", Players: []Player{{ID: 0, Name: "Ann"}, {ID: 1}},
			CreatedAt: 1, UpdatedAt: 2, Started: false},
		"join":      JoinResponse{PlayerID: "2", PlayerCredentials: "c0ffee"},
		"errorBody": ErrorBody{Error: CodeNotFound, Message: "no such match"},
	}
	for name, v := range msgs {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(v, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".json")
			if *update {
				if err := os.WriteFile(path, append(got, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create)", err)
			}
			if !bytes.Equal(append(got, '\n'), want) {
				t.Fatalf("%s changed:\n%s\nwant:\n%s", name, got, want)
			}
		})
	}
}

func TestDecodeClient(t *testing.T) {
	cases := []struct {
		name, in string
		ok       bool
	}{
		{"hello", `{"type":"hello","playerID":"2","credentials":"x"}`, true},
		{"spectator hello", `{"type":"hello"}`, true},
		{"move", `{"type":"move","id":7,"move":"play","args":["QS"],"stateID":12}`, true},
		{"move without args", `{"type":"move","id":1,"move":"pass"}`, true},
		{"sync", `{"type":"sync"}`, true},
		{"chat", `{"type":"chat","text":"hi"}`, true},
		{"autoplay", `{"type":"autoplay","on":false}`, true},
		{"not JSON", `hello`, false},
		{"array", `[1,2]`, false},
		{"no type", `{}`, false},
		{"unknown type", `{"type":"shout"}`, false},
		{"move without name", `{"type":"move","id":1}`, false},
		{"move args object", `{"type":"move","move":"x","args":{"a":1}}`, false},
		{"empty chat", `{"type":"chat","text":""}`, false},
		{"long chat", `{"type":"chat","text":"` + strings.Repeat("好", MaxChat+1) + `"}`, false},
		{"autoplay without on", `{"type":"autoplay"}`, false},
		{"too large", `{"type":"sync","pad":"` + strings.Repeat("x", MaxFrame) + `"}`, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := DecodeClient([]byte(tc.in))
			if tc.ok != (err == nil) {
				t.Fatalf("DecodeClient(%.60s) = %v, want ok=%v", tc.in, err, tc.ok)
			}
			if err != nil && !errors.Is(err, ErrBadMessage) {
				t.Fatalf("error %v does not wrap ErrBadMessage", err)
			}
			if err == nil && m.Type == TypeMove && m.Args[0] != '[' {
				t.Fatalf("move args not an array: %s", m.Args)
			}
		})
	}
}

func FuzzDecodeClient(f *testing.F) {
	for _, s := range []string{`{"type":"hello"}`, `{"type":"move","id":1,"move":"place","args":[1,2]}`,
		`{"type":"chat","text":"x"}`, `{"type":"autoplay","on":true}`, `{"type":"move","move":"x","args":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := DecodeClient(b)
		if err != nil {
			if !errors.Is(err, ErrBadMessage) {
				t.Fatalf("unwrapped error %v", err)
			}
			return
		}
		switch m.Type {
		case TypeMove:
			if m.Move == "" || len(m.Args) == 0 || m.Args[0] != '[' {
				t.Fatalf("accepted a bad move: %+v", m)
			}
		case TypeChat:
			if m.Text == "" {
				t.Fatal("accepted empty chat")
			}
		case TypeAutoplay:
			if m.On == nil {
				t.Fatal("accepted autoplay without on")
			}
		case TypeHello, TypeSync:
		default:
			t.Fatalf("accepted type %q", m.Type)
		}
	})
}
