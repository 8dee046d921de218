package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// Timing of a lean connection; the first three are clients/client's.
const (
	leanWriteWait = 10 * time.Second       // each write has at least half of this
	leanHelloWait = 10 * time.Second       // longest wait for the first state
	leanIdleWait  = 60 * time.Second       // longest wait for any frame when no answer is due
	leanEndGrace  = 3 * time.Second        // at the run's end: time left to resign and read the outcome
	leanReadLimit = 16 * protocol.MaxFrame // lenient, as clients/client
)

// leanConn is one seat's WebSocket for the lean client. Unlike client.Conn
// it has no goroutine, channel or lock of its own: the seat's goroutine
// writes a message, then reads frames until the answer it waits for
// (gorilla allows one reader and one writer; one goroutine doing both in
// turn qualifies). Frames are read into one reused buffer and scanned
// (scanFrame), never decoded, except for the rare error frame. Only
// interrupt and Close may be called from another goroutine.
type leanConn struct {
	ws   *websocket.Conn
	me   string    // the seat's player ID; "" for a spectator
	load *workload // the game played
	leanOptions

	// With patches: the view held (only what the seat reads, see
	// pruneState), whether a sync for a gap awaits its state (patches are
	// skipped meanwhile), and the ack of a patch skipped meanwhile, which
	// that state answers.
	pv        client.View
	rv        rowView // instead of pv when the workload's part is rows
	resyncing bool
	heldAck   int64
	hasHeld   bool
	p         protocol.Patch // the last patch read; its Ops reused
	ack       int64          // its ack, when it has one

	v       view   // the newest state's view
	scratch view   // the frame being read's, before it becomes v
	buf     []byte // the last frame read; reused
	out     []byte // the last message written; reused
	nextID  int64  // the last move id used

	readBy  time.Time    // the read deadline set last
	writeBy time.Time    // the write deadline set last
	due     time.Time    // when the awaited answer is late; zero when none is awaited
	stopAt  atomic.Int64 // Unix ns after which reads fail (set by interrupt); 0 while playing
	broken  bool         // a read failed: gorilla reads nothing more after an error
	resigns bool         // resign was sent
}

// dialLean connects to match matchID of the Gomoku server at baseURL as
// playerID, says hello with credentials exactly as clients/client does and
// waits for the first state, at most leanHelloWait or until ctx ends. A
// refused upgrade returns a *client.APIError, a refused hello a
// *client.MoveError, a hello that got no answer in time
// context.DeadlineExceeded, all wrapped, so errKind counts them as the full
// client's.
func dialLean(ctx context.Context, baseURL, matchID, playerID, credentials string) (*leanConn, error) {
	return dialLeanGame(ctx, &gomokuLoad, leanOptions{}, baseURL, matchID, playerID, credentials)
}

// leanOptions are how a lean connection reads its match.
type leanOptions struct {
	// stateBytes, if not nil, counts the bytes of every state and patch
	// frame read.
	stateBytes *atomic.Int64
	// patches asks for patches (docs/api.md, "Patches"): the connection
	// holds the part of its view it reads and applies them to it, with
	// clients/client's View (pruneState) or as rows (rowView).
	patches bool
	// gaps, if not nil, counts the syncs sent for a patch that did not
	// apply.
	gaps *atomic.Int64
}

// dialLeanGame is dialLean for the game of load, with o. An empty
// playerID connects a spectator.
func dialLeanGame(ctx context.Context, load *workload, o leanOptions, baseURL, matchID, playerID, credentials string) (*leanConn, error) {
	ws, err := client.DialWebSocket(ctx, baseURL, load.name, matchID)
	if err != nil {
		return nil, err
	}
	c := &leanConn{ws: ws, me: playerID, load: load, leanOptions: o, buf: make([]byte, 0, 8<<10)}
	ws.SetReadLimit(leanReadLimit)
	ws.SetPingHandler(c.onPing)
	if err := c.hello(ctx, credentials); err != nil {
		c.Close()
		return nil, fmt.Errorf("hello: %w", err)
	}
	return c, nil
}

