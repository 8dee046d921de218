package client

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/protocol"
)

// patchOf decodes a patch message.
func patchOf(t testing.TB, js string) *protocol.Patch {
	t.Helper()
	var p protocol.Patch
	if err := json.Unmarshal([]byte(js), &p); err != nil {
		t.Fatalf("patch %s: %v", js, err)
	}
	return &p
}

// stateOf decodes a state message as dispatch does.
func stateOf(t testing.TB, js string) *protocol.State {
	t.Helper()
	var st protocol.State
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		t.Fatalf("state %s: %v", js, err)
	}
	return &st
}

const viewState = `{"type":"state","matchID":"m1","stateID":4,"ack":2,"G":{"board":["..","B."],"moves":[[0,1]],"hands":{"0":["QS"]},"note":"a\"b"},` +
	`"ctx":{"numPlayers":2,"playOrder":["0","1"],"currentPlayer":"1","phase":"play","turn":2,"started":true,"gameover":null},` +
	`"players":[{"id":0,"name":"Ann","isConnected":true},{"id":1,"name":"Bo"}],"log":[{"turn":1,"playerID":"0","move":"place","args":[0,1]}],"you":"0"}`

// TestViewApply: each operation gives the very bytes and State a full
// state message would (member order included), for every part of a view.
func TestViewApply(t *testing.T) {
	var v View
	if err := v.SetState([]byte(viewState)); err != nil {
		t.Fatal(err)
	}
	if !v.Held() || v.StateID() != 4 {
		t.Fatalf("held %v stateID %d", v.Held(), v.StateID())
	}
	st, err := v.State(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := stateOf(t, viewState)
	want.Ack = nil
	if !reflect.DeepEqual(st, want) {
		t.Fatalf("state as set:\n%+v\nwant\n%+v", st, want)
	}
	steps := []struct {
		patch string
		full  string // the full state message the patch stands for
	}{
		{ // a stone, a move appended, a member added last, a log entry, a window moving on
			`{"type":"patch","stateID":5,"base":4,"ack":9,"ops":[{"op":"replace","path":"/G/board/0","value":".W"},{"op":"add","path":"/G/moves/-","value":[1,0]},` +
				`{"op":"add","path":"/G/last","value":[1,0]},{"op":"replace","path":"/ctx/currentPlayer","value":"0"},{"op":"replace","path":"/ctx/turn","value":3},` +
				`{"op":"add","path":"/log/-","value":{"turn":2,"playerID":"1","move":"place","args":[1,0]}},{"op":"remove","path":"/log/0"}]}`,
			`{"type":"state","matchID":"m1","stateID":5,"ack":9,"G":{"board":[".W","B."],"moves":[[0,1],[1,0]],"hands":{"0":["QS"]},"note":"a\"b","last":[1,0]},` +
				`"ctx":{"numPlayers":2,"playOrder":["0","1"],"currentPlayer":"0","phase":"play","turn":3,"started":true,"gameover":null},` +
				`"players":[{"id":0,"name":"Ann","isConnected":true},{"id":1,"name":"Bo"}],"log":[{"turn":2,"playerID":"1","move":"place","args":[1,0]}],"you":"0"}`,
		},
		{ // presence only: the same stateID; a card out of a hand; a clock arrives
			`{"type":"patch","stateID":5,"base":5,"ops":[{"op":"add","path":"/players/1/isConnected","value":true},{"op":"remove","path":"/G/hands/0/0"},` +
				`{"op":"add","path":"/clock","value":{"perMove":30000}}]}`,
			`{"type":"state","matchID":"m1","stateID":5,"G":{"board":[".W","B."],"moves":[[0,1],[1,0]],"hands":{"0":[]},"note":"a\"b","last":[1,0]},` +
				`"ctx":{"numPlayers":2,"playOrder":["0","1"],"currentPlayer":"0","phase":"play","turn":3,"started":true,"gameover":null},` +
				`"players":[{"id":0,"name":"Ann","isConnected":true},{"id":1,"name":"Bo","isConnected":true}],"log":[{"turn":2,"playerID":"1","move":"place","args":[1,0]}],"you":"0","clock":{"perMove":30000}}`,
		},
		{ // the seat taken away, the game over, keys that need escaping, a member replaced in place
			`{"type":"patch","stateID":6,"base":5,"ops":[{"op":"replace","path":"/you","value":""},{"op":"replace","path":"/ctx/gameover","value":{"winner":"0"}},` +
				`{"op":"add","path":"/G/a~1b~0c","value":1},{"op":"add","path":"/G/note","value":"<&>"},{"op":"remove","path":"/clock"}]}`,
			`{"type":"state","matchID":"m1","stateID":6,"G":{"board":[".W","B."],"moves":[[0,1],[1,0]],"hands":{"0":[]},"note":"<&>","last":[1,0],"a/b~c":1},` +
				`"ctx":{"numPlayers":2,"playOrder":["0","1"],"currentPlayer":"0","phase":"play","turn":3,"started":true,"gameover":{"winner":"0"}},` +
				`"players":[{"id":0,"name":"Ann","isConnected":true},{"id":1,"name":"Bo","isConnected":true}],"log":[{"turn":2,"playerID":"1","move":"place","args":[1,0]}],"you":""}`,
		},
	}
	for i, s := range steps {
		p := patchOf(t, s.patch)
		if err := v.Apply(p); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		st, err := v.State(p.Ack)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		want := stateOf(t, s.full)
		if !reflect.DeepEqual(st, want) {
			t.Fatalf("step %d: state\n%+v\nwant\n%+v", i, st, want)
		}
		// The view encodes to the full message's bytes but the head.
		var full View
		if err := full.SetState([]byte(s.full)); err != nil {
			t.Fatal(err)
		}
		if got, wantJS := string(v.AppendJSON(nil)), string(full.AppendJSON(nil)); got != wantJS {
			t.Fatalf("step %d: view\n%s\nwant\n%s", i, got, wantJS)
		}
	}
	if got := string(v.Lookup("G", "moves", "1")); got != "[1,0]" {
		t.Errorf("Lookup G/moves/1 = %s", got)
	}
	if got := string(v.Lookup("G", "a/b~c")); got != "1" {
		t.Errorf("Lookup of an escaped member = %s", got)
	}
	if v.Lookup("G", "nope") != nil || v.Lookup() != nil || v.Member("nope") != nil {
		t.Error("Lookup or Member of what is not there is not nil")
	}
	// An earlier State is not changed by later patches.
	before, _ := v.State(nil)
	g := string(before.G)
	if err := v.Apply(patchOf(t, `{"type":"patch","stateID":7,"base":6,"ops":[{"op":"replace","path":"/G/board/1","value":"BB"}]}`)); err != nil {
		t.Fatal(err)
	}
	after, _ := v.State(nil)
	if string(before.G) != g || string(after.G) == g || !strings.Contains(string(after.G), `"BB"`) {
		t.Fatalf("G before %s (was %s), after %s", before.G, g, after.G)
	}
	if after.Players[0].Name != "Ann" || &after.Players[0] != &before.Players[0] {
		t.Fatal("players no operation touched were decoded again")
	}
}

// TestViewApplyRefuses: a gap and every operation that cannot apply are
// errors (ErrGap, protocol.ErrPatch), after which the view holds nothing.
func TestViewApplyRefuses(t *testing.T) {
	bad := []struct{ name, ops string }{
		{"replace a member not there", `[{"op":"replace","path":"/G/nope","value":1}]`},
		{"remove a member not there", `[{"op":"remove","path":"/G/nope"}]`},
		{"index past the end", `[{"op":"add","path":"/G/moves/2","value":1}]`},
		{"replace at -", `[{"op":"replace","path":"/G/moves/-","value":1}]`},
		{"leading zero", `[{"op":"remove","path":"/G/moves/00"}]`},
		{"inside a scalar", `[{"op":"add","path":"/G/note/x","value":1}]`},
		{"into a missing parent", `[{"op":"add","path":"/G/x/y","value":1}]`},
		{"no value", `[{"op":"add","path":"/G/x"}]`},
		{"bad pointer", `[{"op":"add","path":"G/x","value":1}]`},
		{"bad escape", `[{"op":"add","path":"/G/a~2","value":1}]`},
		{"remove the view", `[{"op":"remove","path":""}]`},
		{"the view a scalar", `[{"op":"replace","path":"","value":3}]`},
		{"unknown op", `[{"op":"frob","path":"/G"}]`},
		{"failed test", `[{"op":"test","path":"/ctx/turn","value":3}]`},
		{"ctx of the wrong type", `[{"op":"replace","path":"/ctx","value":"x"}]`},
		{"players of the wrong type", `[{"op":"replace","path":"/players/0/id","value":"x"}]`},
		{"move into itself", `[{"op":"move","from":"/G","path":"/G/x"}]`},
		{"a good op then a bad one", `[{"op":"add","path":"/G/x","value":1},{"op":"remove","path":"/G/y"}]`},
	}
	for _, tc := range bad {
		var v View
		if err := v.SetState([]byte(viewState)); err != nil {
			t.Fatal(err)
		}
		p := patchOf(t, `{"type":"patch","stateID":5,"base":4,"ops":`+tc.ops+`}`)
		err := v.Apply(p)
		if err == nil {
			_, err = v.State(nil)
		}
		if !errors.Is(err, protocol.ErrPatch) || v.Held() {
			t.Errorf("%s: err %v, held %v; want ErrPatch and nothing held", tc.name, err, v.Held())
		}
	}
	var v View
	if err := v.Apply(patchOf(t, `{"type":"patch","stateID":5,"base":4,"ops":[]}`)); !errors.Is(err, ErrGap) {
		t.Errorf("a patch with nothing held: %v, want ErrGap", err)
	}
	v.SetState([]byte(viewState))
	if err := v.Apply(patchOf(t, `{"type":"patch","stateID":6,"base":5,"ops":[]}`)); !errors.Is(err, ErrGap) || v.Held() {
		t.Errorf("a patch from base 5 on view 4: %v, held %v; want ErrGap", err, v.Held())
	}
	if err := v.SetState([]byte(`{"type":"state","G":{},"G":{}}`)); err == nil || v.Held() {
		t.Errorf("a state with G twice: %v, held %v", err, v.Held())
	}
	if err := v.SetState([]byte(`[1]`)); err == nil || v.Held() {
		t.Errorf("a state that is an array: %v", err)
	}
}

// TestViewOtherOps: move, copy and test, which the server does not write,
// apply as RFC 6902 says.
func TestViewOtherOps(t *testing.T) {
	var v View
	if err := v.SetState([]byte(viewState)); err != nil {
		t.Fatal(err)
	}
	p := patchOf(t, `{"type":"patch","stateID":5,"base":4,"ops":[{"op":"test","path":"/ctx/turn","value":2.0},{"op":"copy","from":"/G/moves/0","path":"/G/moves/0"},`+
		`{"op":"move","from":"/G/note","path":"/G/board/-"},{"op":"test","path":"/G/hands","value":{"0":["QS"]}}]}`)
	if err := v.Apply(p); err != nil {
		t.Fatal(err)
	}
	if got, want := string(v.Member("G")), `{"board":["..","B.","a\"b"],"moves":[[0,1],[0,1]],"hands":{"0":["QS"]}}`; got != want {
		t.Fatalf("G %s, want %s", got, want)
	}
}

// TestViewMatchesApplyPatch applies random operations to random documents
// both with View and with protocol.ApplyPatch: the values must agree, and
// each refusal must be a refusal of both.
func TestViewMatchesApplyPatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	applied := 0
	for round := range 300 {
		doc := map[string]any{}
		for i := range 1 + rng.IntN(4) {
			doc["k"+strconv.Itoa(i)] = randomValue(rng, 3)
		}
		js, _ := json.Marshal(doc)
		var v View
		if err := v.SetState(frameOf(doc)); err != nil {
			t.Fatal(err)
		}
		ref, _ := protocol.DecodeDoc(js)
		for step := range 20 {
			ops := []protocol.PatchOp{randomOp(rng, ref)}
			if ops[0].Path == "" && ops[0].Op == "replace" {
				continue // a view is an object, which ApplyPatch does not know
			}
			p := &protocol.Patch{StateID: v.StateID() + 1, Base: v.StateID(), Ops: ops}
			got, refErr := protocol.ApplyPatch(ref, ops)
			err := v.Apply(p)
			if (err == nil) != (refErr == nil) {
				t.Fatalf("round %d step %d %+v: View %v, ApplyPatch %v", round, step, ops[0], err, refErr)
			}
			if err != nil {
				// As a client does: the whole view again.
				if err := v.SetState(frameOf(ref)); err != nil {
					t.Fatal(err)
				}
				continue
			}
			ref = got
			applied++
			mine, _ := protocol.DecodeDoc(v.AppendJSON(nil))
			if !protocol.EqualJSON(mine, ref) {
				t.Fatalf("round %d step %d %+v:\nView %s\nwant %v", round, step, ops[0], v.AppendJSON(nil), ref)
			}
		}
	}
	if applied < 1000 {
		t.Fatalf("only %d random operations applied", applied)
	}
}

