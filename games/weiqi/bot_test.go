package weiqi

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// botGames overrides TestNormalBeatsEasy's number of games.
// The full statistical run is -botgames=50 (about 110 s on two cores); the
// default of 16 games (both colours, eight each) keeps CI near 35 s and
// still fails on a bot that loses any of them.
var botGames = flag.Int("botgames", 0, "games TestNormalBeatsEasy plays (0: 16; 6 with -short; 1 with -short -race; 50 for the full run)")

// botGame is the end of one bot-against-bot game driven through the real
// rules: pass, pass, scoring, both bots' marks and approvals, outcome.
type botGame struct {
	outcome  *games.Outcome
	view     View // the final view
	actions  int  // moves applied, scoring moves included
	scorings int
}

// maxActions caps a bot game; no game between the bots comes near it.
const maxActions = 2000

// playBots plays levels[0] (black) against levels[1] (white) on a size
// board with komi, every random choice drawn from seed.
func playBots(tb testing.TB, levels [2]string, size int, komi float64, seed uint64) botGame {
	tb.Helper()
	r := Rules{}
	s, err := r.Setup(2, json.RawMessage(fmt.Sprintf(`{"size":%d,"komi":%v}`, size, komi)), nil)
	if err != nil {
		tb.Fatalf("seed %d: setup: %v", seed, err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9E3779B97F4A7C15))
	for n := 0; n < maxActions; n++ {
		st := r.Status(s)
		if st.Outcome != nil {
			v := r.View(s, games.Spectator)
			return botGame{outcome: st.Outcome, view: v, actions: n, scorings: v.Scorings}
		}
		movers := st.Movers(2)
		if len(movers) == 0 {
			tb.Fatalf("seed %d: nobody may move in phase %s", seed, st.Phase)
		}
		seat := movers[n%len(movers)]
		name, args, err := r.Bot(levels[seat], r.View(s, seat), seat, rng)
		if err != nil {
			tb.Fatalf("seed %d: action %d: bot %s for seat %d: %v", seed, n, levels[seat], seat, err)
		}
		if s, err = r.Apply(s, seat, name, args); err != nil {
			tb.Fatalf("seed %d: action %d: bot %s for seat %d played %s %s: %v", seed, n, levels[seat], seat, name, args, err)
		}
	}
	tb.Fatalf("seed %d: no end after %d actions", seed, maxActions)
	return botGame{}
}

// TestNormalBeatsEasy: normal must win every game against easy on 9x9 with
// komi 7.5, as black in even games and white in odd ones, each game played
// through the real rules to the end (passes, scoring by both bots, the
// evolution, the count). The games run in parallel.
func TestNormalBeatsEasy(t *testing.T) {
	first, games := 0, 16
	switch {
	case testing.Short() && raceBuild:
		// The bots are single-threaded: the race detector finds nothing
		// here, and one game took 30 s of CI's race stage under it.
		t.Skip("a bot game under -race -short: the bots are single-threaded")
	case testing.Short():
		games = 6
	}
	if *botGames > 0 {
		first, games = 0, *botGames
	}
	for i := first; i < games; i++ {
		seed := uint64(1000 + i)
		normal := i % 2 // seat of normal: black in even games
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			t.Parallel()
			levels := [2]string{"easy", "easy"}
			levels[normal] = "normal"
			g := playBots(t, levels, 9, 7.5, seed)
			res := ""
			if g.view.Result != nil {
				res = *g.view.Result
			}
			if g.outcome.Winner != fmt.Sprint(normal) {
				t.Errorf("seed %d: normal (seat %d) lost: %s after %d actions, board %q", seed, normal, res, g.actions, g.view.Board)
			}
			t.Logf("seed %d normal seat %d: %s in %d actions, %d scorings", seed, normal, res, g.actions, g.scorings)
		})
	}
}

