package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime/debug"
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

// conn is one WebSocket. The reader goroutine (websocket) owns reads, the
// writer goroutine owns writes, pings and the close frame, per gorilla's
// one-reader/one-writer rule. It is the rooms.Sink of its viewer.
type conn struct {
	s         *Server
	ws        *websocket.Conn
	send      chan []byte
	quit      chan struct{} // closed to stop the writer
	done      chan struct{} // closed when the writer has exited
	closeOnce sync.Once
	closeCode int // written before quit is closed
}

// Send implements rooms.Sink: it never blocks.
func (c *conn) Send(b []byte) bool {
	select {
	case <-c.quit:
		return true // closing: drop silently
	default:
	}
	select {
	case c.send <- b:
		return true
	default:
		return false
	}
}

// Close implements rooms.Sink.
func (c *conn) Close() { c.closeWith(websocket.CloseNormalClosure) }

func (c *conn) goingAway() { c.closeWith(websocket.CloseGoingAway) }

func (c *conn) closeWith(code int) {
	c.closeOnce.Do(func() {
		c.closeCode = code
		close(c.quit)
	})
}

func (s *Server) websocket(c echo.Context) error {
	s.mu.Lock()
	closing := s.closing
	s.mu.Unlock()
	if closing {
		return s.fail(c, &rooms.Error{Code: protocol.CodeUnavailable, Message: "the server is shutting down"})
	}
	up := websocket.Upgrader{
		ReadBufferSize: 1024, WriteBufferSize: 1024, WriteBufferPool: &writePool,
		CheckOrigin: s.checkOrigin,
		Error: func(w http.ResponseWriter, r *http.Request, status int, reason error) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			_ = json.NewEncoder(w).Encode(protocol.ErrorBody{Error: protocol.CodeBadRequest, Message: reason.Error()})
		},
	}
	ws, err := up.Upgrade(c.Response(), c.Request(), nil)
	if err != nil {
		return nil // the upgrader has answered; never touch the response again
	}
	cn := &conn{s: s, ws: ws, send: make(chan []byte, s.cfg.WS.SendBuffer), quit: make(chan struct{}), done: make(chan struct{})}
	s.mu.Lock()
	s.conns[cn] = struct{}{}
	s.mu.Unlock()
	s.metrics.conns.Inc()
	// Both loops get goroutines of their own and the handler returns, so
	// net/http's per-request buffers are freed while the socket lives on.
	name, id := c.Param("name"), c.Param("id")
	go cn.writer()
	go cn.reader(name, id)
	return nil
}

func (c *conn) writer() {
	wait := c.s.cfg.WS
	defer func() {
		_ = c.ws.Close()
		close(c.done)
	}()
	for {
		select {
		case b := <-c.send:
			_ = c.ws.SetWriteDeadline(time.Now().Add(wait.WriteWait))
			if err := c.ws.WriteMessage(websocket.TextMessage, b); err != nil {
				c.Close()
				return
			}
		case <-c.quit:
			// Flush what is queued, then say goodbye.
			for {
				select {
				case b := <-c.send:
					_ = c.ws.SetWriteDeadline(time.Now().Add(wait.WriteWait))
					if c.ws.WriteMessage(websocket.TextMessage, b) != nil {
						return
					}
					continue
				default:
				}
				break
			}
			msg := websocket.FormatCloseMessage(c.closeCode, "")
			_ = c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(wait.WriteWait))
			return
		}
	}
}

func (c *conn) sendError(code, message string, ref *int64) {
	c.s.metrics.MoveRefused(code)
	b, _ := json.Marshal(protocol.Error{Type: protocol.TypeError, Code: code, Message: message, Ref: ref})
	// Refusals use at most a quarter of the queue, so a flood of them never
	// crowds out state messages (which would drop the connection as slow).
	if len(c.send) < cap(c.send)/4 {
		c.Send(b)
	}
}

func (c *conn) sendRoomsError(err error, ref *int64) {
	e := rooms.AsError(err)
	c.s.metrics.MoveRefused(e.Code)
	b, _ := json.Marshal(protocol.Error{Type: protocol.TypeError, Code: e.Code, Message: e.Message, MessageZh: e.MessageZh, Ref: ref})
	c.Send(b)
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

func (c *conn) reader(game, matchID string) {
	s := c.s
	defer func() {
		if p := recover(); p != nil {
			s.log.Error("panic in websocket reader", "match", matchID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
		c.Close()
		<-c.done
		s.mu.Lock()
		delete(s.conns, c)
		s.mu.Unlock()
		s.metrics.conns.Dec()
	}()
	c.ws.SetReadLimit(hardReadLimit)
	wait := s.cfg.WS
	_ = c.ws.SetReadDeadline(time.Now().Add(wait.HelloWait))
	limiter := rate.NewLimiter(rate.Limit(wait.Rate), wait.Burst)
	viewer := c.hello(game, matchID, limiter)
	if viewer == nil {
		return
	}
	defer viewer.Close()
	c.ws.SetPongHandler(func(string) error {
		return c.ws.SetReadDeadline(time.Now().Add(wait.PongWait))
	})
	_ = c.ws.SetReadDeadline(time.Now().Add(wait.PongWait))
	strikes := 0
	for {
		b, err := c.read()
		if err != nil {
			return
		}
		_ = c.ws.SetReadDeadline(time.Now().Add(wait.PongWait))
		m, derr := protocol.DecodeClient(b)
		var ref *int64
		if derr == nil && m.Type == protocol.TypeMove {
			ref = m.ID
		}
		if !limiter.Allow() {
			if strikes++; strikes > maxStrikes {
				return
			}
			c.sendError(protocol.CodeRateLimited, "too many messages; slow down", ref)
			continue
		}
		strikes = 0
		if derr != nil {
			c.sendError(protocol.CodeBadRequest, derr.Error(), nil)
			continue
		}
		if err := c.dispatch(viewer, m); err != nil {
			c.sendRoomsError(err, ref)
		}
	}
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
		v, err := c.s.cfg.Rooms.Connect(ctx, game, matchID, rooms.Hello{PlayerID: m.PlayerID, Credentials: m.Credentials, Name: m.Name}, c)
		cancel()
		if err == nil {
			return v
		}
		var re *rooms.Error
		if errors.As(err, &re) && re.Code == protocol.CodeNotFound {
			c.sendRoomsError(err, nil)
			return nil
		}
		c.sendRoomsError(err, nil)
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
