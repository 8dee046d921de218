// Package sim is Chaguan's bot simulator: it plays many games of any
// registered game between its bots, across every core, and prints win
// rates by seat and by bot level, draws and game lengths, plus each game's
// own statistics through a small hook registry (see Register). With
// -games 1 -verbose it narrates one game move by move.
package sim

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// Config is one simulation run.
type Config struct {
	Game     string
	Players  int
	Games    int
	Bots     []string // one level per seat
	Seed     uint64   // game i is set up with seed Seed+i
	MaxMoves int      // a game still running after this many moves is counted unfinished
	// Rounds, when positive, plays every game for exactly this many rounds
	// (games whose hook counts rounds only); MaxMoves does not apply.
	Rounds  int
	Verbose bool
	Workers int // default runtime.NumCPU()
}

// ErrUsage wraps every bad-flag error.
var ErrUsage = errors.New("sim: usage")

// Main parses args (without the program name), runs the simulation and
// writes the report to out. Flags:
//
//	-game threemonks -players 5 -games 10000 -bots normal|normal,easy,… -seed 1 -maxmoves 20000 -verbose
//	-game gongzhu -players 4 -rounds 1000 [-games 1]
//
// -rounds N plays each game for N rounds (a game that never ends, such as
// Gong Zhu); -games then defaults to 1, so -rounds N plays N rounds.
func Main(args []string, reg *games.Registry, out io.Writer) error {
	cfg, err := parse(args, reg, out)
	if err != nil {
		return err
	}
	rep, err := Run(cfg, reg, out)
	if err != nil {
		return err
	}
	rep.Write(out)
	return nil
}

func parse(args []string, reg *games.Registry, out io.Writer) (Config, error) {
	fs := flag.NewFlagSet("simulate", flag.ContinueOnError)
	fs.SetOutput(out)
	game := fs.String("game", "", "game name: "+strings.Join(reg.Names(), ", "))
	players := fs.Int("players", 0, "number of seats (default: the game's minimum)")
	n := fs.Int("games", 1000, "games to play")
	bots := fs.String("bots", "", "bot level for every seat, or a comma list per seat (default: the game's first level)")
	seed := fs.Uint64("seed", 1, "seed of game 0; game i uses seed+i")
	maxMoves := fs.Int("maxmoves", 20000, "moves after which a game counts as unfinished")
	rounds := fs.Int("rounds", 0, "play each game for this many rounds (games that never end, like gongzhu); -games defaults to 1")
	verbose := fs.Bool("verbose", false, "with -games 1: narrate the game move by move")
	workers := fs.Int("workers", runtime.NumCPU(), "parallel workers")
	if err := fs.Parse(args); err != nil {
		return Config{}, fmt.Errorf("%w: %v", ErrUsage, err)
	}
	g, ok := reg.Get(*game)
	if !ok {
		return Config{}, fmt.Errorf("%w: unknown -game %q (have %s)", ErrUsage, *game, strings.Join(reg.Names(), ", "))
	}
	info := g.Info()
	cfg := Config{Game: *game, Players: *players, Games: *n, Seed: *seed, MaxMoves: *maxMoves, Verbose: *verbose, Workers: *workers, Rounds: *rounds}
	if err := checkRounds(&cfg, fs); err != nil {
		return Config{}, err
	}
	if cfg.Players == 0 {
		cfg.Players = info.MinPlayers
	}
	if cfg.Players < info.MinPlayers || cfg.Players > info.MaxPlayers {
		return Config{}, fmt.Errorf("%w: %s takes %d-%d players, not %d", ErrUsage, info.Name, info.MinPlayers, info.MaxPlayers, cfg.Players)
	}
	if len(info.Bots) == 0 {
		return Config{}, fmt.Errorf("%w: %s has no bots", ErrUsage, info.Name)
	}
	if cfg.Bots, ok = seatLevels(*bots, cfg.Players, info.Bots); !ok {
		return Config{}, fmt.Errorf("%w: -bots %q: give one level of %v, or %d comma-separated levels",
			ErrUsage, *bots, info.Bots, cfg.Players)
	}
	if cfg.Games < 1 || cfg.MaxMoves < 1 || cfg.Workers < 1 {
		return Config{}, fmt.Errorf("%w: -games, -maxmoves and -workers must be positive", ErrUsage)
	}
	if cfg.Verbose && cfg.Games != 1 {
		return Config{}, fmt.Errorf("%w: -verbose narrates one game: use it with -games 1", ErrUsage)
	}
	return cfg, nil
}

// checkRounds validates -rounds: only for a game whose hook counts rounds,
// positive, and with -games defaulting to 1.
func checkRounds(cfg *Config, fs *flag.FlagSet) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["rounds"] {
		return nil
	}
	if hookFor(cfg.Game).Rounds == nil {
		return fmt.Errorf("%w: %s is played to its end: -rounds is for games that never end (gongzhu)", ErrUsage, cfg.Game)
	}
	if cfg.Rounds < 1 {
		return fmt.Errorf("%w: -rounds must be positive", ErrUsage)
	}
	if !set["games"] {
		cfg.Games = 1
	}
	return nil
}

// seatLevels expands -bots into one level per seat.
func seatLevels(flagValue string, seats int, levels []string) ([]string, bool) {
	if flagValue == "" {
		flagValue = levels[0]
	}
	parts := strings.Split(flagValue, ",")
	if len(parts) == 1 {
		parts = slices.Repeat(parts, seats)
	}
	if len(parts) != seats {
		return nil, false
	}
	for i, p := range parts {
		parts[i] = strings.TrimSpace(p)
		if !slices.Contains(levels, parts[i]) {
			return nil, false
		}
	}
	return parts, true
}
