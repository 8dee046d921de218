package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// An Engine is a bot level whose decisions need I/O (a GTP engine in a
// subprocess, an LLM over HTTP), so it cannot be a pure games.Rules.Bot.
// Its adapter lives in a package named after what it wraps (rooms/gnugo).
//
// Move is called on a goroutine of its own, never on a room's, with at
// most one call per room at a time (several rooms may call at once). It
// must return when ctx is done; the room stops waiting at the deadline
// anyway and plays the level's fallback. Its answer is checked like a
// person's move: an error, a panic, a late or an illegal answer all make
// the room play the fallback built-in level instead. Errors are logged:
// they must not carry a credential.
type Engine interface {
	Move(ctx context.Context, req EngineRequest) (name string, args json.RawMessage, err error)
}

// A ReasonEngine is an Engine that may say why it chose its move: the room
// calls MoveReason instead of Move, and shows the reason to everyone in
// the move's log entry (protocol.LogEntry.BotReason) once the move is
// played. The reason is the Engine's own words about the seat's view,
// which holds nothing the move does not reveal in a game whose view is
// public (Carcassonne's); an Engine for a game with hidden information
// must say nothing of it. The room keeps one line of it (CleanReason).
type ReasonEngine interface {
	Engine
	MoveReason(ctx context.Context, req EngineRequest) (EngineMove, error)
}

// EngineMove is a ReasonEngine's answer: the move and why ("" for no
// reason).
type EngineMove struct {
	Name   string
	Args   json.RawMessage
	Reason string
}

