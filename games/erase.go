package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"sync"
)

// Game is a Rules value with its types erased, as the rooms package sees it.
type Game interface {
	Info() Info
	// Setup returns the initial state for numSeats seats, seeded by seed.
	Setup(numSeats int, setupData json.RawMessage, seed uint64) (State, error)
	// Load decodes a state written by State.MarshalJSON.
	Load(data []byte) (State, error)
	// CanonicalArgs parses the args of move name into the game's typed
	// values and returns their canonical JSON: compact, in the game's
	// normal spelling, byte for byte what the game's own bots send for the
	// same move (gomoku [7,7], weiqi ["D4"], Gong Zhu ["TC"]). Absent,
	// empty or null args count as []. Args over MaxArgsBytes, or that do
	// not parse exactly (wrong arity or JSON type, an unknown or missing
	// object field, a string with spaces, a fraction where a whole number
	// is meant, trailing data, a null value) are refused with an error
	// wrapping ErrInvalidMove; an unknown move name with one wrapping
	// ErrUnknownMove. It does not look at any state: State.Apply still
	// checks the position. State.Apply refuses what CanonicalArgs refuses
	// and plays the canonical args, so the canonical bytes are what a
	// record should keep. For rules that are not an ArgsParser it is
	// json.Compact of the args, with the same size bound.
	CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error)
}

// State is one immutable authoritative state of a match.
type State interface {
	Status() Status
	// Apply checks and plays a move; on error the receiver is unchanged.
	// It checks the game's own rules only; who may move and whether the game
	// is over are checked too, and the args are refused exactly when
	// Game.CanonicalArgs refuses them (the game plays their canonical
	// form), so every caller gets the same answers.
	Apply(seat int, name string, args json.RawMessage) (State, error)
	// View is viewer's filtered view (a seat or Spectator), ready for JSON.
	View(viewer int) any
	// AppendView appends the JSON of View(viewer) to b: json.Marshal's
	// bytes, written by the view itself when it is a JSONAppender. With
	// b nil the result may be bytes the state keeps (the spectators'
	// view of SeatEntries rules, encoded once): never write into it.
	AppendView(b []byte, viewer int) ([]byte, error)
	// Bot asks bot level to choose seat's move from the seat's view: the
	// value View(seat) builds, handed over without a JSON round trip. A
	// view shares no memory with the state and JSON writes all of it, so
	// the bot sees exactly what a person there gets (BotViaJSON is the
	// round trip, kept for the conformance suite to compare).
	Bot(level string, seat int, rng *rand.Rand) (name string, args json.RawMessage, err error)
	MarshalJSON() ([]byte, error)
	// AppendJSON appends MarshalJSON's bytes to b.
	AppendJSON(b []byte) ([]byte, error)
	// Export writes the game's public record in format (e.g. "sgf"), or
	// returns ErrNoExport when the game has no such format.
	Export(format string, meta RecordMeta) (Export, error)
}

// Erase wraps typed rules as a Game.
func Erase[S any, V any](r Rules[S, V]) Game { return erased[S, V]{r} }

type erased[S any, V any] struct{ r Rules[S, V] }

func (e erased[S, V]) Info() Info { return e.r.Info() }

func (e erased[S, V]) Setup(n int, setupData json.RawMessage, seed uint64) (State, error) {
	info := e.r.Info()
	if n < info.MinPlayers || n > info.MaxPlayers {
		return nil, BadSetup("%s takes %d to %d players, not %d", info.Name, info.MinPlayers, info.MaxPlayers, n)
	}
	s, err := e.r.Setup(n, setupData, NewRNG(seed))
	if err != nil {
		return nil, err
	}
	return newState(e.r, s), nil
}

func (e erased[S, V]) Load(data []byte) (State, error) {
	var s S
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("games: load %s state: %w", e.r.Info().Name, err)
	}
	return newState(e.r, s), nil
}

func (e erased[S, V]) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	if _, ok := e.r.Info().Move(name); !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownMove, name)
	}
	return canonicalArgs(e.r, name, args)
}

type state[S any, V any] struct {
	r Rules[S, V]
	s S
	// pub is the spectator's view, encoded once for every viewer when
	// the rules are SeatEntries (nil otherwise).
	pub *publicView
}

