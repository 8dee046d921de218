package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// wsCase is one WebSocket message of the matrix and the error code it
// must get.
type wsCase struct {
	name string
	msg  string
	code string
}

// expectErrorCode reads past states and chat to the next error and checks
// its code and that it has a message.
func expectErrorCode(t *testing.T, w *wsClient, tc wsCase) {
	t.Helper()
	e := w.errorMsg()
	if e.Code != tc.code || e.Message == "" {
		t.Fatalf("%s: error %q (%s), want %q with a message", tc.msg, e.Code, e.Message, tc.code)
	}
}

// helloCases are refused hellos: each is sent first on a fresh connection.
func helloCases(black, mallory, left seat) []wsCase {
	hello := func(id, creds string) string {
		return `{"type":"hello","playerID":` + quote(id) + `,"credentials":` + quote(creds) + `}`
	}
	huge := strings.Repeat("9", 400)
	return []wsCase{
		{"playerID a number", `{"type":"hello","playerID":0,"credentials":"` + black.creds + `"}`, protocol.CodeBadRequest},
		{"credentials a number", `{"type":"hello","playerID":"0","credentials":5}`, protocol.CodeBadRequest},
		{"name an object", `{"type":"hello","name":{"a":1}}`, protocol.CodeBadRequest},
		{"wrong credentials", hello(black.id, "0000"), protocol.CodeUnauthorized},
		{"cross-match credentials", hello(mallory.id, mallory.creds), protocol.CodeUnauthorized},
		{"credentials left in another match", hello(left.id, left.creds), protocol.CodeUnauthorized},
		{"playerID huge", hello(huge, black.creds), protocol.CodeUnauthorized},
		{"playerID control characters", hello("\x00\u202e", black.creds), protocol.CodeUnauthorized},
		{"credentials hostile text", hello(black.id, hostileName+"\x00"), protocol.CodeUnauthorized},
		{"move before hello", `{"type":"move","id":1,"move":"place","args":[7,7]}`, protocol.CodeUnauthorized},
		{"chat before hello", `{"type":"chat","text":"hi"}`, protocol.CodeBadRequest},
		{"an array", `[]`, protocol.CodeBadRequest},
		{"type a number", `{"type":5}`, protocol.CodeBadRequest},
		{"not JSON", "\x00\xff{", protocol.CodeBadRequest},
	}
}

// playCases are refused messages after a seated player's hello.
func playCases() []wsCase {
	huge := strings.Repeat("9", 400)
	return []wsCase{
		{"move id a string", `{"type":"move","id":"1","move":"place","args":[7,7]}`, protocol.CodeBadRequest},
		{"move id huge", `{"type":"move","id":` + huge + `,"move":"place","args":[7,7]}`, protocol.CodeBadRequest},
		{"move id a float", `{"type":"move","id":1.5,"move":"place","args":[7,7]}`, protocol.CodeBadRequest},
		{"move name a number", `{"type":"move","id":1,"move":5}`, protocol.CodeBadRequest},
		{"move name missing", `{"type":"move","id":1,"args":[7,7]}`, protocol.CodeBadRequest},
		{"move args an object", `{"type":"move","id":1,"move":"place","args":{"x":7}}`, protocol.CodeBadRequest},
		{"move args strings", `{"type":"move","id":1,"move":"place","args":["7","7"]}`, protocol.CodeInvalidMove},
		{"move args huge", `{"type":"move","id":1,"move":"place","args":[` + huge + `,7]}`, protocol.CodeInvalidMove},
		{"move args negative", `{"type":"move","id":1,"move":"place","args":[-9223372036854775808,7]}`, protocol.CodeInvalidMove},
		{"move unknown unicode", `{"type":"move","id":1,"move":` + quote(hostileName+"\x00") + `}`, protocol.CodeUnknownMove},
		{"move stateID a string", `{"type":"move","id":1,"move":"place","args":[7,7],"stateID":"1"}`, protocol.CodeBadRequest},
		{"move stateID huge", `{"type":"move","id":1,"move":"place","args":[7,7],"stateID":9223372036854775807}`, protocol.CodeStaleState},
		{"sync id a string", `{"type":"sync","id":"x"}`, protocol.CodeBadRequest},
		{"chat text a number", `{"type":"chat","text":5}`, protocol.CodeBadRequest},
		{"chat text empty", `{"type":"chat","text":""}`, protocol.CodeBadRequest},
		{"chat text missing", `{"type":"chat"}`, protocol.CodeBadRequest},
		{"chat text too long", `{"type":"chat","text":"` + strings.Repeat("长", protocol.MaxChat+1) + `"}`, protocol.CodeBadRequest},
		{"autoplay on a string", `{"type":"autoplay","on":"yes"}`, protocol.CodeBadRequest},
		{"autoplay on a number", `{"type":"autoplay","on":1}`, protocol.CodeBadRequest},
		{"autoplay on missing", `{"type":"autoplay"}`, protocol.CodeBadRequest},
		{"hello again", `{"type":"hello","playerID":"0","credentials":"x"}`, protocol.CodeBadRequest},
		{"unknown type", `{"type":"teleport"}`, protocol.CodeBadRequest},
		{"empty type", `{"type":""}`, protocol.CodeBadRequest},
		{"type unicode", `{"type":` + quote(hostileName) + `}`, protocol.CodeBadRequest},
		{"a string", `"move"`, protocol.CodeBadRequest},
	}
}

