package browsertest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/chaguan/chaguan/server/servertest"
	"github.com/gorilla/websocket"
)

// PostJSON posts body to base+path and decodes the JSON answer into out.
func PostJSON(t *testing.T, base, path string, body, out any) {
	t.Helper()
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	res, err := http.Post(base+path, "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatalf("POST %s: %v", path, err)
	}
}

// ReadWS returns the next state or patch message (a failure guard of 30 s).
func ReadWS(t *testing.T, c *websocket.Conn) []byte {
	t.Helper()
	for {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		_, b, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if bytes.HasPrefix(b, []byte(`{"type":"state"`)) || bytes.HasPrefix(b, []byte(`{"type":"patch"`)) {
			return b
		}
	}
}

// StartServer starts the lead's test server (in-memory store, bots with no
// delay, closed when t ends) and returns its base URL.
func StartServer(t testing.TB) string {
	t.Helper()
	return servertest.Start(t, servertest.Options{}).URL
}

// CreateMatch creates a match over HTTP with the given create body and
// returns its ID.
func CreateMatch(t *testing.T, base, game string, body map[string]any) string {
	t.Helper()
	b, _ := json.Marshal(body)
	resp, err := http.Post(base+"/games/"+game+"/create", "application/json", bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		MatchID string `json:"matchID"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode != 200 || out.MatchID == "" {
		t.Fatalf("create %s: status %d, %v", game, resp.StatusCode, err)
	}
	return out.MatchID
}