// CleanReason makes a bot's reason fit for the log: valid UTF-8, control
// and formatting characters (newlines, bidirectional overrides, zero-width
// characters) gone, runs of white space one space, trimmed, and at most
// protocol.MaxBotReason characters (cut with "…").
func CleanReason(s string) string {
	if len(s) > 16*protocol.MaxBotReason { // far more than is kept: bound the work
		s = s[:16*protocol.MaxBotReason]
	}
	s = strings.Map(func(r rune) rune {
		switch {
		case r == utf8.RuneError, unicode.Is(unicode.Cf, r):
			return -1
		case unicode.IsControl(r), unicode.IsSpace(r), unicode.In(r, unicode.Zl, unicode.Zp):
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, ""))
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= protocol.MaxBotReason {
		return s
	}
	r := []rune(s)[:protocol.MaxBotReason-1]
	return strings.TrimRight(string(r), " ") + "…"
}

// EngineRequest is what an Engine decides from: the seat's own view and
// nothing else, as a person in that seat would see it.
type EngineRequest struct {
	Game    string // the game's name, e.g. "weiqi"
	MatchID string // the match the decision is for
	Seat    int
	Version int64 // the state the decision is for; a stale answer is dropped
	// View is the JSON of the game's view for Seat: the "G" of the state
	// message that seat gets (State.AppendView), the same bytes the game's
	// built-in bots decide from.
	View json.RawMessage
}

// EngineLevel registers one Engine as a bot level of a game.
type EngineLevel struct {
	Engine Engine
	// Fallback is the built-in level played when the Engine fails; default
	// the level that covers an absent person ("normal" where it exists).
	Fallback string
	// Timeout bounds one decision (default DefaultPlayerTimeout).
	Timeout time.Duration
}

// DefaultEngineTimeout bounds an Engine's decision when its level sets none.
const DefaultEngineTimeout = 10 * time.Second

// Fallback reasons, the reason label of Metrics.BotFallback.
const (
	FallbackError   = "error"   // the Engine returned an error
	FallbackTimeout = "timeout" // no answer before the deadline
	FallbackPanic   = "panic"   // the Engine panicked
	FallbackIllegal = "illegal" // the answer is not a legal move now
	FallbackBusy    = "busy"    // the Engine had no capacity before the deadline (ErrEngineBusy)
)

// ErrEngineBusy is wrapped by an Engine's error when it could not even
// start on the decision in time (all its connections to a shared endpoint
// were taken); the fallback is counted with the reason FallbackBusy.
var ErrEngineBusy = errors.New("bot player busy")

// normalEngines checks cfg.Players against the games and fills defaults:
// a level of an unknown game, or one that repeats a built-in level's name,
// is dropped with a warning.
func normalEngines(cfg Config) map[string]map[string]EngineLevel {
	out := map[string]map[string]EngineLevel{}
	for game, levels := range cfg.Engines {
		g, ok := cfg.Games.Get(game)
		for level, pl := range levels {
			switch {
			case !ok:
				cfg.Logger.Warn("bot level for an unknown game ignored", "game", game, "level", level)
				continue
			case slices.Contains(g.Info().Bots, level):
				cfg.Logger.Warn("bot level repeats a built-in level; ignored", "game", game, "level", level)
				continue
			case pl.Engine == nil:
				cfg.Logger.Warn("bot level without a Player ignored", "game", game, "level", level)
				continue
			}
			if pl.Timeout <= 0 {
				pl.Timeout = DefaultEngineTimeout
			}
			if pl.Fallback == "" || !slices.Contains(g.Info().Bots, pl.Fallback) {
				pl.Fallback = builtinDefault(g.Info())
			}
			if out[game] == nil {
				out[game] = map[string]EngineLevel{}
			}
			out[game][level] = pl
		}
	}
	return out
}

// player returns the Engine level registered for game, or nil.
func (m *Manager) player(game, level string) *EngineLevel {
	if pl, ok := m.cfg.Engines[game][level]; ok {
		return &pl
	}
	return nil
}

// BotLevels lists the bot levels a match of game may seat: the game's
// built-in levels, easiest first, then the Engine levels configured for
// it, by name. It is what the catalog shows.
func (m *Manager) BotLevels(info games.Info) []string {
	levels := slices.Clone(info.Bots)
	var extra []string
	for level := range m.cfg.Engines[info.Name] {
		extra = append(extra, level)
	}
	sort.Strings(extra)
	return append(levels, extra...)
}

// botJob is one bot decision, run on its own goroutine with an immutable
// state: nothing in it is the room's.
type botJob struct {
	ctx     context.Context // the manager's: cancelled when it stops
	st      games.State
	version int64
	stateID int64 // the Record.StateID of st
	game    string
	matchID string
	seat    int
	level   string
	player  *EngineLevel // nil for a built-in level
	log     *slog.Logger // the room's
	metrics Metrics
}

// thinkingAfter is how long an Engine may take before the room tells its
// viewers that the seat is thinking: an engine that answers at once (GNU
// Go on a small board, the LLM's remembered meeple step) costs no extra
// message and no flicker.
const thinkingAfter = 300 * time.Millisecond

// ask gets the Engine's move and checks it is legal; reason says why not.
// thinking is called, on this goroutine, once the Engine has taken
// thinkingAfter without answering.
func (j botJob) ask(thinking func()) (mv EngineMove, reason string, err error) {
	view, err := j.st.AppendView(nil, j.seat)
	if err != nil {
		return mv, FallbackError, fmt.Errorf("view: %w", err)
	}
	ctx, cancel := context.WithTimeout(j.ctx, j.player.Timeout)
	defer cancel()
	type answer struct {
		mv    EngineMove
		err   error
		panic bool
	}
	// The Engine runs on a goroutine of its own so that one that ignores
	// its deadline holds a goroutine, not the seat.
	done := make(chan answer, 1)
	go func() {
		var a answer
		defer func() {
			if p := recover(); p != nil {
				a = answer{panic: true, err: fmt.Errorf("panic: %v\n%s", p, debug.Stack())}
			}
			done <- a
		}()
		req := EngineRequest{Game: j.game, MatchID: j.matchID, Seat: j.seat, Version: j.version, View: view}
		if rp, ok := j.player.Engine.(ReasonEngine); ok {
			a.mv, a.err = rp.MoveReason(ctx, req)
		} else {
			a.mv.Name, a.mv.Args, a.err = j.player.Engine.Move(ctx, req)
		}
	}()
	var a answer
	slow := time.NewTimer(thinkingAfter)
	defer slow.Stop()
wait:
	for {
		select {
		case a = <-done:
			break wait
		case <-ctx.Done():
			a.err = ctx.Err()
			break wait
		case <-slow.C:
			if thinking != nil {
				thinking()
			}
		}
	}
	switch {
	case a.panic:
		return EngineMove{}, FallbackPanic, a.err
	case errors.Is(a.err, ErrEngineBusy):
		return EngineMove{}, FallbackBusy, a.err
	case a.err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded):
		return EngineMove{}, FallbackTimeout, a.err
	case a.err != nil:
		return EngineMove{}, FallbackError, a.err
	}
	if _, err := j.st.Apply(j.seat, a.mv.Name, a.mv.Args); err != nil {
		return EngineMove{}, FallbackIllegal, fmt.Errorf("%s %s: %w", a.mv.Name, a.mv.Args, err)
	}
	a.mv.Reason = CleanReason(a.mv.Reason)
	return a.mv, "", nil
}

// timeDecision records the time since start as the job's decision time.
func (j botJob) timeDecision(start time.Time) {
	j.metrics.BotDecision(j.game, j.level, time.Since(start))
}

// fallBack records why the Engine failed; the caller then plays the
// fallback level.
func (j botJob) fallBack(reason string, err error) {
	j.log.Warn("bot player failed; playing the fallback level",
		"seat", j.seat, "version", j.version, "level", j.level, "reason", reason,
		"fallback", j.player.Fallback, "err", err)
	j.metrics.BotFallback(j.game, j.level, reason)
}
