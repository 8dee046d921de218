package soak

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"time"
)

// maxDuration bounds one soak from the command line.
const maxDuration = time.Hour

// cliConfig is the command line: the soak's Config plus how to run the
// server processes.
type cliConfig struct {
	Config
	server, redis, serverLog string
	ttl                      time.Duration
	json                     bool
}

// Main is the soak's command line (loadgen -soak): it runs the server
// binary -server twice on -redis and prints the report. The exit status is
// 0 for a soak with no leak, no unexpected error, clean restarts and (with
// -patches) no view made by patches that differed from the server's, 1
// otherwise, 2 for bad flags.
//
//	go build -o /tmp/chaguan . && go run ./clients/loadgen -soak -server /tmp/chaguan -duration 10m
func Main(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags(args, stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintln(stderr, "soak:", err)
		return 2
	}
	logFile := io.Discard
	if c.serverLog != "" {
		f, err := os.Create(c.serverLog)
		if err != nil {
			fmt.Fprintln(stderr, "soak:", err)
			return 2
		}
		defer f.Close()
		logFile = f
	}
	c.Launch = serverLauncher(c, logFile)
	if !c.json {
		c.Progress = stdout
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := Run(ctx, c.Config)
	if err != nil {
		fmt.Fprintln(stderr, "soak:", err)
		return 1
	}
	if c.json {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.Encode(rep)
	} else {
		fmt.Fprintln(stdout)
		rep.WriteText(stdout)
	}
	if rep.LeakCount() > 0 || rep.MismatchCount() > 0 || len(rep.Unexpected()) > 0 || len(rep.UncleanRestarts()) > 0 || len(rep.FinalExits) > 0 {
		return 1
	}
	return 0
}

// serverLauncher runs c.server on an address with the soak's settings;
// the processes' output goes to log.
func serverLauncher(c cliConfig, log io.Writer) Launcher {
	return func(addr string) *exec.Cmd {
		cmd := exec.Command(c.server, "-addr", addr, "-redis", c.redis, "-log-level", "warn",
			"-lobby-rate", "0", "-ttl", c.ttl.String(), "-grace", "5s")
		cmd.Stdout, cmd.Stderr = log, log
		return cmd
	}
}

// parseFlags reads and checks the command line.
func parseFlags(args []string, errOut io.Writer) (cliConfig, error) {
	var c cliConfig
	var addrs, games string
	fs := flag.NewFlagSet("loadgen -soak", flag.ContinueOnError)
	fs.SetOutput(errOut)
	fs.StringVar(&c.server, "server", "", "the chaguan server binary to run twice (go build -o /tmp/chaguan .)")
	fs.StringVar(&c.redis, "redis", envOr("REDIS_URL", "redis://127.0.0.1:6379/0"), "the Redis both processes share (env REDIS_URL)")
	fs.StringVar(&addrs, "addrs", "127.0.0.1:18781,127.0.0.1:18782", "loopback addresses of process A (kept) and B (restarted)")
	fs.StringVar(&games, "games", "", "comma-separated games (default: all)")
	fs.IntVar(&c.PerGame, "per-game", 2, "bot-versus-bot matches of each game at once, 1-50")
	fs.DurationVar(&c.Duration, "duration", 10*time.Minute, "how long to soak, at most "+maxDuration.String())
	fs.DurationVar(&c.RestartMin, "restart-min", 20*time.Second, "shortest pause between restarts of B")
	fs.DurationVar(&c.RestartMax, "restart-max", 60*time.Second, "longest pause between restarts of B")
	fs.Float64Var(&c.KillShare, "kill-share", 0.5, "share of restarts by SIGKILL (the rest SIGTERM)")
	fs.DurationVar(&c.DownMax, "down-max", 2*time.Second, "longest time B stays down before it is started again")
	fs.StringVar(&c.BotLevel, "bot-level", "easy", "bot level of every seat")
	fs.DurationVar(&c.BotDelay, "bot-delay", 100*time.Millisecond, "each match's bot pause")
	fs.IntVar(&c.Rounds, "rounds", 2, "Gong Zhu rounds watched before the next match")
	fs.DurationVar(&c.MatchLimit, "match-limit", 3*time.Minute, "longest time one match is watched")
	fs.DurationVar(&c.RSSEvery, "rss-every", 10*time.Second, "memory sampling period")
	fs.DurationVar(&c.ttl, "ttl", 10*time.Minute, "the servers' -ttl: how long Redis keeps a match after its last change")
	fs.StringVar(&c.serverLog, "server-log", "", "file for the servers' output (default: discarded)")
	fs.BoolVar(&c.json, "json", false, "print the report as JSON")
	fs.BoolVar(&c.Patches, "patches", false, "spectators ask for patches: the view they make is checked after every patch")
	fs.IntVar(&c.SyncEvery, "sync-every", 50, "with -patches: compare the view held with a sync's answer every N states (0: never)")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	a, b, ok := strings.Cut(addrs, ",")
	c.Addrs = [2]string{a, b}
	if games != "" {
		c.Games = strings.Split(games, ",")
	}
	switch {
	case c.server == "":
		return c, errors.New("-server: the chaguan binary is required")
	case !ok || !loopback(a) || !loopback(b):
		return c, fmt.Errorf("-addrs %q: want two loopback host:port addresses", addrs)
	case c.Duration <= 0 || c.Duration > maxDuration:
		return c, fmt.Errorf("-duration %s: must be positive and at most %s", c.Duration, maxDuration)
	case c.ttl <= 0:
		return c, fmt.Errorf("-ttl %s: must be positive (the soak runs with expiry on)", c.ttl)
	case c.SyncEvery < 0:
		return c, fmt.Errorf("-sync-every %d: must be 0 or more", c.SyncEvery)
	}
	return c, nil
}

// loopback reports whether addr is 127.0.0.1:port or localhost:port.
func loopback(addr string) bool {
	return strings.HasPrefix(addr, "127.0.0.1:") || strings.HasPrefix(addr, "localhost:") || strings.HasPrefix(addr, "[::1]:")
}

func envOr(key, def string) string {
	if v := os.Getenv(key); v != "" {
		return v
	}
	return def
}
