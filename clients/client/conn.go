package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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
	writeWait   = 10 * time.Second       // deadline of each write
	closeWait   = time.Second            // deadline of the close frame on Close
	pongWait    = 60 * time.Second       // read deadline, renewed by every frame and pong
	pingPeriod  = pongWait * 9 / 10      // how often the writer pings
	helloWait   = 10 * time.Second       // the longest wait for the state answering a hello
	readLimit   = 16 * protocol.MaxFrame // lenient: the contract caps frames at 64 KiB
	sendQueue   = 64                     // frames queued for the writer
	eventQueue  = 32                     // errors and chats kept for a slow consumer
	statusQueue = 16                     // status changes kept for a slow consumer
)

// Default bounds of the wait before a reconnect attempt (Options).
const (
	DefaultMinBackoff = 250 * time.Millisecond
	DefaultMaxBackoff = 10 * time.Second
)

// Options tune a connection (DialWith); the zero value is Dial's: no
// reconnecting.
type Options struct {
	// Reconnect keeps the Conn across dropped sockets: when the socket
	// ends (the server restarted or went away, the network failed) the
	// Conn dials again, with exponential backoff and jitter, sends the
	// same hello (the same seat and credentials, or a spectator's), and
	// goes on with the full state the server answers it with, which
	// arrives on States and becomes Latest like any other. Meanwhile the
	// Conn is StatusReconnecting and every send is refused at once with
	// ErrDisconnected; a move in flight when the socket dropped returns
	// an error wrapping ErrDisconnected (it may have been applied: the
	// state after the reconnect says). Only Close, or a refusal that no
	// retry can change (the credentials no longer hold a seat:
	// "unauthorized"; the match is gone: "not_found"; any other 4xx
	// answer to the upgrade), ends a reconnecting Conn: Err then wraps
	// that refusal.
	Reconnect bool
	// MinBackoff is the wait before the first reconnect attempt (default
	// 250 ms); each failed attempt doubles it, up to MaxBackoff (default
	// 10 s). Each wait is jittered: a random time between half of it and
	// all of it, so that the clients of a restarted server do not all
	// come back at once.
	MinBackoff, MaxBackoff time.Duration
	// Patches asks the server for patches (docs/api.md, "Patches"): after
	// the first state of each connection the server sends only what
	// changed in the view, and the Conn applies it to the view it holds.
	// States, Latest, Move and Sync give the same states as without it
	// (the same fields, G the same bytes): only fewer bytes cross the
	// network. A patch that does not start from the view held, or does not
	// apply, makes the Conn send a sync and skip patches until the whole
	// state answers it; a move whose ack came on a skipped patch is
	// answered with that state. Each reconnect's hello asks again.
	Patches bool
	// OnStatus, when set, is called with every status change, in order,
	// on the goroutine that made it (Dial's caller for the first two, the
	// connection's own after). It must return quickly and must not call
	// the Conn's methods that send or Close. Statuses delivers the same
	// changes.
	OnStatus func(StatusChange)
	// observe, when set (tests), is called on the reader with every state
	// delivered, before States has it.
	observe func(*protocol.State)
}

// Status is where a Conn stands.
type Status int

const (
	StatusConnecting   Status = iota // the first dial and hello (inside Dial)
	StatusOpen                       // the server answered the hello: moves go through
	StatusReconnecting               // the socket dropped; dialling again (Options.Reconnect)
	StatusClosed                     // ended for good: Done is closed, Err says why
)

