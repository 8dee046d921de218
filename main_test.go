package main

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func freeAddr(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
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
	resp, err := http.Post(base+"/games/gomoku/create", "application/json", strings.NewReader(`{"numPlayers":2}`))
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
	defer ws.Close()
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
