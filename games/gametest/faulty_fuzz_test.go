package gametest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// fault is a defect a faulty game's Apply or View has, for checking that
// FuzzApply's checks catch each one.
type fault int

const (
	sound         fault = iota
	mutatesInput        // writes into the state it was handed
	plainError          // refuses with an error outside the contract
	emptyError          // refuses with an empty reason
	nondetermined       // gives another state each time
	secretView          // shows a key named secret
	lossyState          // gives a state that does not round-trip
	unstableArgs        // canonical args whose canonical form differs
)

// faultyState is the faulty game's state; Lossy forgets itself on load.
type faultyState struct {
	Cells []int     `json:"cells"`
	Lossy lossyMark `json:"lossy"`
}

// lossyMark writes its value but reads every value back as zero.
type lossyMark int

func (m lossyMark) MarshalJSON() ([]byte, error) { return json.Marshal(int(m)) }
func (m *lossyMark) UnmarshalJSON([]byte) error  { *m = 0; return nil }

// faulty is a one-seat game whose move "play" [n] has the defect f.
type faulty struct {
	f     fault
	calls *int // Apply calls so far, for nondetermined
}

func (faulty) Info() games.Info {
	return games.Info{Name: "faulty", MinPlayers: 1, MaxPlayers: 1, Moves: []games.MoveSpec{{Name: "play"}}, Bots: []string{"b"}}
}

func (faulty) Setup(int, json.RawMessage, *games.RNG) (faultyState, error) {
	return faultyState{Cells: []int{1, 2}}, nil
}

func (faulty) Status(faultyState) games.Status { return games.Status{Current: 0} }

func (g faulty) Apply(s faultyState, _ int, _ string, args json.RawMessage) (faultyState, error) {
	*g.calls++
	switch g.f {
	case mutatesInput:
		s.Cells[0]++
		return s, nil
	case plainError:
		return s, errors.New("no")
	case emptyError:
		return s, games.Invalid("", "")
	case nondetermined:
		return faultyState{Cells: []int{*g.calls}}, nil
	case lossyState:
		return faultyState{Cells: []int{1}, Lossy: 1}, nil
	}
	var n []int
	if json.Unmarshal(args, &n) != nil {
		return s, games.Invalid("bad args", "参数错误")
	}
	return faultyState{Cells: append(n, s.Cells...)}, nil
}

func (g faulty) View(s faultyState, _ int) map[string]int {
	if g.f == secretView {
		return map[string]int{"secret": 1}
	}
	return map[string]int{"cells": len(s.Cells)}
}

// CanonicalArgs is json.Compact of the args, or for unstableArgs the args
// wrapped in one more array each time.
func (g faulty) CanonicalArgs(_ string, args json.RawMessage) (json.RawMessage, error) {
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return nil, games.Invalid("bad args", "参数错误")
	}
	if g.f == unstableArgs {
		return append(append(json.RawMessage("["), b.Bytes()...), ']'), nil
	}
	return b.Bytes(), nil
}

func (faulty) Bot(string, map[string]int, int, *rand.Rand) (string, json.RawMessage, error) {
	return "play", json.RawMessage(`[1]`), nil
}

// TestApplyCheckedCatchesEachFault plays a move in a game with each defect
// and checks that applyChecked names it, and that it passes a sound game.
func TestApplyCheckedCatchesEachFault(t *testing.T) {
	for _, c := range []struct {
		f    fault
		args string
		want string // in the error; "" for none
	}{
		{sound, `[3]`, ""},
		{sound, `{"x":1}`, ""},
		{mutatesInput, `[3]`, "changed its input"},
		{plainError, `[3]`, "wraps no contract error"},
		{emptyError, `[3]`, "empty error"},
		{nondetermined, `[3]`, "not deterministic"},
		{secretView, `[3]`, "secret"},
		{lossyState, `[3]`, "round-trip"},
		{unstableArgs, `[3]`, "not canonical"},
	} {
		g := games.Erase[faultyState, map[string]int](faulty{f: c.f, calls: new(int)})
		st, err := g.Setup(1, nil, 1)
		if err != nil {
			t.Fatal(err)
		}
		_, err = applyChecked(g, st, 1, 0, "play", json.RawMessage(c.args))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("fault %d, args %s: sound move reported: %v", c.f, c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("fault %d: got %v, want an error about %q", c.f, err, c.want)
		}
	}
}
