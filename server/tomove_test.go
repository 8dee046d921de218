package server_test

import (
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// getMatch reads the lobby's view of one match.
func getMatch(t *testing.T, base, game, id string) protocol.Match {
	t.Helper()
	code, b := get(t, base+"/games/"+game+"/"+id)
	if code != 200 {
		t.Fatalf("GET match: %d %s", code, b)
	}
	var m protocol.Match
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The lobby's view of one match says whose move it is ("my matches" in the
// web client shows it): nobody's before the start, the mover's during the
// game, every active seat in a simultaneous stage, and nobody's once over.
func TestMatchToMove(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	if m := getMatch(t, base, "gomoku", id); len(m.ToMove) != 0 {
		t.Fatalf("toMove before the start: %v", m.ToMove)
	}
	ann := join(t, base, "gomoku", id, "Ann")
	bob := join(t, base, "gomoku", id, "Bob")
	if m := getMatch(t, base, "gomoku", id); len(m.ToMove) != 1 || m.ToMove[0] != "0" {
		t.Fatalf("toMove at the start: %v", m.ToMove)
	}
	w := dial(t, base, "gomoku", id)
	w.hello(&ann)
	w.acked(w.move("place", 7, 7))
	if m := getMatch(t, base, "gomoku", id); len(m.ToMove) != 1 || m.ToMove[0] != "1" {
		t.Fatalf("toMove after Ann's move: %v", m.ToMove)
	}
	if code, _ := post(t, base+"/games/gomoku/"+id+"/leave", map[string]any{"playerID": bob.id, "credentials": bob.creds}); code != 200 {
		t.Fatal("leave")
	}
	// A list leaves it out: listing stays cheap.
	_, b := get(t, base+"/games/gomoku")
	var list protocol.MatchList
	if err := json.Unmarshal(b, &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list.Matches {
		if m.ToMove != nil {
			t.Fatalf("list carries toMove: %s", b)
		}
	}

	// Three Monks plays simultaneously: every seat may move at once.
	tm := create(t, base, "threemonks", map[string]any{"numPlayers": 3})
	for _, n := range []string{"A", "B", "C"} {
		join(t, base, "threemonks", tm, n)
	}
	if m := getMatch(t, base, "threemonks", tm); len(m.ToMove) != 3 {
		t.Fatalf("three monks toMove: %v", m.ToMove)
	}
}
