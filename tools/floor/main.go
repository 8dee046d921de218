// Command floor measures what this machine can do for the load
// generator's workload with everything but the socket pattern taken away:
// two connections per match, the mover sends a small message, the server
// answers each connection with a frame the size of a Gomoku state, and
// (with -redis) stores each move with one compare-and-set EVALSHA of a
// record the size of the real one, pipelined across matches. There is no
// game, no JSON and no lobby: its moves per second bound what any server
// built this way (goroutines per connection, the same hand-offs) reaches on
// the same machine, and the gap between it and clients/loadgen's figure is
// what the real server's own work costs (docs/performance.md).
//
//	go run ./tools/floor -matches 100 -duration 10s [-ws] [-redis redis://127.0.0.1:6379/0]
//
// It starts itself as a child process for the server side (so that server
// and client each have their own CPU account, as with the real server),
// plays for -duration after a one-second warm-up, and prints moves per
// second with each process's CPU time per move (the server's from /proc,
// Redis's from INFO cpu). It listens and connects on loopback only and
// stops by itself. pairs.sh, beside this file, runs it and the real server
// under the load generator in alternated pairs.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/chaguan/chaguan/tools/cputime"
	"github.com/gorilla/websocket"
	"github.com/redis/go-redis/v9"
)

// Bounds of one run.
const (
	maxMatches  = 5000
	maxDuration = 5 * time.Minute
	warmUp      = time.Second
)

type config struct {
	Matches  int
	Duration time.Duration
	WS       bool
	Redis    string
	Frame    int // bytes of each state frame
	Move     int // bytes of each move message
	Record   int // bytes of each stored record
	Workers  int // Redis pipeline workers
	Serve    string
	JSON     bool
	warmUp   time.Duration // before the measured window (1 s; tests shorten it)
}

func parseFlags(args []string, out io.Writer) (config, error) {
	var c config
	fs := flag.NewFlagSet("floor", flag.ContinueOnError)
	fs.SetOutput(out)
	fs.IntVar(&c.Matches, "matches", 100, "concurrent matches, 1-5000")
	fs.DurationVar(&c.Duration, "duration", 10*time.Second, "measured time after a 1 s warm-up, at most 5m")
	fs.BoolVar(&c.WS, "ws", false, "gorilla WebSocket text frames instead of raw length-prefixed TCP")
	fs.StringVar(&c.Redis, "redis", "", "Redis URL: store each move with one pipelined EVALSHA")
	fs.IntVar(&c.Frame, "frame", 2200, "bytes of each state frame (a mid-game Gomoku state is about 2,200)")
	fs.IntVar(&c.Move, "move", 64, "bytes of each move message")
	fs.IntVar(&c.Record, "record", 1800, "bytes of each stored record (a mid-game Gomoku record is about 1,800)")
	fs.IntVar(&c.Workers, "workers", 4, "Redis pipeline workers (the Redis store uses 4)")
	fs.StringVar(&c.Serve, "serve", "", "internal: serve on this loopback address")
	fs.BoolVar(&c.JSON, "json", false, "print one JSON report")
	if err := fs.Parse(args); err != nil {
		return c, err
	}
	c.warmUp = warmUp
	switch {
	case c.Matches < 1 || c.Matches > maxMatches:
		return c, fmt.Errorf("-matches %d: want 1-%d", c.Matches, maxMatches)
	case c.Duration <= 0 || c.Duration > maxDuration:
		return c, fmt.Errorf("-duration %v: want up to %v", c.Duration, maxDuration)
	case c.Frame < 1 || c.Frame > maxMessage || c.Move < 1 || c.Move > maxMessage:
		return c, fmt.Errorf("-frame and -move: want 1-%d bytes", maxMessage)
	case c.Record < 1 || c.Record > 1<<20:
		return c, errors.New("-record: want 1 byte to 1 MiB")
	case c.Workers < 1 || c.Workers > 64:
		return c, errors.New("-workers: want 1-64")
	}
	if c.Serve != "" {
		host, _, err := net.SplitHostPort(c.Serve)
		if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
			return c, fmt.Errorf("-serve %q: want a loopback address", c.Serve)
		}
	}
	return c, nil
}