// publicView is a state's spectator view, encoded on first use.
type publicView struct {
	once sync.Once
	js   []byte
	at   int // just inside `"players":{`, or -1 when the JSON has no such member
	err  error
}

func newState[S any, V any](r Rules[S, V], s S) state[S, V] {
	x := state[S, V]{r: r, s: s}
	if _, ok := any(r).(SeatEntries[S]); ok {
		x.pub = new(publicView)
	}
	return x
}

// public returns the spectator view's JSON, encoded once per state.
func (x state[S, V]) public() *publicView {
	p := x.pub
	p.once.Do(func() {
		if a, ok := any(x.r).(PublicViewAppender[S]); ok {
			p.js = a.AppendPublicView(nil, x.s)
		} else {
			p.js, p.err = x.appendView(nil, Spectator)
		}
		p.at = -1
		if i := bytes.Index(p.js, []byte(`"players":{}`)); i >= 0 {
			p.at = i + len(`"players":{`)
		}
	})
	return p
}

// SeatEntry appends viewer's entry of the "players" object of its view
// (`"1":{…}`, or nothing when it has none) when st's views are the
// spectators' view with that entry spliced in (its rules are
// SeatEntries, and the spectators' view holds `"players":{}`): a seat's
// view then changes as the spectators' does, but for that entry, which
// the room's patches use. ok is false when st's views are not so made.
// For rules that write the spectators' view themselves
// (PublicViewAppender) that view is not encoded to check it: it holds
// "players":{} as the rules write it, which gametest checks.
func SeatEntry(st State, b []byte, viewer int) (_ []byte, ok bool) {
	e, ok := st.(interface {
		seatEntry(b []byte, viewer int) ([]byte, bool)
	})
	if !ok {
		return b, false
	}
	return e.seatEntry(b, viewer)
}

func (x state[S, V]) seatEntry(b []byte, viewer int) ([]byte, bool) {
	if x.pub == nil || viewer == Spectator {
		return b, false
	}
	// Rules that write the spectators' view themselves write its
	// "players":{} too (gametest checks it on every state), so the view
	// is not encoded here just to look: a room that sends only patches
	// whose operations the game tells never encodes it. Others are
	// checked.
	if _, ok := any(x.r).(PublicViewAppender[S]); !ok {
		if p := x.public(); p.err != nil || p.at < 0 {
			return b, false
		}
	}
	return any(x.r).(SeatEntries[S]).AppendSeatEntry(b, x.s, viewer), true
}

// ViewOps appends the operations that turn viewer's view of prev into
// its view of next when the rules are a ViewPatcher and both states are
// of the same game (ViewPatcher.AppendViewOps); ok is false otherwise.
func ViewOps(b []byte, prev, next State, viewer int, prefix string) (_ []byte, ok bool) {
	n, ok := next.(interface {
		viewOps(b []byte, prev State, viewer int, prefix string) ([]byte, bool)
	})
	if !ok {
		return b, false
	}
	return n.viewOps(b, prev, viewer, prefix)
}

func (x state[S, V]) viewOps(b []byte, prev State, viewer int, prefix string) ([]byte, bool) {
	vp, ok := any(x.r).(ViewPatcher[S])
	if !ok {
		return b, false
	}
	p, ok := prev.(state[S, V]) // the same types: the same game's
	if !ok {
		return b, false
	}
	if b == nil {
		b = make([]byte, 0, 256) // a move's few operations, without regrowing
	}
	return vp.AppendViewOps(b, p.s, x.s, viewer, prefix)
}

func (x state[S, V]) Status() Status { return x.r.Status(x.s) }

func (x state[S, V]) Apply(seat int, name string, args json.RawMessage) (State, error) {
	spec, ok := x.r.Info().Move(name)
	if !ok {
		return nil, fmt.Errorf("%w: %q", ErrUnknownMove, name)
	}
	st := x.r.Status(x.s)
	if st.Outcome != nil {
		return nil, ErrGameOver
	}
	if seat < 0 || (!spec.AnySeat && !st.CanMove(seat)) {
		return nil, ErrNotYourTurn
	}
	args, err := canonicalArgs(x.r, name, args)
	if err != nil {
		return nil, err
	}
	next, err := x.r.Apply(x.s, seat, name, args)
	if err != nil {
		return nil, err
	}
	return newState(x.r, next), nil
}

