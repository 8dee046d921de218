package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chaguan/chaguan/protocol"
)

// Store errors. Adapters translate their own (redis.Nil, …) into these.
var (
	ErrNotFound    = errors.New("match not found")
	ErrExists      = errors.New("match already exists")
	ErrConflict    = errors.New("state changed concurrently")
	ErrUnavailable = errors.New("storage unavailable")
)

// Record is everything stored about one match. It is server-side only:
// credentials are stored as hashes, and the seed and game state hold secrets,
// so a Record is never sent to a client as it is.
type Record struct {
	ID         string          `json:"id"`
	Game       string          `json:"game"`
	NumPlayers int             `json:"numPlayers"`
	SetupData  json.RawMessage `json:"setupData,omitempty"`
	Unlisted   bool            `json:"unlisted"`
	CreatedAt  int64           `json:"createdAt"` // Unix ms
	UpdatedAt  int64           `json:"updatedAt"` // Unix ms
	// Version counts every change (moves, joins, renames, bots, presence):
	// the version that compare-and-set checks. It starts at 1.
	Version int64 `json:"stateID"`
	// StateID counts changes of the game state (accepted moves) and starts at
	// 1: it is the stateID of the wire protocol, so a seat connecting or a
	// rename never makes a client's move stale.
	StateID int64               `json:"seq"`
	Seats   []Seat              `json:"seats"`
	State   json.RawMessage     `json:"state"`         // games.State, JSON
	Log     []protocol.LogEntry `json:"log,omitempty"` // newest last, capped
	// Moves are the accepted moves in order, secret arguments included,
	// so that the seed and the moves replay the match (Manager.Replay).
	// Server-side only, as the state is. With a store that keeps moves in
	// chunks (MoveChunks), the oldest moves are sealed in chunks of
	// MovesChunk moves, stored apart from the record, and Moves is only the
	// tail after them: every move then rewrites at most a chunk's worth of
	// moves, not all of them. Moves[i] made StateID SealedMoves+i+2. A record
	// whose moves do not add up to StateID-1 (written before moves were kept,
	// or past maxMoves) cannot be replayed. Records written before chunks
	// existed hold every move here, with no chunk; they replay as they are
	// and are sealed a chunk per move from their next move on.
	Moves []MoveRecord `json:"moves,omitempty"`
	// SealedChunks is how many chunks of moves are sealed: chunk k is
	// stored with MoveChunks.PutMoves(ID, k, …) before the first record
	// that leaves its moves out of Moves.
	SealedChunks int `json:"sealedChunks,omitempty"`
	// SealedMoves is how many moves those chunks hold.
	SealedMoves int64 `json:"sealedMoves,omitempty"`
	// MovesChunk is how many moves each of the record's chunks holds:
	// MovesPerChunk for a match created since it existed, 0 (read as
	// LegacyMovesPerChunk, 1,024) for one created before.
	MovesChunk int `json:"movesChunk,omitempty"`
	// Gameover is the outcome once the game ended (JSON of games.Outcome).
	Gameover    json.RawMessage `json:"gameover,omitempty"`
	NextMatchID string          `json:"nextMatchID,omitempty"`
	// Clocks are the running turn clocks of a match created with one.
	Clocks  *Clocks `json:"clocks,omitempty"`
	Options Options `json:"options"`
}

// MoveRecord is one accepted move: the seat, the move's name and its
// arguments as they came (absent when there were none). The names are
// short: a long match stores many.
type MoveRecord struct {
	Seat int             `json:"s"`
	Move string          `json:"m"`
	Args json.RawMessage `json:"a,omitempty"`
	// Timeout marks a move the bot made because the seat's clock ran out.
	Timeout bool `json:"t,omitempty"`
	// Reason and Fallback are a bot's move's log marks (the Engine's own
	// one-line reason, or the built-in level that played for it and why),
	// kept so that the replay tells the move as the live log did.
	Reason   string                `json:"r,omitempty"`
	Fallback *protocol.LogFallback `json:"f,omitempty"`
}

