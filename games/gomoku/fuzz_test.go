package gomoku

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// FuzzApply plays arbitrary moves with arbitrary args from a few positions:
// nothing panics, an accepted move leaves the input untouched and gives a
// state that round-trips through JSON, a refused move changes nothing and
// wraps one of the contract's errors.
func FuzzApply(f *testing.F) {
	for _, s := range []struct {
		pos  uint8
		seat int
		name string
		args string
	}{
		{0, 0, "place", `[7,7]`},
		{1, 1, "place", `[ 3 , 14 ]`},
		{1, 0, "place", `[15,0]`},
		{1, 0, "requestUndo", `[]`},
		{2, 1, "answerUndo", `[true]`},
		{2, 1, "answerUndo", `[false]`},
		{3, 1, "resign", `[]`},
		{1, 0, "place", `[1e3,-0]`},
		{1, 0, "place", `[-7,"7"]`},
	} {
		f.Add(s.pos, s.seat, s.name, []byte(s.args))
	}
	starts := fuzzStarts(f)
	f.Fuzz(func(t *testing.T, pos uint8, seat int, name string, args []byte) {
		st := starts[int(pos)%len(starts)]
		before := mustJSON(t, st)
		next, err := st.Apply(seat, name, args)
		if after := mustJSON(t, st); !bytes.Equal(before, after) {
			t.Fatalf("Apply(%d, %q, %q) changed its input", seat, name, args)
		}
		if err != nil {
			for _, want := range []error{games.ErrInvalidMove, games.ErrNotYourTurn, games.ErrGameOver, games.ErrUnknownMove} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("Apply(%d, %q, %q): error %v wraps no contract error", seat, name, args, err)
		}
		data := mustJSON(t, next)
		back, err := Game.Load(data)
		if err != nil {
			t.Fatalf("Apply(%d, %q, %q) gave a state that does not load: %v\n%s", seat, name, args, err, data)
		}
		if !bytes.Equal(mustJSON(t, back), data) {
			t.Fatalf("state does not round-trip: %s", data)
		}
		_ = next.View(games.Spectator)
		_ = next.Status()
	})
}

// fuzzStarts are the positions the fuzzer plays from: empty, mid-game,
// an undo pending, a finished game.
func fuzzStarts(f *testing.F) []games.State {
	mid := playStones(f, [2]int{7, 7}, [2]int{8, 8}, [2]int{6, 6}, [2]int{8, 7})
	return []games.State{
		newMatch(f),
		mid,
		mustApply(f, mid, 0, moveRequestUndo),
		playStones(f, interleave(line(0, 0, 1, 0, 5), scattered[:4])...),
	}
}

// FuzzLoad decodes arbitrary stored states: no panic, and whatever loads
// re-encodes to a state that loads to the same bytes.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		`{"moves":""}`, `{"moves":"hhih","undo":"1"}`, `{"moves":"aaoabaobcaocdaodea"}`,
		`{"moves":"hh","resigned":"0"}`, `{"moves":"hhhh"}`, `[]`, `null`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		st, err := Game.Load(data)
		if err != nil {
			return
		}
		b := mustJSON(t, st)
		back, err := Game.Load(b)
		if err != nil {
			t.Fatalf("re-encoded state %s does not load: %v", b, err)
		}
		if !bytes.Equal(mustJSON(t, back), b) {
			t.Fatalf("state does not round-trip: %s", b)
		}
		_ = st.View(0)
		_ = st.Status()
	})
}

// FuzzBot hands every bot level arbitrary views (as JSON, the way the
// framework does): no panic, and a chosen stone goes on an empty point.
func FuzzBot(f *testing.F) {
	for _, st := range fuzzStarts(f) {
		f.Add(mustJSON(f, st.View(0)), uint8(0))
	}
	f.Add([]byte(`{"size":15,"board":["x"],"toMove":"0"}`), uint8(1))
	f.Fuzz(func(t *testing.T, data []byte, pick uint8) {
		var v View
		if json.Unmarshal(data, &v) != nil {
			return
		}
		level, seat := levels[int(pick)%len(levels)], int(pick/3)%2
		name, args, err := Rules{}.Bot(level, v, seat, rand.New(rand.NewPCG(1, 2)))
		if err != nil || name != movePlace {
			return
		}
		x, y, ok := parsePoint(args)
		if !ok || !onBoard(x, y) || v.Board[y][x] != '.' {
			t.Fatalf("bot %s chose %s on a bad point for board %q", level, args, v.Board)
		}
	})
}
