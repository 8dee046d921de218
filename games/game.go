// Package games is the contract every Chaguan game implements: seats, the
// typed rules definition, its status (turn order, phases, stages), outcomes
// and the errors a move may return. It depends on the standard library only.
//
// A game is written as a Rules[S, V] value, where S is the authoritative
// state (it must round-trip through encoding/json, RNG included) and V is
// the view one seat or a spectator may see. Erase turns it into a Game that
// the rooms package drives without knowing S or V.
package games

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Spectator is the viewer index of someone who holds no seat.
const Spectator = -1

// Text is a human sentence in both of the client's languages.
type Text struct {
	En string `json:"en"`
	Zh string `json:"zh"`
}

// MoveSpec describes one named move for the catalog and the public log.
type MoveSpec struct {
	Name        string `json:"-"`
	Description Text   `json:"description"`
	Args        string `json:"args"` // shape of the JSON args, e.g. `[x, y]`
	// SecretArgs keeps the move's arguments out of the public log (a card
	// chosen face down, for instance). The move's name is still logged.
	SecretArgs bool `json:"secretArgs,omitempty"`
	// AnySeat moves (resign, requestUndo, ...) may be made by any seated
	// player whenever the game is not over, not only by those whose turn it
	// is; the game checks its own conditions.
	AnySeat bool `json:"anySeat,omitempty"`
}

// SetupOption describes one key of setupData for the catalog and lobby UI.
type SetupOption struct {
	Label   Text     `json:"label"`
	Type    string   `json:"type"` // "int", "float", "bool", "enum"
	Default any      `json:"default"`
	Choices []any    `json:"choices,omitempty"`
	Min     *float64 `json:"min,omitempty"`
	Max     *float64 `json:"max,omitempty"`
}

// Info is what the catalog says about a game.
type Info struct {
	Name         string                 `json:"name"`
	Title        Text                   `json:"title"`
	MinPlayers   int                    `json:"minPlayers"`
	MaxPlayers   int                    `json:"maxPlayers"`
	SetupOptions map[string]SetupOption `json:"setupOptions"`
	Moves        []MoveSpec             `json:"-"`
	Bots         []string               `json:"bots"` // levels, easiest first
	// PublicView says View does not depend on the viewer: every seat and
	// every spectator sees the same (a game with no hidden information).
	// The room then encodes one view per change instead of one per seat.
	// The conformance suite checks it.
	PublicView bool `json:"-"`
}

// Move looks up a move's spec by name.
func (i Info) Move(name string) (MoveSpec, bool) {
	for _, m := range i.Moves {
		if m.Name == name {
			return m, true
		}
	}
	return MoveSpec{}, false
}

// Outcome is how a match ended; it becomes ctx.gameover on the wire.
type Outcome struct {
	Winner string `json:"winner,omitempty"` // seat ID, "" for none
	Draw   bool   `json:"draw,omitempty"`
	Reason string `json:"reason,omitempty"` // "five", "resign", "score", ...
	// Detail carries game-specific public facts (scores, winning line).
	Detail any `json:"detail,omitempty"`
}

// Status says who may move now. It is derived from the state, never stored
// beside it, so it cannot disagree with it.
type Status struct {
	Phase string
	Turn  int // 1-based counter of turns (or rounds) so far
	// Current is the seat whose turn it is, or -1 when only Active applies.
	Current int
	// Active, when non-nil, lists every seat that may move now and the stage
	// it is in (simultaneous moves, consent flows). When nil, only Current
	// may move.
	Active map[int]string
	// Outcome is non-nil once the match is over.
	Outcome *Outcome
}

// CanMove reports whether seat may make a move in this status.
func (s Status) CanMove(seat int) bool {
	if s.Outcome != nil || seat < 0 {
		return false
	}
	if s.Active != nil {
		_, ok := s.Active[seat]
		return ok
	}
	return s.Current == seat
}

// Movers lists the seats that may move now, in seat order.
func (s Status) Movers(numSeats int) []int {
	var out []int
	for i := 0; i < numSeats; i++ {
		if s.CanMove(i) {
			out = append(out, i)
		}
	}
	return out
}

// Errors a game or the framework returns. Games wrap ErrInvalidMove with
// their own reason: fmt.Errorf("%w: must follow suit", games.ErrInvalidMove)
// or use Invalid.
var (
	ErrInvalidMove = errors.New("invalid move")
	ErrUnknownMove = errors.New("unknown move")
	ErrNotYourTurn = errors.New("not your turn")
	ErrGameOver    = errors.New("game over")
	ErrBadSetup    = errors.New("bad setup")
	ErrNoBot       = errors.New("no such bot level")
)

// MoveError is an invalid move with a reason a person understands, in both
// languages. Its Error() is the English reason.
type MoveError struct {
	Reason Text
}

func (e *MoveError) Error() string { return e.Reason.En }

// Unwrap makes errors.Is(err, ErrInvalidMove) true.
func (e *MoveError) Unwrap() error { return ErrInvalidMove }

// Invalid returns an invalid-move error with an English and Chinese reason.
func Invalid(en, zh string) error { return &MoveError{Reason: Text{En: en, Zh: zh}} }

// BadSetup returns an error wrapping ErrBadSetup.
func BadSetup(format string, a ...any) error {
	return fmt.Errorf("%w: %s", ErrBadSetup, fmt.Sprintf(format, a...))
}

