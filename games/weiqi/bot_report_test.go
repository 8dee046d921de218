package weiqi

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// The strength report: go test ./games/weiqi -run TestBotReport -report -v
var (
	report      = flag.Bool("report", false, "run TestBotReport (normal against easy and against GNU Go)")
	reportGames = flag.Int("reportgames", 20, "games per pairing in TestBotReport")
	gnugoPath   = flag.String("gnugo", "/usr/games/gnugo", "GNU Go binary for TestBotReport")
)

func TestBotReport(t *testing.T) {
	if !*report {
		t.Skip("a strength report: run with -report")
	}
	t.Run("normal-easy", func(t *testing.T) {
		wins := 0
		for i := 0; i < *reportGames; i++ {
			seed := uint64(5000 + i)
			normal := i % 2
			levels := [2]string{"easy", "easy"}
			levels[normal] = "normal"
			g := playBots(t, levels, 9, 7.5, seed)
			if g.outcome.Winner == games.PlayerID(normal) {
				wins++
			}
			t.Logf("seed %d normal seat %d: %s in %d actions", seed, normal, *g.view.Result, g.actions)
		}
		t.Logf("normal beat easy in %d of %d games on 9x9 (komi 7.5)", wins, *reportGames)
	})
	t.Run("normal-gnugo1", func(t *testing.T) {
		if _, err := os.Stat(*gnugoPath); err != nil {
			t.Skipf("no GNU Go: %v", err)
		}
		wins, gnuFinal := 0, 0
		for i := 0; i < *reportGames; i++ {
			seed := uint64(6000 + i)
			normal := i % 2
			res, final := playGnugo(t, normal, seed)
			if res.outcome.Winner == games.PlayerID(normal) {
				wins++
			}
			if strings.HasPrefix(final, "BW"[normal:normal+1]+"+") {
				gnuFinal++
			}
			t.Logf("seed %d normal seat %d: %s in %d actions, %d scorings (GNU Go's final_score of the last position: %s)",
				seed, normal, *res.view.Result, res.actions, res.scorings, final)
		}
		t.Logf("normal beat GNU Go level 1 in %d of %d games on 9x9 (komi 7.5, evolution scoring); "+
			"GNU Go's own final_score gave normal %d of them", wins, *reportGames, gnuFinal)
	})
}

// gtp is a GNU Go process spoken to over GTP.
type gtp struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

func startGnugo(t *testing.T) *gtp {
	t.Helper()
	cmd := exec.Command(*gnugoPath, "--mode", "gtp", "--level", "1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := &gtp{cmd: cmd, in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		g.in.Close()
		g.cmd.Wait()
	})
	return g
}

// do sends one command and returns the answer without its "= ".
func (g *gtp) do(t *testing.T, format string, a ...any) string {
	t.Helper()
	cmd := fmt.Sprintf(format, a...)
	if _, err := fmt.Fprintln(g.in, cmd); err != nil {
		t.Fatal(err)
	}
	var lines []string
	for {
		line, err := g.out.ReadString('\n')
		if err != nil {
			t.Fatalf("gtp %q: %v", cmd, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" && len(lines) > 0 {
			break
		}
		if line != "" {
			lines = append(lines, line)
		}
	}
	ans := strings.Join(lines, "\n")
	if !strings.HasPrefix(ans, "=") {
		t.Fatalf("gtp %q: %s", cmd, ans)
	}
	return strings.TrimSpace(ans[1:])
}

// playGnugo plays normal (seat normal) against GNU Go level 1 on 9x9
// through the real rules. GNU Go's scoring move is ScoringReply on its
// final_status_list dead, as the gnugo adapter does. It returns the game
// and GNU Go's final_score of the last position.
func playGnugo(t *testing.T, normal int, seed uint64) (botGame, string) {
	t.Helper()
	g := startGnugo(t)
	g.do(t, "boardsize 9")
	g.do(t, "clear_board")
	g.do(t, "komi 7.5")
	r := Rules{}
	s, err := r.Setup(2, []byte(`{"size":9,"komi":7.5}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	colour := [2]string{"black", "white"}
	for n := 0; n < maxActions; n++ {
		st := r.Status(s)
		if st.Outcome != nil {
			v := r.View(s, games.Spectator)
			return botGame{outcome: st.Outcome, view: v, actions: n, scorings: v.Scorings}, g.do(t, "final_score")
		}
		movers := st.Movers(2)
		seat := movers[n%len(movers)]
		v := r.View(s, seat)
		var name string
		var args []byte
		switch {
		case seat == normal:
			if name, args, err = r.Bot("normal", v, seat, rng); err != nil {
				t.Fatalf("seed %d: normal: %v", seed, err)
			}
			switch name {
			case movePlay:
				var pt []string
				if err := json.Unmarshal(args, &pt); err != nil || len(pt) != 1 {
					t.Fatalf("seed %d: normal played %s", seed, args)
				}
				g.do(t, "play %s %s", colour[seat], pt[0])
			case movePass:
				g.do(t, "play %s pass", colour[seat])
			}
		case v.Phase == "scoring":
			dead := strings.Fields(g.do(t, "final_status_list dead"))
			name, args = ScoringReply(v, seat, dead)
		default:
			switch m := g.do(t, "genmove %s", colour[seat]); strings.ToLower(m) {
			case "pass":
				name, args = movePass, games.Args()
			case "resign":
				name, args = moveResign, games.Args()
			default:
				name, args = movePlay, games.Args(m)
			}
		}
		next, err := r.Apply(s, seat, name, args)
		if err != nil && seat != normal && name == movePlay {
			// GNU Go checks simple ko only; a positional-superko repeat
			// is refused here, and GNU Go passes instead.
			t.Logf("seed %d: GNU Go's %s refused (%v): it passes", seed, args, err)
			g.do(t, "undo")
			g.do(t, "play %s pass", colour[seat])
			next, err = r.Apply(s, seat, movePass, games.Args())
		}
		if err != nil {
			t.Fatalf("seed %d: seat %d %s %s: %v", seed, seat, name, args, err)
		}
		s = next
	}
	t.Fatalf("seed %d: no end after %d actions", seed, maxActions)
	return botGame{}, ""
}