// frameOf is a state message of stateID 1 whose view is doc, an object.
func frameOf(doc any) []byte {
	js, _ := json.Marshal(doc)
	if string(js) == "{}" {
		return []byte(`{"type":"state","stateID":1}`)
	}
	return append([]byte(`{"type":"state","stateID":1,`), js[1:]...)
}

// randomValue is a random JSON value of at most depth levels.
func randomValue(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(6); {
	case depth > 0 && k == 0:
		m := map[string]any{}
		for i := range rng.IntN(4) {
			m[[]string{"a", "b", "c/d", "e~f"}[i]] = randomValue(rng, depth-1)
		}
		return m
	case depth > 0 && k == 1:
		a := []any{}
		for range rng.IntN(4) {
			a = append(a, randomValue(rng, depth-1))
		}
		return a
	case k == 2:
		return rng.IntN(100)
	case k == 3:
		return "s" + strconv.Itoa(rng.IntN(10))
	case k == 4:
		return rng.IntN(2) == 0
	}
	return nil
}

// randomOp is an operation on a path of doc (mostly one that exists).
func randomOp(rng *rand.Rand, doc any) protocol.PatchOp {
	var toks []string
	cur := doc
	for rng.IntN(3) > 0 {
		switch n := cur.(type) {
		case map[string]any:
			if len(n) == 0 {
				break
			}
			keys := make([]string, 0, len(n))
			for k := range n {
				keys = append(keys, k)
			}
			k := keys[rng.IntN(len(keys))]
			toks, cur = append(toks, k), n[k]
			continue
		case []any:
			if len(n) == 0 {
				break
			}
			i := rng.IntN(len(n))
			toks, cur = append(toks, strconv.Itoa(i)), n[i]
			continue
		}
		break
	}
	esc := strings.NewReplacer("~", "~0", "/", "~1")
	path := ""
	for _, t := range toks {
		path += "/" + esc.Replace(t)
	}
	val, _ := json.Marshal(randomValue(rng, 2))
	switch rng.IntN(6) {
	case 0:
		return protocol.PatchOp{Op: "remove", Path: path}
	case 1:
		return protocol.PatchOp{Op: "replace", Path: path, Value: val}
	case 2:
		return protocol.PatchOp{Op: "add", Path: path + "/-", Value: val}
	case 3:
		return protocol.PatchOp{Op: "add", Path: path + "/" + []string{"0", "1", "x", "a"}[rng.IntN(4)], Value: val}
	case 4:
		return protocol.PatchOp{Op: "copy", From: path, Path: "/k0/-"}
	}
	return protocol.PatchOp{Op: "test", Path: path, Value: val}
}

// FuzzViewApply: no patch makes Apply or State panic, and after an error
// nothing is held.
func FuzzViewApply(f *testing.F) {
	f.Add(`[{"op":"add","path":"/G/moves/-","value":[1,2]}]`)
	f.Add(`[{"op":"remove","path":"/log/0"},{"op":"replace","path":"/you","value":"1"}]`)
	f.Add(`[{"op":"move","from":"/G/board","path":"/players/0/x"}]`)
	f.Fuzz(func(t *testing.T, ops string) {
		var p protocol.Patch
		if json.Unmarshal([]byte(fmt.Sprintf(`{"stateID":5,"base":4,"ops":%s}`, ops)), &p) != nil {
			return
		}
		var v View
		if err := v.SetState([]byte(viewState)); err != nil {
			t.Fatal(err)
		}
		if err := v.Apply(&p); err != nil {
			if v.Held() {
				t.Fatal("a view held after an error")
			}
			return
		}
		if _, err := v.State(nil); err == nil && !json.Valid(v.AppendJSON(nil)) {
			t.Fatalf("the view is not JSON: %s", v.AppendJSON(nil))
		}
	})
}
