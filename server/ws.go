package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"
	"golang.org/x/time/rate"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// hardReadLimit is the largest frame read at all; frames between
// protocol.MaxFrame and this are drained and answered with bad_request so
// the connection stays open, larger ones close it.
const hardReadLimit = 1 << 20

// maxStrikes is how many refused (rate-limited) messages in a row close a
// flooding connection.
const maxStrikes = 200

var writePool sync.Pool // shared write buffers: idle connections hold none

// conn is one WebSocket. One goroutine reads it at a time; writes, the
// close frame included, come from one writer at a time, a task on the
// server's workers that runs only while frames are queued (gorilla's
// one-reader/one-writer rule; pings come from the server-wide sweep, which
// gorilla allows concurrently). An idle connection thus holds one
// goroutine, on the smallest stack (wsidle.go), and no queue. It is the rooms.Sink
// of its viewer.
type conn struct {
	s    *Server
	ws   *websocket.Conn
	done chan struct{} // closed when the final writer has closed the socket
	// nc and br are set when the socket can be waited on shallowly
	// (wsidle.go): the TCP connection gorilla reads and gorilla's buffer.
	nc  *idleConn
	br  *bufio.Reader
	key string // the client's key (clientKey) for the per-address cap

	mu      sync.Mutex
	queue   [][]byte     // frames waiting for the writer
	kinds   []rooms.Kind // what each queued frame is (rooms.Sink)
	writing bool         // a writer goroutine is running
	write   func()       // c.writer, made once: a method value costs an allocation
	// The queue's own arrays, which it starts from again whenever it
	// empties: a viewer gets a frame or two a move, and a slice grown
	// afresh each time would cost two allocations a frame.
	queueArr  [4][]byte
	kindsArr  [4]rooms.Kind
	closing   bool // Close was called: the writer ends with a close frame
	closeCode int
}

// Send implements rooms.Sink: it never blocks. When the queue is full, a
// new state message replaces the queued ones it supersedes; it returns
// false when even that leaves no room (the room then drops the viewer as
// too slow).
func (c *conn) Send(b []byte, kind rooms.Kind) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return true // closing: drop silently
	}
	if len(c.queue) >= c.s.cfg.WS.SendBuffer && !(kind == rooms.KindState && c.dropSuperseded()) {
		return false
	}
	c.queue, c.kinds = append(c.queue, b), append(c.kinds, kind)
	c.startWriter()
	return true
}

// keep removes the queued frames drop marks, keeping the rest in order;
// c.mu must be held.
func (c *conn) keep(drop []bool) {
	n := 0
	for i := range c.queue {
		if !drop[i] {
			c.queue[n], c.kinds[n] = c.queue[i], c.kinds[i]
			n++
		}
	}
	clear(c.queue[n:])
	c.queue, c.kinds = c.queue[:n], c.kinds[:n]
}

// dropSuperseded removes the queued state messages a newer one makes
// redundant (rooms.Droppable: never one a patch message follows, which
// that patch applies to), keeping the rest in order, and reports whether
// that made room; c.mu must be held.
func (c *conn) dropSuperseded() bool {
	c.keep(rooms.Droppable(c.kinds))
	return len(c.queue) < c.s.cfg.WS.SendBuffer
}

// Resync implements rooms.Resyncer: a patch viewer whose queue is full
// gets its whole view instead of being dropped. The queued patches and
// states without ack give way to state, the rest (acked views aside,
// which refuse the resync) stays in order; false when that leaves no room.
func (c *conn) Resync(state []byte, kind rooms.Kind) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return true // closing: drop silently, as Send does
	}
	drop, ok := rooms.ResyncDroppable(c.kinds)
	if !ok {
		return false
	}
	n := 0
	for _, d := range drop {
		if !d {
			n++
		}
	}
	if n >= c.s.cfg.WS.SendBuffer {
		return false
	}
	c.keep(drop)
	c.queue, c.kinds = append(c.queue, state), append(c.kinds, kind)
	c.startWriter()
	return true
}

// queued is the number of frames waiting.
func (c *conn) queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.queue)
}

