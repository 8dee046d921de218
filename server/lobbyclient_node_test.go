package server_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/server/servertest"
)

// bgioDir finds a directory whose node_modules holds boardgame.io:
// $CHAGUAN_BGIO_DIR (what `npm install --prefix DIR boardgame.io` fills),
// else this directory or one above it. "" when there is none, with why.
func bgioDir() (dir, why string) {
	if d := os.Getenv("CHAGUAN_BGIO_DIR"); d != "" {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "boardgame.io", "package.json")); err != nil {
			return "", "CHAGUAN_BGIO_DIR=" + d + " has no node_modules/boardgame.io"
		}
		return d, ""
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err.Error()
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "node_modules", "boardgame.io", "package.json")); err == nil {
			return d, ""
		}
		if filepath.Dir(d) == d {
			return "", "no boardgame.io: set CHAGUAN_BGIO_DIR to a directory where `npm install --prefix DIR boardgame.io@0.50.2` ran"
		}
	}
}

// lobbyMatch is the part of a Match the test reads.
type lobbyMatch struct {
	MatchID  string `json:"matchID"`
	GameName string `json:"gameName"`
	Players  []struct {
		ID    int             `json:"id"`
		Name  string          `json:"name"`
		IsBot bool            `json:"isBot"`
		Data  json.RawMessage `json:"data"`
	} `json:"players"`
	Unlisted    bool            `json:"unlisted"`
	Started     bool            `json:"started"`
	NextMatchID string          `json:"nextMatchID"`
	Gameover    json.RawMessage `json:"gameover"`
}

// lobbyRefusal is a LobbyClientError as testdata/lobbyclient.mjs reports it.
type lobbyRefusal struct {
	Error   bool   `json:"error"`
	Message string `json:"message"`
	Details struct {
		Error string `json:"error"`
	} `json:"details"`
}

