package soak

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/chaguan/chaguan/protocol"
)

// Report is what a soak saw.
type Report struct {
	Duration time.Duration
	Config   ReportConfig
	Games    map[string]*GameStats
	// Errors counts every error by protocol code (or conn_refused,
	// conn_dropped, stalled, other); ErrorSamples keeps the first message
	// of each code.
	Errors       map[string]int
	ErrorSamples map[string]string
	// Leaks describes the first leaks found (there should be none).
	Leaks []string
	// Mismatches describes the first views made by patches that differed
	// from the sync's answer, and patches that did not apply (with
	// Config.Patches; there should be none).
	Mismatches []string
	Restarts   []Restart
	// FinalExits holds the processes that did not exit cleanly on the
	// final SIGTERM, with why.
	FinalExits map[string]string
	RSS        []RSSSample
	// Verdict judges process A's memory: flat, growing, or too short.
	Verdict string
}

// ReportConfig is the part of the Config a report repeats.
type ReportConfig struct {
	Games                  []string
	PerGame                int
	RestartMin, RestartMax time.Duration
	KillShare              float64
	BotLevel               string
	BotDelay               time.Duration
	Patches                bool
	SyncEvery              int
}

// GameStats counts one game's matches.
type GameStats struct {
	Matches, Finished, Retired int // created, seen to end, watched long enough
	Moves                      int // public log entries spectators saw appear
	States                     int // state frames received
	Checks                     int // leak checks run (one per state)
	Leaks                      int
	Reconnects                 int // spectator connections made again after a drop
	// With Config.Patches: the patches applied, the views compared with
	// a sync's answer, those that differed, and the patches that did not
	// apply.
	Patches, Compares, Mismatches, Gaps int
}

// Restart is one restart of process B.
type Restart struct {
	At             time.Duration // into the run
	Signal         string
	OldPID, NewPID int
	Exit           string        // clean, killed, or what went wrong
	Down           time.Duration // from the signal to serving again
	StartErr       string        `json:",omitempty"`
}

// RSSSample is one process's resident memory at one time.
type RSSSample struct {
	At   time.Duration
	Proc string
	PID  int
	KB   int
}

// expected are the error codes a restart causes: a process refusing
// connections while down or draining, and connections it drops.
var expected = map[string]bool{
	protocol.CodeUnavailable: true,
	codeRefused:              true,
	codeDropped:              true,
}

// Moves is the total of moves seen across games.
func (r *Report) Moves() int { return r.sum(func(g *GameStats) int { return g.Moves }) }

// Checks is the total of leak checks run.
func (r *Report) Checks() int { return r.sum(func(g *GameStats) int { return g.Checks }) }

// Reconnects is the total of spectator reconnects.
func (r *Report) Reconnects() int { return r.sum(func(g *GameStats) int { return g.Reconnects }) }

// LeakCount is the total of leaks found.
func (r *Report) LeakCount() int { return r.sum(func(g *GameStats) int { return g.Leaks }) }

// MismatchCount is the total of views made by patches that differed from
// the sync's answer, and of patches that did not apply.
func (r *Report) MismatchCount() int {
	return r.sum(func(g *GameStats) int { return g.Mismatches + g.Gaps })
}

func (r *Report) sum(f func(*GameStats) int) int {
	n := 0
	for _, g := range r.Games {
		n += f(g)
	}
	return n
}

// Unexpected returns the errors whose code a restart does not explain.
func (r *Report) Unexpected() map[string]int {
	out := map[string]int{}
	for code, n := range r.Errors {
		if !expected[code] {
			out[code] = n
		}
	}
	return out
}

// UncleanRestarts lists the restarts where B did not end as its signal
// should (SIGTERM: a clean exit) or did not come back.
func (r *Report) UncleanRestarts() []Restart {
	var bad []Restart
	for _, x := range r.Restarts {
		want := exitClean
		if x.Signal == "SIGKILL" {
			want = exitKilled
		}
		if x.Exit != want || x.StartErr != "" {
			bad = append(bad, x)
		}
	}
	return bad
}

// recorder gathers a report from many goroutines.
type recorder struct {
	mu sync.Mutex
	r  Report
}

