package server_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/server/servertest"
)

func TestLobbyErrors(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	ann := join(t, base, "gomoku", id, "Ann")
	full := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	join(t, base, "gomoku", full, "A")
	join(t, base, "gomoku", full, "B")
	m := base + "/games/gomoku/" + id
	cases := []struct {
		name string
		url  string
		body any
		code int
		err  string
	}{
		{"create unknown game", base + "/games/chess/create", `{}`, 404, "not_found"},
		{"create too many players", base + "/games/gomoku/create", `{"numPlayers":3}`, 400, "bad_request"},
		{"create bad setupData", base + "/games/gomoku/create", `{"numPlayers":2,"setupData":[1]}`, 400, "bad_request"},
		{"create malformed JSON", base + "/games/gomoku/create", `{"numPlayers":`, 400, "bad_request"},
		{"create wrong types", base + "/games/gomoku/create", `{"numPlayers":"two"}`, 400, "bad_request"},
		{"create bad bot seat", base + "/games/gomoku/create", `{"numPlayers":2,"bots":{"5":"normal"}}`, 400, "bad_request"},
		{"create bad bot level", base + "/games/gomoku/create", `{"numPlayers":2,"bots":{"1":"godlike"}}`, 400, "bad_request"},
		{"create oversized body", base + "/games/gomoku/create", `{"setupData":"` + strings.Repeat("x", 70<<10) + `"}`, 413, "bad_request"},
		{"join without name", m + "/join", `{}`, 403, "forbidden"},
		{"join taken seat", m + "/join", `{"playerName":"B","playerID":"0"}`, 409, "conflict"},
		{"join unknown seat", m + "/join", `{"playerName":"B","playerID":"7"}`, 404, "not_found"},
		{"join non-canonical seat", m + "/join", `{"playerName":"B","playerID":"01"}`, 404, "not_found"},
		{"join full match", base + "/games/gomoku/" + full + "/join", `{"playerName":"C"}`, 409, "conflict"},
		{"join unknown match", base + "/games/gomoku/nope/join", `{"playerName":"C"}`, 404, "not_found"},
		{"update wrong credentials", m + "/update", map[string]any{"playerID": ann.id, "credentials": "wrong", "newName": "X"}, 403, "forbidden"},
		{"update empty name", m + "/update", map[string]any{"playerID": ann.id, "credentials": ann.creds, "newName": " "}, 400, "bad_request"},
		{"leave wrong credentials", m + "/leave", map[string]any{"playerID": ann.id, "credentials": ann.creds + "0"}, 403, "forbidden"},
		{"leave unknown seat", m + "/leave", map[string]any{"playerID": "9", "credentials": ann.creds}, 404, "not_found"},
		{"playAgain wrong credentials", m + "/playAgain", map[string]any{"playerID": ann.id, "credentials": ""}, 403, "forbidden"},
		{"bot wrong credentials", m + "/bot", map[string]any{"playerID": ann.id, "credentials": "x", "seat": "1", "level": "easy"}, 403, "forbidden"},
		{"bot taken seat", m + "/bot", map[string]any{"playerID": ann.id, "credentials": ann.creds, "seat": "0", "level": "easy"}, 409, "conflict"},
		{"bot bad level", m + "/bot", map[string]any{"playerID": ann.id, "credentials": ann.creds, "seat": "1", "level": "x"}, 400, "bad_request"},
		{"bot unknown seat", m + "/bot", map[string]any{"playerID": ann.id, "credentials": ann.creds, "seat": "2", "level": "easy"}, 404, "not_found"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, body := post(t, tc.url, tc.body)
			if code != tc.code || body["error"] != tc.err {
				t.Fatalf("got %d %v, want %d %s", code, body, tc.code, tc.err)
			}
			if msg, _ := body["message"].(string); msg == "" {
				t.Fatalf("no message in %v", body)
			}
		})
	}
	// Nothing above changed the match: Ann alone, seat 1 free.
	_, b := get(t, m)
	var match struct {
		Players []struct {
			Name  string `json:"name"`
			IsBot bool   `json:"isBot"`
		}
		StateID int64
	}
	if err := json.Unmarshal(b, &match); err != nil {
		t.Fatal(err)
	}
	if match.Players[0].Name != "Ann" || match.Players[1].Name != "" || match.Players[1].IsBot {
		t.Fatalf("refused requests changed the match: %s", b)
	}
	if strings.Contains(string(b), ann.creds) || strings.Contains(string(b), "credHash") || strings.Contains(string(b), "seed") {
		t.Fatalf("GET leaks secrets: %s", b)
	}
	for _, path := range []string{"/games/chess", "/games/chess/x", "/games/gomoku/nope"} {
		if code, _ := get(t, base+path); code != 404 {
			t.Errorf("GET %s: %d, want 404", path, code)
		}
	}
}

