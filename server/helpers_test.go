package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
)

// post sends a JSON body and returns the status and decoded body.
func post(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	var r io.Reader
	switch b := body.(type) {
	case string:
		r = strings.NewReader(b)
	case []byte:
		r = bytes.NewReader(b)
	default:
		j, _ := json.Marshal(body)
		r = bytes.NewReader(j)
	}
	resp, err := http.Post(url, "application/json", r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	return resp.StatusCode, decode(t, resp.Body)
}

func get(t *testing.T, url string) (int, []byte) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

func decode(t *testing.T, r io.Reader) map[string]any {
	t.Helper()
	b, _ := io.ReadAll(r)
	var m map[string]any
	if len(b) > 0 && b[0] == '{' {
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("bad JSON %q: %v", b, err)
		}
	}
	return m
}

// seat is a joined player.
type seat struct{ id, creds string }

func create(t *testing.T, base, game string, body any) string {
	t.Helper()
	code, m := post(t, base+"/games/"+game+"/create", body)
	if code != 200 {
		t.Fatalf("create: %d %v", code, m)
	}
	return m["matchID"].(string)
}

func join(t *testing.T, base, game, id, name string) seat {
	t.Helper()
	code, m := post(t, base+"/games/"+game+"/"+id+"/join", map[string]any{"playerName": name})
	if code != 200 {
		t.Fatalf("join: %d %v", code, m)
	}
	return seat{m["playerID"].(string), m["playerCredentials"].(string)}
}

// wsClient is a raw WebSocket test client.
type wsClient struct {
	t    *testing.T
	c    *websocket.Conn
	msgs chan []byte
	next int64
}

func dial(t *testing.T, base, game, id string) *wsClient {
	t.Helper()
	url := "ws" + strings.TrimPrefix(base, "http") + "/games/" + game + "/" + id + "/ws"
	c, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatalf("dial %s: %v (%v)", url, err, resp)
	}
	w := &wsClient{t: t, c: c, msgs: make(chan []byte, 256)}
	go func() {
		defer close(w.msgs)
		for {
			_, b, err := c.ReadMessage()
			if err != nil {
				return
			}
			w.msgs <- b
		}
	}()
	t.Cleanup(func() { c.Close() })
	return w
}

// closedWithin reports whether the server closes the connection within d
// (messages before the close are skipped).
func (w *wsClient) closedWithin(d time.Duration) bool {
	timeout := time.After(d)
	for {
		select {
		case _, ok := <-w.msgs:
			if !ok {
				return true
			}
		case <-timeout:
			return false
		}
	}
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	var b []byte
	if s, ok := v.(string); ok {
		b = []byte(s)
	} else {
		b, _ = json.Marshal(v)
	}
	if err := w.c.WriteMessage(websocket.TextMessage, b); err != nil {
		w.t.Fatalf("write: %v", err)
	}
}

func (w *wsClient) hello(s *seat) *protocol.State {
	w.t.Helper()
	if s == nil {
		w.send(map[string]any{"type": "hello"})
	} else {
		w.send(map[string]any{"type": "hello", "playerID": s.id, "credentials": s.creds})
	}
	return w.state()
}

// read returns the next message's type and bytes.
func (w *wsClient) read() (string, []byte) {
	w.t.Helper()
	select {
	case b, ok := <-w.msgs:
		if !ok {
			w.t.Fatalf("connection closed")
		}
		var head struct{ Type string }
		_ = json.Unmarshal(b, &head)
		return head.Type, b
	case <-time.After(readWait):
		w.t.Fatalf("no message within %v", readWait)
	}
	return "", nil
}

// state skips chat and returns the next state message.
func (w *wsClient) state() *protocol.State {
	w.t.Helper()
	for {
		typ, b := w.read()
		switch typ {
		case "state":
			var s protocol.State
			if err := json.Unmarshal(b, &s); err != nil {
				w.t.Fatal(err)
			}
			return &s
		case "error":
			w.t.Fatalf("unexpected error: %s", b)
		}
	}
}

// stateWhere waits for a state satisfying ok.
func (w *wsClient) stateWhere(ok func(*protocol.State) bool) *protocol.State {
	w.t.Helper()
	for {
		s := w.state()
		if testing.Verbose() {
			w.t.Logf("state %d turn %d", s.StateID, s.Ctx.Turn)
		}
		if ok(s) {
			return s
		}
	}
}

func (w *wsClient) errorMsg() protocol.Error {
	w.t.Helper()
	for {
		typ, b := w.read()
		if typ == "error" {
			var e protocol.Error
			_ = json.Unmarshal(b, &e)
			return e
		}
	}
}

func (w *wsClient) move(name string, args ...any) int64 {
	w.t.Helper()
	w.next++
	if args == nil {
		args = []any{}
	}
	w.send(map[string]any{"type": "move", "id": w.next, "move": name, "args": args})
	return w.next
}

// expectError waits for an error with code (skipping states).
func (w *wsClient) expectError(code string) protocol.Error {
	w.t.Helper()
	e := w.errorMsg()
	if e.Code != code {
		w.t.Fatalf("error code %q (%s), want %q", e.Code, e.Message, code)
	}
	return e
}

// acked waits for the state acking move id.
func (w *wsClient) acked(id int64) *protocol.State {
	w.t.Helper()
	for {
		typ, b := w.read()
		switch typ {
		case "error":
			w.t.Fatalf("move %d refused: %s", id, b)
		case "state":
			var s protocol.State
			_ = json.Unmarshal(b, &s)
			if s.Ack != nil && *s.Ack == id {
				return &s
			}
		}
	}
}

type gomokuView struct {
	Board  []string `json:"board"`
	ToMove string   `json:"toMove"`
	Result *struct {
		Winner string `json:"winner"`
	} `json:"result"`
}

func gview(t *testing.T, s *protocol.State) gomokuView {
	t.Helper()
	var g gomokuView
	if err := json.Unmarshal(s.G, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

type protocolState = protocol.State

var jsonUnmarshal = json.Unmarshal

// readWait bounds a wait for a message the server must send: generous, so
// it only catches a hang, never a slow machine.
var readWait = time.Minute