// hello sends the hello message and reads up to the first state.
func (c *leanConn) hello(ctx context.Context, credentials string) error {
	msg := protocol.ClientMessage{Type: protocol.TypeHello, Credentials: credentials, Patches: c.patches}
	if c.me != "" {
		msg.PlayerID = &c.me
	}
	b, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if err := c.write(b); err != nil {
		return client.ErrClosed
	}
	by := time.Now().Add(leanHelloWait)
	if d, ok := ctx.Deadline(); ok && d.Before(by) {
		by = d
	}
	c.setReadDeadline(by)
	// ctx's end interrupts the read: nothing else sets the deadline until
	// stop, and if the interruption ran, the connection is not used.
	stop := context.AfterFunc(ctx, func() { c.ws.SetReadDeadline(time.Now()) })
	err = c.firstState()
	if !stop() {
		return ctx.Err()
	}
	return err
}

// firstState reads up to the first state or error frame.
func (c *leanConn) firstState() error {
	for {
		kind, e, err := c.next()
		switch {
		case err != nil && isTimeout(err):
			return context.DeadlineExceeded
		case err != nil:
			return fmt.Errorf("%w: %v", client.ErrClosed, err)
		case kind == frameState:
			return nil
		case kind == frameError:
			return &client.MoveError{Code: e.Code, Message: e.Message, MessageZh: e.MessageZh}
		}
	}
}

// next reads one frame. A state, or a patch that applies, updates c.v and
// is returned as frameState; an error frame is decoded and returned; other
// frames (chat, a patch skipped) are returned as frameOther. The read
// deadline is the caller's.
func (c *leanConn) next() (frameKind, *protocol.Error, error) {
	if c.broken {
		return frameOther, nil, client.ErrClosed
	}
	_, r, err := c.ws.NextReader()
	if err == nil {
		err = c.readAll(r)
	}
	if err != nil {
		c.broken = true
		return frameOther, nil, err
	}
	return c.take()
}

// take is next for the frame just read into c.buf.
func (c *leanConn) take() (frameKind, *protocol.Error, error) {
	v := &c.scratch
	switch scanFrameWith(c.buf, v, c.load.scanG) {
	case frameState:
		if c.patches {
			c.hold(v)
		}
		c.v = *v
		if c.stateBytes != nil {
			c.stateBytes.Add(int64(len(c.buf)))
		}
		return frameState, nil, nil
	case framePatch:
		if !c.patches {
			return frameOther, nil, nil
		}
		if c.stateBytes != nil {
			c.stateBytes.Add(int64(len(c.buf)))
		}
		ok, err := c.patch(v)
		if err != nil {
			c.broken = true
			return frameOther, nil, err
		}
		if !ok {
			return frameOther, nil, nil
		}
		c.v = *v
		return frameState, nil, nil
	case frameError:
		var e protocol.Error
		if json.Unmarshal(c.buf, &e) != nil {
			return frameOther, nil, nil
		}
		return frameError, &e, nil
	}
	return frameOther, nil, nil
}

// hold makes the state frame just read the view held; v is what it shows,
// which gets the ack of a patch skipped while resyncing.
func (c *leanConn) hold(v *view) {
	if c.load.rows {
		c.rv.hold(c.buf, v, c.load.part)
	} else if c.pv.SetState(pruneState(c.buf, v.stateID, c.load.part)) != nil {
		c.pv.Reset() // the next patch asks for another state
	}
	if c.hasHeld && !v.hasAck {
		v.ack, v.hasAck = c.heldAck, true
	}
	c.resyncing, c.hasHeld = false, false
}

// patch applies the patch frame just read to the view held and fills v
// from it, as scanFrameWith would from the state it stands for (the move
// from G only when the view is of the seat's own turn). When it
// does not apply it sends a sync and skips patches until the state that
// answers it (ok false); err is a failed write.
func (c *leanConn) patch(v *view) (ok bool, err error) {
	p := &c.p
	if !scanPatch(c.buf, p, &c.ack, c.load.part) {
		*p = protocol.Patch{Base: -1, Ops: p.Ops[:0]} // a gap, as a patch that does not apply
	}
	if !c.resyncing {
		if c.applyHeld(p, v) {
			return true, nil
		}
		if err := c.gap(); err != nil {
			return false, err
		}
	}
	if p.Ack != nil {
		c.heldAck, c.hasHeld = *p.Ack, true
	}
	return false, nil
}