func newRecorder(games []string) *recorder {
	r := &recorder{r: Report{Games: map[string]*GameStats{}, Errors: map[string]int{},
		ErrorSamples: map[string]string{}, FinalExits: map[string]string{}}}
	for _, g := range games {
		r.r.Games[g] = &GameStats{}
	}
	return r
}

// game updates game's counters.
func (c *recorder) game(game string, f func(*GameStats)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	f(c.r.Games[game])
}

// error counts err by class, unless the soak is ending (ctx done).
func (c *recorder) error(ctx context.Context, err error) {
	if ctx.Err() != nil {
		return
	}
	code := classify(err)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.r.Errors[code]++
	if _, ok := c.r.ErrorSamples[code]; !ok {
		c.r.ErrorSamples[code] = err.Error()
	}
}

// maxLeakNotes bounds the leak descriptions a report keeps.
const maxLeakNotes = 20

// leak notes one leak.
func (c *recorder) leak(game, matchID string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.r.Leaks) < maxLeakNotes {
		c.r.Leaks = append(c.r.Leaks, fmt.Sprintf("%s %s: %v", game, matchID, err))
	}
}

// mismatch notes a view made by patches that is not the server's, or a
// patch that did not apply.
func (c *recorder) mismatch(game, matchID string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.r.Mismatches) < maxLeakNotes {
		c.r.Mismatches = append(c.r.Mismatches, fmt.Sprintf("%s %s: %v", game, matchID, err))
	}
}

func (c *recorder) restart(r Restart) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.r.Restarts = append(c.r.Restarts, r)
}

func (c *recorder) rss(s RSSSample) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.r.RSS = append(c.r.RSS, s)
}

func (c *recorder) finalExit(name string, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.r.FinalExits[name] = err.Error()
}

// report returns the finished report.
func (c *recorder) report(d time.Duration, cfg Config) *Report {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.r
	r.Duration = d.Round(time.Second)
	r.Config = ReportConfig{Games: cfg.Games, PerGame: cfg.PerGame, RestartMin: cfg.RestartMin,
		RestartMax: cfg.RestartMax, KillShare: cfg.KillShare, BotLevel: cfg.BotLevel, BotDelay: cfg.BotDelay,
		Patches: cfg.Patches, SyncEvery: cfg.SyncEvery}
	r.Verdict = verdict(series(r.RSS, "A"))
	return &r
}

// series is one process's samples in time order.
func series(all []RSSSample, name string) []RSSSample {
	var out []RSSSample
	for _, s := range all {
		if s.Proc == name {
			out = append(out, s)
		}
	}
	return out
}

// Memory verdict bounds: growth from the second quarter's median to the
// last quarter's beyond both is "growing".
const (
	growthShare = 0.20
	growthKB    = 16 << 10
	minSamples  = 8
)

// verdict judges a process's RSS series: the first quarter is warm-up;
// the median of the second quarter is compared with that of the last.
func verdict(s []RSSSample) string {
	if len(s) < minSamples {
		return fmt.Sprintf("too short to judge (%d samples)", len(s))
	}
	q := len(s) / 4
	early, late := medianKB(s[q:2*q]), medianKB(s[len(s)-q:])
	grow := late - early
	word := "flat"
	if grow > growthKB && float64(grow) > growthShare*float64(early) {
		word = "growing"
	}
	return fmt.Sprintf("%s: A's RSS median %.1f MB in the second quarter, %.1f MB in the last (%+.1f%%)",
		word, mb(early), mb(late), 100*float64(grow)/float64(early))
}

// medianKB is the median RSS of s.
func medianKB(s []RSSSample) int {
	kb := make([]int, len(s))
	for i, x := range s {
		kb[i] = x.KB
	}
	sort.Ints(kb)
	return kb[len(kb)/2]
}

