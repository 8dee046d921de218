package server

import (
	"bufio"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"

	"github.com/gorilla/websocket"
)

// An idle WebSocket costs one goroutine blocked in a read. Blocked in
// gorilla's NextReader, that goroutine needs a 4 KiB stack (the read path
// through gorilla, bufio and the poller is deep, and a stack grown once is
// never shrunk while it is that deep). So a connection waits for its next
// bytes in a shallow call instead (idleConn.fill: one raw read through the
// poller, into a pooled buffer), which fits the smallest stack, and reads
// and handles a message as a task on the server's workers (workers.go),
// reused goroutines whose stacks have grown already.
// The pings and pongs that make up an idle connection's traffic are
// handled in the shallow wait itself.
//
// This needs the raw socket, so it is used for plain TCP connections on
// Unix; anything else (a wrapped or TLS connection) is read the plain way.

// preSize is the size of the pooled buffers that fill reads into.
const preSize = 512

// readBufferSize is each connection's bufio.Reader (gorilla's read buffer):
// client messages are small, and a larger frame is read in pieces. The
// Upgrader takes over a hijacked reader only if it is larger than 256.
const readBufferSize = 288

var prePool = sync.Pool{New: func() any { b := make([]byte, preSize); return &b }}

// idleConn is the TCP connection gorilla reads from: bytes read by fill
// are handed out first, then the socket is read directly.
type idleConn struct {
	*net.TCPConn // embedded, so writes keep net's writev path
	raw          syscall.RawConn
	pre          []byte  // bytes read by fill, not yet consumed
	preBuf       *[]byte // pooled buffer behind pre; nil when none is held
	rerr         error   // the last read error of fill
	try          func(fd uintptr) bool
	// wdl is the write deadline in place on the socket, and wdlSets how
	// many times it was moved (for tests): see SetWriteDeadline.
	wdl     time.Time
	wdlSets int
}

// SetWriteDeadline moves the socket's write deadline only when it must.
// gorilla sets it before every frame it writes (WriteWait from then), and
// each move costs the runtime a timer update, a few percent of a busy
// server's CPU. So a later deadline is passed on only when the one in
// place gives less than half the time asked for; an earlier deadline, or
// none, is passed on at once. A write thus fails after at least half the
// time asked for (WriteWait) without progress, and at most the whole.
// gorilla calls it under its write lock, one writer at a time.
func (n *idleConn) SetWriteDeadline(t time.Time) error {
	if !t.IsZero() && !n.wdl.IsZero() && !t.Before(n.wdl) {
		now := time.Now()
		if n.wdl.Sub(now) >= t.Sub(now)/2 {
			return nil
		}
	}
	return n.moveWriteDeadline(t)
}

// SetDeadline sets both deadlines, keeping SetWriteDeadline's in step.
func (n *idleConn) SetDeadline(t time.Time) error {
	if err := n.TCPConn.SetReadDeadline(t); err != nil {
		return err
	}
	return n.moveWriteDeadline(t)
}

// moveWriteDeadline puts t on the socket as its write deadline and
// remembers it.
func (n *idleConn) moveWriteDeadline(t time.Time) error {
	n.wdl = t
	n.wdlSets++
	return n.TCPConn.SetWriteDeadline(t)
}

func (n *idleConn) Read(p []byte) (int, error) {
	if len(n.pre) == 0 {
		return n.TCPConn.Read(p)
	}
	k := copy(p, n.pre)
	n.pre = n.pre[k:]
	if len(n.pre) == 0 {
		n.release()
	}
	return k, nil
}

// release returns the pooled buffer.
func (n *idleConn) release() {
	if n.preBuf != nil {
		prePool.Put(n.preBuf)
		n.preBuf, n.pre = nil, nil
	}
}

// hijackWriter hands gorilla's Upgrader the connection wrapped in an
// idleConn, with a bufio.Reader of ours (the Upgrader reuses a hijacked
// reader when its own ReadBufferSize is 0), so the serve loop can tell
// whether gorilla holds buffered bytes.
type hijackWriter struct {
	http.ResponseWriter
	h    http.Hijacker
	conn *idleConn     // set when the connection could be wrapped
	br   *bufio.Reader // gorilla's read buffer, when conn is set
}

func (w *hijackWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := w.h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	tcp, ok := nc.(*net.TCPConn)
	if !ok || brw.Reader.Buffered() > 0 || !rawReads {
		// gorilla refuses early bytes itself; other connections are read
		// the plain way.
		return nc, brw, nil
	}
	raw, err := tcp.SyscallConn()
	if err != nil {
		return nc, brw, nil
	}
	w.conn = &idleConn{TCPConn: tcp, raw: raw}
	w.br = bufio.NewReaderSize(w.conn, readBufferSize)
	return w.conn, bufio.NewReadWriter(w.br, brw.Writer), nil
}

// waitShallow waits, on a shallow stack, until the connection has bytes
// for gorilla, answering the control frames that arrive meanwhile. It
// returns false when the connection is finished (closed, failed, or its
// read deadline passed).
func (c *conn) waitShallow() bool {
	for c.br.Buffered() == 0 && len(c.nc.pre) == 0 {
		if err := c.nc.fill(); err != nil {
			return false
		}
		c.controlFrames()
	}
	return true
}

// controlFrames handles the bytes fill read if they are nothing but whole
// pings and pongs, as gorilla would: a pong renews the read deadline, a
// ping is answered with a pong. Anything else is left for gorilla.
func (c *conn) controlFrames() {
	b := c.nc.pre
	// Check first that every frame is a whole, masked ping or pong.
	for len(b) > 0 {
		if len(b) < 6 {
			return
		}
		op, n := b[0], int(b[1]&0x7f)
		if (op != 0x8a && op != 0x89) || b[1]&0x80 == 0 || n > 125 || len(b) < 6+n {
			return // FIN + pong/ping, masked, short payload, complete
		}
		b = b[6+n:]
	}
	b = c.nc.pre
	for len(b) > 0 {
		op, n := b[0], int(b[1]&0x7f)
		if op == 0x8a {
			_ = c.ws.SetReadDeadline(time.Now().Add(c.s.cfg.WS.PongWait))
		} else {
			payload := make([]byte, n)
			for i := range payload {
				payload[i] = b[6+i] ^ b[2+i%4]
			}
			// gorilla allows WriteControl alongside the writer; a goroutine
			// keeps the write path's stack off this one.
			go c.ws.WriteControl(websocket.PongMessage, payload, time.Now().Add(c.s.cfg.WS.WriteWait))
		}
		b = b[6+n:]
	}
	c.nc.release()
}
