// Package soak runs bot-versus-bot matches of every game across two
// Chaguan server processes sharing one Redis for a bounded time, restarting
// one of them (B) at random intervals with SIGTERM or SIGKILL, and reports
// the moves its spectators saw, errors by code, reconnects, the leak checks
// run on every state a spectator received, and the resident memory of each
// process over time. Process A is never restarted, so its RSS series shows
// whether a long-running process grows.
//
// Every match has a bot in each seat and one spectator (a room with nobody
// watching stops its bots after its idle time); the spectator connects to a
// random process and, when the connection drops, reconnects to a random
// process. Matches that end are replaced; Gong Zhu, which never ends, is
// replaced after Rounds rounds, and any match after MatchLimit.
//
// With Config.Patches the spectators ask for patches: each patch's
// operations and the view they make are checked as a state is, and every
// SyncEvery states the view held is compared with the whole view a sync
// returns; a difference, or a patch that does not apply, fails the soak.
//
// Run is the library entry (the repository's soak test uses it with server
// processes made from its test binary); Main is the command line, reached as
// `go run ./clients/loadgen -soak ...`.
package soak

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chaguan/chaguan/games/all"
)

// Config is one soak's settings; Run fills the zero ones with defaults.
type Config struct {
	Launch Launcher
	// Addrs are where processes A and B listen; B is the one restarted.
	Addrs [2]string
	// Games to play (default: every registered game); PerGame matches of
	// each at once.
	Games   []string
	PerGame int
	// Duration bounds the run.
	Duration time.Duration
	// B is restarted after a random pause in [RestartMin, RestartMax],
	// with SIGKILL for a KillShare of the restarts and SIGTERM otherwise,
	// and stays down a random time up to DownMax.
	RestartMin, RestartMax time.Duration
	KillShare              float64
	DownMax                time.Duration
	// BotLevel plays every seat; BotDelay is each match's bot pause.
	BotLevel string
	BotDelay time.Duration
	// Rounds of Gong Zhu are watched before its next match; MatchLimit
	// bounds how long any one match is watched.
	Rounds     int
	MatchLimit time.Duration
	// RSSEvery is the memory sampling period.
	RSSEvery time.Duration
	// Patches makes the spectators ask for patches (docs/api.md,
	// "Patches"): the view they make is checked for leaks after every
	// patch, as a state is, and every SyncEvery states (0: never) the
	// spectator asks for the whole view (sync) and compares it with the
	// view it holds, which must be equal byte for byte.
	Patches   bool
	SyncEvery int
	// Progress, if set, gets a line per memory sample.
	Progress io.Writer
}

// withDefaults fills the zero fields of c.
func (c Config) withDefaults() Config {
	if len(c.Games) == 0 {
		c.Games = all.Registry().Names()
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d == 0 {
			*d = v
		}
	}
	def(&c.Duration, time.Minute)
	def(&c.RestartMin, 10*time.Second)
	def(&c.RestartMax, 2*c.RestartMin)
	def(&c.BotDelay, 100*time.Millisecond)
	def(&c.MatchLimit, 3*time.Minute)
	def(&c.RSSEvery, 5*time.Second)
	c.PerGame = max(c.PerGame, 1)
	if c.BotLevel == "" {
		c.BotLevel = "easy"
	}
	if c.Rounds == 0 {
		c.Rounds = 2
	}
	return c
}

// check refuses settings that cannot run.
func (c Config) check() error {
	switch {
	case c.Launch == nil:
		return errors.New("soak: no Launcher")
	case c.Addrs[0] == "" || c.Addrs[1] == "" || c.Addrs[0] == c.Addrs[1]:
		return fmt.Errorf("soak: need two different addresses, have %q", c.Addrs)
	case c.RestartMax < c.RestartMin:
		return fmt.Errorf("soak: restart interval %s-%s is empty", c.RestartMin, c.RestartMax)
	case c.KillShare < 0 || c.KillShare > 1:
		return fmt.Errorf("soak: kill share %g: must be 0-1", c.KillShare)
	case c.PerGame > 50:
		return fmt.Errorf("soak: %d matches per game: at most 50", c.PerGame)
	case c.SyncEvery < 0:
		return fmt.Errorf("soak: a comparison every %d states: must be 0 or more", c.SyncEvery)
	}
	for _, g := range c.Games {
		if _, ok := all.Registry().Get(g); !ok {
			return fmt.Errorf("soak: unknown game %q", g)
		}
	}
	return nil
}

// soaker is one running soak.
type soaker struct {
	cfg   Config
	procs [2]*proc
	rec   *recorder
	start time.Time
}