// scoringView is a 9x9 view in scoring with black stones at A9 B9 J1 and
// white at J9 A1.
func scoringView(dead []string, edits, scorings int) View {
	return View{
		Size: 9, Komi: 7.5, ToMove: "0", Phase: "scoring", Dead: dead, Edits: edits, Scorings: scorings,
		Board: []string{
			"BB......W",
			".........", ".........", ".........", ".........", ".........", ".........", ".........",
			"W.......B",
		},
	}
}

func TestScoringReply(t *testing.T) {
	none := []string{}
	for _, tc := range []struct {
		name     string
		seat     int
		marks    []string
		judged   []string
		edits    int
		scorings int
		want     string
		wantArgs string
	}{
		{"agree on nothing", 0, none, none, 0, 1, moveApprove, `[]`},
		{"mark the opponent's dead", 0, none, []string{"J9"}, 0, 1, moveSetDead, `[["J9"]]`},
		{"unmark my live stones", 0, []string{"A9", "B9"}, none, 0, 1, moveSetDead, `[[]]`},
		{"my stones are dead indeed", 0, []string{"A9", "B9"}, []string{"A9", "B9"}, 0, 1, moveApprove, `[]`},
		{"accept marks that favour the opponent", 0, []string{"A1"}, none, 0, 1, moveApprove, `[]`},
		{"keep the other marks", 0, []string{"A1"}, []string{"J9"}, 0, 1, moveSetDead, `[["J9","A1"]]`},
		{"both corrections at once", 0, []string{"A9", "B9", "A1"}, []string{"J9"}, 2, 1, moveSetDead, `[["J9","A1"]]`},
		{"give in on the third session", 0, none, []string{"J9"}, 0, 3, moveApprove, `[]`},
		{"dispute: play it out", 0, none, []string{"J9"}, 6, 2, moveResume, `[]`},
		{"lower case and empty points", 0, none, []string{"j9", "E5", "??"}, 0, 1, moveSetDead, `[["J9"]]`},
		{"empty point only", 0, none, []string{"E5"}, 0, 1, moveApprove, `[]`},
		{"white unmarks its stone", 1, []string{"J9"}, none, 0, 1, moveSetDead, `[[]]`},
		{"white marks black", 1, none, []string{"J1", "A9"}, 0, 1, moveSetDead, `[["A9","J1"]]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, args := ScoringReply(scoringView(tc.marks, tc.edits, tc.scorings), tc.seat, tc.judged)
			if name != tc.want || string(args) != tc.wantArgs {
				t.Errorf("got %s %s, want %s %s", name, args, tc.want, tc.wantArgs)
			}
		})
	}
}

// applyAll plays moves (seat, name, args as JSON) from a 9x9 setup with
// komi, failing the test on an error.
func applyAll(t *testing.T, komi float64, moves ...string) State {
	t.Helper()
	r := Rules{}
	s, err := r.Setup(2, json.RawMessage(fmt.Sprintf(`{"size":9,"komi":%v}`, komi)), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+2 < len(moves)+1; i += 3 {
		seat := int(moves[i][0] - '0')
		if s, err = r.Apply(s, seat, moves[i+1], json.RawMessage(moves[i+2])); err != nil {
			t.Fatalf("%s %s %s: %v", moves[i], moves[i+1], moves[i+2], err)
		}
	}
	return s
}

func TestBotAnswersAndErrors(t *testing.T) {
	r := Rules{}
	rng := rand.New(rand.NewPCG(1, 1))
	undo := applyAll(t, 7.5, "0", "play", `["D4"]`, "1", "play", `["E5"]`, "0", "requestUndo", `[]`)
	scoring := applyAll(t, 7.5, "0", "play", `["D4"]`, "1", "requestScoring", `[]`)
	passed := applyAll(t, 7.5, "0", "play", `["D4"]`, "1", "pass", `[]`, "0", "pass", `[]`)
	over := applyAll(t, 7.5, "0", "resign", `[]`)
	for _, tc := range []struct {
		name     string
		s        State
		level    string
		seat     int
		want     string
		wantArgs string
		wantErr  error
	}{
		{"answer undo", undo, "normal", 1, moveAnswerUndo, `[true]`, nil},
		{"easy answers undo", undo, "easy", 1, moveAnswerUndo, `[true]`, nil},
		{"own undo pending", undo, "normal", 0, "", "", games.ErrNotYourTurn},
		{"answer scoring", scoring, "normal", 0, moveAnswerScoring, `[true]`, nil},
		{"own scoring request", scoring, "easy", 1, "", "", games.ErrNotYourTurn},
		{"scoring with nothing dead", passed, "normal", 0, moveApprove, `[]`, nil},
		{"not my turn", applyAll(t, 7.5), "normal", 1, "", "", games.ErrNotYourTurn},
		{"game over", over, "easy", 1, "", "", games.ErrGameOver},
		{"unknown level", undo, "hard", 1, "", "", games.ErrNoBot},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name, args, err := r.Bot(tc.level, r.View(tc.s, tc.seat), tc.seat, rng)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("got %s %s %v, want error %v", name, args, err, tc.wantErr)
				}
				return
			}
			if err != nil || name != tc.want || string(args) != tc.wantArgs {
				t.Fatalf("got %s %s %v, want %s %s", name, args, err, tc.want, tc.wantArgs)
			}
		})
	}
}

func TestNormalPassesWhenDecided(t *testing.T) {
	r := Rules{}
	for _, tc := range []struct {
		komi     float64
		wantPass bool
	}{
		{-100, true}, // black wins whatever: pass after white's pass
		{100, false}, // black loses if it ends now: play on
	} {
		s := applyAll(t, tc.komi, "0", "play", `["E5"]`, "1", "pass", `[]`)
		name, args, err := r.Bot("normal", r.View(s, 0), 0, rand.New(rand.NewPCG(3, 3)))
		if err != nil {
			t.Fatal(err)
		}
		if (name == movePass) != tc.wantPass {
			t.Errorf("komi %v: got %s %s, want pass %v", tc.komi, name, args, tc.wantPass)
		}
	}
}

func TestJudgeDead(t *testing.T) {
	v := View{Size: 9, Komi: 7.5, ToMove: "0", Board: []string{
		".........",
		".........",
		".........",
		"WWWWWWWWW",
		"BBBBBBBBB",
		".........",
		"....W....",
		".........",
		".........",
	}}
	for seed := uint64(0); seed < 3; seed++ {
		dead, err := judgeDead(v, rand.New(rand.NewPCG(seed, seed)))
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(dead, []string{"E3"}) {
			t.Errorf("seed %d: dead %q, want [E3]", seed, dead)
		}
	}
}

// TestEasyPlaysLegally plays easy against easy to the end: every move the
// bots choose must pass the real rules (playBots fails otherwise), and easy
// never fills its own eye.
func TestEasyPlaysLegally(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		g := playBots(t, [2]string{"easy", "easy"}, 9, 7.5, seed)
		t.Logf("seed %d: %d actions, result %v", seed, g.actions, *g.view.Result)
		if g.outcome == nil || g.outcome.Reason != "score" {
			t.Errorf("seed %d: outcome %+v", seed, g.outcome)
		}
	}
}

func TestEasyNeverFillsOwnEye(t *testing.T) {
	// Black's only empty points are its two eyes at A9 and C9 and white's
	// area; easy (black) must play in white's area or pass.
	v := View{Size: 9, Komi: 7.5, ToMove: "0", Phase: "play", Moves: nil, Board: []string{
		".B.BW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
		"BBBBW....",
	}}
	b, err := boardFromView(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range easyOrder(b, rand.New(rand.NewPCG(1, 1))) {
		if x, _ := b.xy(p); x < 4 {
			t.Errorf("easy would play %s, in its own eye", FormatCoord(x, 0, 9))
		}
	}
}
