package sim

import (
	"io"
	"sync"

	"github.com/chaguan/chaguan/games"
)

// Collector gathers one game's extra statistics over many games. A
// Collector is used by one worker goroutine at a time; Merge folds the
// workers' collectors together after they stop.
type Collector interface {
	// Add records one finished (or capped) game: its start and final states.
	Add(first, last games.State, r Result)
	// Merge adds other (made by the same Hook's New) into the receiver.
	Merge(other Collector)
	// Report writes the statistics, one line each, in a stable order.
	Report(w io.Writer)
}

// RoundCollector is a Collector that also sees every round as it ends,
// for games whose history in the state is capped or that never end.
type RoundCollector interface {
	Collector
	// AddRound records the round that just ended: st is the state right
	// after it, r the game so far.
	AddRound(st games.State, r Result)
}

// Hook is what a game adds to the simulator. Every field is optional.
type Hook struct {
	// New makes an empty collector for a run of cfg.
	New func(cfg Config) Collector
	// Narrate describes what one move did, for -verbose, given the states
	// before and after it.
	Narrate func(before, after games.State) []string
	// Rounds counts the rounds a state has finished. A game with it may be
	// played for a fixed number of rounds (-rounds), which is how a game
	// that never ends (Gong Zhu) is simulated.
	Rounds func(games.State) int
}

var (
	hooksMu sync.RWMutex
	hooks   = map[string]Hook{}
)

// Register sets the hook for the named game. Games call it from init; a
// later call for the same name replaces the earlier one.
func Register(game string, h Hook) {
	hooksMu.Lock()
	defer hooksMu.Unlock()
	hooks[game] = h
}

func hookFor(game string) Hook {
	hooksMu.RLock()
	defer hooksMu.RUnlock()
	return hooks[game]
}