// applyHeld applies p to the view held and fills v from it; false, and
// nothing held, when it does not apply.
func (c *leanConn) applyHeld(p *protocol.Patch, v *view) bool {
	if c.load.rows {
		if !c.rv.apply(p, c.load.part) {
			return false
		}
		*v = patchView(p)
		c.rv.fill(v, c.me)
		return true
	}
	if c.pv.Apply(p) == nil {
		*v = patchView(p)
		if viewCtx(&c.pv, v) {
			// Only the seat to move reads its move from G (the seat
			// plays only on such a view), so a view of the other
			// seat's turn encodes and scans none of it.
			if v.started && v.current == c.me {
				c.load.scanPart(c.pv.Lookup("G", c.load.part), v)
			}
			return true
		}
	}
	c.pv.Reset()
	return false
}

// patchView is the view patch p makes, before what the view held shows
// is filled in: its stateID and ack.
func patchView(p *protocol.Patch) view {
	v := view{stateID: p.StateID}
	if p.Ack != nil {
		v.ack, v.hasAck = *p.Ack, true
	}
	return v
}

// gap answers a patch that did not apply: it counts the gap, sends a sync
// and skips patches until the state that answers it. err is a failed
// write.
func (c *leanConn) gap() error {
	c.resyncing = true
	if c.gaps != nil {
		c.gaps.Add(1)
	}
	return c.write(syncMsg)
}

// A lean seat with patches holds only what it reads of its view: ctx and
// the one member of G its workload scans (Gomoku's board, Gong Zhu's
// players). Of each patch it keeps the operations that can change those
// (scanPatch) and drops the rest (the log, G's other members, the seats'
// names), as it skips them in a whole state. Gong Zhu's players are held
// as a client.View of {"G":{PART:…},"ctx":…}, which applies the kept
// operations exactly as on a whole view; one that does not (a move or
// copy from a member not held, say) is a gap, answered by a sync.
// Gomoku's board, whose moves replace a row string at a time, is held as
// rows (rowView), which apply those replacements and the changes of
// ctx's members and count any other operation as a gap. The full client
// (-client full) holds and checks the whole view.

// pruneState returns the state frame b (stateID id) cut down to what the
// lean view holds: {"type":"state","stateID":ID,"G":{PART:…},"ctx":…}, G
// empty when it has no member part, ctx left out when b has none (the
// view then shows no ctx, as scanFrameWith would refuse the state). The
// values are copies: b is reused for the next frame.
func pruneState(b []byte, id int64, part string) []byte {
	out := append([]byte(`{"type":"state","stateID":`), strconv.FormatInt(id, 10)...)
	out = append(out, `,"G":{`...)
	if g, ok := member(b, "G"); ok {
		if val, ok := member(g, part); ok {
			out = strconv.AppendQuote(out, part)
			out = append(append(out, ':'), val...)
		}
	}
	out = append(out, '}')
	if ctx, ok := member(b, "ctx"); ok {
		out = append(append(out, `,"ctx":`...), ctx...)
	}
	return append(out, '}')
}