// Run starts the two processes, soaks them for cfg.Duration (or until ctx
// ends), stops them with SIGTERM and returns the report. An error means
// the soak could not start.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	cfg = cfg.withDefaults()
	if err := cfg.check(); err != nil {
		return nil, err
	}
	s := &soaker{cfg: cfg, rec: newRecorder(cfg.Games), start: time.Now()}
	for i, name := range []string{"A", "B"} {
		s.procs[i] = &proc{name: name, addr: cfg.Addrs[i], launch: cfg.Launch}
	}
	for _, p := range s.procs {
		if err := p.start(ctx); err != nil {
			s.stopAll()
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.Duration)
	defer cancel()
	var wg sync.WaitGroup
	for _, g := range cfg.Games {
		w := &watcher{s: s, game: g, checker: newLeakChecker(g)}
		for range cfg.PerGame {
			wg.Go(func() { w.loop(ctx) })
		}
	}
	wg.Go(func() { s.restartLoop(ctx) })
	wg.Go(func() { s.sampleLoop(ctx) })
	wg.Wait()
	s.sample()
	s.stopAll()
	return s.rec.report(time.Since(s.start), cfg), nil
}

// stopAll ends both processes with SIGTERM, recording unclean exits.
func (s *soaker) stopAll() {
	for _, p := range s.procs {
		if err := p.stop(syscall.SIGTERM); err != nil {
			s.rec.finalExit(p.name, err)
		}
	}
}

// randomProc picks A or B; B may be down, as a real client's server may.
func (s *soaker) randomProc() *proc { return s.procs[rand.IntN(2)] }

// since is the time into the run, rounded for the report.
func (s *soaker) since() time.Duration { return time.Since(s.start).Round(100 * time.Millisecond) }

// restartLoop restarts B at random intervals until ctx ends.
func (s *soaker) restartLoop(ctx context.Context) {
	b := s.procs[1]
	first := rand.IntN(2)
	for n := 0; ; n++ {
		span := s.cfg.RestartMax - s.cfg.RestartMin
		sleep(ctx, s.cfg.RestartMin+time.Duration(rand.Int64N(int64(span)+1)))
		if ctx.Err() != nil {
			return
		}
		sig := syscall.SIGTERM
		switch {
		case n < 2 && s.cfg.KillShare > 0 && s.cfg.KillShare < 1:
			// The first two restarts use one signal each, so that even a
			// short soak tries both.
			if (n+first)%2 == 1 {
				sig = syscall.SIGKILL
			}
		case rand.Float64() < s.cfg.KillShare:
			sig = syscall.SIGKILL
		}
		s.rec.restart(s.restartOnce(ctx, b, sig))
	}
}

// restartOnce stops p with sig, keeps it down a random time and starts it
// again on the same address.
func (s *soaker) restartOnce(ctx context.Context, p *proc, sig syscall.Signal) Restart {
	r := Restart{At: s.since(), Signal: "SIGTERM"}
	if sig == syscall.SIGKILL {
		r.Signal = "SIGKILL"
	}
	t0 := time.Now()
	r.OldPID = p.pid()
	r.Exit = describeExit(sig, p.stop(sig))
	if s.cfg.DownMax > 0 {
		time.Sleep(time.Duration(rand.Int64N(int64(s.cfg.DownMax) + 1)))
	}
	// The start is not bound by ctx: B must be up again for the final stop.
	if err := p.start(context.WithoutCancel(ctx)); err != nil {
		r.StartErr = err.Error()
	}
	r.NewPID = p.pid()
	r.Down = time.Since(t0).Round(time.Millisecond)
	return r
}

// describeExit says how a process ended after sig: SIGTERM must give a
// clean exit, SIGKILL a kill.
func describeExit(sig syscall.Signal, err error) string {
	switch {
	case err == nil:
		return exitClean
	case sig == syscall.SIGKILL && err.Error() == "signal: killed":
		return exitKilled
	}
	return err.Error()
}

// How a stopped process ended (Restart.Exit), besides an error's text.
const (
	exitClean  = "clean"
	exitKilled = "killed"
)

// sampleLoop samples both processes' RSS every RSSEvery until ctx ends.
func (s *soaker) sampleLoop(ctx context.Context) {
	t := time.NewTicker(s.cfg.RSSEvery)
	defer t.Stop()
	s.sample()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.sample()
		}
	}
}

// sample records each running process's RSS.
func (s *soaker) sample() {
	at := s.since()
	var line []string
	for _, p := range s.procs {
		pid := p.pid()
		kb, err := rssKB(pid)
		if err != nil {
			continue
		}
		s.rec.rss(RSSSample{At: at, Proc: p.name, PID: pid, KB: kb})
		line = append(line, fmt.Sprintf("%s(pid %d) %.1f MB", p.name, pid, mb(kb)))
	}
	if s.cfg.Progress != nil && len(line) > 0 {
		fmt.Fprintf(s.cfg.Progress, "%8s  %s\n", at, strings.Join(line, "  "))
	}
}

// mb converts kB to MB.
func mb(kb int) float64 { return float64(kb) / 1024 }
