package server_test

import (
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// clientFrame is one masked client-to-server frame (RFC 6455 5.2) with the
// FIN bit set, as raw bytes.
func clientFrame(op byte, payload []byte) []byte {
	b := []byte{0x80 | op}
	switch n := len(payload); {
	case n <= 125:
		b = append(b, 0x80|byte(n))
	case n <= 0xffff:
		b = append(b, 0x80|126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 0x80|127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	mask := [4]byte{0x37, 0xfa, 0x21, 0x3d}
	b = append(b, mask[:]...)
	for i, c := range payload {
		b = append(b, c^mask[i%4])
	}
	return b
}

// writeRaw writes bytes to the client's socket as they are, in pieces of
// at most chunk bytes with a pause between them (chunk 0: all at once).
func (w *wsClient) writeRaw(b []byte, chunk int) {
	w.t.Helper()
	nc := w.c.NetConn()
	for len(b) > 0 {
		n := len(b)
		if chunk > 0 {
			n = min(n, chunk)
		}
		if _, err := nc.Write(b[:n]); err != nil {
			w.t.Fatalf("raw write: %v", err)
		}
		b = b[n:]
		if len(b) > 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
}

// TestIdleConnectionFraming: the server waits for a connection's next bytes
// on its own (wsidle.go) and hands them to gorilla; whatever way the bytes
// arrive, every message is read exactly once and in order: a frame split
// over many TCP writes, several frames in one write, pings and pongs mixed
// with messages, and a message longer than the read buffers.
func TestIdleConnectionFraming(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, _, _ := startedGomoku(t, srv.URL)
	w := dial(t, srv.URL, "gomoku", id)
	w.hello(nil)
	sync := clientFrame(websocket.TextMessage, []byte(`{"type":"sync"}`))
	pong := clientFrame(websocket.PongMessage, []byte("p"))

	t.Run("split", func(t *testing.T) {
		w.writeRaw(sync, 1)
		w.state()
	})
	t.Run("coalesced", func(t *testing.T) {
		var b []byte
		b = append(b, pong...)
		b = append(b, sync...)
		b = append(b, sync...)
		b = append(b, pong...)
		w.writeRaw(b, 0)
		w.state()
		w.state()
	})
	t.Run("pongs only", func(t *testing.T) {
		w.writeRaw(append(append([]byte{}, pong...), pong...), 0)
		w.writeRaw(sync, 0)
		w.state()
	})
	t.Run("long message", func(t *testing.T) {
		text := strings.Repeat("长", 500) // 1,500 bytes: several buffers
		w.send(map[string]any{"type": "chat", "text": text})
		for {
			typ, b := w.read()
			if typ == "chat" {
				if !strings.Contains(string(b), text) {
					t.Fatalf("chat came back changed: %.80s…", b)
				}
				break
			}
		}
	})
	t.Run("oversized frame keeps the connection", func(t *testing.T) {
		w.send(`{"type":"chat","text":"` + strings.Repeat("x", 70<<10) + `"}`)
		w.expectError("bad_request")
		w.writeRaw(sync, 0)
		w.state()
	})
}

// TestIdleConnectionPingPong: while a connection is idle the server still
// answers a client's ping, renews its read deadline on each pong (so a
// client that answers the server's pings stays connected well past
// PongWait), and closes a connection whose pongs stop.
func TestIdleConnectionPingPong(t *testing.T) {
	const pongWait = 300 * time.Millisecond
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{PongWait: pongWait}})
	id, _, _ := startedGomoku(t, srv.URL)

	live := dial(t, srv.URL, "gomoku", id) // gorilla's client answers pings
	live.hello(nil)
	got := make(chan string, 1)
	live.c.SetPongHandler(func(s string) error { got <- s; return nil })
	if err := live.c.WriteControl(websocket.PingMessage, []byte("are you there"), time.Now().Add(time.Second)); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "are you there" {
			t.Fatalf("pong payload %q, want the ping's", s)
		}
	case <-time.After(time.Minute):
		t.Fatal("no pong for the client's ping")
	}

	silent := dial(t, srv.URL, "gomoku", id)
	silent.c.SetPingHandler(func(string) error { return nil }) // never answers
	silent.hello(nil)

	time.Sleep(6 * pongWait)
	live.send(`{"type":"sync"}`)
	live.state()
	if !silent.closedWithin(5 * time.Second) {
		t.Fatal("a connection that never answered pings is still open")
	}
}
