package server_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/server/servertest"
)

func TestMetricsCountMovesConnectionsAndErrors(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, black, _ := startedGomoku(t, srv.URL)
	w := dial(t, srv.URL, "gomoku", id)
	w.hello(&black)
	w.acked(w.move("place", 7, 7))
	w.move("place", 7, 7)
	w.expectError("not_your_turn")
	_, b := get(t, srv.URL+"/metrics")
	for _, want := range []string{
		`chaguan_moves_total{game="gomoku"} 1`,
		`chaguan_ws_connections 1`,
		`chaguan_errors_total{code="not_your_turn"} 1`,
		`chaguan_matches_created_total{game="gomoku"} 1`,
		`chaguan_move_seconds_count{game="gomoku"} 1`,
		`chaguan_rooms_loaded 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

func TestShutdownSendsGoingAway(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, black, _ := startedGomoku(t, srv.URL)
	w := dial(t, srv.URL, "gomoku", id)
	w.hello(&black)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	srv.Handler.Shutdown(ctx)
	// The reader goroutine of the test client stops at the close frame.
	for range w.msgs {
	}
	_, _, err := w.c.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Fatalf("close after shutdown: %v, want going away (1001)", err)
	}
	// New WebSockets are refused while draining.
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/games/gomoku/" + id + "/ws"
	if _, resp, err := websocket.DefaultDialer.Dial(url, nil); err == nil || resp == nil || resp.StatusCode != 503 {
		t.Fatalf("dial while draining: %v %v", err, resp)
	}
}

// TestUnwatchedBotMatchStopsAndResumes: an all-bot match nobody watches
// stops playing once its room has been unwatched for IdleUnload, and the
// room unloads; a spectator connecting resumes it to its end.
func TestUnwatchedBotMatchStopsAndResumes(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{IdleUnload: 100 * time.Millisecond, BotDelay: 20 * time.Millisecond})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2, "bots": map[string]string{"0": "normal", "1": "easy"}})
	deadline := time.Now().Add(30 * time.Second)
	for srv.Rooms.LiveRooms() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d rooms still loaded", srv.Rooms.LiveRooms())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, b := get(t, srv.URL+"/games/gomoku/"+id); strings.Contains(string(b), `"gameover":{`) {
		t.Fatalf("the unwatched match played to its end: %s", b)
	}
	w := dial(t, srv.URL, "gomoku", id)
	w.hello(nil)
	w.stateWhere(func(s *protocolState) bool { return string(s.Ctx.Gameover) != "null" })
}

// TestDebugRoutes: /debug/pprof and POST /debug/gc are served only with
// Pprof set.
func TestDebugRoutes(t *testing.T) {
	for _, on := range []bool{false, true} {
		srv := servertest.Start(t, servertest.Options{Pprof: on})
		wantOK := func(ok int) int {
			if on {
				return ok
			}
			return http.StatusNotFound
		}
		if code, _ := get(t, srv.URL+"/debug/pprof/"); code != wantOK(http.StatusOK) {
			t.Errorf("pprof=%v: GET /debug/pprof/ = %d", on, code)
		}
		if code, _ := post(t, srv.URL+"/debug/gc", ""); code != wantOK(http.StatusNoContent) {
			t.Errorf("pprof=%v: POST /debug/gc = %d", on, code)
		}
	}
}
