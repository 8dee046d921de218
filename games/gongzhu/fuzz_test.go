package gongzhu

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// FuzzApply: any args for any seat, at a position a few tricks into a
// round, are refused with ErrInvalidMove or ErrNotYourTurn (never a panic)
// and leave the state as it was; accepted args are a legal card.
func FuzzApply(f *testing.F) {
	for _, s := range []string{`["QS"]`, `["2C"]`, `[]`, `["qs","2c"]`, `{"a":1}`, `[1e99]`, `null`, `["10c"]`, `"QS"`, `[["QS"]]`} {
		f.Add(s, 0)
		f.Add(s, 3)
	}
	r := Rules{}
	base := newState(f, 4, 11)
	rng := botRNG(11)
	for len(base.Tricks) < 3 {
		seat := base.Current()
		_, args, err := r.Bot(LevelNormal, r.View(base, seat), seat, rng)
		if err != nil {
			f.Fatal(err)
		}
		if base, err = r.Apply(base, seat, MovePlay, args); err != nil {
			f.Fatal(err)
		}
	}
	before, _ := json.Marshal(base)
	f.Fuzz(func(t *testing.T, args string, seat int) {
		next, err := r.Apply(base, seat, MovePlay, json.RawMessage(args))
		if after, _ := json.Marshal(base); !bytes.Equal(before, after) {
			t.Fatalf("Apply(%d, %s) changed its input", seat, args)
		}
		if err != nil {
			if !errors.Is(err, games.ErrInvalidMove) && !errors.Is(err, games.ErrNotYourTurn) {
				t.Fatalf("Apply(%d, %s): unexpected error %v", seat, args, err)
			}
			return
		}
		if seat != base.Current() || len(next.Hands[seat]) != len(base.Hands[seat])-1 {
			t.Fatalf("Apply(%d, %s) accepted a move it should not have", seat, args)
		}
	})
}
