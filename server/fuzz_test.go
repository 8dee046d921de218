package server_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// lobbyRoutes are the lobby's POST routes that take a JSON body; all but
// create act on a match.
var lobbyRoutes = []string{"create", "join", "update", "leave", "playAgain", "bot"}

// fuzzGames are the games a fuzzed request names: every served game and
// one that does not exist.
var fuzzGames = []string{"gomoku", "gongzhu", "threemonks", "weiqi", "carcassonne", "chess"}

// Placeholders a fuzzed body may hold; they are replaced by the seat ID
// and credentials of the player who created the match the request is for,
// so that the fuzzer gets past the credential checks.
const (
	holderSeat  = "$SEAT"
	holderCreds = "$CREDS"
)

// FuzzLobbyBodies posts fuzzed bodies to every lobby route through the real
// Echo handler, each to a match with one player seated and nothing else
// done to it: never a panic, never a 5xx, a 4xx always carries the JSON
// error body of docs/protocol.md, a 200 is JSON, and no response shows the
// seated player's credentials.
func FuzzLobbyBodies(f *testing.F) {
	addLobbySeeds(f)
	srv := servertest.Start(f, servertest.Options{MaxRooms: -1, BotDelay: time.Hour, IdleUnload: time.Second})
	pool := fuzzMatches{h: srv.Handler, seated: map[string]seatedMatch{}}
	f.Fuzz(func(t *testing.T, route, game uint8, body []byte) {
		r := lobbyRoutes[int(route)%len(lobbyRoutes)]
		g := fuzzGames[int(game)%len(fuzzGames)]
		path, m := "/games/"+g+"/create", seatedMatch{id: "nope"}
		if r != "create" {
			if g != "chess" {
				m = pool.get(t, g)
			}
			path = "/games/" + g + "/" + m.id + "/" + r
		}
		body = bytes.ReplaceAll(bytes.ReplaceAll(body, []byte(holderSeat), []byte(m.seat)), []byte(holderCreds), []byte(m.creds))
		code, resp := lobbyPost(srv.Handler, path, body)
		checkLobbyResponse(t, path, body, code, resp, m.creds)
		if code == http.StatusOK && r != "create" {
			pool.used(g)
		}
	})
}

// seatedMatch is a match with one player seated.
type seatedMatch struct{ id, seat, creds string }

// fuzzMatches keeps one seated match per game for the fuzzer. A refused
// request changes nothing, so a match serves until a request succeeds;
// then the next request gets a fresh one. This keeps the matches the
// server holds to about one per accepted request.
type fuzzMatches struct {
	h      http.Handler
	seated map[string]seatedMatch
}

// get returns game's seated match, creating it when there is none.
func (p fuzzMatches) get(t *testing.T, game string) seatedMatch {
	t.Helper()
	m, ok := p.seated[game]
	if !ok {
		m = newSeatedMatch(t, p.h, game)
		p.seated[game] = m
	}
	return m
}

// used forgets game's match after a request to it succeeded.
func (p fuzzMatches) used(game string) { delete(p.seated, game) }

// addLobbySeeds adds well-formed and malformed bodies for every route.
func addLobbySeeds(f *testing.F) {
	bodies := map[string][]string{
		"create": {`{"numPlayers":2}`, `{"numPlayers":4,"setupData":{"size":9},"bots":{"1":"easy"},"graceSeconds":5,"botDelayMs":10}`,
			`{"numPlayers":2,"setupData":[1]}`, `{"graceSeconds":-1}`, `{"botDelayMs":99999999999}`, `{"bots":{"x":"easy"}}`, `{"numPlayers":"two"}`, ``},
		"join":      {`{"playerName":"Ann"}`, `{"playerName":"Bo","playerID":"1","data":{"a":1}}`, `{"playerName":"Bo","playerID":"$SEAT"}`, `{"playerID":"01"}`, `[]`},
		"update":    {`{"playerID":"$SEAT","credentials":"$CREDS","newName":"Zoe"}`, `{"playerID":"$SEAT","credentials":"$CREDS","newName":" "}`, `{"playerID":"$SEAT","credentials":"x","data":null}`},
		"leave":     {`{"playerID":"$SEAT","credentials":"$CREDS"}`, `{"playerID":"9","credentials":"$CREDS"}`, `{"playerID":null}`},
		"playAgain": {`{"playerID":"$SEAT","credentials":"$CREDS"}`, `{"playerID":"$SEAT","credentials":"$CREDS","numPlayers":3,"setupData":{"size":13}}`, `{"credentials":""}`},
		"bot":       {`{"playerID":"$SEAT","credentials":"$CREDS","seat":"1","level":"easy"}`, `{"playerID":"$SEAT","credentials":"$CREDS","seat":"$SEAT","level":"normal"}`, `{"playerID":"$SEAT","credentials":"$CREDS","seat":"-1","level":""}`},
	}
	for i, r := range lobbyRoutes {
		for j, b := range bodies[r] {
			f.Add(uint8(i), uint8(j%len(fuzzGames)), []byte(b))
		}
	}
	f.Add(uint8(0), uint8(3), []byte(`{"numPlayers":2,"setupData":{"size":9},"bots":{"1":"easy"}}`))
	f.Add(uint8(0), uint8(5), []byte(`{"numPlayers":2}`))
	f.Add(uint8(1), uint8(0), []byte(`{"playerName":"`+strings.Repeat("長", 300)+`"}`))
}

