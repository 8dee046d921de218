// Command loadgen drives concurrent Gomoku (or, with -game gongzhu, Gong
// Zhu) matches against one Chaguan server over real WebSockets and reports
// accepted moves per second and the latency from sending a move to its ack
// and to the opponent's view of it. With -game gongzhu four lean seats play
// each match, each the first legal card of its own view, and a spectator
// watches it, so every move fans out five different views; Gong Zhu never
// ends, so its matches run until the run does. The lean client also
// reports the state-frame bytes each viewer read per move. By default
// (-patches true, what a current client does) every connection asks for
// patches (docs/api.md, "Patches") and applies them as clients/client
// does (a lean seat to the part of its view it reads: ctx and the member of
// G it plays from), and the bytes counted are those of its state and patch
// frames;
// -patches=false asks for whole states on every change, and -patches=both
// runs once with whole states and once with patches, each for -duration,
// and compares the two. -seat-rate paces each seat; -rate caps the moves
// of all seats together, for latency at a chosen total rate.
//
//	go run ./clients/loadgen -url http://127.0.0.1:8080 -matches 100 -duration 20s
//
// Two clients play each 15x15 match; each plays, as soon as it sees its turn,
// the first empty point (row by row) of its own view among the points a fixed
// pattern gives its seat, which leaves no seat three in a row: every match is
// a 225-move draw, as in the boardgame.io anchor's driver. When a match ends
// the pair creates and joins a new one. By default (-client lean) each seat is
// one goroutine on a bare WebSocket that scans the state frames for the few
// fields it needs instead of decoding them, so the load generator costs
// less CPU per move than the server it measures; -client full plays through
// clients/client (a reader and a writer goroutine per connection, every
// state decoded) to compare. Both send the server the same messages. -idle N also holds N idle spectator
// connections to one unstarted match and reports the server's memory per
// connection from its /metrics. The run is bounded in matches, connections
// and time, stops by itself and talks only to -url, which must be a loopback
// address unless -allow-remote is given.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"time"

	"github.com/chaguan/chaguan/tools/soak"
)

// Bounds of one run.
const (
	maxMatches  = 5000
	maxIdle     = 20000
	maxDuration = 10 * time.Minute
	minDuration = 100 * time.Millisecond
)

// config is one run's settings.
type config struct {
	URL         string
	Matches     int
	Duration    time.Duration
	Idle        int
	JSON        bool
	MoveTimeout time.Duration // longest wait for one ack
	SetupLimit  int           // matches being set up at once
	AllowRemote bool
	Progress    bool // print a line per second (text mode only)
	// SeatRate and SeatBurst pace each seat's moves (a token bucket) to stay
	// under the server's per-connection message limit; SeatRate 0 means
	// no pacing.
	SeatRate  float64
	SeatBurst int
	// Rate caps the moves of all seats together (-rate, moves per second;
	// 0: no cap), for latency below saturation at a chosen total rate.
	Rate float64
	// CPUProfile, if set, is where the load generator's own CPU profile goes.
	CPUProfile string
	// Client is how seats connect: clientLean or clientFull.
	Client string
	// Game is the game played (-game): gomoku or gongzhu (workload.go).
	Game string
	// Patches is -patches: patchesOff, patchesOn (every connection asks
	// for patches) or patchesBoth (a run with each, one after the other).
	Patches string
}

// The values of -patches.
const (
	patchesOff  = "false"
	patchesOn   = "true"
	patchesBoth = "both"
)

// patches reports whether this run's connections ask for patches.
func (c config) patches() bool { return c.Patches == patchesOn }

// patchesFlag is -patches: a boolean flag (-patches alone is true) that
// also takes "both".
type patchesFlag struct{ v *string }

func (f patchesFlag) String() string {
	if f.v == nil {
		return patchesOn
	}
	return *f.v
}

func (f patchesFlag) Set(s string) error {
	if s == patchesBoth {
		*f.v = s
		return nil
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true, false or both")
	}
	*f.v = strconv.FormatBool(b)
	return nil
}