func (x state[S, V]) View(viewer int) any { return x.r.View(x.s, viewer) }

func (x state[S, V]) AppendView(b []byte, viewer int) ([]byte, error) {
	if x.pub == nil {
		return x.appendView(b, viewer)
	}
	p := x.public()
	if p.err != nil || p.at < 0 {
		return x.appendView(b, viewer)
	}
	if viewer == Spectator {
		if b == nil {
			return p.js[:len(p.js):len(p.js)], nil // an append to it copies
		}
		return append(b, p.js...), nil
	}
	b = append(b, p.js[:p.at]...)
	b = any(x.r).(SeatEntries[S]).AppendSeatEntry(b, x.s, viewer)
	return append(b, p.js[p.at:]...), nil
}

// appendView builds viewer's View and appends its JSON.
func (x state[S, V]) appendView(b []byte, viewer int) ([]byte, error) {
	v := x.r.View(x.s, viewer)
	if a, ok := any(v).(JSONAppender); ok {
		return a.AppendJSON(b), nil
	}
	j, err := json.Marshal(v)
	if err != nil {
		return b, err
	}
	return append(b, j...), nil
}

// Bot hands the bot the seat's view as View builds it: a fresh value that
// shares no memory with the state (the conformance suite checks it), so
// the bot may even change it. It holds what the view's JSON holds, no
// more: every field of a view type is written by JSON (checked too).
func (x state[S, V]) Bot(level string, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	return x.r.Bot(level, x.r.View(x.s, seat), seat, rng)
}

// BotViaJSON asks the bot the way State.Bot did before it was handed the
// view directly: from the seat's view after a JSON round trip, exactly the
// bytes a person there gets. It is slower (most of a cheap bot's time went
// on the round trip); the conformance suite (games/gametest) checks that it
// chooses what State.Bot chooses. st must come from Erase.
func BotViaJSON(st State, level string, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	j, ok := st.(interface {
		botViaJSON(level string, seat int, rng *rand.Rand) (string, json.RawMessage, error)
	})
	if !ok {
		return "", nil, fmt.Errorf("games: BotViaJSON: %T is not an erased state", st)
	}
	return j.botViaJSON(level, seat, rng)
}

func (x state[S, V]) botViaJSON(level string, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	b, err := json.Marshal(x.r.View(x.s, seat))
	if err != nil {
		return "", nil, fmt.Errorf("games: marshal view: %w", err)
	}
	var v V
	if err := json.Unmarshal(b, &v); err != nil {
		return "", nil, fmt.Errorf("games: unmarshal view: %w", err)
	}
	return x.r.Bot(level, v, seat, rng)
}

// MarshalJSON writes the state as json.Marshal does; a StateAppender
// writes itself (the same bytes, faster).
func (x state[S, V]) MarshalJSON() ([]byte, error) { return x.AppendJSON(nil) }

// AppendJSON appends MarshalJSON's bytes to b: a StateAppender writes
// them into b, which a caller sizes from the last state's (the record
// stores one after every move) so that they land without regrowing.
func (x state[S, V]) AppendJSON(b []byte) ([]byte, error) {
	if a, ok := any(x.s).(StateAppender); ok {
		return a.AppendJSON(b)
	}
	j, err := json.Marshal(x.s)
	if err != nil || b == nil {
		return j, err
	}
	return append(b, j...), nil
}

func (x state[S, V]) Export(format string, meta RecordMeta) (Export, error) {
	if e, ok := any(x.r).(Exporter[S]); ok {
		return e.Export(x.s, format, meta)
	}
	return Export{}, ErrNoExport
}

// Typed returns the typed state inside an erased State, for tests and tools
// in the game's own package.
func Typed[S any](st State) (S, bool) {
	type typed interface{ typedState() any }
	if t, ok := st.(typed); ok {
		s, ok := t.typedState().(S)
		return s, ok
	}
	var zero S
	return zero, false
}

func (x state[S, V]) typedState() any { return x.s }
