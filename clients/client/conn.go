package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
)

// Timing of one connection. pingPeriod < pongWait so a live server always
// answers a ping before the read deadline passes.
const (
	writeWait  = 10 * time.Second       // deadline of each write
	closeWait  = time.Second            // deadline of the close frame on Close
	pongWait   = 60 * time.Second       // read deadline, renewed by every frame and pong
	pingPeriod = pongWait * 9 / 10      // how often the writer pings
	helloWait  = 10 * time.Second       // Dial's longest wait for the first state
	readLimit  = 16 * protocol.MaxFrame // lenient: the contract caps frames at 64 KiB
	sendQueue  = 64                     // frames queued for the writer
	eventQueue = 32                     // errors and chats kept for a slow consumer
)

// Conn is one WebSocket connection to a match, as a seated player or a
// spectator. One goroutine reads it and one writes it (gorilla's rule); the
// exported methods are safe for concurrent use and never block the reader: a
// consumer that does not drain States, Errors or Chats loses old entries,
// never the newest state (Latest).
type Conn struct {
	ws       *websocket.Conn
	matchID  string
	playerID string

	out    chan []byte          // frames for the writer goroutine
	states chan *protocol.State // cap 1: the newest state not yet taken
	errs   chan *protocol.Error // errors no Move waits for; oldest dropped
	chats  chan *protocol.Chat  // oldest dropped
	nextID atomic.Int64         // the last move id used

	mu      sync.Mutex // guards the fields below
	latest  *protocol.State
	waiters map[int64]chan reply // pending moves by id
	syncs   []chan reply         // pending Sync calls
	hello   chan reply           // Dial's wait for the first state; nil after
	cause   error                // why the connection ended; nil while open

	closing   chan struct{} // closed when the connection starts to end
	closeOnce sync.Once
	done      chan struct{} // closed when the reader and writer have exited
}

// reply is what a waiting Move, Sync or Dial receives.
type reply struct {
	st  *protocol.State
	err *protocol.Error
}

// Dial connects to match matchID of game at baseURL ("http://host:port"),
// sends hello as playerID with credentials (playerID "" spectates) and
// returns once the server's first state arrived (Latest is then non-nil).
// A refused upgrade returns an *APIError (e.g. 503 "unavailable" while the
// server shuts down), a refused hello a *MoveError (e.g. "unauthorized").
// Dial waits at most 10 s for the first state, less if ctx ends sooner.
func Dial(ctx context.Context, baseURL, game, matchID, playerID, credentials string) (*Conn, error) {
	ws, err := DialWebSocket(ctx, baseURL, game, matchID)
	if err != nil {
		return nil, err
	}
	c := &Conn{
		ws:       ws,
		matchID:  matchID,
		playerID: playerID,
		out:      make(chan []byte, sendQueue),
		states:   make(chan *protocol.State, 1),
		errs:     make(chan *protocol.Error, eventQueue),
		chats:    make(chan *protocol.Chat, eventQueue),
		waiters:  make(map[int64]chan reply),
		closing:  make(chan struct{}),
		done:     make(chan struct{}),
	}
	ws.SetReadLimit(readLimit)
	wdone := make(chan struct{})
	go func() { defer close(wdone); c.writeLoop() }()
	go func() {
		// The writer closes ws when it exits, so the reader always ends too;
		// done waits for both, with no third goroutine per connection.
		c.readLoop()
		c.end(nil)
		<-wdone
		close(c.done)
	}()

	hello := protocol.ClientMessage{Type: protocol.TypeHello, Credentials: credentials}
	if playerID != "" {
		hello.PlayerID = &playerID
	}
	ctx, cancel := context.WithTimeout(ctx, helloWait)
	defer cancel()
	if _, err := c.await(ctx, hello, nil); err != nil {
		c.Close()
		return nil, fmt.Errorf("chaguan: hello: %w", err)
	}
	return c, nil
}

// DialWebSocket opens match matchID's WebSocket and nothing more (no
// hello): for clients that speak the protocol themselves. A refused
// upgrade returns an *APIError from the server's error body.
func DialWebSocket(ctx context.Context, baseURL, game, matchID string) (*websocket.Conn, error) {
	u, err := WebSocketURL(baseURL, game, matchID)
	if err != nil {
		return nil, err
	}
	ws, resp, err := websocket.DefaultDialer.DialContext(ctx, u, nil)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			// The server answered the upgrade with an error body.
			body, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
			err = apiError(resp.StatusCode, body)
		}
		return nil, fmt.Errorf("chaguan: dial %s: %w", u, err)
	}
	return ws, nil
}

