package sim

import (
	"bytes"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
)

// TestGameWithoutHook: a game with no hook (gomoku) runs with the generic
// report only, and its counts add up.
func TestGameWithoutHook(t *testing.T) {
	reg := games.NewRegistry(gomoku.Game)
	var out bytes.Buffer
	cfg, err := parse([]string{"-game", "gomoku", "-players", "2", "-games", "4", "-bots", "easy"}, reg, &out)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := Run(cfg, reg, &out)
	if err != nil {
		t.Fatal(err)
	}
	rep.Write(&out)
	c := rep.Counts()
	if c.Wins+c.Draws+c.Unfinished != 4 || rep.Extra != nil {
		t.Fatalf("counts %+v, extra %v", c, rep.Extra)
	}
	if text := out.String(); !strings.Contains(text, "gomoku: 2 players, 4 games") || strings.Contains(text, "phases run") {
		t.Fatalf("report:\n%s", text)
	}
}
