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
	for _, s := range plainCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkPlain(t, b)
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

// plainCases are messages as clients write them, and near misses.
var plainCases = []string{
	`{"type":"move","id":7,"move":"play","args":["QS"]}`,
	`{"type":"move","move":"place","args":[7,7],"id":12,"stateID":40}`,
	` { "type" : "move" , "id" : -3 , "move" : "place" , "args" : [ 1 , 2 ] } `,
	`{"type":"hello","playerID":"0","credentials":"abc","patches":true}`,
	`{"type":"hello","name":"茶馆 guest","patches":false}`,
	`{"type":"chat","text":"你好"}`,
	`{"type":"autoplay","on":false}`,
	`{"type":"sync"}`,
	`{}`,
	`{"type":"move","id":1.0,"move":"x","args":[]}`,
	`{"type":"move","id":01,"move":"x","args":[]}`,
	`{"type":"move","id":99999999999999999999,"move":"x","args":[]}`,
	`{"type":"move","move":"x","args":null}`,
	`{"type":"move","move":"x","args":[1,}`,
	`{"type":"move","move":"x","args":{}}`,
	`{"Type":"move","move":"x","args":[]}`,
	`{"type":"move","type":"chat","text":"x"}`,
	`{"type":"chat","text":"a\"b"}`,
	"{\"type\":\"chat\",\"text\":\"bad \xff\"}",
	`{"type":"chat","text":"x"} x`,
	`{"type":"chat","text":"x",}`,
	`{"type":"autoplay","on":tru}`,
	`{"type":"autoplay","on":truex}`,
	`{"type":"hello","playerID":null}`,
	`{"type":"hello","extra":1}`,
	`[]`,
}

// checkPlain fails when decodePlain reads b and json.Unmarshal reads it
// otherwise.
func checkPlain(t *testing.T, b []byte) {
	t.Helper()
	got, ok := decodePlain(b)
	if !ok {
		return
	}
	var want ClientMessage
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatalf("%q: decodePlain read %+v, json.Unmarshal refuses it: %v", b, got, err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) || (got.PlayerID == nil) != (want.PlayerID == nil) || (got.On == nil) != (want.On == nil) ||
		(got.ID == nil) != (want.ID == nil) || (got.StateID == nil) != (want.StateID == nil) || !bytes.Equal(got.Args, want.Args) {
		t.Fatalf("%q: decodePlain read %s, json.Unmarshal %s", b, g, w)
	}
}

// TestDecodePlain: the messages clients send are read by decodePlain,
// exactly as json.Unmarshal reads them; the near misses are left to it.
func TestDecodePlain(t *testing.T) {
	for i, s := range plainCases {
		checkPlain(t, []byte(s))
		_, ok := decodePlain([]byte(s))
		if want := i < 9; ok != want {
			t.Errorf("%s: decodePlain took it: %v, want %v", s, ok, want)
		}
	}
}

// BenchmarkDecodeClientMove decodes a move as clients send it: through
// decodePlain, and through json.Unmarshal (what DecodeClient did before).
func BenchmarkDecodeClientMove(b *testing.B) {
	msg := []byte(`{"type":"move","id":1234,"move":"play","args":["QS"]}`)
	b.Run("plain", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := DecodeClient(msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			var m ClientMessage
			if err := json.Unmarshal(msg, &m); err != nil {
				b.Fatal(err)
			}
		}
	})
}
