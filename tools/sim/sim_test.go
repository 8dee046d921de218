package sim

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
)

func registry() *games.Registry { return games.NewRegistry(threemonks.Game) }

func run(t *testing.T, args ...string) (*Report, string) {
	t.Helper()
	var out bytes.Buffer
	cfg, err := parse(args, registry(), &out)
	if err != nil {
		t.Fatalf("parse %v: %v", args, err)
	}
	rep, err := Run(cfg, registry(), &out)
	if err != nil {
		t.Fatalf("run %v: %v", args, err)
	}
	rep.Write(&out)
	return rep, out.String()
}

func TestCountsAddUp(t *testing.T) {
	rep, text := run(t, "-game", "threemonks", "-players", "4", "-games", "24", "-bots", "normal,easy,easy,normal", "-seed", "7")
	c := rep.Counts()
	if c.Wins+c.Draws+c.Unfinished != 24 {
		t.Fatalf("wins %d + draws %d + unfinished %d != 24", c.Wins, c.Draws, c.Unfinished)
	}
	sum := 0
	for _, k := range c.BySeat {
		sum += k
	}
	if sum != c.Wins || c.ByLevel["normal"]+c.ByLevel["easy"] != c.Wins {
		t.Fatalf("seat wins %v and level wins %v do not add up to %d", c.BySeat, c.ByLevel, c.Wins)
	}
	if c.SeatsAt["normal"] != 48 || c.SeatsAt["easy"] != 48 {
		t.Fatalf("seats by level %v, want 48 each", c.SeatsAt)
	}
	ms := rep.Extra.(*monkStats)
	dealt := 0
	for _, k := range ms.dealt {
		dealt += k
	}
	won := 0
	for _, k := range ms.won {
		won += k
	}
	if dealt != 24*4 || won != c.Wins || ms.games != 24 {
		t.Fatalf("item stats: dealt %d (want 96), won %d (want %d), games %d", dealt, won, c.Wins, ms.games)
	}
	rounds := 0
	for _, r := range rep.Results {
		rounds += r.Rounds
	}
	if ms.rounds != rounds || ms.runs.Chant > rounds || ms.runs.Drink > rounds {
		t.Fatalf("phase stats %+v over %d rounds (results say %d)", ms.runs, ms.rounds, rounds)
	}
	for _, want := range []string{"win rate by seat", "seat 3 (normal)", "length in rounds", "p95", "win rate by item", "phases run"} {
		if !strings.Contains(text, want) {
			t.Fatalf("report lacks %q:\n%s", want, text)
		}
	}
}

// TestSameSeedSameResult: the results depend on the seed only, not on the
// number of workers; another seed gives other games.
func TestSameSeedSameResult(t *testing.T) {
	args := []string{"-game", "threemonks", "-players", "5", "-games", "16", "-bots", "easy", "-seed", "3"}
	a, ta := run(t, append(args, "-workers", "1")...)
	b, tb := run(t, append(args, "-workers", "2")...)
	if !reflect.DeepEqual(a.Results, b.Results) || ta != tb {
		t.Fatalf("1 and 2 workers differ:\n%s\n%s", ta, tb)
	}
	c, _ := run(t, "-game", "threemonks", "-players", "5", "-games", "16", "-bots", "easy", "-seed", "4")
	if reflect.DeepEqual(a.Results, c.Results) {
		t.Fatal("seeds 3 and 4 gave the same games")
	}
}

func TestUnfinished(t *testing.T) {
	rep, _ := run(t, "-game", "threemonks", "-players", "3", "-games", "5", "-maxmoves", "4")
	if c := rep.Counts(); c.Unfinished != 5 {
		t.Fatalf("unfinished %d, want 5", c.Unfinished)
	}
}

func TestVerbose(t *testing.T) {
	_, text := run(t, "-game", "threemonks", "-players", "3", "-games", "1", "-verbose", "-bots", "easy,normal,easy")
	for _, want := range []string{"move 1, turn 1: seat", "(normal) choose", "cards revealed", "亮牌", "game over after"} {
		if !strings.Contains(text, want) {
			t.Fatalf("narration lacks %q:\n%s", want, text)
		}
	}
}

func TestBadFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"unknown game", []string{"-game", "chess"}},
		{"no game", []string{}},
		{"too few players", []string{"-game", "threemonks", "-players", "2"}},
		{"too many players", []string{"-game", "threemonks", "-players", "9"}},
		{"unknown level", []string{"-game", "threemonks", "-bots", "hard"}},
		{"wrong bot count", []string{"-game", "threemonks", "-players", "4", "-bots", "easy,normal"}},
		{"zero games", []string{"-game", "threemonks", "-games", "0"}},
		{"verbose many", []string{"-game", "threemonks", "-games", "2", "-verbose"}},
		{"unknown flag", []string{"-game", "threemonks", "-fast"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			if err := Main(tc.args, registry(), &out); !errors.Is(err, ErrUsage) {
				t.Fatalf("error %v, want ErrUsage", err)
			}
		})
	}
}

func TestPercentile(t *testing.T) {
	xs := []int{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}
	tests := []struct {
		p    float64
		want int
	}{{0, 1}, {50, 5}, {95, 10}, {100, 10}, {10, 1}, {11, 2}}
	for _, tc := range tests {
		if got := Percentile(xs, tc.p); got != tc.want {
			t.Errorf("p%v = %d, want %d", tc.p, got, tc.want)
		}
	}
	if Percentile(nil, 50) != 0 {
		t.Error("empty percentile")
	}
	if !reflect.DeepEqual(xs, []int{9, 1, 8, 2, 7, 3, 6, 4, 5, 10}) {
		t.Error("Percentile sorted its input")
	}
}
