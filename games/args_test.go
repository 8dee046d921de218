package games

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
)

type pointArg struct {
	X int `json:"x"`
	Y int `json:"y"`
}

// TestDecodeArgs: the strict decoder accepts exactly one spelling family
// per shape and refuses, as invalid moves with a reason in both
// languages, everything that does not parse exactly.
func TestDecodeArgs(t *testing.T) {
	type dst struct {
		n    int
		s    string
		b    bool
		list []string
		obj  pointArg
	}
	cases := []struct {
		name, args, shape string
		ok                bool
		why               string // part of the English reason of a refusal
		targets           func(d *dst) []any
	}{
		{"int", `[7]`, "[n]", true, "", func(d *dst) []any { return []any{&d.n} }},
		{"int with spaces between tokens", " [ 7 ] ", "[n]", true, "", func(d *dst) []any { return []any{&d.n} }},
		{"fraction", `[7.5]`, "[n]", false, "argument 1 is not a whole number", func(d *dst) []any { return []any{&d.n} }},
		{"exponent", `[7e0]`, "[n]", false, "not a whole number", func(d *dst) []any { return []any{&d.n} }},
		{"huge number", `[1e99]`, "[n]", false, "not a whole number", func(d *dst) []any { return []any{&d.n} }},
		{"string for int", `["7"]`, "[n]", false, "not a whole number", func(d *dst) []any { return []any{&d.n} }},
		{"null element", `[null]`, "[n]", false, "argument 1 is null", func(d *dst) []any { return []any{&d.n} }},
		{"too many", `[7,8]`, "[n]", false, "it takes 1 argument, not 2", func(d *dst) []any { return []any{&d.n} }},
		{"too few", `[]`, "[n]", false, "it takes 1 argument, not 0", func(d *dst) []any { return []any{&d.n} }},
		{"null args", `null`, "[n]", false, "it takes 1 argument, not 0", func(d *dst) []any { return []any{&d.n} }},
		{"trailing data", `[7] 8`, "[n]", false, "not one well-formed JSON array", func(d *dst) []any { return []any{&d.n} }},
		{"two arrays", `[7][7]`, "[n]", false, "not one well-formed JSON array", func(d *dst) []any { return []any{&d.n} }},
		{"object", `{"n":7}`, "[n]", false, "must be a JSON array", func(d *dst) []any { return []any{&d.n} }},
		{"bare value", `7`, "[n]", false, "must be a JSON array", func(d *dst) []any { return []any{&d.n} }},
		{"none", ``, "[]", true, "", func(d *dst) []any { return nil }},
		{"none as null", `null`, "[]", true, "", func(d *dst) []any { return nil }},
		{"none given one", `[1]`, "[]", false, "it takes no arguments, not 1", func(d *dst) []any { return nil }},
		{"string", `["D4"]`, `["D4"]`, true, "", func(d *dst) []any { return []any{&d.s} }},
		{"escaped string", `["\u0044\u0034"]`, `["D4"]`, true, "", func(d *dst) []any { return []any{&d.s} }},
		{"padded string", `["D4 "]`, `["D4"]`, false, "with a space", func(d *dst) []any { return []any{&d.s} }},
		{"leading space", `[" D4"]`, `["D4"]`, false, "with a space", func(d *dst) []any { return []any{&d.s} }},
		{"ideographic space", "[\"D4\u3000\"]", `["D4"]`, false, "with a space", func(d *dst) []any { return []any{&d.s} }},
		{"zero-width space", "[\"D\u200b4\"]", `["D4"]`, false, "invisible", func(d *dst) []any { return []any{&d.s} }},
		{"control character", `["D\n4"]`, `["D4"]`, false, "invisible", func(d *dst) []any { return []any{&d.s} }},
		{"invalid UTF-8", "[\"D\xff4\"]", `["D4"]`, false, "invisible", func(d *dst) []any { return []any{&d.s} }},
		{"empty string", `[""]`, `["D4"]`, false, "empty string", func(d *dst) []any { return []any{&d.s} }},
		{"long string", `["` + strings.Repeat("D", MaxArgString+1) + `"]`, `["D4"]`, false, "more than 32", func(d *dst) []any { return []any{&d.s} }},
		{"bool", `[true]`, "[true|false]", true, "", func(d *dst) []any { return []any{&d.b} }},
		{"bool as string", `["true"]`, "[true|false]", false, "is not true or false", func(d *dst) []any { return []any{&d.b} }},
		{"bool as number", `[1]`, "[true|false]", false, "is not true or false", func(d *dst) []any { return []any{&d.b} }},
		{"list", `[["D4","Q16"]]`, `[["D4"]]`, true, "", func(d *dst) []any { return []any{&d.list} }},
		{"list with null", `[["D4",null]]`, `[["D4"]]`, false, "empty string", func(d *dst) []any { return []any{&d.list} }},
		{"list with padded", `[["D4","Q16 "]]`, `[["D4"]]`, false, "with a space", func(d *dst) []any { return []any{&d.list} }},
		{"list of numbers", `[[1]]`, `[["D4"]]`, false, "is not a list of strings", func(d *dst) []any { return []any{&d.list} }},
		{"object arg", `[{"x":1,"y":-2}]`, `[{"x":1,"y":0}]`, true, "", func(d *dst) []any { return []any{&d.obj} }},
		{"object other order", `[{"y":-2,"x":1}]`, `[{"x":1,"y":0}]`, true, "", func(d *dst) []any { return []any{&d.obj} }},
		{"extra field", `[{"x":1,"y":0,"tile":"A"}]`, `[{"x":1,"y":0}]`, false, `unknown field "tile"`, func(d *dst) []any { return []any{&d.obj} }},
		{"missing field", `[{"x":1}]`, `[{"x":1,"y":0}]`, false, `lacks the field "y"`, func(d *dst) []any { return []any{&d.obj} }},
		{"null field", `[{"x":1,"y":null}]`, `[{"x":1,"y":0}]`, false, `null "y"`, func(d *dst) []any { return []any{&d.obj} }},
		{"repeated field", `[{"x":1,"y":0,"x":2}]`, `[{"x":1,"y":0}]`, false, `repeats the field "x"`, func(d *dst) []any { return []any{&d.obj} }},
		{"field in another case", `[{"X":1,"y":0}]`, `[{"x":1,"y":0}]`, false, `unknown field "X"`, func(d *dst) []any { return []any{&d.obj} }},
		{"array for object", `[[1,0]]`, `[{"x":1,"y":0}]`, false, "is not an object", func(d *dst) []any { return []any{&d.obj} }},
		{"huge", `["D4"` + strings.Repeat(" ", 60000) + `]`, `["D4"]`, false, "more than the 4096 allowed", func(d *dst) []any { return []any{&d.s} }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d dst
			err := DecodeArgs("mv", c.shape, json.RawMessage(c.args), c.targets(&d)...)
			if c.ok {
				if err != nil {
					t.Fatalf("%s refused: %v", c.args, err)
				}
				return
			}
			var me *MoveError
			if !errors.As(err, &me) || !errors.Is(err, ErrInvalidMove) {
				t.Fatalf("%.60s: error %v, want a MoveError", c.args, err)
			}
			if !strings.Contains(me.Reason.En, c.why) || !strings.HasPrefix(me.Reason.En, "mv takes "+c.shape) || me.Reason.Zh == "" {
				t.Fatalf("%.60s: reason %q / %q, want it to say %q", c.args, me.Reason.En, me.Reason.Zh, c.why)
			}
		})
	}
}

