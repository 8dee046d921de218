package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
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
	Clock      *protocol.ClockRequest // seconds, checked by options
	// Own is the endpoint of the OwnLevel seats (ownllm.go), nil for none.
	Own   OwnBinding
	again bool // the next match of a play again: OwnLevel seats get the default level
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

// Create makes a new match and returns its ID. Beyond MaxRooms live rooms
// in this process it refuses with unavailable.
func (m *Manager) Create(ctx context.Context, gameName string, p CreateParams) (string, error) {
	g, err := m.game(gameName)
	if err != nil {
		return "", err
	}
	if err := m.checkRoomCap(); err != nil {
		return "", err
	}
	opts, err := m.options(p)
	if err != nil {
		return "", err
	}
	if err := checkOwn(p); err != nil {
		return "", err
	}
	rec, err := m.newRecord(g, uuid.NewString(), p, opts)
	if err != nil {
		return "", err
	}
	ctx, cancel := m.opCtx(ctx)
	defer cancel()
	if err := m.cfg.Store.Create(ctx, rec); err != nil {
		return "", AsError(err)
	}
	bindOwn(rec, p)
	m.cfg.Metrics.MatchCreated(gameName)
	m.notify(rec, g)
	return rec.ID, nil
}

// MaxGrace and MaxBotDelay bound the room options a create may ask for.
const (
	MaxGrace    = time.Hour
	MaxBotDelay = 10 * time.Second
)

// options are the room options a create asks for, or the defaults.
func (m *Manager) options(p CreateParams) (Options, error) {
	opts := Options{GraceMs: m.cfg.Grace.Milliseconds(), BotDelayMs: m.cfg.BotDelay.Milliseconds()}
	if p.Grace != nil {
		if *p.Grace < 0 || *p.Grace > MaxGrace {
			return Options{}, newError(protocol.CodeBadRequest, "graceSeconds must be between 0 and %d", int(MaxGrace/time.Second))
		}
		opts.GraceMs = p.Grace.Milliseconds()
	}
	if p.BotDelay != nil {
		if *p.BotDelay < 0 || *p.BotDelay > MaxBotDelay {
			return Options{}, newError(protocol.CodeBadRequest, "botDelayMs must be between 0 and %d", MaxBotDelay.Milliseconds())
		}
		opts.BotDelayMs = p.BotDelay.Milliseconds()
	}
	if c := p.Clock; c != nil {
		// Ranges first, then arithmetic: no overflow gets past.
		if c.Bank < 1 || c.Bank > MaxClockBank || c.PerMove < 0 || c.PerMove > MaxClockPerMove {
			return Options{}, newError(protocol.CodeBadRequest, "clock: bank must be 1 to %d seconds and perMove 0 to %d", MaxClockBank, MaxClockPerMove)
		}
		opts.Clock = &ClockOptions{BankMs: c.Bank * 1000, PerMoveMs: c.PerMove * 1000}
	}
	return opts, nil
}

// checkRoomCap refuses a new match while this process has MaxRooms rooms
// loaded.
func (m *Manager) checkRoomCap() error {
	if n := m.LiveRooms(); m.cfg.MaxRooms > 0 && n >= m.cfg.MaxRooms {
		return newError(protocol.CodeUnavailable, "this server is at its limit of %d live matches; try again later", m.cfg.MaxRooms)
	}
	return nil
}

// newRecord validates p and sets up the match's first record with the room
// options opts and a fresh seed.
func (m *Manager) newRecord(g games.Game, id string, p CreateParams, opts Options) (*Record, error) {
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
	opts.Seed = randomSeed()
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
		Unlisted: p.Unlisted, CreatedAt: now, UpdatedAt: now, Version: 1, StateID: 1,
		Seats: make([]Seat, p.NumPlayers), State: state, Options: opts, MovesChunk: MovesPerChunk,
	}
	for id, level := range p.Bots {
		seat, ok := games.ParseSeat(id, p.NumPlayers)
		if !ok {
			return nil, newError(protocol.CodeBadRequest, "bots: no seat %q in a %d-player match", id, p.NumPlayers)
		}
		if level == OwnLevel {
			s, err := m.ownSeat(info, p)
			if err != nil {
				return nil, err
			}
			rec.Seats[seat] = s
			continue
		}
		if !m.hasBot(info, level) {
			return nil, newError(protocol.CodeBadRequest, "bots: %s has no bot level %q (levels: %s)", info.Name, level, strings.Join(m.BotLevels(info), ", "))
		}
		rec.Seats[seat] = Seat{Name: botName(level), Bot: level}
	}
	startClocks(rec, now) // a table of bots starts at once
	return rec, nil
}

// hasBot says whether level is a bot level of the game: a built-in one or
// an Engine level configured for it.
func (m *Manager) hasBot(info games.Info, level string) bool {
	return slices.Contains(info.Bots, level) || m.player(info.Name, level) != nil
}

func botName(level string) string { return "Bot (" + level + ")" }

// defaultBot is the level that takes over a seat a person left or is away
// from: the built-in default, or for a game without built-in levels the
// first Engine level configured for it.
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
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return protocol.Match{}, err
	}
	m.hideDeadHolders(ctx, rec) // liveness.go
	out := rec.match()
	out.ToMove = toMove(rec, g)
	return out, nil
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
	m.hideDeadHolders(ctx, recs...) // liveness.go
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
		prev := rec.Version
		if err := fn(rec, g); err != nil {
			return nil, err
		}
		startClocks(rec, m.now()) // the last seat taken starts them
		rec.Version = prev + 1
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

// validName cleans a player name (cleanName) and checks it: field names
// it in errors. An empty or blank name is forbidden (boardgame.io answers a
// join without playerName so); one with nothing visible, or longer than
// maxName characters, is a bad request.
func validName(field, name string) (string, error) {
	if strings.TrimSpace(name) == "" {
		return "", newError(protocol.CodeForbidden, "%s is required", field)
	}
	name = cleanName(name)
	if !hasVisible(name) {
		return "", newError(protocol.CodeBadRequest, "%s has no visible characters", field)
	}
	if utf8.RuneCountInString(name) > maxName {
		return "", newError(protocol.CodeBadRequest, "%s is longer than %d characters", field, maxName)
	}
	return name, nil
}

// cleanName drops the characters that show nothing or steer the display
// (controls such as NUL, format characters such as zero-width spaces,
// direction marks and overrides, and other default-ignorable ones such as
// the Hangul filler), except a zero-width joiner between two visible
// characters (emoji sequences). Every kind of space becomes one plain
// space, and spaces at the ends go.
func cleanName(name string) string {
	rs := []rune(name)
	var b strings.Builder
	space := false
	for i, r := range rs {
		switch {
		case unicode.IsSpace(r):
			space = true
		case invisible(r) && !(r == zeroWidthJoiner && joins(rs, i)):
		default:
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		}
	}
	return b.String()
}

const zeroWidthJoiner = '\u200d'

// invisible reports whether r is a control, format or other
// default-ignorable character.
func invisible(r rune) bool {
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point)
}

// joins reports whether rs[i] stands between two visible characters.
func joins(rs []rune, i int) bool {
	return i > 0 && i+1 < len(rs) && !invisible(rs[i-1]) && !invisible(rs[i+1]) &&
		!unicode.IsSpace(rs[i-1]) && !unicode.IsSpace(rs[i+1])
}

// hasVisible reports whether name has a letter, digit, punctuation or
// symbol: marks alone (combining accents, variation selectors) show
// nothing to tell a player by.
func hasVisible(name string) bool {
	return strings.IndexFunc(name, func(r rune) bool {
		return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
	}) >= 0
}
