package gongzhu

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestCanonicalArgs: play takes one card code, in upper or lower case and
// with 10 for the ten but no space, stored in its wire code (["TC"]);
// padded, extra, wrong-type, wrong-arity, huge and null args are refused
// as invalid moves and change nothing.
func TestCanonicalArgs(t *testing.T) {
	b, err := json.Marshal(fixed(t, "2C 7H AS 5C", "3C 9H 2D TC", "4C KH 3D 6C", "JC QH 4D 7C"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Game.Load(b)
	if err != nil {
		t.Fatal(err)
	}
	gametest.CheckArgs(t, Game, st, 0, []gametest.ArgsCase{
		gametest.Accept("canonical", MovePlay, `["2C"]`, `["2C"]`),
		gametest.Accept("lower case", MovePlay, `["2c"]`, `["2C"]`),
		gametest.Accept("spaced tokens", MovePlay, ` [ "2C" ] `, `["2C"]`),
		gametest.Parses("ten as 10", MovePlay, `["10c"]`, `["TC"]`),
		gametest.Parses("not held parses", MovePlay, `["QS"]`, `["QS"]`),
		gametest.Refuse("padded", MovePlay, `["5C   "]`),
		gametest.Refuse("padded 60000", MovePlay, `["5C`+strings.Repeat(" ", 60000)+`"]`),
		gametest.Refuse("leading space", MovePlay, `[" 2C"]`),
		gametest.Refuse("inner space", MovePlay, `["2 C"]`),
		gametest.Refuse("not a card", MovePlay, `["ZZ"]`),
		gametest.Refuse("long", MovePlay, `["`+strings.Repeat("2C", 20)+`"]`),
		gametest.Refuse("two cards", MovePlay, `["2C","7H"]`),
		gametest.Refuse("none", MovePlay, `[]`),
		gametest.Refuse("null", MovePlay, `null`),
		gametest.Refuse("null element", MovePlay, `[null]`),
		gametest.Refuse("number", MovePlay, `[2]`),
		gametest.Refuse("object", MovePlay, `{"card":"2C"}`),
		gametest.Refuse("bare string", MovePlay, `"2C"`),
		gametest.Refuse("nested", MovePlay, `[["2C"]]`),
		gametest.Refuse("trailing garbage", MovePlay, `["2C"] ["2C"]`),
	})
}

// TestPlainCode checks the shortcut parsePlayArgs takes for the args
// clients send: wherever plainCode reads a code, DecodeArgs reads the
// same one, over every string of 5 to 7 bytes drawn from the bytes that
// matter in JSON around a code (and random ones).
func TestPlainCode(t *testing.T) {
	alphabet := []byte(`["]\ 0aZ/u,` + "\x00\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	taken := 0
	for i := range 200000 {
		n := 5 + i%3
		b := make([]byte, n)
		for j := range b {
			b[j] = alphabet[rng.IntN(len(alphabet))]
		}
		if i%2 == 0 { // the shape clients send, with random insides
			b[0], b[1], b[n-2], b[n-1] = '[', '"', '"', ']'
		}
		code, ok := plainCode(b)
		if !ok {
			continue
		}
		taken++
		var want string
		if err := games.DecodeArgs(MovePlay, `["QS"]`, b, &want); err != nil || want != code {
			t.Fatalf("%q: plainCode %q, DecodeArgs %q (%v)", b, code, want, err)
		}
	}
	if taken < 1000 {
		t.Fatalf("plainCode read only %d of the inputs", taken)
	}
	for _, s := range []string{`["QS"]`, `["10c"]`, `["2C"]`} {
		if _, ok := plainCode([]byte(s)); !ok {
			t.Fatalf("plainCode refused %s", s)
		}
	}
}
