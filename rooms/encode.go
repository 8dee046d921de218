package rooms

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// This file writes JSON by hand, or splices bytes already encoded, where
// json.Marshal shows in the profile of a move. Every writer here produces
// the bytes json.Marshal would (tests compare them over random input), but
// EncodeRecord keeps a state that is not in json.Marshal's form as it is.

// appendString appends s as json.Marshal encodes a string. Strings of
// printable ASCII that need no escape (player IDs, most phase and stage
// names) are copied; any other goes through json.Marshal, which escapes
// quotes, control characters, <, >, &, U+2028, U+2029 and invalid UTF-8.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			return append(b, mustMarshal(s)...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendLogEntry appends e's JSON as json.Marshal writes it. Args are
// copied when they are in the form json.Marshal would write them (no
// space, nothing it escapes: the canonical args a game gives); anything
// else, and an entry with a fallback, goes through json.Marshal.
func appendLogEntry(b []byte, e *protocol.LogEntry) []byte {
	if e.Fallback != nil || !plainJSON(e.Args) {
		return append(b, mustMarshal(e)...)
	}
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(e.Turn), 10)
	b = append(b, `,"playerID":`...)
	b = appendString(b, e.PlayerID)
	b = append(b, `,"move":`...)
	b = appendString(b, e.Move)
	if len(e.Args) > 0 {
		b = append(b, `,"args":`...)
		b = append(b, e.Args...)
	}
	if e.Text != "" {
		b = append(b, `,"text":`...)
		b = appendString(b, e.Text)
	}
	if e.BotReason != "" {
		b = append(b, `,"botReason":`...)
		b = appendString(b, e.BotReason)
	}
	return append(b, '}')
}

// appendMoveRecord appends mv's JSON as json.Marshal writes it, as
// appendLogEntry does a log entry's: a move with a fallback, or with args
// not in json.Marshal's form, goes through json.Marshal.
func appendMoveRecord(b []byte, mv *MoveRecord) []byte {
	if mv.Fallback != nil || !plainJSON(mv.Args) {
		return append(b, mustMarshal(mv)...)
	}
	b = append(b, `{"s":`...)
	b = strconv.AppendInt(b, int64(mv.Seat), 10)
	b = append(b, `,"m":`...)
	b = appendString(b, mv.Move)
	if len(mv.Args) > 0 {
		b = append(b, `,"a":`...)
		b = append(b, mv.Args...)
	}
	if mv.Timeout {
		b = append(b, `,"t":true`...)
	}
	if mv.Reason != "" {
		b = append(b, `,"r":`...)
		b = appendString(b, mv.Reason)
	}
	return append(b, '}')
}

// plainJSON reports whether js, if valid JSON, is as json.Marshal writes
// a json.RawMessage: no whitespace and no byte it escapes (<, >, &, the
// first byte of U+2028 and U+2029, control characters), so it can be
// copied as it is. Invalid JSON is refused too.
func plainJSON(js []byte) bool {
	for _, c := range js {
		if c <= ' ' || c == '<' || c == '>' || c == '&' || c == 0xe2 || c == 0x7f {
			return false
		}
	}
	return len(js) == 0 || json.Valid(js)
}

// appendWireCtx appends the JSON of r.wireCtx(st), exactly as json.Marshal
// writes it, without building the Ctx: activePlayers' keys are sorted as
// strings, as encoding/json sorts map keys.
func (r *Record) appendWireCtx(b []byte, st games.Status) []byte {
	b = append(b, `{"numPlayers":`...)
	b = strconv.AppendInt(b, int64(r.NumPlayers), 10)
	b = append(b, `,"playOrder":[`...)
	for i := range r.NumPlayers {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, games.PlayerID(i))
	}
	b = append(b, `],"currentPlayer":`...)
	if st.Current >= 0 {
		b = appendString(b, games.PlayerID(st.Current))
	} else {
		b = append(b, `""`...)
	}
	b = append(b, `,"activePlayers":`...)
	if st.Active == nil {
		b = append(b, `null`...)
	} else {
		var buf [8]int
		seats := buf[:0]
		for seat := range st.Active {
			seats = append(seats, seat)
		}
		slices.SortFunc(seats, func(x, y int) int {
			return strings.Compare(games.PlayerID(x), games.PlayerID(y))
		})
		b = append(b, '{')
		for i, seat := range seats {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, games.PlayerID(seat))
			b = append(b, ':')
			b = appendString(b, st.Active[seat])
		}
		b = append(b, '}')
	}
	b = append(b, `,"phase":`...)
	b = appendString(b, st.Phase)
	b = append(b, `,"turn":`...)
	b = strconv.AppendInt(b, int64(st.Turn), 10)
	b = append(b, `,"started":`...)
	b = strconv.AppendBool(b, r.started())
	b = append(b, `,"gameover":`...)
	if r.Gameover == nil {
		b = append(b, `null`...)
	} else {
		// Set only once the game is over; json.Marshal compacts and
		// escapes it as it does inside the Ctx.
		b = append(b, mustMarshal(r.Gameover)...)
	}
	return append(b, '}')
}

