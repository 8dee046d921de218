package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/chaguan/chaguan/rooms"
)

// Players' own endpoints (docs/llm.md, "Your own endpoint"): when the
// operator allows it (-llm-own), a create request may seat the bot level
// rooms.OwnLevel with an OpenAI-compatible endpoint the player chose, key
// included. Own keeps each match's Engine, key and all, in this process's
// memory only, and forgets it when the match ends or sits unchanged as
// long as the store keeps it; the record holds only the seat's label and
// this process's ID. Every request goes through the Guard (ssrf.go); at
// most one is in flight per match, and at most PerClient per address of
// the player who created the match.

// Bounds of an own endpoint's configuration, in characters.
const (
	MaxOwnName    = 40
	MaxOwnBaseURL = 300
	MaxOwnModel   = 100
	MaxOwnKey     = 400
	// MinOwnKey is the shortest key accepted (a key may also be empty, for
	// an endpoint that needs none): a key must be long enough to be told
	// apart in text, so that it can be replaced in every error.
	MinOwnKey = 8
)

// DefaultOwnPerClient bounds the requests in flight to own endpoints of
// the matches one client address created.
const DefaultOwnPerClient = 2

// MaxOwnMatchesPerClient bounds the matches whose keys one client address
// has this process hold at once: each keeps its room loaded until it ends.
const MaxOwnMatchesPerClient = 20

// ErrTooManyOwn: the client address has MaxOwnMatchesPerClient matches
// with its own endpoint going already.
var ErrTooManyOwn = fmt.Errorf("llm: your address has %d matches with your own LLM going on this server; finish some first", MaxOwnMatchesPerClient)

// DefaultOwnMaxTokens is the max_tokens of an own endpoint's requests.
const DefaultOwnMaxTokens = 1024

// OwnConfig is a player's endpoint as the create request carries it.
type OwnConfig struct {
	Name    string // the player's name for it; the seat's label
	BaseURL string
	Model   string
	Key     Key // may be empty
}

// Validate checks the configuration. Its errors name the field, never its
// value.
func (c OwnConfig) Validate() error {
	switch {
	case strings.TrimSpace(c.Name) == "" || c.BaseURL == "" || c.Model == "":
		return errors.New("llm: name, baseURL and model are required")
	case utf8.RuneCountInString(c.Name) > MaxOwnName:
		return fmt.Errorf("llm: name is longer than %d characters", MaxOwnName)
	case rooms.CleanReason(c.Name) == "":
		return errors.New("llm: name has no visible characters")
	case len(c.BaseURL) > MaxOwnBaseURL:
		return fmt.Errorf("llm: baseURL is longer than %d characters", MaxOwnBaseURL)
	case len(c.Model) > MaxOwnModel:
		return fmt.Errorf("llm: model is longer than %d characters", MaxOwnModel)
	case len(c.Key) > MaxOwnKey:
		return fmt.Errorf("llm: key is longer than %d characters", MaxOwnKey)
	case c.Key != "" && len(c.Key) < MinOwnKey:
		return fmt.Errorf("llm: key is shorter than %d characters (leave it empty for an endpoint that needs none)", MinOwnKey)
	}
	for _, r := range c.Key {
		if r < 0x21 || r > 0x7e {
			return errors.New("llm: key may hold only visible ASCII characters")
		}
	}
	for _, r := range c.Model {
		if r < 0x20 || r == 0x7f {
			return errors.New("llm: model may not hold control characters")
		}
	}
	u, err := url.Parse(c.BaseURL)
	switch {
	case err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "":
		return errors.New("llm: baseURL must be an http:// or https:// URL with a host")
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || strings.Contains(c.BaseURL, "#"):
		return errors.New("llm: baseURL may not carry credentials, a query or a fragment (the key goes in the key field)")
	}
	return nil
}

