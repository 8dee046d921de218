package server_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// lobbyPlayers is the seats of GET /games/{name}/{id}.
func lobbyPlayers(t *testing.T, base, game, id string) []protocol.Player {
	t.Helper()
	_, b := get(t, base+"/games/"+game+"/"+id)
	var m struct{ Players []protocol.Player }
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("match %s: %v", b, err)
	}
	return m.Players
}

// raceClient sends the racing requests over many connections at once.
var raceClient = &http.Client{Transport: &http.Transport{MaxConnsPerHost: 256, MaxIdleConnsPerHost: 256}}

// racePost posts body and returns the status and the decoded answer.
func racePost(u, body string) (int, map[string]any, error) {
	resp, err := raceClient.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return resp.StatusCode, m, nil
}

// TestThousandJoinsRaceForOneSeat: 1,000 concurrent joins for one free
// seat: exactly one wins, every other gets 409 conflict, and the seat holds
// the winner with working credentials.
func TestThousandJoinsRaceForOneSeat(t *testing.T) {
	const n = 1000
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	join(t, base, "gomoku", id, "Ann")
	u := base + "/games/gomoku/" + id + "/join"
	type result struct {
		code int
		body map[string]any
		err  error
	}
	results := make([]result, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			body := fmt.Sprintf(`{"playerName":"P%d","playerID":"1"}`, i)
			results[i].code, results[i].body, results[i].err = racePost(u, body)
		}()
	}
	close(start)
	wg.Wait()
	winner := -1
	for i, r := range results {
		switch {
		case r.err != nil:
			t.Fatalf("join %d: %v", i, r.err)
		case r.code == 200:
			if winner >= 0 {
				t.Fatalf("two joins won seat 1: P%d and P%d", winner, i)
			}
			winner = i
		case r.code != 409 || r.body["error"] != protocol.CodeConflict:
			t.Fatalf("join %d: %d %v, want 409 conflict", i, r.code, r.body)
		}
	}
	if winner < 0 {
		t.Fatal("no join won the seat")
	}
	if got := lobbyPlayers(t, base, "gomoku", id)[1].Name; got != fmt.Sprintf("P%d", winner) {
		t.Fatalf("seat 1 holds %q, but P%d won", got, winner)
	}
	w := dial(t, base, "gomoku", id)
	s := w.hello(&seat{"1", results[winner].body["playerCredentials"].(string)})
	if s.You != "1" || !s.Ctx.Started {
		t.Fatalf("the winner's hello: you=%q started=%v", s.You, s.Ctx.Started)
	}
}

// TestLeaveRacingJoin: a seated player leaving while another joins ends in
// one of the two orders' states, never a mix: both requests succeed, the
// joiner holds exactly one seat with working credentials, and the leaver's
// seat is either emptied (leave first: the joiner takes it) or handed to a
// bot (join first: the match started).
func TestLeaveRacingJoin(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	orders := map[string]int{}
	for range 30 {
		id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
		ann := join(t, base, "gomoku", id, "Ann")
		mp := base + "/games/gomoku/" + id
		var leaveCode, joinCode int
		var joined map[string]any
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			leaveCode, _, _ = racePost(mp+"/leave", fmt.Sprintf(`{"playerID":%q,"credentials":%q}`, ann.id, ann.creds))
		}()
		go func() {
			defer wg.Done()
			joinCode, joined, _ = racePost(mp+"/join", `{"playerName":"Carl"}`)
		}()
		wg.Wait()
		if leaveCode != 200 || joinCode != 200 {
			t.Fatalf("leave %d, join %d %v: want both 200", leaveCode, joinCode, joined)
		}
		carl := seat{joined["playerID"].(string), joined["playerCredentials"].(string)}
		orders[checkLeaveJoinEnd(t, lobbyPlayers(t, base, "gomoku", id), carl)]++
		if code, b := post(t, mp+"/update", map[string]any{"playerID": carl.id, "credentials": carl.creds, "newName": "Carla"}); code != 200 {
			t.Fatalf("the joiner's credentials: %d %v", code, b)
		}
		if code, _ := post(t, mp+"/update", map[string]any{"playerID": ann.id, "credentials": ann.creds, "newName": "Ann2"}); code != 403 {
			t.Fatalf("the leaver's credentials still work: %d", code)
		}
	}
	t.Logf("orders seen: %v", orders)
}

// checkLeaveJoinEnd checks the seats after a leave raced a join and names
// the order they show.
func checkLeaveJoinEnd(t *testing.T, ps []protocol.Player, carl seat) string {
	t.Helper()
	switch {
	case carl.id == "0" && ps[0].Name == "Carl" && ps[1].Name == "" && !ps[1].IsBot:
		return "leave first"
	case carl.id == "1" && ps[1].Name == "Carl" && ps[0].IsBot:
		return "join first"
	}
	t.Fatalf("inconsistent end state: Carl got seat %s, seats %+v", carl.id, ps)
	return ""
}