func (f patchesFlag) IsBoolFlag() bool { return true }

// The two ways a seat can connect (-client).
const (
	clientLean = "lean" // one goroutine per seat, frames scanned (lean.go)
	clientFull = "full" // clients/client.Conn, frames decoded
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-soak" { // the soak's own flags follow (tools/soak)
		os.Exit(soak.Main(os.Args[2:], os.Stdout, os.Stderr))
	}
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if cfg.CPUProfile != "" {
		stopProfile, err := startProfile(cfg.CPUProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "loadgen:", err)
			os.Exit(2)
		}
		defer stopProfile()
	}
	var progress io.Writer
	if !cfg.JSON && cfg.Progress {
		progress = os.Stdout
	}
	reps, err := runModes(ctx, cfg, progress)
	if err != nil {
		fmt.Fprintln(os.Stderr, "loadgen:", err)
		stop()
		os.Exit(1)
	}
	writeReports(os.Stdout, cfg.JSON, reps)
}

// runModes performs the run cfg asks for: one, or with -patches both a
// run with whole states and then one with patches, each for cfg.Duration
// on matches of its own.
func runModes(ctx context.Context, cfg config, progress io.Writer) ([]*report, error) {
	modes := []string{cfg.Patches}
	if cfg.Patches == patchesBoth {
		modes = []string{patchesOff, patchesOn}
	}
	var reps []*report
	for _, m := range modes {
		c := cfg
		c.Patches = m
		if progress != nil && len(modes) > 1 {
			fmt.Fprintf(progress, "== patches=%s\n", m)
		}
		rep, err := run(ctx, c, progress)
		if err != nil {
			return nil, err
		}
		reps = append(reps, rep)
	}
	return reps, nil
}

// writeReports prints the reports of runModes: one as before; two (full
// states, then patches) one after the other with the bytes of both
// compared, or as {"full":…,"patches":…} in JSON.
func writeReports(w io.Writer, asJSON bool, reps []*report) {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if len(reps) == 2 {
			enc.Encode(struct {
				Full    *report `json:"full"`
				Patches *report `json:"patches"`
			}{reps[0], reps[1]})
			return
		}
		enc.Encode(reps[0])
		return
	}
	for _, r := range reps {
		if len(reps) > 1 {
			fmt.Fprintf(w, "== patches=%v\n", r.Patches)
		}
		r.writeText(w)
	}
	if len(reps) == 2 {
		fmt.Fprintln(w, compareBytes(reps[0], reps[1]))
	}
}

// compareBytes is the line comparing the bytes per viewer per move of a
// run with whole states and one with patches.
func compareBytes(full, patched *report) string {
	if full.Bytes == nil || patched.Bytes == nil {
		return "bytes per viewer per move: not counted (-client full)"
	}
	f, p := full.Bytes.ViewerPerMove, patched.Bytes.ViewerPerMove
	ratio := 0.0
	if p > 0 {
		ratio = f / p
	}
	return fmt.Sprintf("bytes per viewer per move: full states %.0f, patches %.0f (%.1fx fewer)", f, p, ratio)
}