// Label is the seat's name: the configuration's name, cleaned of control
// and formatting characters.
func (c OwnConfig) Label() string { return rooms.CleanReason(c.Name) }

// OwnOptions configures Own.
type OwnOptions struct {
	Guard *Guard
	// Timeout bounds one decision (default DefaultTimeout).
	Timeout time.Duration
	// PerClient bounds the requests in flight for the matches one client
	// address created (default DefaultOwnPerClient).
	PerClient int
	// TTL is how long a match may sit unchanged before its key is
	// forgotten: the store's time to keep it (default rooms.DefaultTTL).
	TTL time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// Own holds the own endpoints of this process's matches. It implements
// rooms.OwnPlayers; safe for concurrent use.
type Own struct {
	opts    OwnOptions
	client  *http.Client
	mu      sync.Mutex
	matches map[string]*ownEntry // guarded by mu
	clients map[string]*clientUse
}

// clientUse is the request slots of one client address, shared by the
// matches it created; dropped when none uses them.
type clientUse struct {
	s     *slots
	users int
}

// ownEntry is one match's endpoint.
type ownEntry struct {
	p      *Engine
	host   string // the base URL's host, kept out of errors
	base   string
	client string // the creator's address (server/clientip.go's rule)
	seats  []int
}

var _ rooms.OwnEngines = (*Own)(nil)

// NewOwn returns an empty Own.
func NewOwn(opts OwnOptions) *Own {
	if opts.Guard == nil {
		opts.Guard = &Guard{}
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.PerClient <= 0 {
		opts.PerClient = DefaultOwnPerClient
	}
	if opts.TTL <= 0 {
		opts.TTL = rooms.DefaultTTL
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	return &Own{opts: opts, client: opts.Guard.Client(), matches: map[string]*ownEntry{}, clients: map[string]*clientUse{}}
}

// Plays implements rooms.OwnPlayers: Carcassonne only.
func (o *Own) Plays(game string) bool { return game == Game }

// newEntry makes the Engine of cfg (validated) for a match created from
// client.
func (o *Own) newEntry(cfg OwnConfig, client string) (*ownEntry, error) {
	if err := cfg.Validate(); err != nil {
		return nil, &ConfigError{err}
	}
	u, _ := url.Parse(cfg.BaseURL)
	ep := Endpoint{Name: "own", BaseURL: strings.TrimRight(cfg.BaseURL, "/"), Model: cfg.Model,
		Timeout: o.opts.Timeout, Max: 1, MaxTokens: DefaultOwnMaxTokens}
	p, err := New(ep, cfg.Key, o.client)
	if err != nil {
		return nil, &ConfigError{errors.New("llm: name, baseURL and model are required")}
	}
	return &ownEntry{p: p, host: u.Host, base: cfg.BaseURL, client: client}, nil
}

// Prepare checks cfg and readies its Engine for a match the client at
// address client creates; the binding holds it once the match is stored.
func (o *Own) Prepare(cfg OwnConfig, client string) (rooms.OwnBinding, error) {
	o.mu.Lock()
	n := 0
	for _, e := range o.matches {
		if e.client == client {
			n++
		}
	}
	o.mu.Unlock()
	if n >= MaxOwnMatchesPerClient {
		return nil, ErrTooManyOwn
	}
	e, err := o.newEntry(cfg, client)
	if err != nil {
		return nil, err
	}
	return ownBinding{o: o, e: e, label: cfg.Label()}, nil
}

type ownBinding struct {
	o     *Own
	e     *ownEntry
	label string
}

func (b ownBinding) Label() string { return b.label }

func (b ownBinding) Bind(matchID string, seats []int) {
	b.e.seats = seats
	b.o.mu.Lock()
	b.o.matches[matchID] = b.e
	b.o.mu.Unlock()
}

// Engine implements rooms.OwnPlayers.
func (o *Own) Player(matchID string, seat int) (rooms.EngineLevel, bool) {
	o.mu.Lock()
	e, ok := o.matches[matchID]
	o.mu.Unlock()
	if !ok || !containsInt(e.seats, seat) {
		return rooms.EngineLevel{}, false
	}
	return rooms.EngineLevel{Engine: ownPlayer{o: o, e: e}, Fallback: "normal", Timeout: o.opts.Timeout}, true
}

// Keep implements rooms.OwnPlayers.
func (o *Own) Keep(matchID string, updatedAt int64, over bool) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if _, ok := o.matches[matchID]; !ok {
		return false
	}
	if over || o.opts.Now().Sub(time.UnixMilli(updatedAt)) > o.opts.TTL {
		delete(o.matches, matchID)
		return false
	}
	return true
}

// Held is how many matches' keys this process holds.
func (o *Own) Held() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.matches)
}

