package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestMetricsCountBotMovesAndDecisions plays a whole Gomoku match between
// two easy bots and checks that /metrics counts every move the bots made,
// and one timed decision for each, under the game and the level.
func TestMetricsCountBotMovesAndDecisions(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"0": "easy", "1": "easy"}})
	w := dial(t, srv.URL, "gomoku", id)
	s := w.hello(nil)
	if len(s.Ctx.Gameover) == 0 || string(s.Ctx.Gameover) == "null" {
		s = w.stateWhere(func(s *protocol.State) bool {
			return len(s.Ctx.Gameover) > 0 && string(s.Ctx.Gameover) != "null"
		})
	}
	moves := s.StateID - 1 // the stateID counts accepted moves from 1
	if moves < 9 {
		t.Fatalf("the match ended after %d moves; five in a row takes at least 9", moves)
	}
	_, b := get(t, srv.URL+"/metrics")
	for _, want := range []string{
		fmt.Sprintf(`chaguan_bot_moves_total{game="gomoku",level="easy"} %d`, moves),
		fmt.Sprintf(`chaguan_bot_decision_seconds_count{game="gomoku",level="easy"} %d`, moves),
		fmt.Sprintf(`chaguan_bot_decision_seconds_bucket{game="gomoku",level="easy",le="+Inf"} %d`, moves),
	} {
		if !strings.Contains(string(b), want+"\n") {
			t.Errorf("/metrics lacks %q:\n%s", want, grepLines(string(b), "chaguan_bot_"))
		}
	}
	if strings.Contains(string(b), `chaguan_bot_moves_total{game="gomoku",level="normal"}`) {
		t.Error("/metrics counts moves of a level no seat played")
	}
}

// grepLines returns the lines of text that contain s.
func grepLines(text, s string) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n")
}
