package sim

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/games/threemonks"
)

func gongzhuRun(t *testing.T, args ...string) (Config, *Report, string) {
	t.Helper()
	reg := games.NewRegistry(gongzhu.Game)
	var out bytes.Buffer
	cfg, err := parse(args, reg, &out)
	if err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	rep, err := Run(cfg, reg, &out)
	if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	rep.Write(&out)
	return cfg, rep, out.String()
}

// handStats are the figures the test counts itself from the states'
// round histories: the scores of each group's seat-rounds and its counts.
type handStats struct {
	scores                         []int
	pig, sheep, transformer, heart int
}

func (h *handStats) add(e gongzhu.RoundSummary, seat int) {
	h.scores = append(h.scores, e.Scores[seat])
	if e.Pig == seat {
		h.pig++
	}
	if e.Sheep == seat {
		h.sheep++
	}
	if e.Transformer == seat {
		h.transformer++
	}
	if e.AllHearts == seat {
		h.heart++
	}
}

// meanSE is the textbook mean and standard error of xs.
func meanSE(xs []int) (float64, float64) {
	sum := 0.0
	for _, x := range xs {
		sum += float64(x)
	}
	mean := sum / float64(len(xs))
	ss := 0.0
	for _, x := range xs {
		ss += (float64(x) - mean) * (float64(x) - mean)
	}
	return mean, math.Sqrt(ss/float64(len(xs)-1)) / math.Sqrt(float64(len(xs)))
}

// check compares a reported SeatRounds with the hand count, and finds its
// line in the report text.
func (h *handStats) check(t *testing.T, what string, got SeatRounds, text string) {
	t.Helper()
	mean, se := meanSE(h.scores)
	n := len(h.scores)
	if got.Score.N != n || math.Abs(got.Score.Mean()-mean) > 1e-9 || math.Abs(got.Score.StdErr()-se) > 1e-9 {
		t.Fatalf("%s: report n %d mean %v se %v, counted n %d mean %v se %v", what, got.Score.N, got.Score.Mean(), got.Score.StdErr(), n, mean, se)
	}
	if got.Pig != h.pig || got.Sheep != h.sheep || got.Transformer != h.transformer || got.AllHearts != h.heart {
		t.Fatalf("%s: report %+v, counted pig %d sheep %d transformer %d all hearts %d", what, got, h.pig, h.sheep, h.transformer, h.heart)
	}
	want := fmt.Sprintf("%+7.1f ± %.1f  pig %6s  sheep %6s", mean, se, pct(h.pig, n), pct(h.sheep, n))
	if !strings.Contains(text, what+strings.Repeat(" ", 17-len(what))+want) {
		t.Fatalf("report lacks %q for %s:\n%s", want, what, text)
	}
}