// Try makes one real decision on the sample position with cfg, the way
// POST /llm/try checks a player's configuration: through the Guard and
// the client's request slots. Its error names neither the URL nor the
// key.
func (o *Own) Try(ctx context.Context, cfg OwnConfig, client string) (CheckResult, error) {
	e, err := o.newEntry(cfg, client)
	if err != nil {
		return CheckResult{}, err
	}
	release, err := o.acquire(ctx, client)
	if err != nil {
		return CheckResult{}, err
	}
	defer release()
	res, err := e.p.Check(ctx)
	if err != nil {
		err = e.hide(err)
	}
	return res, err
}

// acquire takes one of client's request slots (waiting, as the
// endpoint's own slots do, until shortly before ctx's deadline); the
// error wraps ErrBusy.
func (o *Own) acquire(ctx context.Context, client string) (func(), error) {
	o.mu.Lock()
	u := o.clients[client]
	if u == nil {
		u = &clientUse{s: newSlots(o.opts.PerClient)}
		o.clients[client] = u
	}
	u.users++
	o.mu.Unlock()
	done := func() {
		o.mu.Lock()
		if u.users--; u.users == 0 {
			delete(o.clients, client)
		}
		o.mu.Unlock()
	}
	if err := u.s.acquire(ctx); err != nil {
		done()
		return nil, fmt.Errorf("%w (the requests of your address)", err)
	}
	return func() { u.s.release(); done() }, nil
}

// ownPlayer is one match's endpoint as the room's Engine.
type ownPlayer struct {
	o *Own
	e *ownEntry
}

var _ rooms.ReasonEngine = ownPlayer{}

func (w ownPlayer) Move(ctx context.Context, req rooms.EngineRequest) (string, json.RawMessage, error) {
	mv, err := w.MoveReason(ctx, req)
	return mv.Name, mv.Args, err
}

func (w ownPlayer) MoveReason(ctx context.Context, req rooms.EngineRequest) (rooms.EngineMove, error) {
	release, err := w.o.acquire(ctx, w.e.client)
	if err != nil {
		return rooms.EngineMove{}, err
	}
	defer release()
	mv, err := w.e.p.MoveReason(ctx, req)
	if err != nil {
		return rooms.EngineMove{}, w.e.hide(err)
	}
	return mv, nil
}

// hide replaces the endpoint's URL and host in err's text (the key is
// already replaced by the Engine), so a log line shows neither; err stays
// what it wraps.
func (e *ownEntry) hide(err error) error {
	msg := err.Error()
	for _, s := range []string{e.base, strings.TrimRight(e.base, "/"), e.host} {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "[own endpoint]")
		}
	}
	msg = e.p.key.scrub(msg)
	return &hiddenError{msg: msg, err: err}
}

// ConfigError is a refused OwnConfig (Validate's error): its text names
// the field, never its value.
type ConfigError struct{ err error }

func (e *ConfigError) Error() string { return e.err.Error() }

type hiddenError struct {
	msg string
	err error
}

func (h *hiddenError) Error() string { return h.msg }
func (h *hiddenError) Unwrap() error { return h.err }

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}