// recordHead and recordTail are Record's fields before State and after
// Moves, with the same JSON names, for EncodeRecord; TestRecordMirrors keeps
// them in step with Record.
type recordHead struct {
	ID         string          `json:"id"`
	Game       string          `json:"game"`
	NumPlayers int             `json:"numPlayers"`
	SetupData  json.RawMessage `json:"setupData,omitempty"`
	Unlisted   bool            `json:"unlisted"`
	CreatedAt  int64           `json:"createdAt"`
	UpdatedAt  int64           `json:"updatedAt"`
	Version    int64           `json:"stateID"`
	StateID    int64           `json:"seq"`
	Seats      []Seat          `json:"seats"`
}

type recordTail struct {
	SealedChunks int             `json:"sealedChunks,omitempty"`
	SealedMoves  int64           `json:"sealedMoves,omitempty"`
	MovesChunk   int             `json:"movesChunk,omitempty"`
	Gameover     json.RawMessage `json:"gameover,omitempty"`
	NextMatchID  string          `json:"nextMatchID,omitempty"`
	Clocks       *Clocks         `json:"clocks,omitempty"`
	Options      Options         `json:"options"`
}

// recordPieces are what the room knows of a record it writes: its log's
// encoding, made for the state messages anyway, and that its State is
// valid JSON. They apply only to the record that holds the very slices
// they were made for (encodeRecord checks), so pieces made for another
// record, or for a copy whose Log or State was replaced, are not used.
type recordPieces struct {
	log   []byte              // the JSON of logOf, as json.Marshal writes it
	logOf []protocol.LogEntry // the Log that log encodes
	state json.RawMessage     // a State known to be valid JSON
	// moves is the JSON of movesOf, as json.Marshal writes it; nil when
	// the room did not encode them (then the record is marshalled).
	moves   []byte
	movesOf []MoveRecord
	// cache keeps the encodings of the record's head and tail between
	// writes; nil encodes them anew.
	cache *recordCache
	// buf, when long enough, is where the record is written: the memory
	// of a record the store no longer holds (QuietUpdater).
	buf []byte
}

// recordCache keeps what encodeRecord writes around a record's state, log
// and moves between the room's writes: a move changes updatedAt, stateID
// and seq of the head and, but on a clocked match, nothing of the tail, so
// the rest is encoded with json.Marshal only when it differs from what it
// was encoded from (compared by value, the seats and clocks copied: a
// later record may hold the same slices changed in place).
type recordCache struct {
	// The head before updatedAt: id, game, numPlayers, setupData,
	// unlisted, createdAt, without the closing brace.
	pre                 []byte
	id, game, setupData string
	numPlayers          int
	unlisted            bool
	createdAt           int64

	seats   []Seat // a deep copy of the seats seatsJS encodes
	seatsJS []byte

	tailOf recordTail // a deep copy of the tail tailJS encodes
	tailJS []byte
}

// head returns the JSON of rec's recordHead without its closing brace.
func (c *recordCache) head(rec *Record) ([]byte, error) {
	if c.pre == nil || c.id != rec.ID || c.game != rec.Game || c.numPlayers != rec.NumPlayers ||
		c.setupData != string(rec.SetupData) || c.unlisted != rec.Unlisted || c.createdAt != rec.CreatedAt {
		pre, err := json.Marshal(recordHead{
			ID: rec.ID, Game: rec.Game, NumPlayers: rec.NumPlayers, SetupData: rec.SetupData,
			Unlisted: rec.Unlisted, CreatedAt: rec.CreatedAt,
		})
		if err != nil {
			return nil, err
		}
		// Up to createdAt's value: updatedAt is the next member.
		i := bytes.LastIndex(pre, []byte(`,"updatedAt":`))
		c.pre = pre[:i]
		c.id, c.game, c.numPlayers, c.setupData = rec.ID, rec.Game, rec.NumPlayers, string(rec.SetupData)
		c.unlisted, c.createdAt = rec.Unlisted, rec.CreatedAt
	}
	if c.seatsJS == nil || !sameSeats(c.seats, rec.Seats) {
		js, err := json.Marshal(rec.Seats)
		if err != nil {
			return nil, err
		}
		c.seats, c.seatsJS = copySeats(rec.Seats), js
	}
	b := make([]byte, 0, len(c.pre)+len(c.seatsJS)+80)
	b = append(b, c.pre...)
	b = append(b, `,"updatedAt":`...)
	b = strconv.AppendInt(b, rec.UpdatedAt, 10)
	b = append(b, `,"stateID":`...)
	b = strconv.AppendInt(b, rec.Version, 10)
	b = append(b, `,"seq":`...)
	b = strconv.AppendInt(b, rec.StateID, 10)
	b = append(b, `,"seats":`...)
	return append(b, c.seatsJS...), nil
}

