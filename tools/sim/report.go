package sim

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Report is the outcome of a run.
type Report struct {
	Config  Config
	Results []Result  // by game index
	Extra   Collector // the game's own statistics, or nil
}

func newReport(cfg Config, results []Result) *Report {
	return &Report{Config: cfg, Results: results}
}

// Counts are the report's totals.
type Counts struct {
	Wins       int
	Draws      int
	Unfinished int
	BySeat     []int          // wins by seat
	ByLevel    map[string]int // wins by the winner's bot level
	SeatsAt    map[string]int // seats played at each level, over all games
}

// Counts adds up the results.
func (r *Report) Counts() Counts {
	c := Counts{BySeat: make([]int, r.Config.Players), ByLevel: map[string]int{}, SeatsAt: map[string]int{}}
	for _, l := range r.Config.Bots {
		c.SeatsAt[l] += len(r.Results)
	}
	for _, res := range r.Results {
		switch {
		case res.Unfinished:
			c.Unfinished++
		case res.Draw || res.Winner < 0:
			c.Draws++
		default:
			c.Wins++
			c.BySeat[res.Winner]++
			c.ByLevel[r.Config.Bots[res.Winner]]++
		}
	}
	return c
}

// Write prints the report.
func (r *Report) Write(w io.Writer) {
	if r.Config.Rounds > 0 {
		r.writeRounds(w)
		return
	}
	cfg, c, n := r.Config, r.Counts(), len(r.Results)
	fmt.Fprintf(w, "%s: %d players, %d games, bots %s, seed %d\n", cfg.Game, cfg.Players, n, strings.Join(cfg.Bots, ","), cfg.Seed)
	fmt.Fprintf(w, "wins %d, draws %d (%s), unfinished after %d moves %d\n", c.Wins, c.Draws, pct(c.Draws, n), cfg.MaxMoves, c.Unfinished)
	fmt.Fprintln(w, "win rate by seat:")
	for s, k := range c.BySeat {
		fmt.Fprintf(w, "  seat %d (%s): %6s  (%d)\n", s, cfg.Bots[s], pct(k, n), k)
	}
	fmt.Fprintln(w, "win rate by bot level (wins per seat played):")
	for _, l := range slices.Sorted(maps.Keys(c.SeatsAt)) {
		fmt.Fprintf(w, "  %-8s %6s  (%d wins over %d seats)\n", l, pct(c.ByLevel[l], c.SeatsAt[l]), c.ByLevel[l], c.SeatsAt[l])
	}
	rounds, moves := make([]int, n), make([]int, n)
	for i, res := range r.Results {
		rounds[i], moves[i] = res.Rounds, res.Moves
	}
	fmt.Fprintf(w, "length in rounds: %s\n", spread(rounds))
	fmt.Fprintf(w, "length in moves:  %s\n", spread(moves))
	if r.Extra != nil {
		r.Extra.Report(w)
	}
}

// writeRounds is the report of games played for a fixed number of rounds:
// nobody wins, so it gives the run's size and length and then the game's
// own statistics.
func (r *Report) writeRounds(w io.Writer) {
	cfg, n := r.Config, len(r.Results)
	fmt.Fprintf(w, "%s: %d players, %d game(s) of %d rounds = %d rounds, bots %s, seed %d\n",
		cfg.Game, cfg.Players, n, cfg.Rounds, n*cfg.Rounds, strings.Join(cfg.Bots, ","), cfg.Seed)
	moves := make([]int, n)
	for i, res := range r.Results {
		moves[i] = res.Moves
	}
	fmt.Fprintf(w, "length in moves:  %s\n", spread(moves))
	if r.Extra != nil {
		r.Extra.Report(w)
	}
}

func pct(k, n int) string {
	if n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(k)/float64(n))
}

// Percentile returns the p-th percentile (nearest rank) of xs, sorting a copy.
func Percentile(xs []int, p float64) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(rank, 0), len(s)-1)]
}

func spread(xs []int) string {
	sum := 0
	for _, x := range xs {
		sum += x
	}
	mean := 0.0
	if len(xs) > 0 {
		mean = float64(sum) / float64(len(xs))
	}
	return fmt.Sprintf("mean %.1f, p50 %d, p95 %d", mean, Percentile(xs, 50), Percentile(xs, 95))
}