// parseFlags reads and checks the command line.
func parseFlags(args []string, errOut io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("loadgen", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&c.URL, "url", "http://127.0.0.1:8080", "server base URL")
	fs.IntVar(&c.Matches, "matches", 100, fmt.Sprintf("concurrent matches, 1-%d", maxMatches))
	fs.DurationVar(&c.Duration, "duration", 20*time.Second, "how long to play, at most "+maxDuration.String())
	fs.IntVar(&c.Idle, "idle", 0, fmt.Sprintf("idle spectator connections, 0-%d", maxIdle))
	fs.BoolVar(&c.JSON, "json", false, "print one JSON report instead of text")
	fs.DurationVar(&c.MoveTimeout, "move-timeout", 10*time.Second, "longest wait for one move's ack")
	fs.IntVar(&c.SetupLimit, "setup-concurrency", 32, "matches set up at once")
	fs.BoolVar(&c.AllowRemote, "allow-remote", false, "allow a -url that is not a loopback address")
	fs.BoolVar(&c.Progress, "progress", true, "print moves per second every second (text mode)")
	// Defaults leave the server's limiter (20/s, burst 20, hello included)
	// a margin for network jitter bunching two moves together.
	fs.Float64Var(&c.SeatRate, "seat-rate", 18, "moves per second per seat, 0 for no pacing (the server refuses over 20/s by default)")
	fs.IntVar(&c.SeatBurst, "seat-burst", 15, "burst of the per-seat pacing")
	fs.Float64Var(&c.Rate, "rate", 0, "moves per second of all seats together, 0 for no cap (on top of -seat-rate)")
	fs.StringVar(&c.CPUProfile, "cpuprofile", "", "write the load generator's own CPU profile to this file")
	fs.StringVar(&c.Client, "client", clientLean, "how seats connect: lean (one goroutine per seat, frames scanned) or full (clients/client)")
	fs.StringVar(&c.Game, "game", gameName, "game to play: gomoku (2 seats) or gongzhu (4 seats and a spectator, lean client only)")
	c.Patches = patchesOn
	fs.Var(patchesFlag{&c.Patches}, "patches", "ask for patches (docs/api.md, \"Patches\"), as current clients do: true, false (whole states on every change), or both for a run with each, one after the other")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	return c, c.check()
}

// check refuses settings outside the run's bounds.
func (c config) check() error {
	switch {
	case c.Matches < 1 || c.Matches > maxMatches:
		return fmt.Errorf("-matches %d: must be 1-%d", c.Matches, maxMatches)
	case c.Idle < 0 || c.Idle > maxIdle:
		return fmt.Errorf("-idle %d: must be 0-%d", c.Idle, maxIdle)
	case c.Duration < minDuration || c.Duration > maxDuration:
		return fmt.Errorf("-duration %s: must be %s-%s", c.Duration, minDuration, maxDuration)
	case c.MoveTimeout <= 0:
		return fmt.Errorf("-move-timeout %s: must be positive", c.MoveTimeout)
	case c.SeatRate < 0 || (c.SeatRate > 0 && c.SeatBurst < 1):
		return fmt.Errorf("-seat-rate %g -seat-burst %d: rate must be 0 or more, burst 1 or more", c.SeatRate, c.SeatBurst)
	case c.Rate < 0:
		return fmt.Errorf("-rate %g: must be 0 or more", c.Rate)
	case c.SetupLimit < 1 || c.SetupLimit > 1000:
		return fmt.Errorf("-setup-concurrency %d: must be 1-1000", c.SetupLimit)
	case c.Client != clientLean && c.Client != clientFull:
		return fmt.Errorf("-client %q: must be %s or %s", c.Client, clientLean, clientFull)
	case c.Patches != patchesOff && c.Patches != patchesOn && c.Patches != patchesBoth:
		return fmt.Errorf("-patches %q: must be true, false or both", c.Patches)
	}
	if err := c.checkGame(); err != nil {
		return err
	}
	u, err := url.Parse(c.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("-url %q: want http://host:port", c.URL)
	}
	if !c.AllowRemote && !isLoopback(u.Hostname()) {
		return fmt.Errorf("-url %q is not a loopback address; pass -allow-remote to load another host", c.URL)
	}
	return nil
}

// checkGame refuses an unknown -game, and -client full for a game other
// than Gomoku (the full client plays Gomoku only).
func (c config) checkGame() error {
	load, err := workloadFor(c.Game)
	if err == nil && c.Client == clientFull && load != &gomokuLoad {
		err = fmt.Errorf("-game %s plays with -client %s only", c.Game, clientLean)
	}
	return err
}

// startProfile starts a CPU profile into path and returns its stop.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
