package weiqi

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

var rules Rules

// newGame is an empty board of size with komi 7.5.
func newGame(t *testing.T, size int) State {
	t.Helper()
	s, err := rules.Setup(2, json.RawMessage(`{"size":`+itoa(size)+`}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// do plays move name with args for seat, failing the test on refusal.
func do(t *testing.T, s State, seat int, name string, args ...any) State {
	t.Helper()
	n, err := rules.Apply(s, seat, name, games.Args(args...))
	if err != nil {
		t.Fatalf("%s %v by seat %d: %v\n%s", name, args, seat, err, diagram(s))
	}
	return n
}

// refuse checks that the move is refused with a reason containing want
// (in English or Chinese) and returns the error.
func refuse(t *testing.T, s State, seat int, want, name string, args ...any) {
	t.Helper()
	before, _ := json.Marshal(s)
	_, err := rules.Apply(s, seat, name, games.Args(args...))
	if err == nil {
		t.Fatalf("%s %v by seat %d was accepted, want %q\n%s", name, args, seat, want, diagram(s))
	}
	var me *games.MoveError
	msg := err.Error()
	if errors.As(err, &me) {
		msg = me.Reason.En + " / " + me.Reason.Zh
	}
	if !strings.Contains(msg, want) {
		t.Fatalf("%s %v refused with %q, want %q", name, args, msg, want)
	}
	if after, _ := json.Marshal(s); string(after) != string(before) {
		t.Fatalf("a refused move changed the state")
	}
}

// moves plays the coordinates in turn from black ("pass" passes).
func moves(t *testing.T, s State, ms ...string) State {
	t.Helper()
	for _, m := range ms {
		if m == "pass" {
			s = do(t, s, s.toMove(), movePass)
		} else {
			s = do(t, s, s.toMove(), movePlay, m)
		}
	}
	return s
}

// setUp places black and white stones by playing them in turn, one side
// passing while only the other has stones left (never two passes in a
// row), then passes once more if needed so that toMove is to move.
func setUp(t *testing.T, size int, black, white []string, toMove int) State {
	t.Helper()
	s := newGame(t, size)
	lists := [2][]string{black, white}
	for len(lists[0])+len(lists[1]) > 0 {
		c := s.toMove()
		if len(lists[c]) == 0 {
			s = do(t, s, c, movePass)
			continue
		}
		s = do(t, s, c, movePlay, lists[c][0])
		lists[c] = lists[c][1:]
	}
	if s.toMove() != toMove {
		s = do(t, s, s.toMove(), movePass)
	}
	return s
}

// at is the stone at a coordinate.
func at(t *testing.T, s State, name string) Stone {
	t.Helper()
	x, y, err := ParseCoord(name, s.size)
	if err != nil {
		t.Fatal(err)
	}
	return s.board.pts[y*s.size+x]
}

func diagram(s State) string { return strings.Join(s.board.rows(), "\n") }

func view(s State) View { return rules.View(s, games.Spectator) }