// startWriter starts a writer unless one runs; c.mu must be held.
func (c *conn) startWriter() {
	if !c.writing {
		c.writing = true
		if c.write == nil {
			c.write = c.writer
		}
		c.s.workers.Go(c.write)
	}
}

// Close implements rooms.Sink.
func (c *conn) Close() { c.closeWith(websocket.CloseNormalClosure) }

func (c *conn) goingAway() { c.closeWith(websocket.CloseGoingAway) }

// closeWith asks the writer to flush the queue, send a close frame with
// code and close the socket. Only the first call counts.
func (c *conn) closeWith(code int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing {
		return
	}
	c.closing, c.closeCode = true, code
	c.startWriter()
}

// writer writes queued frames until the queue is empty, then exits; after
// Close it also says goodbye and closes the socket.
func (c *conn) writer() {
	wait := c.s.cfg.WS
	failed := false
	for {
		c.mu.Lock()
		if len(c.queue) == 0 || failed {
			clear(c.queue)
			c.queue, c.kinds = c.queueArr[:0], c.kindsArr[:0]
			if !c.closing {
				if failed {
					// A broken socket: close it; the reader then ends.
					c.closing, c.closeCode = true, websocket.CloseAbnormalClosure
				} else {
					c.writing = false
					c.mu.Unlock()
					return
				}
			}
			code := c.closeCode
			c.mu.Unlock()
			if !failed {
				msg := websocket.FormatCloseMessage(code, "")
				_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(wait.WriteWait))
			}
			_ = c.ws.Close()
			close(c.done)
			return // c.writing stays true: no writer ever starts again
		}
		b := c.queue[0]
		c.queue[0] = nil
		c.queue, c.kinds = c.queue[1:], c.kinds[1:]
		c.mu.Unlock()
		_ = c.ws.SetWriteDeadline(time.Now().Add(wait.WriteWait))
		if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
			failed = true
		}
	}
}

func (s *Server) websocket(c echo.Context) error {
	key := clientKey(c.RealIP())
	if err := s.admit(key); err != nil {
		return s.fail(c, err)
	}
	// ReadBufferSize 0 makes gorilla read through hw's bufio.Reader.
	hw := &hijackWriter{ResponseWriter: c.Response(), h: c.Response()}
	up := websocket.Upgrader{
		WriteBufferSize: 1024, WriteBufferPool: &writePool,
		CheckOrigin: s.checkOrigin,
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(protocol.ErrorBody{Error: protocol.CodeBadRequest, Message: reason.Error()})
		},
	}
	ws, err := up.Upgrade(hw, c.Request(), nil)
	if err != nil {
		s.release(key)
		return nil // the upgrader has answered; never touch the response again
	}
	cn := &conn{s: s, ws: ws, done: make(chan struct{}), nc: hw.conn, br: hw.br, key: key}
	cn.queue, cn.kinds = cn.queueArr[:0], cn.kindsArr[:0]
	s.mu.Lock()
	s.conns[cn] = struct{}{}
	s.mu.Unlock()
	s.metrics.conns.Inc()
	// The reader gets a goroutine of its own and the handler returns, so
	// net/http's per-request buffers are freed while the socket lives on.
	// Cloned: the parameters point into the request line, which would
	// otherwise stay alive with the connection.
	name, id := strings.Clone(c.Param("name")), strings.Clone(c.Param("id"))
	go cn.reader(name, id)
	return nil
}

func (c *conn) sendError(code, message string, ref *int64) {
	c.s.metrics.MoveRefused(code)
	// Refusals use at most a quarter of the queue, so a flood of them never
	// crowds out state messages (which would drop the connection as slow).
	if c.queued() < c.s.cfg.WS.SendBuffer/4 {
		c.Send((&rooms.Error{Code: code, Message: message}).Frame(ref), rooms.KindOther)
	}
}

func (c *conn) sendRoomsError(err error, ref *int64) {
	e := rooms.AsError(err)
	c.s.metrics.MoveRefused(e.Code)
	c.Send(e.Frame(ref), rooms.KindOther)
}