// tail returns the JSON of rec's recordTail.
func (c *recordCache) tail(rec *Record) ([]byte, error) {
	t := recordTail{SealedChunks: rec.SealedChunks, SealedMoves: rec.SealedMoves, MovesChunk: rec.MovesChunk,
		Gameover: rec.Gameover, NextMatchID: rec.NextMatchID, Clocks: rec.Clocks, Options: rec.Options}
	if c.tailJS != nil && sameTail(&c.tailOf, &t) {
		return c.tailJS, nil
	}
	js, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	c.tailOf, c.tailJS = copyTail(t), js
	return js, nil
}

// sameSeats reports whether a and b hold equal seats, so that they encode
// equally. TestRecordCacheEveryField fails when Seat gains a field this
// does not compare.
func sameSeats(a, b []Seat) bool {
	if len(a) != len(b) || (a == nil) != (b == nil) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Name != y.Name || x.CredHash != y.CredHash || x.Bot != y.Bot || !bytes.Equal(x.Data, y.Data) ||
			(x.Data == nil) != (y.Data == nil) || x.Left != y.Left || x.Autoplay != y.Autoplay ||
			x.Processes != y.Processes || !slices.Equal(x.Holders, y.Holders) || x.AwaySince != y.AwaySince ||
			x.OwnHolder != y.OwnHolder {
			return false
		}
	}
	return true
}

// copySeats returns a deep copy of seats.
func copySeats(seats []Seat) []Seat {
	if seats == nil {
		return nil
	}
	out := slices.Clone(seats)
	for i := range out {
		out[i].Data = bytes.Clone(out[i].Data)
		out[i].Holders = slices.Clone(out[i].Holders)
	}
	return out
}

// sameTail reports whether a and b encode equally.
// TestRecordCacheEveryField fails when recordTail, Clocks or Options gain
// a field this does not compare.
func sameTail(a, b *recordTail) bool {
	if a.SealedChunks != b.SealedChunks || a.SealedMoves != b.SealedMoves || a.MovesChunk != b.MovesChunk ||
		!bytes.Equal(a.Gameover, b.Gameover) || (a.Gameover == nil) != (b.Gameover == nil) ||
		a.NextMatchID != b.NextMatchID || (a.Clocks == nil) != (b.Clocks == nil) ||
		a.Options.GraceMs != b.Options.GraceMs || a.Options.BotDelayMs != b.Options.BotDelayMs ||
		a.Options.Seed != b.Options.Seed || (a.Options.Clock == nil) != (b.Options.Clock == nil) {
		return false
	}
	if a.Options.Clock != nil && *a.Options.Clock != *b.Options.Clock {
		return false
	}
	if a.Clocks != nil {
		x, y := a.Clocks, b.Clocks
		if x.Since != y.Since || !slices.Equal(x.Left, y.Left) || (x.Left == nil) != (y.Left == nil) ||
			!slices.Equal(x.Timeouts, y.Timeouts) || (x.Timeouts == nil) != (y.Timeouts == nil) {
			return false
		}
	}
	return true
}

// copyTail returns a deep copy of t.
func copyTail(t recordTail) recordTail {
	t.Gameover = bytes.Clone(t.Gameover)
	if t.Clocks != nil {
		c := *t.Clocks
		c.Left, c.Timeouts = slices.Clone(c.Left), slices.Clone(c.Timeouts)
		t.Clocks = &c
	}
	if t.Options.Clock != nil {
		o := *t.Options.Clock
		t.Options.Clock = &o
	}
	return t
}