func main() {
	cfg, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Exit(0)
		}
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if cfg.Serve != "" {
		err = serve(ctx, cfg)
	} else {
		err = coordinate(ctx, cfg, os.Stdout)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

// serve is the child: the server side until ctx ends.
func serve(ctx context.Context, cfg config) error {
	var store *recordStore
	if cfg.Redis != "" {
		var err error
		if store, err = newRecordStore(ctx, cfg.Redis, cfg.Record, cfg.Workers); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", cfg.Serve)
	if err != nil {
		return err
	}
	s := newServer(cfg, store)
	go func() { <-ctx.Done(); ln.Close() }()
	if cfg.WS {
		err = http.Serve(ln, s)
	} else {
		err = s.serveRaw(ln)
	}
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// report is one run's result.
type report struct {
	Matches         int     `json:"matches"`
	WS              bool    `json:"ws"`
	Redis           bool    `json:"redis"`
	Seconds         float64 `json:"seconds"`
	Moves           int64   `json:"moves"`
	MovesPerSecond  float64 `json:"movesPerSecond"`
	ServerPerMoveUs float64 `json:"serverPerMoveUs"`
	ClientPerMoveUs float64 `json:"clientPerMoveUs"`
	RedisPerMoveUs  float64 `json:"redisPerMoveUs,omitempty"`
}

// coordinate starts the server child, plays, and reports.
func coordinate(ctx context.Context, cfg config, out io.Writer) error {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	args := []string{"-serve", addr, "-frame", strconv.Itoa(cfg.Frame), "-record", strconv.Itoa(cfg.Record),
		"-workers", strconv.Itoa(cfg.Workers)}
	if cfg.WS {
		args = append(args, "-ws")
	}
	if cfg.Redis != "" {
		args = append(args, "-redis", cfg.Redis)
	}
	child := exec.Command(self, args...)
	child.Stderr = os.Stderr
	if err := child.Start(); err != nil {
		return err
	}
	defer func() {
		child.Process.Signal(syscall.SIGTERM)
		child.Wait()
	}()
	if err := awaitListener(ctx, addr); err != nil {
		return err
	}
	var rdb *redis.Client
	if cfg.Redis != "" {
		opt, err := redis.ParseURL(cfg.Redis)
		if err != nil {
			return err
		}
		rdb = redis.NewClient(opt)
		defer rdb.Close()
	}
	r, err := runClient(ctx, cfg, addr, func() cpuMark {
		return cpuMark{server: cputime.Process(child.Process.Pid), client: cputime.Self(), redis: redisCPUSeconds(ctx, rdb)}
	})
	if err != nil {
		return err
	}
	if cfg.JSON {
		return json.NewEncoder(out).Encode(r)
	}
	fmt.Fprintf(out, "floor: matches=%d ws=%v redis=%v seconds=%.1f moves=%d moves/s=%.0f cpu/move: server %.1f µs, client %.1f µs, redis %.1f µs\n",
		r.Matches, r.WS, r.Redis, r.Seconds, r.Moves, r.MovesPerSecond, r.ServerPerMoveUs, r.ClientPerMoveUs, r.RedisPerMoveUs)
	return nil
}

// cpuMark is a reading of the three processes' CPU seconds.
type cpuMark struct{ server, client, redis float64 }

// runClient connects cfg.Matches pairs of seats to addr, plays, and
// measures the moves the seats saw and the CPU mark() reports over the
// measured window.
func runClient(ctx context.Context, cfg config, addr string, mark func() cpuMark) (*report, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var seen countingSeats
	errs := make(chan error, 2*cfg.Matches)
	var conns []msgConn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for m := range cfg.Matches {
		for seat := range 2 {
			c, err := dial(ctx, cfg.WS, addr, m, seat)
			if err != nil {
				return nil, fmt.Errorf("match %d seat %d: %w", m, seat, err)
			}
			conns = append(conns, c)
			go func() { errs <- playSeat(ctx, c, seat, cfg.Move, &seen) }()
		}
	}
	wait := func(d time.Duration) error {
		select {
		case <-time.After(d):
			return nil
		case err := <-errs:
			if err == nil {
				err = errors.New("a seat stopped")
			}
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if err := wait(cfg.warmUp); err != nil {
		return nil, err
	}
	m0, n0, t0 := mark(), seen.moves.Load(), time.Now()
	if err := wait(cfg.Duration); err != nil {
		return nil, err
	}
	m1, n1, el := mark(), seen.moves.Load(), time.Since(t0).Seconds()
	r := &report{Matches: cfg.Matches, WS: cfg.WS, Redis: cfg.Redis != "", Seconds: el, Moves: n1 - n0}
	if r.Moves > 0 {
		per := func(a, b float64) float64 { return (b - a) / float64(r.Moves) * 1e6 }
		r.MovesPerSecond = float64(r.Moves) / el
		r.ServerPerMoveUs = per(m0.server, m1.server)
		r.ClientPerMoveUs = per(m0.client, m1.client)
		r.RedisPerMoveUs = per(m0.redis, m1.redis)
	}
	return r, nil
}

// countingSeats counts moves: one per frame seat 0 receives.
type countingSeats struct{ moves atomic.Int64 }

func dial(ctx context.Context, ws bool, addr string, m, seat int) (msgConn, error) {
	if ws {
		u := fmt.Sprintf("ws://%s/ws?m=%d&seat=%d", addr, m, seat)
		c, _, err := websocket.DefaultDialer.DialContext(ctx, u, nil)
		if err != nil {
			return nil, err
		}
		c.SetReadLimit(maxMessage)
		return wsConn{c}, nil
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	rc := newRawConn(nc)
	if err := rc.write([]byte(fmt.Sprintf("%d %d", m, seat))); err != nil {
		nc.Close()
		return nil, err
	}
	return rc, nil
}

// playSeat plays one seat: seat 0 moves first, then each seat moves after
// every frame that hands it the turn (frame n, counted from 1, gives the
// turn to seat n%2). It returns when ctx ends (nil) or the connection
// fails.
func playSeat(ctx context.Context, c msgConn, seat, moveBytes int, seen *countingSeats) error {
	move := make([]byte, moveBytes)
	for i := range move {
		move[i] = 'm'
	}
	if seat == 0 {
		if err := c.write(move); err != nil {
			return err
		}
	}
	buf := make([]byte, 0, 4096)
	for n := 1; ; n++ {
		b, err := c.read(buf)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		buf = b[:0]
		if seat == 0 {
			seen.moves.Add(1)
		}
		if n%2 == seat {
			if err := c.write(move); err != nil {
				if ctx.Err() != nil {
					return nil
				}
				return err
			}
		}
	}
}

// awaitListener waits up to 10 s for the child to listen on addr.
func awaitListener(ctx context.Context, addr string) error {
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			return c.Close()
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("the server child never listened on %s: %w", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func freeLoopbackAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// redisCPUSeconds is Redis's used_cpu_user + used_cpu_sys, 0 without Redis.
func redisCPUSeconds(ctx context.Context, rdb *redis.Client) float64 {
	if rdb == nil {
		return 0
	}
	info, err := rdb.Info(ctx, "cpu").Result()
	if err != nil {
		return 0
	}
	var sum float64
	for _, line := range strings.Split(info, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), ":")
		if ok && (k == "used_cpu_user" || k == "used_cpu_sys") {
			f, _ := strconv.ParseFloat(v, 64)
			sum += f
		}
	}
	return sum
}