// read returns the next text frame, or nil and a non-nil error when the
// connection is finished. Oversized frames are drained and refused.
func (c *conn) read() ([]byte, error) {
	for {
		typ, r, err := c.ws.NextReader()
		if err != nil {
			return nil, err
		}
		b, err := io.ReadAll(io.LimitReader(r, protocol.MaxFrame+1))
		if err != nil {
			return nil, err
		}
		if len(b) > protocol.MaxFrame {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return nil, err
			}
			c.sendError(protocol.CodeBadRequest, "message larger than 64 KiB", nil)
			continue
		}
		if typ != websocket.TextMessage {
			c.sendError(protocol.CodeBadRequest, "send text frames holding one JSON object", nil)
			continue
		}
		return b, nil
	}
}

// reader waits for the hello, then hands the connection to serve on a
// fresh goroutine and exits: the hello's deep call chain (JSON decoding,
// joining the room) grows this goroutine's stack, and an idle connection
// should not keep that stack for its whole life.
func (c *conn) reader(game, matchID string) {
	handedOver := false
	defer func() {
		if p := recover(); p != nil {
			c.s.log.Error("panic in websocket reader", "match", matchID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		if !handedOver {
			c.finish()
		}
	}()
	c.ws.SetReadLimit(hardReadLimit)
	wait := c.s.cfg.WS
	_ = c.ws.SetReadDeadline(time.Now().Add(wait.HelloWait))
	limiter := rate.NewLimiter(rate.Limit(wait.Rate), wait.Burst)
	viewer := c.hello(game, matchID, limiter)
	if viewer == nil {
		return
	}
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(wait.PongWait))
	})
	_ = c.ws.SetReadDeadline(time.Now().Add(wait.PongWait))
	handedOver = true
	go c.serve(&session{viewer: viewer, limiter: limiter, matchID: matchID})
}

// finish closes the connection, waits for its writer and forgets it.
func (c *conn) finish() {
	c.Close()
	<-c.done
	c.s.mu.Lock()
	delete(c.s.conns, c)
	c.s.mu.Unlock()
	c.s.release(c.key)
	c.s.metrics.conns.Dec()
}

// admit reserves a connection slot for a WebSocket upgrade from the client
// key, or refuses it with unavailable when the server is shutting down or
// the process or that address is at its cap (WSConfig.MaxConns,
// MaxConnsPerIP). The refusal comes before the upgrade, as a 503 with the
// lobby's error body. Every admitted slot is released once (release).
func (s *Server) admit(key string) error {
	ws := s.cfg.WS
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closing:
		return &rooms.Error{Code: protocol.CodeUnavailable, Message: "the server is shutting down"}
	case ws.MaxConns > 0 && s.admitted >= ws.MaxConns:
		return &rooms.Error{Code: protocol.CodeUnavailable, Message: "this server has as many connections as it takes; try again later"}
	case ws.MaxConnsPerIP > 0 && s.perIP[key] >= ws.MaxConnsPerIP:
		return &rooms.Error{Code: protocol.CodeUnavailable, Message: "too many connections from your address; close some and try again"}
	}
	s.admitted++
	s.perIP[key]++
	return nil
}

// release frees the slot admit reserved for key.
func (s *Server) release(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.admitted--
	if s.perIP[key]--; s.perIP[key] <= 0 {
		delete(s.perIP, key)
	}
}

// session is what a connection keeps between messages after its hello.
type session struct {
	viewer  *rooms.Viewer
	limiter *rate.Limiter
	matchID string
	strikes int // refused messages in a row
}