// Seat is one seat of a match.
type Seat struct {
	Name string `json:"name,omitempty"`
	// CredHash is the hex SHA-256 of the seat's credentials; "" while free
	// or held by a bot.
	CredHash string          `json:"credHash,omitempty"`
	Bot      string          `json:"bot,omitempty"` // bot level when a bot holds the seat
	Data     json.RawMessage `json:"data,omitempty"`
	// Left is set when a person left after the start: a bot plays the seat.
	Left bool `json:"left,omitempty"`
	// Autoplay is set while the seated person asked the bot to play for them.
	Autoplay bool `json:"autoplay,omitempty"`
	// Processes is the number of processes holding a live connection for
	// the seat, as they last wrote it.
	Processes int `json:"connected,omitempty"`
	// Holders are those processes' IDs (rooms.Liveness), one entry each,
	// so that the others can tell when one of them died. Records written
	// without Liveness, or before it existed, have fewer entries than
	// Processes.
	Holders []string `json:"holders,omitempty"`
	// AwaySince is when the seat's last connection closed (Unix ms), 0 while
	// connected or never connected.
	AwaySince int64 `json:"awaySince,omitempty"`
	// OwnHolder is, for a seat at OwnLevel, the ID of the process holding
	// its endpoint's key in memory (ownllm.go); the key is never stored.
	OwnHolder string `json:"ownHolder,omitempty"`
}

// Taken reports whether a person or a bot holds the seat.
func (s Seat) Taken() bool { return s.CredHash != "" || s.Bot != "" }

// Options are a match's room settings, fixed at creation.
type Options struct {
	GraceMs    int64  `json:"graceMs"`    // away time before the bot covers a turn
	BotDelayMs int64  `json:"botDelayMs"` // pause before a bot moves
	Seed       uint64 `json:"seed"`       // the game's PRNG seed: secret
	// Clock is the turn clock, nil for none.
	Clock *ClockOptions `json:"clock,omitempty"`
}

// Event is what a store publishes to a match's subscribers: news of a new
// record after every successful Update, or a chat line.
//
// A record event comes in one of three forms, told apart by Version and
// Load rather than by reading the fields directly:
//   - the record, decoded (Record);
//   - the record undecoded: Raw holds its JSON and Version its version, so
//     a subscriber that already has that version (a room hearing the echo
//     of its own write) skips the decode;
//   - a notice: Version alone, no record. A subscriber that needs the
//     record reads it with Get (which may give a later one). Stores shared
//     between processes send these, so a record does not travel to every
//     process, the writer's own included, on every change.
//
// A resync event (Resync set, nothing else) says the subscriber may have
// missed events: the store's connection to its backend was lost and is
// back. The subscriber re-reads the record with Get.
type Event struct {
	Record *Record        `json:"record,omitempty"`
	Chat   *protocol.Chat `json:"chat,omitempty"`
	// Resync asks the subscriber to re-read the record (see above).
	Resync bool `json:"-"`
	// Version is the version of the record in Raw, or of the record a
	// notice announces.
	Version int64 `json:"-"`
	// Raw is the record's JSON, not yet decoded; empty in a notice.
	Raw json.RawMessage `json:"-"`
}

// RecordVersion is the Version of the event's record without decoding it, or 0
// for an event with no record (a chat).
func (e Event) RecordVersion() int64 {
	if e.Record != nil {
		return e.Record.Version
	}
	return e.Version
}

// Load returns the event's record, decoding Raw if needed; nil for a chat
// and for a notice (Version > 0 with no record: Get it from the store).
// Each call decodes anew, so every caller owns what it gets.
func (e Event) Load() (*Record, error) {
	if e.Record != nil || len(e.Raw) == 0 {
		return e.Record, nil
	}
	var rec Record
	if err := json.Unmarshal(e.Raw, &rec); err != nil {
		return nil, fmt.Errorf("rooms: decode event record: %w", err)
	}
	return &rec, nil
}

