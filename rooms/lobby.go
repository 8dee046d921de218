package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// maxName is the longest player name, in characters.
const maxName = 40

// maxCASTries bounds the read-modify-write loop of a lobby operation.
const maxCASTries = 8

// CreateParams is a create request after the server decoded it.
type CreateParams struct {
	NumPlayers int
	SetupData  json.RawMessage
	Unlisted   bool
	Bots       map[string]string // seat ID -> level
	Grace      *time.Duration
	BotDelay   *time.Duration
}

func (m *Manager) game(name string) (games.Game, error) {
	g, ok := m.cfg.Games.Get(name)
	if !ok {
		return nil, newError(protocol.CodeNotFound, "no game named %q", name)
	}
	return g, nil
}

func (m *Manager) opCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, m.cfg.OpTimeout)
}

// Create makes a new match and returns its ID.
func (m *Manager) Create(ctx context.Context, gameName string, p CreateParams) (string, error) {
	g, err := m.game(gameName)
	if err != nil {
		return "", err
	}
	rec, err := m.newRecord(g, uuid.NewString(), p)
	if err != nil {
		return "", err
	}
	ctx, cancel := m.opCtx(ctx)
	defer cancel()
	if err := m.cfg.Store.Create(ctx, rec); err != nil {
		return "", AsError(err)
	}
	m.cfg.Metrics.MatchCreated(gameName)
	m.notify(rec, g)
	return rec.ID, nil
}

func (m *Manager) newRecord(g games.Game, id string, p CreateParams) (*Record, error) {
	info := g.Info()
	if p.NumPlayers == 0 {
		p.NumPlayers = info.MinPlayers
	}
	if p.NumPlayers < info.MinPlayers || p.NumPlayers > info.MaxPlayers {
		return nil, newError(protocol.CodeBadRequest, "%s takes %d to %d players, not %d", info.Name, info.MinPlayers, info.MaxPlayers, p.NumPlayers)
	}
	if len(p.SetupData) == 0 {
		p.SetupData = nil
	}
	opts := Options{GraceMs: m.cfg.Grace.Milliseconds(), BotDelayMs: m.cfg.BotDelay.Milliseconds(), Seed: randomSeed()}
	if p.Grace != nil {
		if *p.Grace < 0 || *p.Grace > time.Hour {
			return nil, newError(protocol.CodeBadRequest, "graceSeconds must be between 0 and 3600")
		}
		opts.GraceMs = p.Grace.Milliseconds()
	}
	if p.BotDelay != nil {
		if *p.BotDelay < 0 || *p.BotDelay > 10*time.Second {
			return nil, newError(protocol.CodeBadRequest, "botDelayMs must be between 0 and 10000")
		}
		opts.BotDelayMs = p.BotDelay.Milliseconds()
	}
	st, err := g.Setup(p.NumPlayers, p.SetupData, opts.Seed)
	if err != nil {
		return nil, AsError(err) // ErrBadSetup becomes bad_request there
	}
	state, err := st.MarshalJSON()
	if err != nil {
		return nil, AsError(err)
	}
	now := m.now()
	rec := &Record{
		ID: id, Game: info.Name, NumPlayers: p.NumPlayers, SetupData: p.SetupData,
		Unlisted: p.Unlisted, CreatedAt: now, UpdatedAt: now, StateID: 1, Seq: 1,
		Seats: make([]Seat, p.NumPlayers), State: state, Options: opts,
	}
	for id, level := range p.Bots {
		seat, ok := games.ParseSeat(id, p.NumPlayers)
		if !ok {
			return nil, newError(protocol.CodeBadRequest, "bots: no seat %q in a %d-player match", id, p.NumPlayers)
		}
		if !m.hasBot(info, level) {
			return nil, newError(protocol.CodeBadRequest, "bots: %s has no bot level %q (levels: %s)", info.Name, level, strings.Join(m.BotLevels(info), ", "))
		}
		rec.Seats[seat] = Seat{Name: botName(level), Bot: level}
	}
	return rec, nil
}

// hasBot says whether level is a bot level of the game: a built-in one or
// a Player level configured for it.
func (m *Manager) hasBot(info games.Info, level string) bool {
	return slices.Contains(info.Bots, level) || m.player(info.Name, level) != nil
}

func botName(level string) string { return "Bot (" + level + ")" }

