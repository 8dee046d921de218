package main

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/server/servertest"
)

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// watchNewMatch creates a gomoku match on the server at addr and opens a
// WebSocket to it (closed when the test ends); no hello is sent yet.
func watchNewMatch(t *testing.T, addr string) *websocket.Conn {
	t.Helper()
	resp, err := http.Post("http://"+addr+"/games/gomoku/create", "application/json", strings.NewReader(`{"numPlayers":2}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ MatchID string }
	json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	ws, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/games/gomoku/"+created.MatchID+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// TestSIGTERMDrains runs the real main loop, connects a player, sends the
// process SIGTERM and checks the socket got "going away" and run returned.
func TestSIGTERMDrains(t *testing.T) {
	addr := freeAddr(t)
	done := make(chan error, 1)
	go func() {
		done <- run(config{addr: addr, logLevel: "warn", grace: time.Minute, botDelay: time.Millisecond, ttl: time.Hour})
	}()
	base := "http://" + addr
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("server did not come up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	ws := watchNewMatch(t, addr)
	ws.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello"}`))
	if _, _, err := ws.ReadMessage(); err != nil {
		t.Fatalf("first state: %v", err)
	}
	if err := syscall.Kill(syscall.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	var ce *websocket.CloseError
	for {
		_, _, err := ws.ReadMessage()
		if err == nil {
			continue
		}
		if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
			t.Fatalf("after SIGTERM: %v, want close 1001", err)
		}
		break
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("run returned %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run did not return after SIGTERM")
	}
	if _, err := http.Get(base + "/healthz"); err == nil {
		t.Fatal("still serving after shutdown")
	}
}

// shortTimeouts serve the handler of a test server with every HTTP timeout
// at 300 ms; it returns the listener's address.
func shortTimeouts(t *testing.T) string {
	t.Helper()
	h := servertest.Start(t, servertest.Options{}).Handler
	d := 300 * time.Millisecond
	srv := newHTTPServer(config{http: httpTimeouts{readHeader: d, read: d, write: d, idle: d}}, h)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

// cutOff sends raw on a fresh connection and reports whether the server
// closes it within 5 s (whatever it answers first).
func cutOff(t *testing.T, addr, raw string) bool {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte(raw)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err = io.Copy(io.Discard, c)
	var ne net.Error
	return !(errors.As(err, &ne) && ne.Timeout())
}

// TestSlowClientsCutOff: a client that never finishes its headers or its
// body, or keeps an idle keep-alive connection, is disconnected by the
// configured timeouts.
func TestSlowClientsCutOff(t *testing.T) {
	addr := shortTimeouts(t)
	for what, raw := range map[string]string{
		"unfinished headers": "GET /healthz HTTP/1.1\r\nHost: x\r\n",
		"one body byte":      "POST /games/gomoku/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{",
		"idle keep-alive":    "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		if !cutOff(t, addr, raw) {
			t.Errorf("%s: connection still open after 5 s", what)
		}
	}
}

// TestWebSocketOutlivesHTTPTimeouts: a WebSocket is hijacked from the HTTP
// server, so its read, write and idle timeouts do not end it.
func TestWebSocketOutlivesHTTPTimeouts(t *testing.T) {
	addr := shortTimeouts(t)
	ws := watchNewMatch(t, addr)
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i, msg := range []string{`{"type":"hello"}`, `{"type":"sync"}`} {
		if i > 0 {
			time.Sleep(time.Second) // past every HTTP timeout
		}
		if err := ws.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatalf("write %s: %v", msg, err)
		}
		if _, b, err := ws.ReadMessage(); err != nil || !strings.Contains(string(b), `"type":"state"`) {
			t.Fatalf("answer to %s: %s, %v", msg, b, err)
		}
	}
}