// PlayerID is the wire form of a seat number.
func PlayerID(seat int) string { return strconv.Itoa(seat) }

// ParseSeat turns a wire player ID into a seat number in [0, numSeats).
func ParseSeat(id string, numSeats int) (int, bool) {
	n, err := strconv.Atoi(id)
	if err != nil || n < 0 || n >= numSeats || strconv.Itoa(n) != id {
		return 0, false
	}
	return n, true
}

// JSONAppender is a view that writes its own JSON, for speed: the room
// encodes a view on every change. AppendJSON appends exactly the bytes
// json.Marshal gives for the same value (gametest checks this on every view
// of its playouts), so implementing it changes nothing on the wire.
type JSONAppender interface {
	AppendJSON(b []byte) []byte
}

// StateAppender is a state that writes its own JSON, for speed: the
// record stores the state after every move. AppendJSON appends exactly
// the bytes json.Marshal gives for the same value, or returns the error
// json.Marshal would.
type StateAppender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// SeatEntries is implemented by rules whose seat views are the
// spectator's view but for one thing: the top-level "players" map holds
// the seat's own entry (Gong Zhu's hand and legal cards), where the
// spectator's holds none. The framework then builds and encodes the
// spectator's view once per state and writes each seat's view from it,
// with the seat's entry spliced in: one View for all viewers instead of
// one each. The spectator view's JSON must hold `"players":{}` as a
// top-level member, and before it no text that could read the same
// (gametest compares every seat's spliced view with json.Marshal of its
// View on every state of its playouts).
type SeatEntries[S any] interface {
	// AppendSeatEntry appends viewer's member of the players map, as
	// json.Marshal writes it ("1":{…}), or nothing when viewer's view has
	// no entry.
	AppendSeatEntry(b []byte, s S, viewer int) []byte
}

// PublicViewAppender is implemented by SeatEntries rules that write the
// spectators' view straight from the state, faster than View and its
// JSON (Gong Zhu reuses the bytes of what changes only at a round's end).
// AppendPublicView appends exactly the bytes json.Marshal gives for
// View(s, Spectator) (gametest compares them on every view of its
// playouts).
type PublicViewAppender[S any] interface {
	AppendPublicView(b []byte, s S) []byte
}

// ViewPatcher is implemented by rules that can tell what a change did to
// a view, faster than a diff of the two views' JSON (Gomoku: a stone is
// one row of the board and one entry of the move list). AppendViewOps
// appends to b, separated by commas and without brackets, RFC 6902
// operations whose paths start with prefix (the view's place in the
// message, "/G") and that turn the JSON of View(prev, viewer) into that
// of View(next, viewer) byte for byte: they replace members in place and
// add or remove array elements, never add an object member. prev may be
// any earlier state of the match, not only the one before next. ok is
// false when the rules cannot tell (the framework then diffs the JSON);
// b is then returned as it was. gametest applies the operations on every
// state of its playouts.
type ViewPatcher[S any] interface {
	AppendViewOps(b []byte, prev, next S, viewer int, prefix string) (_ []byte, ok bool)
}

// Rules is the typed definition of one game. All methods are pure: no I/O,
// no clock, no randomness except the RNG handed to Setup (which the game
// keeps inside S for later draws) and the rng handed to a bot.
//
// Apply must not mutate s: it returns a new state or an error, and on error
// s is untouched.
type Rules[S any, V any] interface {
	Info() Info
	// Setup deals the initial state for numSeats seats. setupData is the
	// create request's setupData (may be nil or "null"); an unusable value
	// returns an error wrapping ErrBadSetup.
	Setup(numSeats int, setupData json.RawMessage, rng *RNG) (S, error)
	Status(s S) Status
	// Apply plays move name with JSON args for seat. The framework has
	// already checked Status(s).CanMove(seat) and that the game is not over.
	Apply(s S, seat int, name string, args json.RawMessage) (S, error)
	// View is what viewer (a seat, or Spectator) may see. It is built
	// positively: only fields the viewer may know, every one of them
	// written by JSON (no unexported or `json:"-"` field). It shares no
	// memory with s: its slices, maps and pointers are fresh, so changing
	// a view cannot change the state (bots are handed it directly).
	View(s S, viewer int) V
	// Bot chooses a move for seat from that seat's view only: v is
	// View(s, seat) itself, not a JSON copy, and the bot may change it.
	// It must choose as it would from v after a JSON round trip (the
	// conformance suite checks it). rng is for tie-breaks; it is not the
	// game's RNG.
	Bot(level string, v V, seat int, rng *rand.Rand) (name string, args json.RawMessage, err error)
}

// Args marshals bot or test move arguments; it panics only on values that
// cannot be JSON (a programming error).
func Args(a ...any) json.RawMessage {
	if a == nil {
		a = []any{}
	}
	b, err := json.Marshal(a)
	if err != nil {
		panic(err)
	}
	return b
}

// TakeBack is where a two-player move list of n moves (seat 0 first, the
// seats alternating) is cut back to when seat takes back its last move,
// and the opponent's reply after it if there is one; -1 when seat has made
// no move. Gomoku and weiqi undo by it.
func TakeBack(n, seat int) int {
	switch {
	case n >= 1 && (n-1)%2 == seat:
		return n - 1
	case n >= 2:
		return n - 2
	}
	return -1
}
