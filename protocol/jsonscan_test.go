package protocol

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestSkipString: SkipString ends every string where encoding/json does,
// whatever runs of backslashes come before a quote, and refuses one not
// closed.
func TestSkipString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{`a`, `\\`, `\"`, `é`, `\n`, `\u0041`, ` `}
	for range 20000 {
		var s strings.Builder
		s.WriteByte('"')
		for range rng.IntN(40) { // past shortString too
			s.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		s.WriteByte('"')
		str := s.String()
		var dst string
		if err := json.Unmarshal([]byte(str), &dst); err != nil {
			t.Fatalf("%s: %v", str, err)
		}
		b := []byte(`x` + str + `,"tail\""`)
		if got, err := SkipString(b, 1); err != nil || got != 1+len(str) {
			t.Fatalf("SkipString(%s) = %d, %v, want %d", b, got, err, 1+len(str))
		}
		if got, err := SkipString([]byte(str[:len(str)-1]), 0); err == nil {
			t.Fatalf("SkipString of the unclosed %s = %d", str[:len(str)-1], got)
		}
	}
	for in, want := range map[string]int{`"\\"`: 4, `"\\\"`: -1, `"\\\\"`: 6, `"`: -1, `""`: 2, `"a\"b"`: 6} {
		got, err := SkipString([]byte(in), 0)
		if err != nil {
			got = -1
		}
		if got != want {
			t.Errorf("SkipString(%s) = %d, want %d (-1: refused)", in, got, want)
		}
	}
}

// BenchmarkSkipString skips every string of a Gomoku move's patch frame,
// short ones (keys, paths, a board row), as a client's scan does.
func BenchmarkSkipString(b *testing.B) {
	frame := []byte(`{"type":"patch","stateID":100,"base":99,"ack":50,"ops":[{"op":"replace","path":"/G/board/6","value":"WBWBWBWBW......"},{"op":"add","path":"/G/moves/-","value":[7,6]},{"op":"replace","path":"/G/last","value":[7,6]},{"op":"replace","path":"/G/toMove","value":"1"},{"op":"replace","path":"/ctx/currentPlayer","value":"1"},{"op":"replace","path":"/ctx/turn","value":100},{"op":"remove","path":"/log/0"},{"op":"add","path":"/log/-","value":{"turn":99,"playerID":"0","move":"place","args":[7,6]}}]}`)
	for b.Loop() {
		for i := 0; i < len(frame); i++ {
			if frame[i] == '"' {
				end, err := SkipString(frame, i)
				if err != nil {
					b.Fatal(err)
				}
				i = end - 1
			}
		}
	}
}

// TestValidJSON: ValidJSON says what json.Valid says, for the values its
// short ways take and for those next to them that they must refuse or
// hand on, and over random strings of JSON's bytes.
func TestValidJSON(t *testing.T) {
	for _, in := range []string{
		``, `0`, `-0`, `7`, `-12`, `100`, `012`, `-`, `--1`, `1.5`, `1e3`, `1 `, ` 1`, `1x`,
		`""`, `"1"`, `"WBW.W"`, `"a\"b"`, `"a\\"`, `"\u00e9"`, `"é"`, "\"\x01\"", "\"\xff\"", `"a"b"`, `"a" `, `"`, `"abc`,
		`[]`, `[7,6]`, `[-1,0,14]`, `[7,]`, `[,7]`, `[7 ,6]`, `[ 7]`, `[7,6]]`, `[7,6`, `[07]`, `[7,"a"]`, `[[1]]`, `[`, `[]x`,
		`{"turn":99,"playerID":"0"}`, `{}`, `{`, `null`, `true`, `nul`,
	} {
		if got, want := ValidJSON([]byte(in)), json.Valid([]byte(in)); got != want {
			t.Errorf("ValidJSON(%q) = %v, json.Valid says %v", in, got, want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte(`"[]{},:-0123456789\\ ae.`)
	for range 200000 {
		b := make([]byte, rng.IntN(9))
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		if got, want := ValidJSON(b), json.Valid(b); got != want {
			t.Fatalf("ValidJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	}
}

// FuzzValidJSON: ValidJSON agrees with json.Valid on any input.
func FuzzValidJSON(f *testing.F) {
	for _, s := range []string{`7`, `"a"`, `[7,6]`, `[7,]`, `"a\\"`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := ValidJSON(b), json.Valid(b); got != want {
			t.Fatalf("ValidJSON(%q) = %v, json.Valid says %v", b, got, want)
		}
	})
}
