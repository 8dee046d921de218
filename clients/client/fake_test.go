package client

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
)

// fakeWS is a tiny WebSocket server for one counter "game": G is {"n":…}.
// Moves: inc [k] adds k and acks; bad is refused (invalid_move, with ref);
// mute is never answered; flood [k] pushes k states without ack, then acks;
// join seats "bob" in seat 1 and pushes the same stateID with the new
// players, no ack (the move itself is never answered); bye closes the
// connection. A hello with credentials "bad" is refused;
// spectators may not move. One goroutine per connection reads and writes.
// While down, upgrades are refused with 503 (a server draining or
// restarting); once revoked, every seated hello is refused as unauthorized
// (the seat passed to a bot).
type fakeWS struct {
	mu      sync.Mutex
	stateID int64
	n       int
	bob     bool // seat 1 is taken (by "bob"), without a move
	conns   map[*websocket.Conn]bool
	down    bool
	revoked bool
	hellos  []string // "playerID/credentials" of every hello, in order
}

func newFakeWS(t *testing.T) (*httptest.Server, *fakeWS) {
	t.Helper()
	f := &fakeWS{stateID: 1, conns: map[*websocket.Conn]bool{}}
	srv := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(srv.Close)
	return srv, f
}

func (f *fakeWS) serve(w http.ResponseWriter, r *http.Request) {
	if !strings.HasSuffix(r.URL.Path, "/ws") {
		http.NotFound(w, r)
		return
	}
	f.mu.Lock()
	down := f.down
	f.mu.Unlock()
	if down || strings.Contains(r.URL.Path, "/closing/") {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":"unavailable","message":"the server is shutting down"}`))
		return
	}
	up := websocket.Upgrader{}
	ws, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer ws.Close()
	var hello protocol.ClientMessage
	if err := ws.ReadJSON(&hello); err != nil || hello.Type != protocol.TypeHello {
		return
	}
	you := ""
	if hello.PlayerID != nil {
		you = *hello.PlayerID
	}
	f.mu.Lock()
	f.hellos = append(f.hellos, you+"/"+hello.Credentials)
	revoked := f.revoked && you != ""
	f.mu.Unlock()
	if hello.Credentials == "bad" || revoked {
		ws.WriteJSON(protocol.Error{Type: "error", Code: protocol.CodeUnauthorized, Message: "wrong credentials"})
		return
	}
	f.mu.Lock()
	f.conns[ws] = true
	f.mu.Unlock()
	defer func() { f.mu.Lock(); delete(f.conns, ws); f.mu.Unlock() }()
	autoplay := false
	send := func(ack *int64) error { return ws.WriteJSON(f.state(you, ack, autoplay)) }
	if send(nil) != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		m, err := protocol.DecodeClient(data)
		if err != nil {
			ws.WriteJSON(protocol.Error{Type: "error", Code: protocol.CodeBadRequest, Message: err.Error(), Ref: m.ID})
			continue
		}
		switch m.Type {
		case protocol.TypeSync:
			err = send(nil)
		case protocol.TypeChat:
			err = ws.WriteJSON(protocol.Chat{Type: "chat", From: you, Name: "p" + you, Text: m.Text, At: 1})
		case protocol.TypeAutoplay:
			autoplay = *m.On
			err = send(nil)
		case protocol.TypeMove:
			err = f.move(ws, you, m, send)
		}
		if err != nil {
			return
		}
	}
}

func (f *fakeWS) move(ws *websocket.Conn, you string, m protocol.ClientMessage, send func(*int64) error) error {
	refuse := func(code, msg string) error {
		return ws.WriteJSON(protocol.Error{Type: "error", Code: code, Message: msg, MessageZh: "不行", Ref: m.ID})
	}
	if you == "" {
		return refuse(protocol.CodeUnauthorized, "spectators do not move")
	}
	var args []int
	json.Unmarshal(m.Args, &args)
	switch m.Move {
	case "inc":
		if len(args) != 1 {
			return refuse(protocol.CodeInvalidMove, "inc takes one number")
		}
		f.bump(args[0])
		return send(m.ID)
	case "flood":
		for i := 0; i < args[0]; i++ {
			f.bump(1)
			if err := send(nil); err != nil {
				return err
			}
		}
		return send(m.ID)
	case "bad":
		return refuse(protocol.CodeInvalidMove, "that is not allowed")
	case "mute":
		return nil
	case "join":
		f.mu.Lock()
		f.bob = true
		f.mu.Unlock()
		return send(nil)
	case "bye":
		ws.Close()
		return nil
	}
	return refuse(protocol.CodeUnknownMove, "no such move")
}

// set changes the fake's state under its lock.
func (f *fakeWS) set(change func(f *fakeWS)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	change(f)
}

// dropAll closes every connection abruptly, as a failing network would.
func (f *fakeWS) dropAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for ws := range f.conns {
		ws.NetConn().Close()
	}
}

func (f *fakeWS) bump(k int) {
	f.mu.Lock()
	f.n += k
	f.stateID++
	f.mu.Unlock()
}

func (f *fakeWS) state(you string, ack *int64, autoplay bool) protocol.State {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, _ := json.Marshal(map[string]int{"n": f.n})
	seat1 := protocol.Player{ID: 1}
	if f.bob {
		seat1 = protocol.Player{ID: 1, Name: "bob", IsConnected: true}
	}
	return protocol.State{
		Type: "state", MatchID: "m1", StateID: f.stateID, Ack: ack, G: g, You: you,
		Ctx:     protocol.Ctx{NumPlayers: 2, PlayOrder: []string{"0", "1"}, CurrentPlayer: "0", Started: true, Gameover: json.RawMessage("null")},
		Players: []protocol.Player{{ID: 0, Name: "p0", IsConnected: true, Autoplay: autoplay}, seat1},
	}
}

// counter decodes the fake game's G.
func counter(t *testing.T, st *protocol.State) int {
	t.Helper()
	var g struct{ N int }
	if err := json.Unmarshal(st.G, &g); err != nil {
		t.Fatalf("G %s: %v", st.G, err)
	}
	return g.N
}
