package main

import (
	"os"

	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/tools/sim"
)

// simulate runs `chaguan simulate …`: bot-vs-bot statistics for any game.
func simulate(args []string) error { return sim.Main(args, all.Registry(), os.Stdout) }