func TestLobbyFlow(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	if code, b := get(t, base+"/games"); code != 200 || !strings.Contains(string(b), `"gomoku"`) {
		t.Fatalf("GET /games: %d %s", code, b)
	}
	if code, b := get(t, base+"/catalog"); code != 200 || !strings.Contains(string(b), `"五子棋"`) || !strings.Contains(string(b), `"hard"`) {
		t.Fatalf("GET /catalog: %d %s", code, b)
	}
	if code, _ := get(t, base+"/healthz"); code != 200 {
		t.Fatal("healthz")
	}
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	hidden := create(t, base, "gomoku", map[string]any{"numPlayers": 2, "unlisted": true})
	ann := join(t, base, "gomoku", id, "Ann")
	m := base + "/games/gomoku/" + id
	if code, body := post(t, m+"/update", map[string]any{"playerID": ann.id, "credentials": ann.creds, "newName": "Anna", "data": map[string]any{"avatar": 3}}); code != 200 {
		t.Fatalf("update: %d %v", code, body)
	}
	_, b := get(t, m)
	if !strings.Contains(string(b), `"name":"Anna"`) || !strings.Contains(string(b), `"avatar":3`) {
		t.Fatalf("update not visible: %s", b)
	}
	// Leave before the start frees the seat; join again takes it.
	if code, _ := post(t, m+"/leave", map[string]any{"playerID": ann.id, "credentials": ann.creds}); code != 200 {
		t.Fatal("leave")
	}
	if _, b := get(t, m); strings.Contains(string(b), "Anna") {
		t.Fatalf("leave before start kept the seat: %s", b)
	}
	ann = join(t, base, "gomoku", id, "Ann")
	bob := join(t, base, "gomoku", id, "Bob")
	_, b = get(t, base+"/games/gomoku")
	if !strings.Contains(string(b), id) || strings.Contains(string(b), hidden) {
		t.Fatalf("list: unlisted shown or listed missing: %s", b)
	}
	_, b = get(t, base+"/games/gomoku?isGameover=true")
	if strings.Contains(string(b), id) {
		t.Fatalf("isGameover=true lists a running match: %s", b)
	}
	if code, _ := get(t, base+"/games/gomoku?isGameover=maybe"); code != 400 {
		t.Fatalf("bad isGameover: %d", code)
	}
	_, b = get(t, base+"/games/gomoku?updatedAfter=9999999999999")
	if strings.Contains(string(b), id) {
		t.Fatalf("updatedAfter filter ignored: %s", b)
	}
	if _, b := get(t, m); !strings.Contains(string(b), `"started":true`) {
		t.Fatalf("not started with both seats taken: %s", b)
	}
	// Leave after the start hands the seat to a bot; the credentials die.
	if code, _ := post(t, m+"/leave", map[string]any{"playerID": bob.id, "credentials": bob.creds}); code != 200 {
		t.Fatal("leave after start")
	}
	_, b = get(t, m)
	if !strings.Contains(string(b), `"isBot":true`) {
		t.Fatalf("left seat is not a bot: %s", b)
	}
	if code, _ := post(t, m+"/update", map[string]any{"playerID": bob.id, "credentials": bob.creds, "newName": "B"}); code != 403 {
		t.Fatalf("left player's credentials still work: %d", code)
	}
	// playAgain gives every caller the same next match, with bots kept.
	_, a1 := post(t, m+"/playAgain", map[string]any{"playerID": ann.id, "credentials": ann.creds})
	_, a2 := post(t, m+"/playAgain", map[string]any{"playerID": ann.id, "credentials": ann.creds})
	next, _ := a1["nextMatchID"].(string)
	if next == "" || a2["nextMatchID"] != next {
		t.Fatalf("playAgain: %v then %v", a1, a2)
	}
	if code, b := get(t, base+"/games/gomoku/"+next); code != 200 || !strings.Contains(string(b), `"gameName":"gomoku"`) {
		t.Fatalf("next match: %d %s", code, b)
	}
	if _, b := get(t, m); !strings.Contains(string(b), fmt.Sprintf(`"nextMatchID":%q`, next)) {
		t.Fatalf("old match does not point to the next: %s", b)
	}
}

func TestAddBotStartsMatchAndBotPlays(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	ann := join(t, base, "gomoku", id, "Ann")
	w := dial(t, base, "gomoku", id)
	w.hello(&ann)
	code, body := post(t, base+"/games/gomoku/"+id+"/bot", map[string]any{"playerID": ann.id, "credentials": ann.creds, "seat": "1", "level": "normal"})
	if code != 200 {
		t.Fatalf("bot: %d %v", code, body)
	}
	w.stateWhere(func(s *protocolState) bool { return s.Ctx.Started })
	mv := w.move("place", 7, 7)
	w.acked(mv)
	s := w.stateWhere(func(s *protocolState) bool { return s.Ctx.CurrentPlayer == "0" && s.Ctx.Turn == 3 })
	g := gview(t, s)
	stones := strings.Count(strings.Join(g.Board, ""), "W")
	if stones != 1 {
		t.Fatalf("bot did not answer with one white stone: %v", g.Board)
	}
}
