package server_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/server/servertest"
)

// The hostile input matrix: every lobby route and every WebSocket message
// type fed wrong types, huge numbers, unicode and control characters, empty
// and oversized bodies and replayed or cross-match credentials, through a
// real listener. Each refusal has its exact status and code, and leaves the
// match and the lobby as they were. Slow HTTP clients (read-header and idle
// timeouts) are covered by main_test.go's TestSlowClientsCutOff, on the
// real http.Server main builds.

// hostileName is a player name and chat text that would run script if a
// page put it into innerHTML.
const hostileName = `<img src=x onerror="window.__xss=1">`

// quote is s as a JSON string.
func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// lobbyCase is one request of the matrix and the answer it must get.
type lobbyCase struct {
	name   string
	method string // GET or POST
	path   string // after the base URL
	body   string
	status int
	code   string // the error body's "error"; "" for a success
}

// do sends one request and returns its status and body.
func do(t *testing.T, method, u, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// snapshot is what a refused request must leave alone: the match as the
// lobby shows it, its replay, and the lobby's list.
func snapshot(t *testing.T, base, game, id string) string {
	t.Helper()
	var out bytes.Buffer
	for _, p := range []string{"/games/" + game + "/" + id, "/games/" + game + "/" + id + "/replay", "/games/" + game} {
		code, b := get(t, base+p)
		if code != 200 {
			t.Fatalf("GET %s: %d %s", p, code, b)
		}
		out.Write(b)
		out.WriteByte('\n')
	}
	return out.String()
}

// checkLobbyCase runs tc and checks its status, its error code and that
// the error body has a message.
func checkLobbyCase(t *testing.T, base string, tc lobbyCase) {
	t.Helper()
	code, b := do(t, tc.method, base+tc.path, tc.body)
	if code != tc.status {
		t.Fatalf("%s %s: %d %.300s, want %d", tc.method, tc.path, code, b, tc.status)
	}
	if tc.code == "" {
		return
	}
	var e struct{ Error, Message string }
	if err := json.Unmarshal(b, &e); err != nil || e.Error != tc.code || e.Message == "" {
		t.Fatalf("%s %s: body %.300s, want error %q with a message", tc.method, tc.path, b, tc.code)
	}
}

// hostileLobbyCases is the matrix for a gomoku match m (one seat taken by
// ann, one free) and another match other where mallory sits.
func hostileLobbyCases(m, other string, ann, mallory seat) []lobbyCase {
	g := "/games/gomoku"
	mp := g + "/" + m
	creds := func(s seat, extra string) string {
		return `{"playerID":"` + s.id + `","credentials":"` + s.creds + `"` + extra + `}`
	}
	huge := strings.Repeat("9", 400)
	big := `{"playerName":"` + strings.Repeat("x", 70<<10) + `"}`
	return []lobbyCase{
		// Read routes.
		{"games with junk query", "GET", "/games?x=%00%ff", "", 200, ""},
		{"catalog with junk query", "GET", "/catalog?x=" + url.QueryEscape(hostileName), "", 200, ""},
		{"list unknown game", "GET", "/games/" + url.PathEscape("五子棋\u202e"), "", 404, "not_found"},
		{"list isGameover not a bool", "GET", g + "?isGameover=maybe", "", 400, "bad_request"},
		{"list updatedBefore huge", "GET", g + "?updatedBefore=" + huge, "", 400, "bad_request"},
		{"list updatedAfter float", "GET", g + "?updatedAfter=1.5", "", 400, "bad_request"},
		{"get unknown match", "GET", g + "/no-such-match", "", 404, "not_found"},
		{"get control-character id", "GET", g + "/%00%01%7f", "", 404, "not_found"},
		{"get unicode id", "GET", g + "/" + url.PathEscape(hostileName+"茶"), "", 404, "not_found"},
		{"get huge id", "GET", g + "/" + strings.Repeat("a", 8<<10), "", 404, "not_found"},
		{"get other game's match", "GET", "/games/gongzhu/" + m, "", 404, "not_found"},
		{"sgf of gomoku", "GET", mp + "/sgf", "", 404, "not_found"},
		{"sgf unknown match", "GET", g + "/nope/sgf", "", 404, "not_found"},
		{"replay from not a number", "GET", mp + "/replay?from=x", "", 400, "bad_request"},
		{"replay from huge", "GET", mp + "/replay?from=" + huge, "", 400, "bad_request"},
		{"replay limit huge", "GET", mp + "/replay?limit=" + huge, "", 400, "bad_request"},
		{"replay unknown match", "GET", g + "/nope/replay", "", 404, "not_found"},
		{"unknown route", "GET", "/games/gomoku/" + m + "/nope/deeper", "", 404, "not_found"},
		{"wrong method", "DELETE", mp, "", 404, "not_found"},
		// create.
		{"create numPlayers a string", "POST", g + "/create", `{"numPlayers":"2"}`, 400, "bad_request"},
		{"create numPlayers a float", "POST", g + "/create", `{"numPlayers":2.5}`, 400, "bad_request"},
		{"create numPlayers huge", "POST", g + "/create", `{"numPlayers":` + huge + `}`, 400, "bad_request"},
		{"create numPlayers negative", "POST", g + "/create", `{"numPlayers":-2}`, 400, "bad_request"},
		{"create unlisted a string", "POST", g + "/create", `{"unlisted":"yes"}`, 400, "bad_request"},
		{"create bots an array", "POST", g + "/create", `{"bots":["easy"]}`, 400, "bad_request"},
		{"create bots seat unicode", "POST", g + "/create", `{"bots":{"零":"easy"}}`, 400, "bad_request"},
		{"create clock a string", "POST", g + "/create", `{"clock":"fast"}`, 400, "bad_request"},
		{"create graceSeconds a string", "POST", g + "/create", `{"graceSeconds":"60"}`, 400, "bad_request"},
		{"create body an array", "POST", g + "/create", `[]`, 400, "bad_request"},
		{"create body a number", "POST", g + "/create", `42`, 400, "bad_request"},
		{"create body not JSON", "POST", g + "/create", "\x00\xff", 400, "bad_request"},
		{"create oversized", "POST", g + "/create", big, 413, "bad_request"},
		{"create unknown game", "POST", "/games/" + url.PathEscape(hostileName) + "/create", `{}`, 404, "not_found"},
		// join.
		{"join empty body", "POST", mp + "/join", ``, 403, "forbidden"},
		{"join name a number", "POST", mp + "/join", `{"playerName":7}`, 400, "bad_request"},
		{"join name an object", "POST", mp + "/join", `{"playerName":{"a":1}}`, 400, "bad_request"},
		{"join name control characters only", "POST", mp + "/join", `{"playerName":"\u0000\u0007\u001b\u202e"}`, 400, "bad_request"},
		{"join name too long", "POST", mp + "/join", `{"playerName":"` + strings.Repeat("茶", 41) + `"}`, 400, "bad_request"},
		{"join playerID a number", "POST", mp + "/join", `{"playerName":"X","playerID":1}`, 400, "bad_request"},
		{"join playerID huge", "POST", mp + "/join", `{"playerName":"X","playerID":"` + huge + `"}`, 404, "not_found"},
		{"join playerID unicode", "POST", mp + "/join", `{"playerName":"X","playerID":"١"}`, 404, "not_found"},
		{"join taken seat", "POST", mp + "/join", `{"playerName":"X","playerID":"0"}`, 409, "conflict"},
		{"join oversized", "POST", mp + "/join", big, 413, "bad_request"},
		{"join body not JSON", "POST", mp + "/join", `{"playerName":"X"`, 400, "bad_request"},
		// update.
		{"update empty body", "POST", mp + "/update", ``, 404, "not_found"},
		{"update newName a number", "POST", mp + "/update", creds(ann, `,"newName":5`), 400, "bad_request"},
		{"update newName control only", "POST", mp + "/update", creds(ann, `,"newName":"\u0000\u200b"`), 400, "bad_request"},
		{"update cross-match credentials", "POST", mp + "/update", creds(mallory, `,"newName":"M"`), 403, "forbidden"},
		{"update playerID huge", "POST", mp + "/update", `{"playerID":"` + huge + `","credentials":"` + ann.creds + `","newName":"M"}`, 404, "not_found"},
		{"update oversized", "POST", mp + "/update", big, 413, "bad_request"},
		// leave.
		{"leave empty body", "POST", mp + "/leave", ``, 404, "not_found"},
		{"leave playerID a number", "POST", mp + "/leave", `{"playerID":0,"credentials":"` + ann.creds + `"}`, 400, "bad_request"},
		{"leave cross-match credentials", "POST", mp + "/leave", creds(mallory, ``), 403, "forbidden"},
		{"leave credentials unicode", "POST", mp + "/leave", `{"playerID":"0","credentials":` + quote(hostileName+"\x00") + `}`, 403, "forbidden"},
		{"leave oversized", "POST", mp + "/leave", big, 413, "bad_request"},
		// playAgain.
		{"playAgain empty body", "POST", mp + "/playAgain", ``, 404, "not_found"},
		{"playAgain numPlayers a string", "POST", mp + "/playAgain", creds(ann, `,"numPlayers":"2"`), 400, "bad_request"},
		{"playAgain numPlayers huge", "POST", mp + "/playAgain", creds(ann, `,"numPlayers":`+huge), 400, "bad_request"},
		{"playAgain cross-match credentials", "POST", mp + "/playAgain", creds(mallory, ``), 403, "forbidden"},
		{"playAgain oversized", "POST", mp + "/playAgain", big, 413, "bad_request"},
		// bot.
		{"bot empty body", "POST", mp + "/bot", ``, 404, "not_found"},
		{"bot seat a number", "POST", mp + "/bot", creds(ann, `,"seat":1,"level":"easy"`), 400, "bad_request"},
		{"bot level a number", "POST", mp + "/bot", creds(ann, `,"seat":"1","level":5`), 400, "bad_request"},
		{"bot level unicode", "POST", mp + "/bot", creds(ann, `,"seat":"1","level":`+quote(hostileName)), 400, "bad_request"},
		{"bot seat huge", "POST", mp + "/bot", creds(ann, `,"seat":"`+huge+`","level":"easy"`), 404, "not_found"},
		{"bot cross-match credentials", "POST", mp + "/bot", creds(mallory, `,"seat":"1","level":"easy"`), 403, "forbidden"},
		{"bot oversized", "POST", mp + "/bot", big, 413, "bad_request"},
		// llm/test (the test client is on loopback: the operator).
		{"llm test endpoint a number", "POST", "/llm/test", `{"endpoint":5}`, 400, "bad_request"},
		{"llm test unknown endpoint", "POST", "/llm/test", `{"endpoint":` + quote(hostileName) + `}`, 404, "not_found"},
		{"llm test body not JSON", "POST", "/llm/test", `{"endpoint"`, 400, "bad_request"},
		{"llm test oversized", "POST", "/llm/test", big, 413, "bad_request"},
	}
}

// TestHostileLobbyMatrix: every lobby route refuses hostile input with its
// exact status and code, and nothing it refused changed the match, its
// replay or the lobby's list.
func TestHostileLobbyMatrix(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	m := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	ann := join(t, base, "gomoku", m, "Ann")
	other := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	mallory := join(t, base, "gomoku", other, "Mallory")
	before := snapshot(t, base, "gomoku", m)
	otherBefore := snapshot(t, base, "gomoku", other)
	for _, tc := range hostileLobbyCases(m, other, ann, mallory) {
		t.Run(tc.name, func(t *testing.T) {
			checkLobbyCase(t, base, tc)
			if after := snapshot(t, base, "gomoku", m); after != before {
				t.Fatalf("refused request changed the lobby:\nbefore %s\nafter  %s", before, after)
			}
		})
	}
	if after := snapshot(t, base, "gomoku", other); after != otherBefore {
		t.Fatalf("the other match changed:\nbefore %s\nafter  %s", otherBefore, after)
	}
	if strings.Contains(before, ann.creds) || strings.Contains(before, mallory.creds) {
		t.Fatal("the lobby shows credentials")
	}
}