// TestHostileWebSocketMatrix: every message type with wrong types, missing
// fields, huge numbers, hostile text and replayed or cross-match
// credentials is refused with its exact code; the connection stays open
// and nothing changes (the player's state, the match and the lobby).
func TestHostileWebSocketMatrix(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1e6, Burst: 1000}})
	base := srv.URL
	id, black, _ := startedGomoku(t, base)
	other := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	mallory := join(t, base, "gomoku", other, "Mallory")
	emptied := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	left := join(t, base, "gomoku", emptied, "Lee")
	if code, b := post(t, base+"/games/gomoku/"+emptied+"/leave", map[string]any{"playerID": left.id, "credentials": left.creds}); code != 200 {
		t.Fatalf("leave: %d %v", code, b)
	}
	w := dial(t, base, "gomoku", id)
	first := w.hello(&black)
	before := settledSnapshot(t, base, id, `"name":"Black","isConnected":true`)
	for _, tc := range helloCases(black, mallory, left) {
		t.Run("hello/"+tc.name, func(t *testing.T) {
			c := dial(t, base, "gomoku", id)
			c.send(tc.msg)
			expectErrorCode(t, c, tc)
			// The connection stays open: a spectator's hello still works.
			if s := c.hello(nil); s.You != "" || s.StateID != first.StateID {
				t.Fatalf("spectator after a refused hello: you=%q stateID %d", s.You, s.StateID)
			}
		})
	}
	for _, tc := range playCases() {
		t.Run("play/"+tc.name, func(t *testing.T) {
			w.send(tc.msg)
			expectErrorCode(t, w, tc)
		})
	}
	t.Run("binary frame", func(t *testing.T) {
		if err := w.c.WriteMessage(websocket.BinaryMessage, []byte(`{"type":"sync"}`)); err != nil {
			t.Fatal(err)
		}
		expectErrorCode(t, w, wsCase{msg: "binary", code: protocol.CodeBadRequest})
	})
	w.send(`{"type":"sync"}`)
	if s := w.state(); s.StateID != first.StateID || s.You != black.id {
		t.Fatalf("after the matrix: stateID %d you %q, want %d %q", s.StateID, s.You, first.StateID, black.id)
	}
	if after := snapshot(t, base, "gomoku", id); after != before {
		t.Fatalf("refused messages changed the match:\nbefore %s\nafter  %s", before, after)
	}
}

// TestReplayedCredentialsOfALeftSeat: once a player leaves, their
// credentials open nothing: not a hello on the WebSocket, not the lobby's
// seat routes, whether the seat was emptied (before the start) or handed
// to a bot (after it).
func TestReplayedCredentialsOfALeftSeat(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	waiting := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	lee := join(t, base, "gomoku", waiting, "Lee")
	started, _, white := startedGomoku(t, base)
	for _, tc := range []struct {
		match string
		s     seat
	}{{waiting, lee}, {started, white}} {
		mp := base + "/games/gomoku/" + tc.match
		body := map[string]any{"playerID": tc.s.id, "credentials": tc.s.creds}
		if code, b := post(t, mp+"/leave", body); code != 200 {
			t.Fatalf("leave: %d %v", code, b)
		}
		before := snapshot(t, base, "gomoku", tc.match)
		w := dial(t, base, "gomoku", tc.match)
		w.send(map[string]any{"type": "hello", "playerID": tc.s.id, "credentials": tc.s.creds})
		w.expectError(protocol.CodeUnauthorized)
		for _, route := range []string{"/leave", "/update", "/playAgain"} {
			body["newName"] = "Back"
			if code, b := post(t, mp+route, body); code != 403 || b["error"] != protocol.CodeForbidden {
				t.Fatalf("%s with a left seat's credentials: %d %v, want 403 forbidden", route, code, b)
			}
		}
		if after := snapshot(t, base, "gomoku", tc.match); after != before {
			t.Fatalf("replayed credentials changed the match:\nbefore %s\nafter  %s", before, after)
		}
	}
}

// settledSnapshot waits until the match's lobby view contains want (the
// presence of a hello is stored after the hello's answer), then takes its
// snapshot.
func settledSnapshot(t *testing.T, base, id, want string) string {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		s := snapshot(t, base, "gomoku", id)
		if strings.Contains(s, want) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("the lobby never showed %s: %s", want, s)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestHostileTextRelayedAsData: a name and chat of markup and control
// characters reach the other players as JSON text, with the markup intact
// (the web client escapes it: clients/web's XSS browser test) and control
// characters taken out of names and chat; nothing about it reaches a spectator
// beyond what a seated player sees.
func TestHostileTextRelayedAsData(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	evil := join(t, base, "gomoku", id, hostileName+"\x07\u202e")
	_, b := get(t, base+"/games/gomoku/"+id)
	var m struct{ Players []protocol.Player }
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m.Players[0].Name != hostileName {
		t.Fatalf("name %q, want %q (control characters out, markup kept as text)", m.Players[0].Name, hostileName)
	}
	spectator := dial(t, base, "gomoku", id)
	spectator.hello(nil)
	p := dial(t, base, "gomoku", id)
	p.hello(&evil)
	text := hostileName + "\x00\u202e<script>window.__xss=2</script>"
	p.send(map[string]any{"type": "chat", "text": text})
	for {
		typ, raw := spectator.read()
		if typ != "chat" {
			continue
		}
		var c protocol.Chat
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		// Markup stays as text; the NUL and the direction override go, as
		// in names.
		want := hostileName + "<script>window.__xss=2</script>"
		if c.Text != want || c.Name != hostileName || c.From != evil.id {
			t.Fatalf("chat %+v, want %q from %q", c, want, hostileName)
		}
		return
	}
}