// WriteText prints the report for people.
func (r *Report) WriteText(w io.Writer) {
	c := r.Config
	fmt.Fprintf(w, "soak: %s, games %v x%d, bots %s (%s pause), B restarted every %s-%s (%.0f%% SIGKILL)\n\n",
		r.Duration, c.Games, c.PerGame, c.BotLevel, c.BotDelay, c.RestartMin, c.RestartMax, 100*c.KillShare)
	fmt.Fprintf(w, "%-12s %8s %8s %8s %8s %8s %8s %6s %10s\n", "game", "matches", "ended", "retired", "moves", "states", "checks", "leaks", "reconnects")
	for _, g := range slices.Sorted(maps.Keys(r.Games)) {
		s := r.Games[g]
		fmt.Fprintf(w, "%-12s %8d %8d %8d %8d %8d %8d %6d %10d\n", g, s.Matches, s.Finished, s.Retired, s.Moves, s.States, s.Checks, s.Leaks, s.Reconnects)
	}
	fmt.Fprintf(w, "%-12s %8s %8s %8s %8d %8s %8d %6d %10d\n\n", "total", "", "", "", r.Moves(), "", r.Checks(), r.LeakCount(), r.Reconnects())
	if c.Patches {
		r.writePatches(w)
	}
	r.writeErrors(w)
	r.writeRestarts(w)
	r.writeRSS(w)
	fmt.Fprintf(w, "memory verdict: %s\n", r.Verdict)
}

// writePatches prints, per game, what the spectators' patches did.
func (r *Report) writePatches(w io.Writer) {
	fmt.Fprintf(w, "patches (the view compared with a sync's answer every %d states):\n", r.Config.SyncEvery)
	fmt.Fprintf(w, "%-12s %8s %8s %10s %5s\n", "game", "patches", "compared", "mismatches", "gaps")
	for _, g := range slices.Sorted(maps.Keys(r.Games)) {
		s := r.Games[g]
		fmt.Fprintf(w, "%-12s %8d %8d %10d %5d\n", g, s.Patches, s.Compares, s.Mismatches, s.Gaps)
	}
	for _, m := range r.Mismatches {
		fmt.Fprintln(w, "  MISMATCH:", m)
	}
	fmt.Fprintln(w)
}

func (r *Report) writeErrors(w io.Writer) {
	fmt.Fprintln(w, "errors by code:")
	if len(r.Errors) == 0 {
		fmt.Fprintln(w, "  none")
	}
	for _, code := range slices.Sorted(maps.Keys(r.Errors)) {
		kind := "expected during restarts"
		if !expected[code] {
			kind = "UNEXPECTED"
		}
		fmt.Fprintf(w, "  %-14s %6d  %s; first: %s\n", code, r.Errors[code], kind, r.ErrorSamples[code])
	}
	for _, l := range r.Leaks {
		fmt.Fprintln(w, "  LEAK:", l)
	}
	for name, e := range r.FinalExits {
		fmt.Fprintf(w, "  final SIGTERM of %s: %s\n", name, e)
	}
	fmt.Fprintln(w)
}

func (r *Report) writeRestarts(w io.Writer) {
	fmt.Fprintf(w, "restarts of B: %d (%d not as expected)\n", len(r.Restarts), len(r.UncleanRestarts()))
	for _, x := range r.Restarts {
		fmt.Fprintf(w, "  at %8s  %-7s pid %d -> %d  exit %s, serving again after %s", x.At, x.Signal, x.OldPID, x.NewPID, x.Exit, x.Down)
		if x.StartErr != "" {
			fmt.Fprintf(w, "; start failed: %s", x.StartErr)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
}

// writeRSS prints the samples as a table, one row per sampling time.
func (r *Report) writeRSS(w io.Writer) {
	fmt.Fprintln(w, "RSS over time (MB; pid in brackets when it changed):")
	type row struct{ a, b string }
	rows := map[time.Duration]*row{}
	var times []time.Duration
	last := map[string]int{}
	for _, s := range r.RSS {
		x, ok := rows[s.At]
		if !ok {
			x = &row{a: "-", b: "-"}
			rows[s.At] = x
			times = append(times, s.At)
		}
		cell := fmt.Sprintf("%.1f", mb(s.KB))
		if last[s.Proc] != s.PID {
			cell += fmt.Sprintf(" [%d]", s.PID)
			last[s.Proc] = s.PID
		}
		if s.Proc == "A" {
			x.a = cell
		} else {
			x.b = cell
		}
	}
	fmt.Fprintf(w, "  %8s  %-16s %s\n", "t", "A", "B")
	for _, t := range times {
		fmt.Fprintf(w, "  %8s  %-16s %s\n", t, rows[t].a, rows[t].b)
	}
}
