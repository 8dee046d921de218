package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/clients/client"
)

// run performs one load run: the idle spectators (if any), then cfg.Matches
// match workers for cfg.Duration from the moment all first matches are set
// up. progress, if not nil, gets a line per second. It returns an error only
// when the server cannot be used at all.
func run(ctx context.Context, cfg config, progress io.Writer) (*report, error) {
	if err := cfg.check(); err != nil {
		return nil, err
	}
	hc := &http.Client{
		Timeout:   15 * time.Second,
		Transport: &http.Transport{MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: 30 * time.Second},
	}
	defer hc.CloseIdleConnections()
	lobby := client.NewLobby(cfg.URL, hc)
	names, err := lobby.Games(ctx)
	if err != nil {
		return nil, fmt.Errorf("server at %s: %w", cfg.URL, err)
	}
	load, _ := workloadFor(cfg.Game) // cfg.check refused an unknown game
	need := []string{load.name}
	if cfg.Idle > 0 {
		need = append(need, gameName) // idle spectators watch a Gomoku match
	}
	for _, g := range need {
		if !slices.Contains(names, g) {
			return nil, fmt.Errorf("server at %s has no %s (games: %v)", cfg.URL, g, names)
		}
	}
	rep := &report{URL: cfg.URL, Game: load.name, Client: cfg.Client, Matches: cfg.Matches, Patches: cfg.patches()}
	if cfg.Idle > 0 {
		idle, conns := openIdle(ctx, cfg, lobby, hc)
		rep.Idle = idle
		defer closeAll(conns)
	}
	r := &runner{cfg: cfg, load: load, lobby: lobby, hc: hc}
	if cfg.Rate > 0 {
		r.total = rate.NewLimiter(rate.Limit(cfg.Rate), 1)
	}
	r.playFor(ctx, rep, progress)
	return rep, nil
}

// playFor starts the match workers, measures cfg.Duration once all of
// them have set up their first match, stops them and fills rep.
func (r *runner) playFor(ctx context.Context, rep *report, progress io.Writer) {
	playCtx, stop := context.WithCancel(ctx)
	defer stop()
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	sem := make(chan struct{}, r.cfg.SetupLimit)
	all := make([][]samples, r.cfg.Matches)
	setupBegin := time.Now()
	for i := range all {
		all[i] = make([]samples, r.load.seats)
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			r.worker(playCtx, sem, &ready, start, all[i])
		}()
	}
	ready.Wait()
	rep.SetupMs = ms(time.Since(setupBegin))
	cpu0 := markCPU(ctx, r.hc, r.cfg.URL)
	bytes0 := r.markBytes()
	begin := time.Now()
	close(start)
	r.tick(ctx, begin, rep, progress)
	rep.Seconds = time.Since(begin).Seconds()
	rep.Moves = r.moves.Load()
	rep.Games = r.games.Load()
	rep.CPU = markCPU(ctx, r.hc, r.cfg.URL).since(cpu0, rep.Moves)
	rep.Bytes = r.markBytes().since(bytes0, rep.Moves, r.load)
	stop()
	done.Wait()
	if rep.Seconds > 0 {
		rep.MovesPerSec = float64(rep.Moves) / rep.Seconds
	}
	var ack, opp []time.Duration
	for i := range all {
		for _, s := range all[i] {
			ack = append(ack, s.ack...)
			opp = append(opp, s.opp...)
		}
	}
	rep.Ack, rep.Opponent = summarize(ack), summarize(opp)
	rep.Errors = r.errs.snapshot()
	if n := r.gaps.Load(); n > 0 {
		rep.Errors["patch/gap"] = n
	}
}

// tick waits cfg.Duration (or until ctx ends), recording the accepted moves
// of every second and printing them to progress.
func (r *runner) tick(ctx context.Context, begin time.Time, rep *report, progress io.Writer) {
	end := time.NewTimer(r.cfg.Duration)
	defer end.Stop()
	t := time.NewTicker(time.Second)
	defer t.Stop()
	var last int64
	for {
		select {
		case <-end.C:
			return
		case <-ctx.Done():
			return
		case now := <-t.C:
			n := r.moves.Load()
			rep.PerSecond = append(rep.PerSecond, n-last)
			last = n
			if progress != nil {
				fmt.Fprintf(progress, "t=%4.0fs moves/s=%6d total=%8d games=%6d errors=%d\n",
					now.Sub(begin).Seconds(), rep.PerSecond[len(rep.PerSecond)-1], n, r.games.Load(), total(r.errs.snapshot()))
			}
		}
	}
}

func closeAll(conns []*client.Conn) {
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Add(1)
		go func() { defer wg.Done(); c.Close() }()
	}
	wg.Wait()
}

// bytesMark is a reading of the state bytes the lean seats and
// spectators have read.
type bytesMark struct{ seats, watchers int64 }

func (r *runner) markBytes() bytesMark {
	return bytesMark{seats: r.seatBytes.Load(), watchers: r.watcherBytes.Load()}
}

// since returns the state (and patch) bytes read between from and m per
// viewer per accepted move, or nil when none were counted (the full
// client).
func (m bytesMark) since(from bytesMark, moves int64, load *workload) *bytesReport {
	seats, watchers := m.seats-from.seats, m.watchers-from.watchers
	if seats == 0 || moves == 0 {
		return nil
	}
	r := &bytesReport{SeatPerMove: float64(seats) / float64(moves) / float64(load.seats)}
	if load.watchers > 0 {
		r.SpectatorPerMove = float64(watchers) / float64(moves) / float64(load.watchers)
	}
	r.ViewerPerMove = float64(seats+watchers) / float64(moves) / float64(load.viewers())
	return r
}
