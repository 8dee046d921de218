package server_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestNumbersRangeCheckedBeforeArithmetic: room options that would
// overflow when turned into durations are refused, not wrapped around into
// a small value; the bounds themselves are accepted.
func TestNumbersRangeCheckedBeforeArithmetic(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	url := srv.URL + "/games/gomoku/create"
	for _, body := range []string{
		`{"graceSeconds":18446744074}`,
		`{"graceSeconds":9223372037}`,
		`{"graceSeconds":-9223372036854775808}`,
		`{"graceSeconds":3601}`,
		`{"graceSeconds":-1}`,
		`{"botDelayMs":18446744073710}`,
		`{"botDelayMs":9223372036855}`,
		`{"botDelayMs":10001}`,
		`{"botDelayMs":-1}`,
		`{"numPlayers":18446744073709551617}`,
		`{"numPlayers":-9223372036854775808}`,
	} {
		code, m := post(t, url, body)
		if code != 400 || m["error"] != "bad_request" {
			t.Errorf("create %s: %d %v, want 400 bad_request", body, code, m)
		}
	}
	var id string
	for _, body := range []string{`{"graceSeconds":3600,"botDelayMs":10000}`, `{"graceSeconds":0,"botDelayMs":0}`} {
		code, m := post(t, url, body)
		if code != 200 {
			t.Errorf("create %s: %d %v, want 200", body, code, m)
		}
		id, _ = m["matchID"].(string)
	}
	// The other numbers of the lobby: seat IDs and list filters.
	for _, seatID := range []string{"18446744073709551617", "-9223372036854775808", "4294967296"} {
		code, m := post(t, srv.URL+"/games/gomoku/"+id+"/join", map[string]any{"playerName": "A", "playerID": seatID})
		if code != 404 || m["error"] != "not_found" {
			t.Errorf("join seat %s: %d %v, want 404 not_found", seatID, code, m)
		}
	}
	if code, _ := get(t, srv.URL+"/games/gomoku?updatedAfter=99999999999999999999"); code != 400 {
		t.Errorf("updatedAfter past int64: %d, want 400", code)
	}
}

// TestRefusedPlayAgainLeavesNoDeadID: a playAgain refused for its
// parameters records no nextMatchID; the next valid one returns a match
// that can be joined at once.
func TestRefusedPlayAgainLeavesNoDeadID(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	ann := join(t, srv.URL, "gomoku", id, "Ann")
	m := srv.URL + "/games/gomoku/" + id
	for _, extra := range []map[string]any{{"numPlayers": 99}, {"setupData": "zz"}} {
		body := map[string]any{"playerID": ann.id, "credentials": ann.creds}
		for k, v := range extra {
			body[k] = v
		}
		if code, r := post(t, m+"/playAgain", body); code != 400 {
			t.Fatalf("playAgain %v: %d %v, want 400", extra, code, r)
		}
		if _, b := get(t, m); strings.Contains(string(b), "nextMatchID") {
			t.Fatalf("refused playAgain %v recorded a next match: %s", extra, b)
		}
	}
	code, r := post(t, m+"/playAgain", map[string]any{"playerID": ann.id, "credentials": ann.creds})
	next, _ := r["nextMatchID"].(string)
	if code != 200 || next == "" {
		t.Fatalf("playAgain: %d %v", code, r)
	}
	join(t, srv.URL, "gomoku", next, "Ann")
}

// TestInvisibleNamesRefused: names with nothing visible in them are
// refused; invisible and control characters are taken out of names that
// have visible ones; a too-long newName is called too long.
func TestInvisibleNamesRefused(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	m := srv.URL + "/games/gomoku/" + id
	for _, name := range []string{
		"\x00", "\x00\x00\x00", "\u200b", "\u200c\u200d", "\u2060\ufeff", "\u200e\u200f",
		"\u202a\u202b\u202c\u202d\u202e", "\u2066\u2067\u2068\u2069", "\u00ad", "\x7f\x01",
		" \u200b \u3164 ", "\ufe0f",
	} {
		code, r := post(t, m+"/join", map[string]any{"playerName": name})
		if code != 400 || r["error"] != "bad_request" || !strings.Contains(r["message"].(string), "visible") {
			t.Errorf("join as %q: %d %v, want 400 bad_request about visible characters", name, code, r)
		}
	}
	if _, b := get(t, m); strings.Contains(string(b), `"name"`) {
		t.Fatalf("a refused join took a seat: %s", b)
	}
	ann := join(t, srv.URL, "gomoku", id, "\u202eA\u200bn\x00n\u2066")
	if _, b := get(t, m); !strings.Contains(string(b), `"name":"Ann"`) {
		t.Fatalf("invisible characters kept in the name: %s", b)
	}
	long := strings.Repeat("x", 41)
	code, r := post(t, m+"/update", map[string]any{"playerID": ann.id, "credentials": ann.creds, "newName": long})
	msg, _ := r["message"].(string)
	if code != 400 || !strings.Contains(msg, "longer than 40") || strings.Contains(msg, "empty") {
		t.Fatalf("update with a 41-character name: %d %v, want 400 saying it is too long", code, r)
	}
	code, r = post(t, m+"/update", map[string]any{"playerID": ann.id, "credentials": ann.creds, "newName": "\u200b"})
	if code != 400 || !strings.Contains(r["message"].(string), "newName") {
		t.Fatalf("update with an invisible name: %d %v", code, r)
	}
}

// TestFloodClosesWithPolicyViolation: a connection that keeps sending
// past its rate limit is closed with 1008, not a normal closure.
func TestFloodClosesWithPolicyViolation(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 0.001, Burst: 1, SendBuffer: 1024}})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/games/gomoku/" + id + "/ws"
	c, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	// The hello takes the one token; each sync after it is refused, and
	// the 201st refusal in a row closes. No more are sent, so the server
	// has nothing unread when it closes (which would reset the socket).
	go func() {
		for range 201 {
			if c.WriteMessage(websocket.TextMessage, []byte(`{"type":"sync"}`)) != nil {
				return
			}
		}
	}()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.ClosePolicyViolation {
			t.Fatalf("flood ended with %v, want close 1008", err)
		}
		return
	}
}

// TestCreateAndJoinThrottledPerClient: creates and joins from one address
// share a bucket; past it they get 429 rate_limited in the lobby's error
// shape, while other routes still answer.
func TestCreateAndJoinThrottledPerClient(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Throttle: server.Throttle{Rate: 0.001, Burst: 3}})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	join(t, srv.URL, "gomoku", id, "Ann")
	for _, url := range []string{srv.URL + "/games/gomoku/create", srv.URL + "/games/gomoku/" + id + "/join"} {
		code, m := post(t, url, map[string]any{"playerName": "Bob"})
		if code != 429 || m["error"] != "rate_limited" || m["message"] == "" {
			t.Fatalf("POST %s past the burst: %d %v, want 429 rate_limited", url, code, m)
		}
	}
	if code, b := get(t, srv.URL+"/games/gomoku/"+id); code != 200 || strings.Contains(string(b), "Bob") {
		t.Fatalf("GET after throttling: %d %s", code, b)
	}
}

// TestCreateRefusedAtRoomCap: with MaxRooms rooms live, create answers
// 503 unavailable.
func TestCreateRefusedAtRoomCap(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{MaxRooms: 2})
	create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	code, m := post(t, srv.URL+"/games/gomoku/create", map[string]any{"numPlayers": 2})
	if code != 503 || m["error"] != "unavailable" || !strings.Contains(m["message"].(string), "limit") {
		t.Fatalf("create past the cap: %d %v, want 503 unavailable", code, m)
	}
}