// sameSlice reports whether a and b are the same elements of the same array.
func sameSlice[E any](a, b []E) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// EncodeRecord returns rec's JSON as the stores keep it: json.Marshal(rec).
// The room encodes its own writes faster (encodeRecord) and hands the
// bytes to the store (EncodedUpdater).
func EncodeRecord(rec *Record) ([]byte, error) { return json.Marshal(rec) }

// encodeRecord returns rec's JSON using the room's pieces p: rec.State is
// copied as it is, where json.Marshal would check and compact it byte by
// byte, and the log's and moves' encodings are the ones the room made
// already. The bytes are json.Marshal's as long as the state is in the
// form json.Marshal writes, as a game's state always is; in any case they
// decode to a record equal to rec. Pieces that are nil or do not belong to
// rec leave it to json.Marshal.
func encodeRecord(rec *Record, p *recordPieces) ([]byte, error) {
	if p == nil || len(rec.State) == 0 || !sameSlice(p.state, rec.State) || !sameSlice(p.logOf, rec.Log) ||
		(len(rec.Moves) > 0 && (p.moves == nil || !sameSlice(p.movesOf, rec.Moves))) {
		return json.Marshal(rec)
	}
	var rc recordCache
	if p.cache != nil {
		rc = *p.cache
	}
	head, err := rc.head(rec)
	if err != nil {
		return nil, err
	}
	tail, err := rc.tail(rec)
	if err != nil {
		return nil, err
	}
	if p.cache != nil {
		*p.cache = rc
	}
	// One array the record fits in, sized before it is written: it is
	// tens of KB deep in a match (the state, the moves), and growing it as
	// it is written cost a copy and a clear of all of it on every move.
	// The record's exact length, but in the memory of the last record
	// when that is long enough, or with a quarter more when the memory is
	// to be reused (p.buf set).
	n := len(head) + len(`,"state":`) + len(rec.State) + len(`,"log":`) + len(p.log) + len(`,"moves":`) + len(p.moves) + len(tail)
	b := p.buf[:0]
	if cap(b) < n {
		size := n
		if p.buf != nil {
			// This memory is to be reused: room for the next records,
			// which grow by a move each.
			size += n / 4
		}
		b = make([]byte, 0, size)
	}
	b = append(b, head...) // without its closing brace
	b = append(b, `,"state":`...)
	b = append(b, rec.State...)
	if len(rec.Log) > 0 { // omitempty
		b = append(b, `,"log":`...)
		b = append(b, p.log...)
	}
	if len(rec.Moves) > 0 { // omitempty
		b = append(b, `,"moves":`...)
		b = append(b, p.moves...)
	}
	b = append(b, ',') // the tail's opening brace goes: it always holds options
	return append(b, tail[1:]...), nil
}

// movesCache keeps the encoded move list between writes: a move appends
// one entry, every other write keeps the list, so only new entries are
// encoded, appended in place to the array kept. A list is a window of one
// match's moves from its base (the moves sealed in chunks before it), so
// two lists of the same match with the same base and the same entry at
// the end of the cached length extend each other; another base (a chunk
// sealed, another record taken) encodes anew.
type movesCache struct {
	base int64      // the index of the list's first entry in the match's moves
	n    int        // entries encoded
	last MoveRecord // the last of them, to tell that a list extends them
	js   []byte     // the JSON array of the n entries, without its ']'
}

// encode returns exactly what json.Marshal gives for moves (non-empty),
// the match's moves from index base on. The result is valid until the
// next call (which may write over its closing bracket): the room copies
// it into the record it encodes at once.
func (c *movesCache) encode(base int64, moves []MoveRecord) []byte {
	if c.js == nil || base != c.base || len(moves) < c.n || (c.n > 0 && !sameMove(moves[c.n-1], c.last)) {
		c.base, c.n, c.js = base, 0, append(c.js[:0], '[')
	}
	for i, mv := range moves[c.n:] {
		if c.n+i > 0 {
			c.js = append(c.js, ',')
		}
		c.js = appendMoveRecord(c.js, &mv)
	}
	c.n = len(moves)
	if len(moves) > 0 {
		c.last = moves[len(moves)-1]
	}
	return append(c.js, ']')
}

func sameMove(a, b MoveRecord) bool {
	return a.Seat == b.Seat && a.Move == b.Move && a.Timeout == b.Timeout && bytes.Equal(a.Args, b.Args) &&
		a.Reason == b.Reason && (a.Fallback == b.Fallback || a.Fallback != nil && b.Fallback != nil && *a.Fallback == *b.Fallback)
}