// Store keeps match records. Implementations are safe for concurrent use by
// many goroutines and by many processes sharing one backend.
type Store interface {
	// Create stores a new record; ErrExists if the ID is taken.
	Create(ctx context.Context, rec *Record) error
	// Get returns the record; ErrNotFound if there is none (or it expired).
	Get(ctx context.Context, id string) (*Record, error)
	// Update replaces the record only if the stored Version equals prev, and
	// publishes it to the match's subscribers (the record, or a notice of
	// its Version: see Event), all in one atomic step (one round trip for
	// Redis). ErrConflict if the stored Version differs, ErrNotFound if the
	// record is gone.
	Update(ctx context.Context, rec *Record, prev int64) error
	// List returns the records of one game (listed and unlisted; the caller
	// filters), in no particular order.
	List(ctx context.Context, game string) ([]*Record, error)
	// Publish sends an event that changes no record (chat) to subscribers.
	Publish(ctx context.Context, id string, ev Event) error
	// Subscribe delivers the match's events until cancel is called or ctx
	// ends. Delivery is best effort and in order; a slow subscriber may miss
	// events (it can re-read the record with Get). When a notice arrives,
	// Get already gives its record or a later one. A store whose delivery
	// can be cut (a lost connection) sends a resync event once it delivers
	// again, when Get gives every record it could not announce.
	Subscribe(ctx context.Context, id string) (events <-chan Event, cancel func(), err error)
	// Close releases the store's resources.
	Close() error
}

// EncodedUpdater is implemented by stores that take a record already
// encoded (both stores here do). The room writes its records through it:
// it holds most of a record's JSON already (the log it encoded for its
// state messages, the moves it encoded for the last write) and encodes
// the record faster than json.Marshal (EncodeRecord) would.
type EncodedUpdater interface {
	// UpdateEncoded is Update with rec's JSON in data: what
	// EncodeRecord(rec) gives, or JSON that decodes to a record equal to
	// rec. The store keeps data as it is and never modifies it.
	UpdateEncoded(ctx context.Context, rec *Record, data []byte, prev int64) error
}

// QuietUpdater is implemented by stores that can leave out the notice of
// a write that only the writer's own subscription would get (the Redis
// store). The room subscribes with SubscribeNamed and writes with
// UpdateQuiet: its own write's notice would only be read and skipped.
type QuietUpdater interface {
	// SubscribeNamed is Subscribe that also returns the subscription's
	// name, unique to it.
	SubscribeNamed(ctx context.Context, id string) (events <-chan Event, cancel func(), name string, err error)
	// UpdateQuiet is UpdateEncoded whose notice may be left out when
	// subscription name (the writer's) is the match's only one; any other
	// subscription gets it as from UpdateEncoded. Unlike UpdateEncoded it
	// keeps nothing of data once it returns nil: the room writes its next
	// record into the same memory.
	UpdateQuiet(ctx context.Context, rec *Record, data []byte, prev int64, name string) error
}

// VersionReader is implemented by stores that read a record's Version
// without the record (the Redis store: one HGET). Rooms use it to check,
// before they answer a connection or a sync, that their record is the
// stored one; with other stores they re-read the record.
type VersionReader interface {
	// Version returns the stored record's Version; ErrNotFound if there is
	// none.
	Version(ctx context.Context, id string) (int64, error)
}

// MoveChunks is implemented by stores that keep a match's moves in chunks
// apart from its record (both stores here do): Record.Moves then keeps
// only the moves not yet sealed in a chunk. A chunk holds committed moves
// only (the room seals chunk k once the committed record's tail holds
// a chunk of moves (Record.MovesChunk), and before it writes the record
// that drops them),
// so its content is settled and writing it twice (a compare-and-set
// conflict, another process) writes the same bytes. Chunks live and
// expire with the record.
type MoveChunks interface {
	// PutMoves stores chunk (0, 1, …) of match id's moves: data is the
	// JSON array of its MoveRecords. ErrNotFound if the match does not
	// exist (or expired).
	PutMoves(ctx context.Context, id string, chunk int, data []byte) error
	// GetMoves returns chunks from to to-1 of match id, in order, at most
	// MaxGetMoves of them; a chunk that is not stored (or a match that is
	// gone) is nil.
	GetMoves(ctx context.Context, id string, from, to int) ([][]byte, error)
}

// MaxGetMoves is the most chunks one MoveChunks.GetMoves returns.
const MaxGetMoves = 1024

// DefaultTTL is how long a match is kept after its last change.
const DefaultTTL = 24 * time.Hour
