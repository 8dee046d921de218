package sim

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"

	"github.com/chaguan/chaguan/games"
)

// Result is how one simulated game went.
type Result struct {
	Index      int
	Seed       uint64
	Winner     int // seat, or -1
	Draw       bool
	Unfinished bool // still running after MaxMoves
	Rounds     int  // Status().Turn at the end
	Moves      int
}

// Run plays cfg.Games games on cfg.Workers goroutines. Game i depends only
// on cfg and i, so the report is the same for any number of workers. With
// cfg.Verbose the single game is narrated to out as it is played.
func Run(cfg Config, reg *games.Registry, out io.Writer) (*Report, error) {
	g, ok := reg.Get(cfg.Game)
	if !ok {
		return nil, fmt.Errorf("%w: unknown game %q", ErrUsage, cfg.Game)
	}
	hook := hookFor(cfg.Game)
	workers := max(1, min(cfg.Workers, cfg.Games))
	results := make([]Result, cfg.Games)
	collectors := make([]Collector, workers)
	errs := make([]error, workers)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		if hook.New != nil {
			collectors[w] = hook.New(cfg)
		}
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := range next {
				var narrate io.Writer
				if cfg.Verbose {
					narrate = out
				}
				first, last, r, err := playOne(g, cfg, i, hook, collectors[w], narrate)
				if err != nil {
					if errs[w] == nil {
						errs[w] = err
					}
					continue
				}
				results[i] = r
				if collectors[w] != nil {
					collectors[w].Add(first, last, r)
				}
			}
		}(w)
	}
	for i := 0; i < cfg.Games; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	rep := newReport(cfg, results)
	if hook.New != nil {
		rep.Extra = collectors[0]
		for _, c := range collectors[1:] {
			rep.Extra.Merge(c)
		}
	}
	return rep, nil
}

// playOne plays game i, to its end or, with cfg.Rounds, for that many
// rounds; each round's end goes to c when it is a RoundCollector. Among
// several seats that may move (simultaneous choices), the one to move is
// drawn from the game's own bot RNG.
func playOne(g games.Game, cfg Config, i int, hook Hook, c Collector, narrate io.Writer) (first, last games.State, r Result, err error) {
	seed := cfg.Seed + uint64(i)
	r = Result{Index: i, Seed: seed, Winner: -1}
	st, err := g.Setup(cfg.Players, nil, seed)
	if err != nil {
		return nil, nil, r, fmt.Errorf("sim: game %d (seed %d): setup: %w", i, seed, err)
	}
	first = st
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	for {
		status := st.Status()
		r.Rounds = status.Turn
		if o := status.Outcome; o != nil {
			r.Draw = o.Draw
			if w, ok := games.ParseSeat(o.Winner, cfg.Players); ok {
				r.Winner = w
			}
			if narrate != nil {
				fmt.Fprintf(narrate, "game over after %d moves, turn %d: %s\n", r.Moves, r.Rounds, describe(o))
			}
			return first, st, r, nil
		}
		if cfg.Rounds > 0 && hook.Rounds(st) >= cfg.Rounds {
			return first, st, r, nil
		}
		if cfg.Rounds == 0 && r.Moves >= cfg.MaxMoves {
			r.Unfinished = true
			return first, st, r, nil
		}
		movers := status.Movers(cfg.Players)
		if len(movers) == 0 {
			return nil, nil, r, fmt.Errorf("sim: game %d (seed %d): nobody may move at move %d", i, seed, r.Moves)
		}
		seat := movers[rng.IntN(len(movers))]
		name, args, err := st.Bot(cfg.Bots[seat], seat, rng)
		if err != nil {
			return nil, nil, r, fmt.Errorf("sim: game %d (seed %d) move %d: bot %s for seat %d: %w", i, seed, r.Moves, cfg.Bots[seat], seat, err)
		}
		nextSt, err := st.Apply(seat, name, args)
		if err != nil {
			return nil, nil, r, fmt.Errorf("sim: game %d (seed %d) move %d: bot move %s %s refused: %w", i, seed, r.Moves, name, args, err)
		}
		r.Moves++
		if narrate != nil {
			fmt.Fprintf(narrate, "move %d, turn %d: seat %d (%s) %s %s\n", r.Moves, status.Turn, seat, cfg.Bots[seat], name, args)
			if hook.Narrate != nil {
				for _, line := range hook.Narrate(st, nextSt) {
					fmt.Fprintf(narrate, "    %s\n", line)
				}
			}
		}
		noteRound(hook, c, st, nextSt, r)
		st = nextSt
	}
}

// noteRound hands the state after a move to a RoundCollector when the move
// ended a round.
func noteRound(hook Hook, c Collector, before, after games.State, r Result) {
	rc, ok := c.(RoundCollector)
	if ok && hook.Rounds != nil && hook.Rounds(after) > hook.Rounds(before) {
		rc.AddRound(after, r)
	}
}

func describe(o *games.Outcome) string {
	var b strings.Builder
	if o.Draw {
		b.WriteString("draw")
	} else {
		fmt.Fprintf(&b, "seat %s wins", o.Winner)
	}
	if o.Reason != "" {
		fmt.Fprintf(&b, " (%s)", o.Reason)
	}
	return b.String()
}