// TestGongzhuRounds: -rounds 3 with two games of 4 seats plays exactly 3
// rounds each, and every figure of the report (per seat, per level, per
// team) is what the test counts from the games' own round histories,
// replayed from their seeds.
func TestGongzhuRounds(t *testing.T) {
	cfg, rep, text := gongzhuRun(t, "-game", "gongzhu", "-players", "4", "-rounds", "3", "-games", "2",
		"-bots", "normal,easy,easy,normal", "-seed", "5", "-workers", "2")
	ps := rep.Extra.(*PigStats)
	if ps.Rounds != 6 || len(rep.Results) != 2 {
		t.Fatalf("%d rounds over %d games, want 6 over 2", ps.Rounds, len(rep.Results))
	}
	seats := make([]handStats, 4)
	levels := map[string]*handStats{"normal": {}, "easy": {}}
	teams := make([][]int, 2)
	g, _ := games.NewRegistry(gongzhu.Game).Get("gongzhu")
	for i := range rep.Results {
		_, last, r, err := playOne(g, cfg, i, hookFor("gongzhu"), nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := games.Typed[gongzhu.State](last)
		if len(s.History) != 3 || s.Round != 4 || r.Unfinished || r != rep.Results[i] {
			t.Fatalf("game %d: %d rounds in the history, round %d, result %+v (report %+v)", i, len(s.History), s.Round, r, rep.Results[i])
		}
		for _, e := range s.History {
			for seat := range 4 {
				seats[seat].add(e, seat)
				levels[cfg.Bots[seat]].add(e, seat)
			}
			for team := range 2 {
				teams[team] = append(teams[team], e.Scores[team]+e.Scores[team+2])
			}
		}
	}
	for seat := range seats {
		seats[seat].check(t, fmt.Sprintf("seat %d (%s)", seat, cfg.Bots[seat]), ps.Seats[seat], text)
	}
	for l, h := range levels {
		h.check(t, l, *ps.ByLevel[l], text)
	}
	for team, xs := range teams {
		mean, se := meanSE(xs)
		got := ps.Teams[team]
		if got.N != 6 || math.Abs(got.Mean()-mean) > 1e-9 || math.Abs(got.StdErr()-se) > 1e-9 {
			t.Fatalf("team %d: report %v, counted mean %v se %v", team, got, mean, se)
		}
		if want := fmt.Sprintf("team %d (seats %d+%d)  %+7.1f ± %.1f", team, team, team+2, mean, se); !strings.Contains(text, want) {
			t.Fatalf("report lacks %q:\n%s", want, text)
		}
	}
	for _, want := range []string{"2 game(s) of 3 rounds = 6 rounds", "rounds played: 6"} {
		if !strings.Contains(text, want) {
			t.Fatalf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "wins") || strings.Contains(text, "unfinished") {
		t.Fatalf("a -rounds report speaks of wins:\n%s", text)
	}
}

// TestGongzhuRoundsDefaults: -rounds alone plays one game of that many
// rounds, 3 seats have no team line, and -verbose narrates each round's end.
func TestGongzhuRoundsDefaults(t *testing.T) {
	cfg, rep, text := gongzhuRun(t, "-game", "gongzhu", "-players", "3", "-rounds", "2", "-verbose")
	if cfg.Games != 1 || len(rep.Results) != 1 || rep.Extra.(*PigStats).Rounds != 2 {
		t.Fatalf("games %d, results %d, rounds %d", cfg.Games, len(rep.Results), rep.Extra.(*PigStats).Rounds)
	}
	if rep.Results[0].Moves != 2*51 {
		t.Fatalf("%d moves for two 3-seat rounds, want 102", rep.Results[0].Moves)
	}
	for _, want := range []string{"-- round 1 over: scores", "-- round 2 over", "seat 2 (easy)", "easy "} {
		if !strings.Contains(text, want) {
			t.Fatalf("report lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "team") {
		t.Fatalf("3 seats have no teams:\n%s", text)
	}
}

// TestRoundsFlag: -rounds is refused for games played to their end and
// when not positive.
func TestRoundsFlag(t *testing.T) {
	reg := games.NewRegistry(gongzhu.Game, threemonks.Game)
	for _, args := range [][]string{
		{"-game", "threemonks", "-rounds", "5"},
		{"-game", "gongzhu", "-rounds", "0"},
		{"-game", "gongzhu", "-rounds", "-2"},
	} {
		var out bytes.Buffer
		if err := Main(args, reg, &out); !errors.Is(err, ErrUsage) {
			t.Fatalf("%v: error %v, want ErrUsage", args, err)
		}
	}
}

// TestTally: the mean and standard error of a known sample, and none with
// fewer than two values.
func TestTally(t *testing.T) {
	var a Tally
	for _, x := range []int{-100, 50, 0, 250} {
		a.Add(x)
	}
	mean, se := meanSE([]int{-100, 50, 0, 250})
	if a.Mean() != 50 || math.Abs(a.StdErr()-se) > 1e-9 || mean != 50 || math.Abs(se-73.598007219398731) > 1e-9 {
		t.Fatalf("mean %v se %v (counted %v %v)", a.Mean(), a.StdErr(), mean, se)
	}
	var b Tally
	b.Add(7)
	if !math.IsNaN(b.StdErr()) || b.String() != "   +7.0 ± -" {
		t.Fatalf("one value: se %v, %q", b.StdErr(), b.String())
	}
}