func (s Status) String() string {
	switch s {
	case StatusConnecting:
		return "connecting"
	case StatusOpen:
		return "open"
	case StatusReconnecting:
		return "reconnecting"
	case StatusClosed:
		return "closed"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// StatusChange is one change of a Conn's status.
type StatusChange struct {
	Status Status
	// Attempt counts the reconnect attempts of this outage: 1 for the
	// first StatusReconnecting after a drop, one more for each attempt
	// that failed; 0 for the other statuses.
	Attempt int
	// Err is why: for StatusReconnecting, why the socket dropped (attempt
	// 1) or why the last attempt failed; for StatusClosed, Err(); nil
	// otherwise.
	Err error
}

// Conn is one connection to a match, as a seated player or a spectator:
// one WebSocket at a time, and with Options.Reconnect a new one after each
// drop. One goroutine reads each socket and one writes it (gorilla's rule),
// and one more watches them; the exported methods are safe for concurrent
// use and never block the reader: a consumer that does not drain States,
// Errors, Chats or Statuses loses old entries, never the newest state
// (Latest).
type Conn struct {
	baseURL, game string
	matchID       string
	playerID      string
	credentials   string
	opts          Options

	states   chan *protocol.State // cap 1: the newest state not yet taken
	errs     chan *protocol.Error // errors no Move waits for; oldest dropped
	chats    chan *protocol.Chat  // oldest dropped
	statuses chan StatusChange    // oldest dropped
	nextID   atomic.Int64         // the last move id used

	mu      sync.Mutex // guards the fields below
	latest  *protocol.State
	sock    *socket              // the socket moves go to; nil while (re)connecting or closed
	waiters map[int64]chan reply // pending moves by id
	syncs   []chan reply         // pending Sync calls
	hello   chan reply           // a hello's wait for its state; nil after
	status  Status
	cause   error // why the Conn ended; nil until then

	ctx       context.Context // ends at Close: bounds reconnect attempts
	cancel    context.CancelFunc
	closing   chan struct{} // closed by Close
	closeOnce sync.Once
	done      chan struct{} // closed when the Conn has ended and its goroutines exited

	// With Options.Patches: the patches applied and the syncs sent for a
	// gap, over all sockets.
	patched, resyncs atomic.Int64
}

// socket is one WebSocket of a Conn with its two goroutines.
type socket struct {
	ws      *websocket.Conn
	out     chan []byte   // frames for the writer goroutine
	closing chan struct{} // closed when the socket starts to end
	once    sync.Once
	cause   error         // why it ended (nil: asked to); set before closing is closed
	done    chan struct{} // closed when its reader and writer have exited
	// wantSync asks the writer for a sync (a patch did not apply); it
	// never blocks the reader, and two requests before the write are one.
	wantSync chan struct{}
	pv       patchState // the view held, with Options.Patches; the reader's own
}

// reply is what a waiting Move, Sync or hello receives.
type reply struct {
	st   *protocol.State
	err  *protocol.Error
	fail error // the socket ended before the answer
}

// Dial connects to match matchID of game at baseURL ("http://host:port"),
// sends hello as playerID with credentials (playerID "" spectates) and
// returns once the server's first state arrived (Latest is then non-nil).
// A refused upgrade returns an *APIError (e.g. 503 "unavailable" while the
// server shuts down), a refused hello a *MoveError (e.g. "unauthorized").
// Dial waits at most 10 s for the first state, less if ctx ends sooner.
// The Conn ends when its socket does; DialWith can keep it across drops.
func Dial(ctx context.Context, baseURL, game, matchID, playerID, credentials string) (*Conn, error) {
	return DialWith(ctx, baseURL, game, matchID, playerID, credentials, Options{})
}

// DialWith is Dial with options, e.g. Options{Reconnect: true}. The first
// connection is not retried: an error from it is returned as by Dial.
func DialWith(ctx context.Context, baseURL, game, matchID, playerID, credentials string, o Options) (*Conn, error) {
	if o.MinBackoff <= 0 {
		o.MinBackoff = DefaultMinBackoff
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = DefaultMaxBackoff
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	c := &Conn{
		baseURL:     baseURL,
		game:        game,
		matchID:     matchID,
		playerID:    playerID,
		credentials: credentials,
		opts:        o,
		states:      make(chan *protocol.State, 1),
		errs:        make(chan *protocol.Error, eventQueue),
		chats:       make(chan *protocol.Chat, eventQueue),
		statuses:    make(chan StatusChange, statusQueue),
		waiters:     make(map[int64]chan reply),
		closing:     make(chan struct{}),
		done:        make(chan struct{}),
	}
	c.ctx, c.cancel = context.WithCancel(context.Background())
	c.setStatus(StatusChange{Status: StatusConnecting})
	s, err := c.connect(ctx)
	if err != nil {
		c.cancel()
		c.mu.Lock()
		c.cause = fmt.Errorf("%w: %w", ErrClosed, err)
		c.mu.Unlock()
		c.setStatus(StatusChange{Status: StatusClosed, Err: c.cause})
		close(c.done)
		return nil, err
	}
	c.attach(s)
	go c.run(s)
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
// (a seat taken, a connection's presence, a rename, autoplay), when the
// receiver's own seat was taken away (You "") or to answer the hello of a
// reconnect; it replaces Latest all the same, and States delivers it.
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

// Statuses delivers the Conn's status changes in order (the oldest are
// dropped when it is full): StatusConnecting and StatusOpen from Dial,
// then with Options.Reconnect a StatusReconnecting for each attempt of an
// outage and StatusOpen once back, and last StatusClosed. It is never
// closed; select on Done as well.
func (c *Conn) Statuses() <-chan StatusChange { return c.statuses }

// Status is the Conn's status now.
func (c *Conn) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

// Done is closed once the connection has ended for good and its
// goroutines have exited: after Close, when the socket ended without
// Options.Reconnect, or when reconnecting met a refusal no retry changes.
func (c *Conn) Done() <-chan struct{} { return c.done }

// Err is nil until the Conn has ended (also while it reconnects); then
// ErrClosed, wrapping the cause when the connection ended for another
// reason than Close (e.g. a *MoveError "unauthorized" when a reconnect's
// hello was refused: IsCode sees it).
func (c *Conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cause
}

// Close sends a close frame, closes the connection, stops any reconnecting
// and waits for its goroutines to exit. It is safe to call more than once
// and concurrently.
func (c *Conn) Close() error {
	c.closeOnce.Do(func() {
		close(c.closing)
		c.cancel()
	})
	<-c.done
	return nil
}

// closed reports whether Close was called.
func (c *Conn) closed() bool {
	select {
	case <-c.closing:
		return true
	default:
		return false
	}
}

// setStatus records and reports a status change. Its callers run one
// after the other (Dial, then run), so Statuses has a single sender.
func (c *Conn) setStatus(ch StatusChange) {
	c.mu.Lock()
	c.status = ch.Status
	c.mu.Unlock()
	if c.opts.OnStatus != nil {
		c.opts.OnStatus(ch)
	}
	pushNewest(c.statuses, ch)
}

// connect dials a socket and says hello on it; it returns the socket once
// the server's state answered (Latest is then that state), or closes it.
func (c *Conn) connect(ctx context.Context) (*socket, error) {
	ws, err := DialWebSocket(ctx, c.baseURL, c.game, c.matchID)
	if err != nil {
		return nil, err
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	c.hello = ch
	c.mu.Unlock()
	s := c.startSocket(ws)
	msg := protocol.ClientMessage{Type: protocol.TypeHello, Credentials: c.credentials, Patches: c.opts.Patches}
	if c.playerID != "" {
		pid := c.playerID
		msg.PlayerID = &pid
	}
	b, err := json.Marshal(msg)
	if err == nil {
		s.out <- b // the queue is empty: this never blocks
		ctx, cancel := context.WithTimeout(ctx, helloWait)
		defer cancel()
		select {
		case r := <-ch:
			_, err = r.result()
		case <-ctx.Done():
			err = ctx.Err()
		case <-s.done:
			select {
			case r := <-ch:
				_, err = r.result()
			default:
				err = fmt.Errorf("%w before the hello was answered: %v", ErrClosed, s.cause)
			}
		}
		if err == nil {
			return s, nil
		}
	}
	c.mu.Lock()
	c.hello = nil
	c.mu.Unlock()
	s.end(nil)
	<-s.done
	return nil, fmt.Errorf("chaguan: hello: %w", err)
}

// attach makes s the socket moves go to and reports StatusOpen.
func (c *Conn) attach(s *socket) {
	c.mu.Lock()
	c.sock = s
	c.mu.Unlock()
	c.setStatus(StatusChange{Status: StatusOpen})
}

// detach forgets the ended socket: every move and Sync waiting on it gets
// fail. When final, the Conn ends with cause (ErrClosed or wrapping it).
func (c *Conn) detach(fail error, final bool, cause error) {
	c.mu.Lock()
	c.sock = nil
	waiters, syncs := c.waiters, c.syncs
	c.waiters, c.syncs = make(map[int64]chan reply), nil
	if final {
		c.cause = cause
	}
	c.mu.Unlock()
	// A waiter in the map has had no answer: its channel has room.
	for _, w := range waiters {
		w <- reply{fail: fail}
	}
	for _, w := range syncs {
		w <- reply{fail: fail}
	}
}

// run watches the live socket s and, with Options.Reconnect, replaces it
// after each drop, until the Conn ends.
func (c *Conn) run(s *socket) {
	defer func() {
		c.cancel()
		close(c.done)
	}()
	for {
		select {
		case <-s.done:
		case <-c.closing:
			s.end(nil)
			<-s.done
		}
		if c.closed() || !c.opts.Reconnect {
			cause := ErrClosed
			if !c.closed() && s.cause != nil && !errors.Is(s.cause, ErrClosed) {
				cause = fmt.Errorf("%w: %w", ErrClosed, s.cause)
			}
			c.detach(cause, true, cause)
			c.setStatus(StatusChange{Status: StatusClosed, Err: cause})
			return
		}
		c.detach(fmt.Errorf("%w: the connection dropped before the answer came (it may have been applied): %v", ErrDisconnected, s.cause), false, nil)
		next, err := c.reconnect(s.cause)
		if err != nil {
			cause := ErrClosed
			if !c.closed() {
				cause = fmt.Errorf("%w: %w", ErrClosed, err)
			}
			c.detach(cause, true, cause)
			c.setStatus(StatusChange{Status: StatusClosed, Err: cause})
			return
		}
		c.attach(next)
		s = next
	}
}

// reconnect dials again with backoff until a hello is answered (the new
// socket), Close is called (ErrClosed) or a refusal no retry can change
// (that error). why is why the socket dropped.
func (c *Conn) reconnect(why error) (*socket, error) {
	delay := c.opts.MinBackoff
	for attempt := 1; ; attempt++ {
		c.setStatus(StatusChange{Status: StatusReconnecting, Attempt: attempt, Err: why})
		t := time.NewTimer(jitter(delay))
		select {
		case <-t.C:
		case <-c.closing:
			t.Stop()
			return nil, ErrClosed
		}
		s, err := c.connect(c.ctx)
		switch {
		case err == nil:
			return s, nil
		case c.closed():
			return nil, ErrClosed
		case permanent(err):
			return nil, err
		}
		why = err
		delay = min(2*delay, c.opts.MaxBackoff)
	}
}

// jitter is a random wait between half of d and d.
func jitter(d time.Duration) time.Duration {
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

// permanent reports whether a failed reconnect attempt would fail the same
// way again: the hello refused as unauthorized (the seat is gone),
// not_found (the match is gone), forbidden or bad_request, or the upgrade
// refused with a 4xx other than 408 and 429. Anything else (the server
// down, 503 unavailable while it drains, a timeout) is worth a retry.
func permanent(err error) bool {
	var ae *APIError
	if errors.As(err, &ae) {
		return ae.Status >= 400 && ae.Status < 500 &&
			ae.Status != http.StatusRequestTimeout && ae.Status != http.StatusTooManyRequests
	}
	var me *MoveError
	if errors.As(err, &me) {
		switch me.Code {
		case protocol.CodeUnauthorized, protocol.CodeNotFound, protocol.CodeForbidden, protocol.CodeBadRequest:
			return true
		}
	}
	return false
}

// startSocket starts the reader and writer of ws.
func (c *Conn) startSocket(ws *websocket.Conn) *socket {
	s := &socket{
		ws:       ws,
		out:      make(chan []byte, sendQueue),
		closing:  make(chan struct{}),
		done:     make(chan struct{}),
		wantSync: make(chan struct{}, 1),
	}
	ws.SetReadLimit(readLimit)
	wdone := make(chan struct{})
	go func() { defer close(wdone); s.writeLoop() }()
	go func() {
		// The writer closes ws when it exits, so the reader always ends too;
		// done waits for both, with no third goroutine per socket.
		c.readLoop(s)
		s.end(nil)
		<-wdone
		close(s.done)
	}()
	return s
}

// end starts ending the socket once, recording why (nil when asked to).
func (s *socket) end(cause error) {
	s.once.Do(func() {
		s.cause = cause
		close(s.closing)
	})
}

// writeLoop is the only writer of ws. It exits when closing is closed or a
// write fails, and it closes ws, which ends readLoop's blocked read.
func (s *socket) writeLoop() {
	ticker := time.NewTicker(pingPeriod)
	defer func() {
		ticker.Stop()
		s.ws.Close()
	}()
	for {
		select {
		case b := <-s.out:
			s.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := s.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				s.end(err)
				return
			}
		case <-s.wantSync:
			s.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := s.ws.WriteMessage(websocket.TextMessage, syncFrame); err != nil {
				s.end(err)
				return
			}
		case <-ticker.C:
			s.ws.SetWriteDeadline(time.Now().Add(writeWait))
			if err := s.ws.WriteMessage(websocket.PingMessage, nil); err != nil {
				s.end(err)
				return
			}
		case <-s.closing:
			msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
			s.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(closeWait))
			return
		}
	}
}

// readLoop is the only reader of s's ws. It never blocks on a consumer.
func (c *Conn) readLoop(s *socket) {
	renew := func(string) error { return s.ws.SetReadDeadline(time.Now().Add(pongWait)) }
	s.ws.SetPongHandler(renew)
	renew("")
	for {
		_, data, err := s.ws.ReadMessage()
		if err != nil {
			s.end(err)
			return
		}
		renew("")
		c.dispatch(s, data)
	}
}

// inbound is the union of the server's messages, decoded in one pass: a
// state's fields are protocol.State's own, so a state decodes to every
// field State has.
type inbound struct {
	protocol.State
	Code      string             `json:"code"`
	Message   string             `json:"message"`
	MessageZh string             `json:"messageZh"`
	Ref       *int64             `json:"ref"`
	From      string             `json:"from"`
	Name      string             `json:"name"`
	Text      string             `json:"text"`
	At        int64              `json:"at"`
	Base      int64              `json:"base"`
	Ops       []protocol.PatchOp `json:"ops"`
}
