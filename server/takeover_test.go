package server_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestClockTakeoverOverWebSocket: over real WebSockets, Ann sits in a
// Gomoku match against a bot with a 1 s clock and no time a move, and
// plays nothing. The state that logs her third timeout in a row shows
// the bot in her seat to her and to a spectator, and tells her connection
// it is a spectator's (you ""); a move from it is then refused as a
// spectator's, and the lobby shows the same seat.
func TestClockTakeoverOverWebSocket(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"1": "easy"},
		"clock": map[string]any{"bank": 1, "perMove": 0}})
	ann := dial(t, srv.URL, "gomoku", id)
	spec := dial(t, srv.URL, "gomoku", id)
	spec.hello(nil)
	s := join(t, srv.URL, "gomoku", id, "Ann")
	if st := ann.hello(&s); st.You != "0" {
		t.Fatalf("Ann's hello: you %q", st.You)
	}
	took := func(st *protocol.State) bool {
		return slices.ContainsFunc(st.Log, func(e protocol.LogEntry) bool {
			return e.PlayerID == "0" && e.Text == rooms.TimeoutLeftText
		})
	}
	for _, w := range []struct {
		name string
		c    *wsClient
	}{{"Ann", ann}, {"the spectator", spec}} {
		st := w.c.stateWhere(took)
		if p := st.Players[0]; !p.IsBot || p.BotLevel == "" || p.Name != "Ann" {
			t.Errorf("%s: the takeover's state %d shows seat 0 as %+v", w.name, st.StateID, p)
		}
		if st.You != "" {
			t.Errorf("%s: the takeover's state %d says you %q", w.name, st.StateID, st.You)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	ann.move("place", 0, 0)
	if e := ann.expectError(protocol.CodeUnauthorized); e.Message != "spectators cannot move" {
		t.Fatalf("Ann's move after the takeover: %+v", e)
	}
	code, body := get(t, srv.URL+"/games/gomoku/"+id)
	var m protocol.Match
	if err := json.Unmarshal(body, &m); err != nil || code != 200 {
		t.Fatalf("get: %d %s", code, body)
	}
	if !m.Players[0].IsBot {
		t.Fatalf("the lobby shows seat 0 as %+v", m.Players[0])
	}
}
