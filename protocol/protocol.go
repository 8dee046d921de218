// Package protocol holds Chaguan's wire types: the lobby API bodies and the
// WebSocket messages of docs/protocol.md, and the error codes, in one
// place. It depends on the standard library only.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
)

// MaxFrame is the largest WebSocket text frame either side may send.
const MaxFrame = 64 << 10

// MaxChat is the longest chat text, in characters (runes).
const MaxChat = 500

// Error codes, on the wire in {"type":"error","code":…} and in lobby error
// bodies {"error":…}.
const (
	CodeBadRequest   = "bad_request"
	CodeUnauthorized = "unauthorized"
	CodeNotStarted   = "not_started"
	CodeNotYourTurn  = "not_your_turn"
	CodeInvalidMove  = "invalid_move"
	CodeUnknownMove  = "unknown_move"
	CodeStaleState   = "stale_state"
	CodeGameOver     = "game_over"
	CodeRateLimited  = "rate_limited"
	CodeUnavailable  = "unavailable"
	CodeInternal     = "internal"
	// Lobby-only codes.
	CodeNotFound  = "not_found"
	CodeForbidden = "forbidden"
	CodeConflict  = "conflict"
)

// Message types.
const (
	TypeHello    = "hello"
	TypeMove     = "move"
	TypeSync     = "sync"
	TypeChat     = "chat"
	TypeAutoplay = "autoplay"
	TypeState    = "state"
	TypePatch    = "patch"
	TypeError    = "error"
)

// ClientMessage is any message a client sends; Type says which fields apply.
type ClientMessage struct {
	Type        string          `json:"type"`
	PlayerID    *string         `json:"playerID,omitempty"`    // hello
	Credentials string          `json:"credentials,omitempty"` // hello
	Name        string          `json:"name,omitempty"`        // hello: a spectator's chat name (extension)
	Patches     bool            `json:"patches,omitempty"`     // hello: send patch messages after the first state (extension)
	ID          *int64          `json:"id,omitempty"`          // move
	Move        string          `json:"move,omitempty"`        // move
	Args        json.RawMessage `json:"args,omitempty"`        // move
	StateID     *int64          `json:"stateID,omitempty"`     // move
	Text        string          `json:"text,omitempty"`        // chat
	On          *bool           `json:"on,omitempty"`          // autoplay
}

// ErrBadMessage is wrapped by DecodeClient for every refused message.
var ErrBadMessage = errors.New("bad message")

// DecodeClient parses and validates one client frame.
func DecodeClient(data []byte) (ClientMessage, error) {
	var m ClientMessage
	if len(data) > MaxFrame {
		return m, fmt.Errorf("%w: frame over %d bytes", ErrBadMessage, MaxFrame)
	}
	var plain bool
	if m, plain = decodePlain(data); !plain {
		m = ClientMessage{}
		if err := json.Unmarshal(data, &m); err != nil {
			return m, fmt.Errorf("%w: not a JSON object: %v", ErrBadMessage, err)
		}
	}
	switch m.Type {
	case TypeHello, TypeSync:
	case TypeMove:
		if m.Move == "" {
			return m, fmt.Errorf("%w: move needs \"move\"", ErrBadMessage)
		}
		if len(m.Args) == 0 || string(m.Args) == "null" {
			m.Args = json.RawMessage("[]")
		}
		if m.Args[0] != '[' {
			return m, fmt.Errorf("%w: \"args\" must be an array", ErrBadMessage)
		}
	case TypeChat:
		if m.Text == "" {
			return m, fmt.Errorf("%w: chat needs \"text\"", ErrBadMessage)
		}
		if n := len([]rune(m.Text)); n > MaxChat {
			return m, fmt.Errorf("%w: chat text is %d characters, at most %d", ErrBadMessage, n, MaxChat)
		}
	case TypeAutoplay:
		if m.On == nil {
			return m, fmt.Errorf("%w: autoplay needs \"on\"", ErrBadMessage)
		}
	case "":
		return m, fmt.Errorf("%w: missing \"type\"", ErrBadMessage)
	default:
		return m, fmt.Errorf("%w: unknown type %q", ErrBadMessage, m.Type)
	}
	return m, nil
}

// Ctx is the wire ctx of a state message (boardgame.io's shape).
type Ctx struct {
	NumPlayers    int               `json:"numPlayers"`
	PlayOrder     []string          `json:"playOrder"`
	CurrentPlayer string            `json:"currentPlayer"`
	ActivePlayers map[string]string `json:"activePlayers"`
	Phase         string            `json:"phase"`
	Turn          int               `json:"turn"`
	Started       bool              `json:"started"`
	Gameover      json.RawMessage   `json:"gameover"` // null or an outcome
}