// serve reads the connection's messages after the hello until it ends.
// Where it can, it waits for each message shallowly and reads and handles
// it as a task on the server's workers (wsidle.go), so an idle connection
// holds the smallest stack.
func (c *conn) serve(ss *session) {
	defer func() {
		if p := recover(); p != nil {
			c.s.log.Error("panic in websocket reader", "match", ss.matchID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		ss.viewer.Close()
		c.finish()
	}()
	if c.nc == nil {
		for c.next(ss) {
		}
		return
	}
	defer c.nc.release()
	for c.waitShallow() {
		ok := make(chan bool, 1)
		c.s.workers.Go(func() { ok <- c.next(ss) })
		if !<-ok {
			return
		}
	}
}

// next reads and handles one message; false when the connection is
// finished. A panic ends the connection, not the process.
func (c *conn) next(ss *session) (more bool) {
	defer func() {
		if p := recover(); p != nil {
			c.s.log.Error("panic in websocket reader", "match", ss.matchID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			more = false
		}
	}()
	b, err := c.read()
	if err != nil {
		return false
	}
	_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.WS.PongWait))
	m, derr := protocol.DecodeClient(b)
	var ref *int64
	if derr == nil && m.Type == protocol.TypeMove {
		ref = m.ID
	}
	if !ss.limiter.Allow() {
		if ss.strikes++; ss.strikes > maxStrikes {
			c.closeWith(websocket.ClosePolicyViolation)
			return false
		}
		c.sendError(protocol.CodeRateLimited, "too many messages; slow down", ref)
		return true
	}
	ss.strikes = 0
	if derr != nil {
		c.sendError(protocol.CodeBadRequest, derr.Error(), nil)
		return true
	}
	if err := c.dispatch(ss.viewer, m); err != nil {
		c.sendRoomsError(err, ref)
	}
	return true
}

func (c *conn) dispatch(v *rooms.Viewer, m protocol.ClientMessage) error {
	switch m.Type {
	case protocol.TypeMove:
		return v.Move(m.ID, m.Move, m.Args, m.StateID)
	case protocol.TypeSync:
		return v.Sync()
	case protocol.TypeChat:
		return v.Chat(m.Text)
	case protocol.TypeAutoplay:
		return v.Autoplay(*m.On)
	case protocol.TypeHello:
		return &rooms.Error{Code: protocol.CodeBadRequest, Message: "already said hello on this connection"}
	}
	return &rooms.Error{Code: protocol.CodeBadRequest, Message: "unknown message type"}
}

// hello waits for a valid hello within HelloWait and attaches the viewer.
// Refused hellos get an error and may be retried until the deadline.
func (c *conn) hello(game, matchID string, limiter *rate.Limiter) *rooms.Viewer {
	for {
		b, err := c.read()
		if err != nil {
			return nil
		}
		if !limiter.Allow() {
			c.sendError(protocol.CodeRateLimited, "too many messages; slow down", nil)
			continue
		}
		m, err := protocol.DecodeClient(b)
		if err != nil {
			c.sendError(protocol.CodeBadRequest, err.Error(), nil)
			continue
		}
		if m.Type != protocol.TypeHello {
			code := protocol.CodeBadRequest
			if m.Type == protocol.TypeMove {
				code = protocol.CodeUnauthorized
			}
			c.sendError(code, "say hello first: {\"type\":\"hello\",\"playerID\":…,\"credentials\":…}", m.ID)
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		v, err := c.s.cfg.Rooms.Connect(ctx, game, matchID, rooms.Hello{PlayerID: m.PlayerID, Credentials: m.Credentials, Name: m.Name, Patches: m.Patches}, c)
		cancel()
		if err == nil {
			return v
		}
		c.sendRoomsError(err, nil)
		if rooms.AsError(err).Code == protocol.CodeNotFound {
			return nil // no such match: nothing to retry
		}
	}
}

// pingLoop pings every live connection each PingEvery from one goroutine
// (gorilla allows WriteControl concurrently with the writer), so an idle
// connection costs no ticker of its own. It stops when stop is closed.
func (s *Server) pingLoop(stop <-chan struct{}) {
	t := time.NewTicker(s.cfg.WS.PingEvery)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
		}
		s.mu.Lock()
		conns := make([]*conn, 0, len(s.conns))
		for c := range s.conns {
			conns = append(conns, c)
		}
		s.mu.Unlock()
		for _, c := range conns {
			if err := c.ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(s.cfg.WS.WriteWait)); err != nil {
				c.Close()
			}
		}
	}
}