// fake is a Rules value that is no ArgsParser (as the test fakes of other
// packages): its erased Game falls back to json.Compact.
type fake struct{}

func (fake) Info() Info {
	return Info{Name: "fake", MinPlayers: 1, MaxPlayers: 1, Moves: []MoveSpec{{Name: "set"}}, Bots: []string{"b"}}
}
func (fake) Setup(int, json.RawMessage, *RNG) (string, error) { return "", nil }
func (fake) Status(string) Status                             { return Status{Current: 0} }
func (fake) Apply(_ string, _ int, _ string, args json.RawMessage) (string, error) {
	return string(args), nil
}
func (fake) View(s string, _ int) string { return s }
func (fake) Bot(string, string, int, *rand.Rand) (string, json.RawMessage, error) {
	return "set", Args(), nil
}

// TestCanonicalArgsFallback: rules with no parser of their own get their
// args compacted and bounded, absent args as [], and an unknown move
// refused; Apply refuses the same and plays the compact form.
func TestCanonicalArgsFallback(t *testing.T) {
	g := Erase[string, string](fake{})
	for _, c := range []struct{ args, want string }{
		{``, `[]`}, {`null`, `[]`}, {` [ 1 , {"a" : 2} ] `, `[1,{"a":2}]`},
		{`[1] x`, ""}, {`[1`, ""}, {`[` + strings.Repeat(" ", MaxArgsBytes) + `]`, ""},
	} {
		got, err := g.CanonicalArgs("set", json.RawMessage(c.args))
		st, _ := g.Setup(1, nil, 1)
		next, aerr := st.Apply(0, "set", json.RawMessage(c.args))
		if c.want == "" {
			if err == nil || !errors.Is(err, ErrInvalidMove) || !errors.Is(aerr, ErrInvalidMove) {
				t.Errorf("%.40q: CanonicalArgs %s, %v; Apply %v: want both refused", c.args, got, err, aerr)
			}
			continue
		}
		if err != nil || string(got) != c.want || aerr != nil {
			t.Errorf("%q: CanonicalArgs %s, %v; Apply %v: want %s", c.args, got, err, aerr, c.want)
			continue
		}
		if s, _ := Typed[string](next); s != c.want {
			t.Errorf("%q: Apply played %s, want the canonical %s", c.args, s, c.want)
		}
	}
	if _, err := g.CanonicalArgs("nope", nil); !errors.Is(err, ErrUnknownMove) {
		t.Errorf("unknown move: %v", err)
	}
}