// TestBoardgameIOLobbyClient: boardgame.io's own LobbyClient (the npm
// package, run by node) works against the server unchanged: listGames,
// createMatch, joinMatch, updatePlayer, getMatch, listMatches (with a
// filter), playAgain, leaveMatch, each answer checked, and its errors
// (a taken seat, wrong credentials, an unknown match) come back as
// LobbyClientError with the status and the server's error code. Skipped,
// saying why, without node or the boardgame.io package.
func TestBoardgameIOLobbyClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node on PATH")
	}
	dir, why := bgioDir()
	if dir == "" {
		t.Skip(why)
	}
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang, not a slow machine
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "testdata/lobbyclient.mjs", srv.URL, dir)
	cmd.Stderr = os.Stderr
	outb, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/lobbyclient.mjs: %v\n%s", err, outb)
	}
	var out struct {
		Version       string                   `json:"version"`
		Games         []string                 `json:"games"`
		Created       struct{ MatchID string } `json:"created"`
		Unlisted      struct{ MatchID string } `json:"unlisted"`
		Ann, Bob      struct{ PlayerID, PlayerCredentials string }
		Update        map[string]any                 `json:"update"`
		Before        lobbyMatch                     `json:"before"`
		Listed        struct{ Matches []lobbyMatch } `json:"listed"`
		ListedNotOver struct{ Matches []lobbyMatch } `json:"listedNotOver"`
		ListedOver    struct{ Matches []lobbyMatch } `json:"listedOver"`
		SeatTaken     lobbyRefusal                   `json:"seatTaken"`
		Started       lobbyMatch                     `json:"started"`
		Again         struct{ NextMatchID string }   `json:"again"`
		AgainBob      struct{ NextMatchID string }   `json:"againBob"`
		BadLeave      lobbyRefusal                   `json:"badLeave"`
		Leave         any                            `json:"leave"`
		After         lobbyMatch                     `json:"after"`
		Next          lobbyMatch                     `json:"next"`
		Unknown       lobbyRefusal                   `json:"unknown"`
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("node's output: %v\n%s", err, outb)
	}
	t.Logf("boardgame.io %s from %s", out.Version, dir)
	id := out.Created.MatchID

	for _, g := range []string{"gomoku", "gongzhu", "threemonks", "weiqi", "carcassonne"} {
		if !slices.Contains(out.Games, g) {
			t.Errorf("listGames: %v, want %s among them", out.Games, g)
		}
	}
	if id == "" || out.Unlisted.MatchID == "" || out.Unlisted.MatchID == id {
		t.Fatalf("createMatch: %q and (unlisted) %q, want two match IDs", id, out.Unlisted.MatchID)
	}
	if out.Ann.PlayerID != "0" || len(out.Ann.PlayerCredentials) != 32 {
		t.Errorf("joinMatch with no seat: %+v, want seat 0 and 32 hex characters of credentials", out.Ann)
	}
	if len(out.Update) != 0 {
		t.Errorf("updatePlayer answered %v, want {}", out.Update)
	}
	b := out.Before
	if b.MatchID != id || b.GameName != "gomoku" || len(b.Players) != 2 || b.Started ||
		b.Players[0].Name != "Annie" || string(b.Players[0].Data) != `{"avatar":4}` || b.Players[1].Name != "" {
		t.Errorf("getMatch after join and update: %+v, want seat 0 Annie with data {avatar: 4}, seat 1 free, not started", b)
	}
	listed := func(ms []lobbyMatch, id string) bool {
		return slices.ContainsFunc(ms, func(m lobbyMatch) bool { return m.MatchID == id })
	}
	if !listed(out.Listed.Matches, id) || listed(out.Listed.Matches, out.Unlisted.MatchID) {
		t.Errorf("listMatches: %d matches, want the listed one and not the unlisted one", len(out.Listed.Matches))
	}
	if !listed(out.ListedNotOver.Matches, id) || listed(out.ListedOver.Matches, id) {
		t.Errorf("listMatches with isGameover: the open match in false's list %v, in true's %v; want only false's",
			listed(out.ListedNotOver.Matches, id), listed(out.ListedOver.Matches, id))
	}
	if out.Bob.PlayerID != "1" || len(out.Bob.PlayerCredentials) != 32 {
		t.Errorf("joinMatch seat 1: %+v", out.Bob)
	}
	if !out.SeatTaken.Error || out.SeatTaken.Message != "HTTP status 409" || out.SeatTaken.Details.Error == "" {
		t.Errorf("joinMatch on a taken seat: %+v, want a LobbyClientError with HTTP status 409 and the error code", out.SeatTaken)
	}
	if s := out.Started; !s.Started || len(s.Players) != 2 || s.Players[1].Name != "Bob" || s.Players[1].IsBot {
		t.Errorf("getMatch after both joined: %+v, want started with Bob in seat 1", s)
	}
	if out.Again.NextMatchID == "" || out.Again.NextMatchID == id || out.AgainBob.NextMatchID != out.Again.NextMatchID {
		t.Errorf("playAgain: %q, then %q for the other seat; want one new match ID", out.Again.NextMatchID, out.AgainBob.NextMatchID)
	}
	if !out.BadLeave.Error || out.BadLeave.Message != "HTTP status 403" {
		t.Errorf("leaveMatch with wrong credentials: %+v, want a LobbyClientError with HTTP status 403", out.BadLeave)
	}
	if out.Leave != nil {
		t.Errorf("leaveMatch resolved to %v, want nothing", out.Leave)
	}
	if a := out.After; len(a.Players) != 2 || !a.Players[1].IsBot || a.Players[0].IsBot || a.NextMatchID != out.Again.NextMatchID {
		t.Errorf("getMatch after Bob left a started match: %+v, want seat 1 a bot and nextMatchID %s", a, out.Again.NextMatchID)
	}
	if n := out.Next; n.MatchID != out.Again.NextMatchID || n.GameName != "gomoku" || len(n.Players) != 2 || n.Started || n.Players[0].Name != "" {
		t.Errorf("getMatch of the next match: %+v, want an empty two-seat gomoku match", n)
	}
	if !out.Unknown.Error || out.Unknown.Message != "HTTP status 404" {
		t.Errorf("getMatch of an unknown match: %+v, want a LobbyClientError with HTTP status 404", out.Unknown)
	}
}