// defaultBot is the level that takes over a seat a person left or is away
// from: the built-in default, or for a game without built-in levels the
// first Player level configured for it.
func (m *Manager) defaultBot(info games.Info) string {
	if l := builtinDefault(info); l != "" {
		return l
	}
	if levels := m.BotLevels(info); len(levels) > 0 {
		return levels[0]
	}
	return ""
}

// builtinDefault is the game's "normal" level, else its easiest one.
func builtinDefault(info games.Info) string {
	if slices.Contains(info.Bots, "normal") {
		return "normal"
	}
	if len(info.Bots) > 0 {
		return info.Bots[0]
	}
	return ""
}

// Get returns the lobby view of one match.
func (m *Manager) Get(ctx context.Context, gameName, id string) (protocol.Match, error) {
	rec, _, err := m.load(ctx, gameName, id)
	if err != nil {
		return protocol.Match{}, err
	}
	return rec.match(), nil
}

// ListFilter narrows List; nil fields do not filter.
type ListFilter struct {
	IsGameover    *bool
	UpdatedBefore *int64
	UpdatedAfter  *int64
}

// List returns a game's listed matches, newest first.
func (m *Manager) List(ctx context.Context, gameName string, f ListFilter) ([]protocol.Match, error) {
	if _, err := m.game(gameName); err != nil {
		return nil, err
	}
	ctx, cancel := m.opCtx(ctx)
	defer cancel()
	recs, err := m.cfg.Store.List(ctx, gameName)
	if err != nil {
		return nil, AsError(err)
	}
	out := []protocol.Match{}
	for _, r := range recs {
		over := len(r.Gameover) > 0 && string(r.Gameover) != "null"
		switch {
		case r.Unlisted:
		case f.IsGameover != nil && *f.IsGameover != over:
		case f.UpdatedBefore != nil && r.UpdatedAt >= *f.UpdatedBefore:
		case f.UpdatedAfter != nil && r.UpdatedAt <= *f.UpdatedAfter:
		default:
			out = append(out, r.match())
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].CreatedAt > out[j].CreatedAt })
	return out, nil
}

// load reads a record and checks it belongs to gameName.
func (m *Manager) load(ctx context.Context, gameName, id string) (*Record, games.Game, error) {
	g, err := m.game(gameName)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := m.opCtx(ctx)
	defer cancel()
	rec, err := m.cfg.Store.Get(ctx, id)
	if err != nil {
		return nil, nil, AsError(err)
	}
	if rec.Game != gameName {
		return nil, nil, newError(protocol.CodeNotFound, "no %s match %q", gameName, id)
	}
	return rec, g, nil
}

// mutate is the lobby's read-modify-write: fn edits a fresh copy of the
// record and may return an error to abort; the write is a compare-and-set,
// retried on conflict.
func (m *Manager) mutate(ctx context.Context, gameName, id string, fn func(*Record, games.Game) error) (*Record, error) {
	for try := 0; try < maxCASTries; try++ {
		rec, g, err := m.load(ctx, gameName, id)
		if err != nil {
			return nil, err
		}
		prev := rec.StateID
		if err := fn(rec, g); err != nil {
			return nil, err
		}
		rec.StateID = prev + 1
		rec.UpdatedAt = m.now()
		wctx, cancel := m.opCtx(ctx)
		err = m.cfg.Store.Update(wctx, rec, prev)
		cancel()
		if errors.Is(err, ErrConflict) {
			continue
		}
		if err != nil {
			return nil, AsError(err)
		}
		m.notify(rec, g)
		return rec, nil
	}
	return nil, newError(protocol.CodeUnavailable, "the match is changing too fast; try again")
}

// notify hands a freshly written record to this process's room, loading it
// when bots have work, so bots move even when nobody is connected here.
func (m *Manager) notify(rec *Record, g games.Game) {
	_ = m.post(rec.ID, g, cmdRecord{rec: rec.clone()})
}

func validName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", newError(protocol.CodeForbidden, "playerName is required")
	}
	if utf8.RuneCountInString(name) > maxName {
		return "", newError(protocol.CodeBadRequest, "playerName is longer than %d characters", maxName)
	}
	return name, nil
}

func msDuration(ms int64) time.Duration { return time.Duration(ms) * time.Millisecond }