// WebSocketURL turns http(s)://host/base into ws(s)://host/base/games/{g}/{id}/ws,
// the address of match matchID's WebSocket.
func WebSocketURL(baseURL, game, matchID string) (string, error) {
	u, err := url.Parse(strings.TrimRight(baseURL, "/"))
	if err != nil {
		return "", fmt.Errorf("chaguan: base URL: %w", err)
	}
	switch u.Scheme {
	case "http", "ws":
		u.Scheme = "ws"
	case "https", "wss":
		u.Scheme = "wss"
	default:
		return "", fmt.Errorf("chaguan: base URL %q: scheme must be http or https", baseURL)
	}
	return u.String() + matchPath(game, matchID, "ws"), nil
}

// MatchID is the match this connection watches.
func (c *Conn) MatchID() string { return c.matchID }

// PlayerID is the seat this connection plays, "" for a spectator.
func (c *Conn) PlayerID() string { return c.playerID }

// Latest returns the newest state received; never nil after Dial. The
// caller must not modify it. A state with the same stateID as the one
// before is no move: the server sends one when only the players changed
// (a seat taken, a connection's presence, a rename, autoplay) or when the
// receiver's own seat was taken away (You ""); it replaces Latest all the
// same, and States delivers it.
func (c *Conn) Latest() *protocol.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.latest
}

// States delivers new states. It holds at most one: the newest one not yet
// taken, so a slow reader skips intermediate states but never misses the
// last. Every state received counts, also one that repeats the stateID
// before it with other players (see Latest). It is never closed; select on
// Done as well.
func (c *Conn) States() <-chan *protocol.State { return c.states }

// Errors delivers error messages that no pending Move, Sync or Dial took
// (e.g. a refused chat). The oldest are dropped when it is full.
func (c *Conn) Errors() <-chan *protocol.Error { return c.errs }

// Chats delivers chat lines; the oldest are dropped when it is full.
func (c *Conn) Chats() <-chan *protocol.Chat { return c.chats }

// Done is closed once the connection has ended and both its goroutines
// have exited.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is nil while the connection is open; then ErrClosed, wrapping the cause
// when the connection ended for another reason than Close.
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

// Close sends a close frame, closes the connection and waits for its
// goroutines to exit. It is safe to call more than once and concurrently.
func (c *Conn) Close() error {
	c.end(nil)
	<-c.done
	return nil
}

// end starts ending the connection once, recording why (nil for Close).
func (c *Conn) end(cause error) {
	c.closeOnce.Do(func() {
		c.mu.Lock()
		if cause == nil || errors.Is(cause, ErrClosed) {
			c.cause = ErrClosed
		} else {
			c.cause = fmt.Errorf("%w: %v", ErrClosed, cause)
		}
		c.mu.Unlock()
		close(c.closing)
	})
}

// writeLoop is the only writer of ws. It exits when closing is closed or a
// write fails, and it closes ws, which ends readLoop's blocked read.
func (c *Conn) writeLoop() {
	ticker := time.NewTicker(pingPeriod)
	defer func() {
		ticker.Stop()
		c.ws.Close()
	}()
	for {
		select {
		case b := <-c.out:
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.end(err)
				return
			}
		case <-ticker.C:
			c.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := c.ws.WriteMessage(websocket.PingMessage, nil); err != nil {
				c.end(err)
				return
			}
		case <-c.closing:
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(closeWait))
			return
		}
	}
}

// readLoop is the only reader of ws. It never blocks on a consumer.
func (c *Conn) readLoop() {
	renew := func(string) error { return c.ws.SetReadDeadline(time.Now().Add(pongWait)) }
	c.ws.SetPongHandler(renew)
	renew("")
	for {
		_, data, err := c.ws.ReadMessage()
		if err != nil {
			c.end(err)
			return
		}
		renew("")
		c.dispatch(data)
	}
}

// inbound is the union of the server's messages, decoded in one pass.
type inbound struct {
	Type      string              `json:"type"`
	MatchID   string              `json:"matchID"`
	StateID   int64               `json:"stateID"`
	Ack       *int64              `json:"ack"`
	G         json.RawMessage     `json:"G"`
	Ctx       protocol.Ctx        `json:"ctx"`
	Players   []protocol.Player   `json:"players"`
	Log       []protocol.LogEntry `json:"log"`
	You       string              `json:"you"`
	Clock     *protocol.ClockView `json:"clock"`
	Code      string              `json:"code"`
	Message   string              `json:"message"`
	MessageZh string              `json:"messageZh"`
	Ref       *int64              `json:"ref"`
	From      string              `json:"from"`
	Name      string              `json:"name"`
	Text      string              `json:"text"`
	At        int64               `json:"at"`
}