// TestChatFloodRateLimited: a connection flooding chat is refused with
// rate_limited past its budget, and the other player's connection in the
// same match is unaffected: its chat goes through at once and it sees at
// most the flooder's budget of chat.
func TestChatFloodRateLimited(t *testing.T) {
	const rate, burst, flood = 1, 5, 150
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: rate, Burst: burst}})
	base := srv.URL
	id, black, white := startedGomoku(t, base)
	flooder, other := dial(t, base, "gomoku", id), dial(t, base, "gomoku", id)
	began := time.Now()
	flooder.hello(&black)
	other.hello(&white)
	for i := range flood {
		flooder.send(map[string]any{"type": "chat", "text": fmt.Sprintf("spam %d", i)})
	}
	flooder.expectError(protocol.CodeRateLimited)
	other.send(map[string]any{"type": "chat", "text": "still here"})
	spam := 0
	for {
		typ, b := other.read()
		if typ == "error" {
			t.Fatalf("the other connection was refused: %s", b)
		}
		if typ != "chat" {
			continue
		}
		var c protocol.Chat
		_ = json.Unmarshal(b, &c)
		if c.From == white.id && c.Text == "still here" {
			break
		}
		spam++
	}
	// Budget: the burst plus what refilled while the test ran.
	if most := burst + int(time.Since(began).Seconds()*rate) + 1; spam > most {
		t.Fatalf("%d flood messages got through, budget %d", spam, most)
	}
	if spam >= flood {
		t.Fatal("the flood was not limited")
	}
	t.Logf("%d of %d flood messages reached the other player", spam, flood)
	other.send(`{"type":"sync"}`)
	if s := other.state(); s.You != white.id {
		t.Fatalf("other's sync: you=%q", s.You)
	}
}

// dialStatus opens a WebSocket to the match, returning the connection, or
// the refusal's status and error body.
func dialStatus(t *testing.T, base, id string) (*websocket.Conn, int, protocol.ErrorBody) {
	t.Helper()
	u := "ws" + strings.TrimPrefix(base, "http") + "/games/gomoku/" + id + "/ws"
	c, resp, err := websocket.DefaultDialer.Dial(u, nil)
	if err == nil {
		t.Cleanup(func() { c.Close() })
		return c, 101, protocol.ErrorBody{}
	}
	if resp == nil {
		t.Fatalf("dial: %v", err)
	}
	defer resp.Body.Close()
	var e protocol.ErrorBody
	_ = json.NewDecoder(resp.Body).Decode(&e)
	return nil, resp.StatusCode, e
}

// TestConnectionCaps: past the per-process and the per-address cap, an
// upgrade is refused with 503 and an unavailable error body; the live
// connections keep working, and closing one frees its slot.
func TestConnectionCaps(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ws      server.WSConfig
		limit   int
		message string
	}{
		{"per process", server.WSConfig{MaxConns: 3}, 3, "as many connections"},
		{"per address", server.WSConfig{MaxConnsPerIP: 2}, 2, "your address"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := servertest.Start(t, servertest.Options{WS: tc.ws})
			id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
			var live []*websocket.Conn
			for range tc.limit {
				c, code, e := dialStatus(t, srv.URL, id)
				if code != 101 {
					t.Fatalf("connection %d of %d refused: %d %+v", len(live)+1, tc.limit, code, e)
				}
				live = append(live, c)
			}
			_, code, e := dialStatus(t, srv.URL, id)
			if code != 503 || e.Error != protocol.CodeUnavailable || !strings.Contains(e.Message, tc.message) {
				t.Fatalf("past the cap: %d %+v, want 503 unavailable about %q", code, e, tc.message)
			}
			checkHelloWorks(t, live[0])
			live[1].Close()
			waitForSlot(t, srv.URL, id)
		})
	}
}

// checkHelloWorks says hello as a spectator on c and expects a state.
func checkHelloWorks(t *testing.T, c *websocket.Conn) {
	t.Helper()
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello"}`)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(readWait))
	_, b, err := c.ReadMessage()
	if err != nil || !strings.Contains(string(b), `"type":"state"`) {
		t.Fatalf("a live connection under the cap: %s %v", b, err)
	}
}

// waitForSlot dials until a connection is taken again: the server frees a
// closed connection's slot once it has read the close.
func waitForSlot(t *testing.T, base, id string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, code, e := dialStatus(t, base, id)
		if code == 101 {
			return
		}
		if code != 503 || time.Now().After(deadline) {
			t.Fatalf("after closing a connection: %d %+v, want a slot back", code, e)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
