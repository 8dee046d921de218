// Package rooms is the match master: it creates matches, seats players and
// bots, checks and applies moves, stores every accepted move with
// compare-and-set, and fans each viewer its own filtered view. It knows
// nothing of HTTP or sockets: the server package adapts it.
//
// Each live match has one goroutine (a room) that alone touches its state;
// connections, bots and timers post commands to its bounded inbox. Lobby
// operations write the store directly with compare-and-set and the room
// learns of them through the store's subscription, so several processes
// sharing one store stay consistent.
package rooms

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Config wires a Manager. Zero durations take the defaults.
type Config struct {
	Store Store
	Games *games.Registry
	// Now is the clock (tests may fake it); default time.Now.
	Now func() time.Time
	// Grace is the default away time before the bot covers a seat's turn
	// (docs/protocol.md, "Who plays for a seat": 60 s). A create request may
	// override it.
	Grace time.Duration
	// BotDelay is the default pause before a bot moves (300 ms). Use
	// ZeroBotDelay in tests for no pause.
	BotDelay time.Duration
	// IdleUnload is how long a room with no viewers and no bot work stays
	// loaded (default 30 s). Bots play only while somebody is connected
	// to the match (or a person's turn clock runs out), so a room nobody
	// connects to has no bot work.
	IdleUnload time.Duration
	// InboxSize bounds each room's command queue (default 256).
	InboxSize int
	// OpTimeout bounds one store call (default 5 s).
	OpTimeout time.Duration
	// MaxRooms caps the rooms loaded in this process: beyond it Create and
	// PlayAgain refuse with unavailable (default DefaultMaxRooms; negative
	// for no cap). Connections to existing matches still load theirs.
	MaxRooms int
	// BotRate is the process's budget of bot moves per second, shared by
	// every room in turn so that no match's bots starve the others'
	// (default DefaultBotRate; negative for no budget). BotBurst is how
	// many may go at once (default a tenth of the rate, at least 1).
	BotRate  float64
	BotBurst int
	// ClockPoll is how often the Manager looks in the store's DueIndex for
	// turn clocks that ran out in matches it has not loaded (default
	// DefaultClockPoll; negative: never).
	ClockPoll time.Duration
	// Liveness tells which processes sharing the store are running; by
	// default what the Store's Liveness method returns, when it has one
	// (the Redis store, on one server or a cluster).
	Liveness Liveness
	// Engines registers bot levels whose decisions need I/O, by game name
	// then level name (e.g. "weiqi" → "gnugo"). They are offered after the
	// game's built-in levels; a name that repeats a built-in level is
	// ignored. The Manager does not close them.
	Engines map[string]map[string]EngineLevel
	// Own holds the Players of seats played by players' own LLM
	// endpoints (OwnLevel, ownllm.go); nil when the server allows none.
	Own OwnEngines
	// Replays caps the replay pages built at once (Replay, ReplayPage);
	// default NewReplayGate(DefaultMaxReplays, DefaultReplayWait).
	Replays *ReplayGate
	// ReplayCacheBytes bounds the finished matches' replay pages kept
	// in memory to serve again (default DefaultReplayCacheBytes;
	// negative for none).
	ReplayCacheBytes int64
	Logger           *slog.Logger
	Metrics          Metrics
}

// DefaultMaxRooms is Config.MaxRooms's default.
const DefaultMaxRooms = 10000

// DefaultBotRate is Config.BotRate's default: bot moves per second in one
// process. A bot move of the costliest built-in level takes about a
// millisecond of CPU, so the budget keeps bots to about half a core however
// many matches ask, while a match at the default bot delay (300 ms) needs
// about 3 a second.
const DefaultBotRate = 500

// ZeroBotDelay makes bots move at once (a zero BotDelay means the default).
const ZeroBotDelay = time.Duration(-1)

// Metrics receives counters from rooms; the server implements it with
// Prometheus. Methods are called from many goroutines and must not block.
type Metrics interface {
	RoomsLoaded(delta int)
	MoveAccepted(game string, d time.Duration)
	MoveRefused(code string)
	MatchCreated(game string)
	// BotFallback counts an Engine level's failed decision, replaced by its
	// fallback level; reason is one of the Fallback* constants.
	BotFallback(game, level, reason string)
	// BotDecision times one decision of a bot at level, from the start of
	// its thinking to its answer (a failed Engine level's try and its
	// fallback's decision included), whether or not the move is played.
	BotDecision(game, level string, d time.Duration)
	// BotMove counts a move a bot at level played (one the room accepted).
	BotMove(game, level string)
}

type noMetrics struct{}

