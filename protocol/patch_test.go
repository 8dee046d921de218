package protocol

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func doc(t *testing.T, js string) any {
	t.Helper()
	d, err := DecodeDoc([]byte(js))
	if err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return d
}

func ops(t *testing.T, js string) []PatchOp {
	t.Helper()
	var o []PatchOp
	if err := json.Unmarshal([]byte(js), &o); err != nil {
		t.Fatalf("%s: %v", js, err)
	}
	return o
}

func norm(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestApplyPatch: RFC 6902's examples (appendix A) and the server's own
// shapes (appends at "-", a window moving on), and the document given is
// never changed.
func TestApplyPatch(t *testing.T) {
	for _, c := range []struct{ name, doc, ops, want string }{
		{"A.1", `{"foo":"bar"}`, `[{"op":"add","path":"/baz","value":"qux"}]`, `{"baz":"qux","foo":"bar"}`},
		{"A.2", `{"foo":["bar","baz"]}`, `[{"op":"add","path":"/foo/1","value":"qux"}]`, `{"foo":["bar","qux","baz"]}`},
		{"A.3", `{"baz":"qux","foo":"bar"}`, `[{"op":"remove","path":"/baz"}]`, `{"foo":"bar"}`},
		{"A.4", `{"foo":["bar","qux","baz"]}`, `[{"op":"remove","path":"/foo/1"}]`, `{"foo":["bar","baz"]}`},
		{"A.5", `{"baz":"qux","foo":"bar"}`, `[{"op":"replace","path":"/baz","value":"boo"}]`, `{"baz":"boo","foo":"bar"}`},
		{"A.6", `{"foo":{"bar":"baz","waldo":"fred"},"qux":{"corge":"grault"}}`, `[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]`, `{"foo":{"bar":"baz"},"qux":{"corge":"grault","thud":"fred"}}`},
		{"A.7", `{"foo":["all","grass","cows","eat"]}`, `[{"op":"move","from":"/foo/1","path":"/foo/3"}]`, `{"foo":["all","cows","eat","grass"]}`},
		{"A.8", `{"baz":"qux","foo":["a",2,"c"]}`, `[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2.0}]`, `{"baz":"qux","foo":["a",2,"c"]}`},
		{"A.14", `{"/":9,"~1":10}`, `[{"op":"test","path":"/~01","value":10}]`, `{"/":9,"~1":10}`},
		{"A.16", `{"foo":["bar"]}`, `[{"op":"add","path":"/foo/-","value":["abc","def"]}]`, `{"foo":["bar",["abc","def"]]}`},
		{"copy", `{"a":{"b":[1]}}`, `[{"op":"copy","from":"/a","path":"/c"},{"op":"add","path":"/c/b/-","value":2}]`, `{"a":{"b":[1]},"c":{"b":[1,2]}}`},
		{"the whole document", `{"a":1}`, `[{"op":"replace","path":"","value":[1]}]`, `[1]`},
		{"a log window", `{"log":[1,2,3]}`, `[{"op":"remove","path":"/log/0"},{"op":"add","path":"/log/-","value":4}]`, `{"log":[2,3,4]}`},
		{"big integers keep their digits", `{"n":1}`, `[{"op":"replace","path":"/n","value":12345678901234567890}]`, `{"n":12345678901234567890}`},
	} {
		d := doc(t, c.doc)
		got, err := ApplyPatch(d, ops(t, c.ops))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if norm(got) != norm(doc(t, c.want)) {
			t.Fatalf("%s: got %s, want %s", c.name, norm(got), c.want)
		}
		if norm(d) != norm(doc(t, c.doc)) {
			t.Fatalf("%s: the document given changed to %s", c.name, norm(d))
		}
	}
}

// TestApplyPatchRefuses: every operation that cannot apply is an error
// wrapping ErrPatch, and the result is the document given, unchanged,
// even when earlier operations applied.
func TestApplyPatchRefuses(t *testing.T) {
	for _, c := range []struct{ name, doc, ops string }{
		{"A.9 a failed test", `{"baz":"qux"}`, `[{"op":"test","path":"/baz","value":"bar"}]`},
		{"A.12 a missing parent", `{"foo":"bar"}`, `[{"op":"add","path":"/baz/bat","value":"qux"}]`},
		{"A.15 a string is no number", `{"~1":10}`, `[{"op":"test","path":"/~01","value":"10"}]`},
		{"past the end", `{"a":[1]}`, `[{"op":"add","path":"/a/2","value":3}]`},
		{"a leading zero", `{"a":[1,2]}`, `[{"op":"replace","path":"/a/01","value":3}]`},
		{"- to replace", `{"a":[1]}`, `[{"op":"replace","path":"/a/-","value":3}]`},
		{"a missing member", `{"a":1}`, `[{"op":"remove","path":"/b"}]`},
		{"replace a missing member", `{"a":1}`, `[{"op":"replace","path":"/b","value":2}]`},
		{"no /", `{"a":1}`, `[{"op":"add","path":"a","value":2}]`},
		{"a bad escape", `{"a":1}`, `[{"op":"add","path":"/~2","value":2}]`},
		{"no value", `{"a":1}`, `[{"op":"add","path":"/b"}]`},
		{"an unknown op", `{"a":1}`, `[{"op":"merge","path":"/a","value":2}]`},
		{"into itself", `{"a":{"b":1}}`, `[{"op":"move","from":"/a","path":"/a/b/c"}]`},
		{"inside a scalar", `{"a":1}`, `[{"op":"add","path":"/a/b","value":2}]`},
		{"the whole document removed", `{"a":1}`, `[{"op":"remove","path":""}]`},
		{"half applied", `{"log":[1]}`, `[{"op":"add","path":"/log/-","value":2},{"op":"remove","path":"/nope"}]`},
	} {
		d := doc(t, c.doc)
		got, err := ApplyPatch(d, ops(t, c.ops))
		if !errors.Is(err, ErrPatch) {
			t.Fatalf("%s: err %v, want ErrPatch", c.name, err)
		}
		if norm(got) != c.doc || norm(d) != norm(doc(t, c.doc)) {
			t.Fatalf("%s: got %s, the document %s; want both %s", c.name, norm(got), norm(d), c.doc)
		}
	}
}

// TestDecodeClientPatches: the hello's patches flag, and a bad one.
func TestDecodeClientPatches(t *testing.T) {
	m, err := DecodeClient([]byte(`{"type":"hello","patches":true,"unknown":1}`))
	if err != nil || !m.Patches {
		t.Fatalf("%+v %v", m, err)
	}
	if m, err = DecodeClient([]byte(`{"type":"hello"}`)); err != nil || m.Patches {
		t.Fatalf("%+v %v", m, err)
	}
	if _, err := DecodeClient([]byte(`{"type":"hello","patches":"yes"}`)); !errors.Is(err, ErrBadMessage) {
		t.Fatalf("patches \"yes\": %v", err)
	}
}

// TestAppendPointer compares the pointer parser with RFC 6901's text
// (split at every "/", then "~1" to "/" and "~0" to "~") over random
// pointers, escapes and empty tokens included, and appends after what
// dst holds.
func TestAppendPointer(t *testing.T) {
	reference := func(p string) ([]string, bool) {
		if p == "" {
			return nil, true
		}
		if p[0] != '/' {
			return nil, false
		}
		toks := strings.Split(p[1:], "/")
		for i, tok := range toks {
			if strings.Contains(strings.NewReplacer("~0", "", "~1", "").Replace(tok), "~") {
				return nil, false
			}
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		return toks, true
	}
	rng := rand.New(rand.NewPCG(3, 4))
	parts := []string{"/", "a", "G", "0", "-", "~0", "~1", "~", "~2", "~01", "é", ""}
	for range 20000 {
		var p strings.Builder
		if rng.IntN(10) > 0 {
			p.WriteByte('/')
		}
		for range rng.IntN(6) {
			p.WriteString(parts[rng.IntN(len(parts))])
		}
		want, ok := reference(p.String())
		got, err := AppendPointer([]string{"kept"}, p.String())
		if (err == nil) != ok {
			t.Fatalf("%q: error %v, want ok %v", p.String(), err, ok)
		}
		if ok && !slices.Equal(got, append([]string{"kept"}, want...)) {
			t.Fatalf("%q: %q, want %q", p.String(), got, want)
		}
	}
}