// Player is one seat as the lobby and state messages show it.
type Player struct {
	ID          int             `json:"id"`
	Name        string          `json:"name,omitempty"`
	IsConnected bool            `json:"isConnected"`
	IsBot       bool            `json:"isBot"`
	BotLevel    string          `json:"botLevel,omitempty"`
	Autoplay    bool            `json:"autoplay,omitempty"`
	Data        json.RawMessage `json:"data,omitempty"`
}

// LogEntry is one public log line.
type LogEntry struct {
	Turn     int             `json:"turn"`
	PlayerID string          `json:"playerID"`
	Move     string          `json:"move"`
	Args     json.RawMessage `json:"args,omitempty"`
	Text     string          `json:"text,omitempty"`
	// BotReason is the bot's own one-line reason for the move (an
	// extension): set when a bot level that gives one (an LLM) gave it,
	// at most MaxBotReason characters, no control characters.
	BotReason string `json:"botReason,omitempty"`
	// Fallback marks a move that a built-in level played because the
	// seat's bot level (an LLM, GNU Go) failed to (an extension).
	Fallback *LogFallback `json:"fallback,omitempty"`
}

// MaxBotReason is the longest LogEntry.BotReason, in characters (runes).
const MaxBotReason = 120

// LogFallback says which built-in level played a move for a bot level
// that failed, and why.
type LogFallback struct {
	// Level is the built-in level that played the move ("normal").
	Level string `json:"level"`
	// Reason is why the seat's own level did not: "timeout" (no answer
	// in time), "error" (no usable answer: an HTTP or network error, an
	// answer that names no listed option), "busy" (no capacity in time),
	// "panic" or "illegal" (the answer is not a legal move), or for the
	// level "llm-own" "key_gone" (the process holding the player's key
	// restarted, so nobody can ask their endpoint any more).
	Reason string `json:"reason"`
}

// Thinking is the seat whose bot is deciding its move (an extension):
// a bot level whose decisions take time (an LLM over HTTP, GNU Go),
// from Since until its move arrives. ServerTime is when the message was
// written, so a client counts the seconds from its arrival without
// relying on its own clock. Both are Unix ms.
type Thinking struct {
	PlayerID   string `json:"playerID"`
	Since      int64  `json:"since"`
	ServerTime int64  `json:"serverTime"`
}

// State is the server's state message: one receiver's filtered view.
type State struct {
	Type    string          `json:"type"`
	MatchID string          `json:"matchID"`
	StateID int64           `json:"stateID"`
	Ack     *int64          `json:"ack,omitempty"`
	G       json.RawMessage `json:"G"`
	Ctx     Ctx             `json:"ctx"`
	Players []Player        `json:"players"`
	Log     []LogEntry      `json:"log"`
	// You is the receiver's own player ID ("" for a spectator): an extension
	// so a client needs no bookkeeping of its own to know its seat.
	You string `json:"you"`
	// Clock is every seat's turn clock (an extension), in matches created
	// with one.
	Clock *ClockView `json:"clock,omitempty"`
	// Thinking is the seat whose bot is deciding now (an extension):
	// absent when none is, or when the bot answers at once.
	Thinking *Thinking `json:"thinking,omitempty"`
}

// Patch is the server's patch message (an extension, for a connection
// whose hello asked for patches): RFC 6902 operations that turn the view
// the receiver holds at stateID Base (the last state message's fields but
// type, stateID and ack, as patched since) into its view at StateID. A
// change that keeps the stateID (presence, names) has StateID == Base.
type Patch struct {
	Type    string    `json:"type"`
	StateID int64     `json:"stateID"`
	Base    int64     `json:"base"`
	Ack     *int64    `json:"ack,omitempty"`
	Ops     []PatchOp `json:"ops"`
}

// PatchOp is one RFC 6902 operation. The server writes add, remove and
// replace; ApplyPatch also takes move, copy and test.
type PatchOp struct {
	Op    string          `json:"op"`
	Path  string          `json:"path"`
	From  string          `json:"from,omitempty"`
	Value json.RawMessage `json:"value,omitempty"`
}

// Error is the server's error message.
type Error struct {
	Type    string `json:"type"`
	Code    string `json:"code"`
	Message string `json:"message"`
	// MessageZh is the Chinese message, when the game gave one (extension).
	MessageZh string `json:"messageZh,omitempty"`
	Ref       *int64 `json:"ref,omitempty"`
}

// Chat is a chat line as the server relays it.
type Chat struct {
	Type string `json:"type"`
	From string `json:"from"` // player ID, "" for a spectator
	Name string `json:"name"`
	Text string `json:"text"`
	At   int64  `json:"at"` // Unix ms
}