func (noMetrics) RoomsLoaded(int)                           {}
func (noMetrics) MoveAccepted(string, time.Duration)        {}
func (noMetrics) MoveRefused(string)                        {}
func (noMetrics) MatchCreated(string)                       {}
func (noMetrics) BotFallback(string, string, string)        {}
func (noMetrics) BotDecision(string, string, time.Duration) {}
func (noMetrics) BotMove(string, string)                    {}

// Manager owns the live rooms of this process. Its methods are safe for
// concurrent use.
type Manager struct {
	cfg    Config
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	// drain is closed when Close begins: rooms then finish what is queued,
	// record that this process's players left, and stop, while the store
	// still answers (ctx is cancelled only after).
	drain chan struct{}

	replays *ReplayGate  // cfg.Replays
	pages   *replayCache // finished matches' replay pages; nil for none

	// bots is the process's budget of bot moves (Config.BotRate); nil
	// for none.
	bots *rate.Limiter

	mu       sync.Mutex
	rooms    map[string]*room // guarded by mu
	draining bool             // guarded by mu: no new rooms start
}

// New returns a Manager; Close stops it.
func New(cfg Config) *Manager {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Grace == 0 {
		cfg.Grace = 60 * time.Second
	}
	switch {
	case cfg.BotDelay == ZeroBotDelay:
		cfg.BotDelay = 0
	case cfg.BotDelay == 0:
		cfg.BotDelay = 300 * time.Millisecond
	}
	if cfg.IdleUnload == 0 {
		cfg.IdleUnload = 30 * time.Second
	}
	if cfg.InboxSize == 0 {
		cfg.InboxSize = 256
	}
	if cfg.OpTimeout == 0 {
		cfg.OpTimeout = 5 * time.Second
	}
	if cfg.MaxRooms == 0 {
		cfg.MaxRooms = DefaultMaxRooms
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Metrics == nil {
		cfg.Metrics = noMetrics{}
	}
	var bots *rate.Limiter
	if cfg.BotRate == 0 {
		cfg.BotRate = DefaultBotRate
	}
	if cfg.BotRate > 0 {
		if cfg.BotBurst <= 0 {
			cfg.BotBurst = max(1, int(cfg.BotRate/10))
		}
		bots = rate.NewLimiter(rate.Limit(cfg.BotRate), cfg.BotBurst)
	}
	if cfg.ClockPoll == 0 {
		cfg.ClockPoll = DefaultClockPoll
	}
	cfg.Engines = normalEngines(cfg)
	if l, ok := cfg.Store.(interface{ Liveness() Liveness }); ok && cfg.Liveness == nil {
		cfg.Liveness = l.Liveness()
	}
	if cfg.Replays == nil {
		cfg.Replays = NewReplayGate(DefaultMaxReplays, DefaultReplayWait)
	}
	if cfg.ReplayCacheBytes == 0 {
		cfg.ReplayCacheBytes = DefaultReplayCacheBytes
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{cfg: cfg, ctx: ctx, cancel: cancel, drain: make(chan struct{}), rooms: map[string]*room{},
		replays: cfg.Replays, pages: newReplayCache(cfg.ReplayCacheBytes), bots: bots}
	if idx, ok := cfg.Store.(DueIndex); ok && cfg.ClockPoll > 0 {
		m.wg.Add(1)
		go m.watchClocks(idx)
	}
	return m
}

// Games returns the registry the manager serves.
func (m *Manager) Games() *games.Registry { return m.cfg.Games }

// Close stops every room and waits for them; connections get no more
// messages. It does not close the store. Each room first handles the
// commands already queued and stores, in one write, that the players still
// connected here have left (so that other processes see them away and
// their grace period starts), for at most OpTimeout and a second in all;
// then whatever is still waiting on the store is cancelled.
func (m *Manager) Close() {
	m.mu.Lock()
	if !m.draining {
		m.draining = true
		close(m.drain)
	}
	m.mu.Unlock()
	stopped := make(chan struct{})
	go func() { m.wg.Wait(); close(stopped) }()
	select {
	case <-stopped:
	case <-time.After(m.cfg.OpTimeout + time.Second):
	}
	m.cancel()
	<-stopped
}

// LiveRooms is the number of rooms loaded in this process.
func (m *Manager) LiveRooms() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.rooms)
}

func (m *Manager) now() int64 { return m.cfg.Now().UnixMilli() }

// post delivers cmd to the match's room, loading the room if needed. It
// never blocks: a full inbox is an error.
func (m *Manager) post(id string, g games.Game, cmd command) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ctx.Err() != nil {
		return newError(protocol.CodeUnavailable, "the server is shutting down")
	}
	r, ok := m.rooms[id]
	if !ok {
		if m.draining {
			return newError(protocol.CodeUnavailable, "the server is shutting down")
		}
		r = m.startRoom(id, g)
	}
	return r.offer(cmd)
}