// readAll reads r into c.buf, reusing its memory.
func (c *leanConn) readAll(r io.Reader) error {
	b := c.buf[:0]
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			c.buf = b
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// move sends move name with the given integer args under a fresh id, as
// clients/client encodes it: {"type":"move","id":N,"move":"place","args":[x,y]}.
// name must need no JSON escaping. The answer is due within wait.
func (c *leanConn) move(wait time.Duration, name string, args ...int) (int64, error) {
	c.nextID++
	c.out = appendMove(c.out[:0], c.nextID, name, args...)
	c.due = time.Now().Add(wait)
	return c.nextID, c.write(c.out)
}

// playView sends the game's move as the view at hand gives it (the first
// empty point, the first legal card) under a fresh id; ok is false, and
// nothing is sent, when the view offers no move. The answer is due within
// wait.
func (c *leanConn) playView(wait time.Duration) (id int64, ok bool, err error) {
	b, ok := c.load.appendArgs(appendMoveHead(c.out[:0], c.nextID+1, c.load.move), &c.v)
	if !ok {
		return 0, false, nil
	}
	c.nextID++
	c.out = append(b, '}')
	c.due = time.Now().Add(wait)
	return c.nextID, true, c.write(c.out)
}

// appendMove appends the move message to b.
func appendMove(b []byte, id int64, name string, args ...int) []byte {
	return append(appendInts(appendMoveHead(b, id, name), args...), '}')
}

// appendMoveHead appends the move message up to its args:
// {"type":"move","id":N,"move":"NAME","args":
func appendMoveHead(b []byte, id int64, name string) []byte {
	b = append(b, `{"type":"move","id":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"move":"`...)
	b = append(b, name...)
	return append(b, `","args":`...)
}

// syncMsg is clients/client's sync request.
var syncMsg = []byte(`{"type":"sync"}`)

// sync asks for the current view; the next state is due within wait.
func (c *leanConn) sync(wait time.Duration) error {
	c.due = time.Now().Add(wait)
	return c.write(syncMsg)
}

// write sends one text frame. The write deadline is renewed only when
// less than half of leanWriteWait is left, so each write has at least that.
func (c *leanConn) write(b []byte) error {
	if now := time.Now(); c.writeBy.Sub(now) < leanWriteWait/2 {
		c.writeBy = now.Add(leanWriteWait)
		c.ws.SetWriteDeadline(c.writeBy)
	}
	return c.ws.WriteMessage(websocket.TextMessage, b)
}

// armRead sets the deadline of the next read: when the awaited answer is
// due, or, when none is, leanIdleWait from now (renewed only when less than
// half of it is left, to spare a call per frame).
func (c *leanConn) armRead() {
	if !c.due.IsZero() {
		c.setReadDeadline(c.due)
		return
	}
	if now := time.Now(); c.readBy.Sub(now) < leanIdleWait/2 {
		c.setReadDeadline(now.Add(leanIdleWait))
	}
}

// setReadDeadline sets the read deadline to t, or to the interrupt's if
// that is earlier. It sets t first and reads stopAt after, so an interrupt
// that runs concurrently is never undone.
func (c *leanConn) setReadDeadline(t time.Time) {
	if s := c.stopAt.Load(); s != 0 && s < t.UnixNano() {
		t = time.Unix(0, s)
	}
	if t.Equal(c.readBy) {
		return
	}
	c.ws.SetReadDeadline(t)
	c.readBy = t
	if s := c.stopAt.Load(); s != 0 && s < t.UnixNano() {
		c.readBy = time.Unix(0, s)
		c.ws.SetReadDeadline(c.readBy)
	}
}

// interrupt makes reads fail after grace (0: at once), so a seat blocked
// in a read returns. Safe to call from another goroutine.
func (c *leanConn) interrupt(grace time.Duration) {
	t := time.Now().Add(grace)
	c.stopAt.Store(t.UnixNano())
	c.ws.SetReadDeadline(t)
}

// onPing answers the server's ping, as gorilla's default handler does, and
// renews the idle read deadline (it runs inside the seat's read).
func (c *leanConn) onPing(data string) error {
	if c.due.IsZero() {
		c.setReadDeadline(time.Now().Add(leanIdleWait))
	}
	err := c.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(leanWriteWait))
	if err == websocket.ErrCloseSent || isTimeout(err) {
		return nil
	}
	return err
}

// resign ends the match for this seat, unless its view shows it over or
// it has already resigned: it sends resign and reads until the answer (or
// any state showing the game over), retrying twice a rate-limited resign,
// as the full client's resign does. Best effort, at most leanEndGrace; on a
// connection that can no longer be read it only sends.
func (c *leanConn) resign() {
	if c.v.over || c.resigns {
		return
	}
	c.resigns = true
	end := time.Now().Add(leanEndGrace)
	c.setReadDeadline(end)
	for range 3 {
		id, err := c.move(leanEndGrace, "resign")
		if err != nil || c.broken {
			return
		}
		limited := false
		for !limited {
			kind, e, err := c.next()
			switch {
			case err != nil:
				return
			case kind == frameState && (c.v.over || (c.v.hasAck && c.v.ack == id)):
				return
			case kind == frameError && e.Ref != nil && *e.Ref == id:
				if e.Code != protocol.CodeRateLimited {
					return
				}
				limited = true
			}
		}
		if time.Until(end) < time.Second/10 {
			return
		}
		time.Sleep(time.Second / 10)
	}
}

// Close sends a close frame and closes the connection.
func (c *leanConn) Close() error {
	msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
	c.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
	return c.ws.Close()
}

// isTimeout reports whether err is a passed deadline.
func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