// newSeatedMatch creates a match of game with its fewest players through
// the handler and seats one player in it.
func newSeatedMatch(t *testing.T, h http.Handler, game string) seatedMatch {
	t.Helper()
	code, resp := lobbyPost(h, "/games/"+game+"/create", []byte(`{}`))
	var created protocol.CreateResponse
	if code != http.StatusOK || json.Unmarshal(resp, &created) != nil {
		t.Fatalf("create %s: %d %s", game, code, resp)
	}
	code, resp = lobbyPost(h, "/games/"+game+"/"+created.MatchID+"/join", []byte(`{"playerName":"Ann"}`))
	var joined protocol.JoinResponse
	if code != http.StatusOK || json.Unmarshal(resp, &joined) != nil {
		t.Fatalf("join %s: %d %s", game, code, resp)
	}
	return seatedMatch{created.MatchID, joined.PlayerID, joined.PlayerCredentials}
}

// lobbyPost posts body to path on h and returns the status and body.
func lobbyPost(h http.Handler, path string, body []byte) (int, []byte) {
	req := httptest.NewRequest(http.MethodPost, path, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// checkLobbyResponse fails t when a lobby response breaks the contract.
func checkLobbyResponse(t *testing.T, path string, body []byte, code int, resp []byte, creds string) {
	t.Helper()
	if err := lobbyResponseErr(body, code, resp, creds); err != nil {
		t.Fatalf("POST %s %q: %d %q: %v", path, body, code, resp, err)
	}
}

// lobbyResponseErr says how a lobby response to body breaks the contract:
// a 5xx, the seated player's credentials shown though the request did not
// hold them, a 200 that is not JSON, an error without the JSON error body.
func lobbyResponseErr(body []byte, code int, resp []byte, creds string) error {
	if code >= 500 {
		return errors.New("a server error")
	}
	if creds != "" && bytes.Contains(resp, []byte(creds)) && !bytes.Contains(body, []byte(creds)) {
		return errors.New("the response shows the player's credentials")
	}
	if code == http.StatusOK {
		if !json.Valid(resp) {
			return errors.New("a 200 whose body is not JSON")
		}
		return nil
	}
	var e protocol.ErrorBody
	if err := json.Unmarshal(resp, &e); err != nil || e.Error == "" || e.Message == "" {
		return errors.New("an error without a JSON error body")
	}
	return nil
}

// TestLobbyResponseErr checks that the fuzzer's check catches each broken
// response and passes good ones.
func TestLobbyResponseErr(t *testing.T) {
	const creds = "c0ffee"
	for _, c := range []struct {
		body, resp string
		code       int
		bad        bool
	}{
		{`{}`, `{"matchID":"m1"}`, 200, false},
		{`{}`, `{"error":"bad_request","message":"no"}`, 400, false},
		{`{"playerID":"c0ffee"}`, `{"error":"not_found","message":"no seat \"c0ffee\""}`, 404, false},
		{`{}`, `{"error":"internal","message":"internal error"}`, 500, true},
		{`{}`, `{"error":"forbidden","message":"want c0ffee"}`, 403, true},
		{`{}`, `not json`, 200, true},
		{`{}`, `Bad Request`, 400, true},
		{`{}`, `{"error":"","message":"x"}`, 400, true},
		{`{}`, `{"error":"bad_request"}`, 400, true},
	} {
		err := lobbyResponseErr([]byte(c.body), c.code, []byte(c.resp), creds)
		if (err != nil) != c.bad {
			t.Errorf("%d %s for %s: got %v, want bad=%v", c.code, c.resp, c.body, err, c.bad)
		}
	}
}
