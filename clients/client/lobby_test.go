package client

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/protocol"
)

// lobbyCall is one request a fake lobby saw.
type lobbyCall struct {
	method, uri string
	body        map[string]any
}

// fakeLobby answers every request with status and body, recording it.
func fakeLobby(t *testing.T, status int, body string) (*Lobby, *lobbyCall) {
	t.Helper()
	seen := &lobbyCall{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.method, seen.uri = r.Method, r.URL.RequestURI()
		b, _ := io.ReadAll(r.Body)
		if len(b) > 0 {
			if r.Header.Get("Content-Type") != "application/json" {
				t.Errorf("request body sent as %q", r.Header.Get("Content-Type"))
			}
			json.Unmarshal(b, &seen.body)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return NewLobby(srv.URL+"/", nil), seen
}

func TestLobbyRequests(t *testing.T) {
	ctx := context.Background()
	seat := "1"
	name := "Bo"
	yes := true
	tests := []struct {
		name     string
		respond  string
		call     func(l *Lobby) (any, error)
		want     any
		wantReq  string // method and request URI
		wantBody map[string]any
	}{
		{"games", `["gomoku","weiqi"]`,
			func(l *Lobby) (any, error) { return l.Games(ctx) },
			[]string{"gomoku", "weiqi"}, "GET /games", nil},
		{"catalog", `[{"name":"gomoku","minPlayers":2,"maxPlayers":2,"bots":["normal","hard"]}]`,
			func(l *Lobby) (any, error) {
				c, err := l.Catalog(ctx)
				return []string{c[0].Name, c[0].Bots[1]}, err
			},
			[]string{"gomoku", "hard"}, "GET /catalog", nil},
		{"list with filter", `{"matches":[{"matchID":"a","gameName":"gomoku","players":[]}]}`,
			func(l *Lobby) (any, error) {
				m, err := l.ListMatches(ctx, "gomoku", ListFilter{IsGameover: &yes, UpdatedAfter: 5})
				return len(m), err
			},
			1, "GET /games/gomoku?isGameover=true&updatedAfter=5", nil},
		{"get", `{"matchID":"a b","gameName":"gomoku","players":[{"id":0,"name":"Ann"}],"started":true}`,
			func(l *Lobby) (any, error) {
				m, err := l.GetMatch(ctx, "gomoku", "a b")
				return m.Players[0].Name, err
			},
			"Ann", "GET /games/gomoku/a%20b", nil},
		{"create", `{"matchID":"m9"}`,
			func(l *Lobby) (any, error) {
				return l.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2, Bots: map[string]string{"1": "hard"}})
			},
			"m9", "POST /games/gomoku/create",
			map[string]any{"numPlayers": 2.0, "unlisted": false, "bots": map[string]any{"1": "hard"}}},
		{"join", `{"playerID":"1","playerCredentials":"c"}`,
			func(l *Lobby) (any, error) {
				r, err := l.Join(ctx, "gomoku", "m9", protocol.JoinRequest{PlayerName: "Ann", PlayerID: &seat})
				return *r, err
			},
			protocol.JoinResponse{PlayerID: "1", PlayerCredentials: "c"}, "POST /games/gomoku/m9/join",
			map[string]any{"playerName": "Ann", "playerID": "1"}},
		{"update", `{}`,
			func(l *Lobby) (any, error) {
				return nil, l.Update(ctx, "gomoku", "m9", protocol.UpdateRequest{PlayerID: "1", Credentials: "c", NewName: &name})
			},
			nil, "POST /games/gomoku/m9/update",
			map[string]any{"playerID": "1", "credentials": "c", "newName": "Bo"}},
		{"leave", `{}`,
			func(l *Lobby) (any, error) {
				return nil, l.Leave(ctx, "gomoku", "m9", protocol.LeaveRequest{PlayerID: "1", Credentials: "c"})
			},
			nil, "POST /games/gomoku/m9/leave", map[string]any{"playerID": "1", "credentials": "c"}},
		{"play again", `{"nextMatchID":"m10"}`,
			func(l *Lobby) (any, error) {
				return l.PlayAgain(ctx, "gomoku", "m9", protocol.PlayAgainRequest{PlayerID: "1", Credentials: "c"})
			},
			"m10", "POST /games/gomoku/m9/playAgain", map[string]any{"playerID": "1", "credentials": "c"}},
		{"add bot", `{}`,
			func(l *Lobby) (any, error) {
				return nil, l.AddBot(ctx, "gomoku", "m9", protocol.BotRequest{PlayerID: "0", Credentials: "c", Seat: "1", Level: "hard"})
			},
			nil, "POST /games/gomoku/m9/bot",
			map[string]any{"playerID": "0", "credentials": "c", "seat": "1", "level": "hard"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, seen := fakeLobby(t, http.StatusOK, tc.respond)
			got, err := tc.call(l)
			if err != nil {
				t.Fatalf("call: %v", err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("result %#v, want %#v", got, tc.want)
			}
			if req := seen.method + " " + seen.uri; req != tc.wantReq {
				t.Errorf("request %q, want %q", req, tc.wantReq)
			}
			if !reflect.DeepEqual(seen.body, tc.wantBody) {
				t.Errorf("body %#v, want %#v", seen.body, tc.wantBody)
			}
		})
	}
}

func TestLobbyErrors(t *testing.T) {
	tests := []struct {
		name     string
		status   int
		body     string
		wantCode string
		wantMsg  string
	}{
		{"conflict", 409, `{"error":"conflict","message":"seat 1 is taken"}`, "conflict", "seat 1 is taken"},
		{"forbidden", 403, `{"error":"forbidden","message":"wrong credentials"}`, "forbidden", "wrong credentials"},
		{"not JSON", 502, `<html>bad gateway</html>`, "", "<html>bad gateway</html>"},
		{"empty body", 500, ``, "", "Internal Server Error"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l, _ := fakeLobby(t, tc.status, tc.body)
			_, err := l.Join(context.Background(), "gomoku", "m", protocol.JoinRequest{PlayerName: "A"})
			var ae *APIError
			if !errors.As(err, &ae) {
				t.Fatalf("error %v is not an *APIError", err)
			}
			if ae.Status != tc.status || ae.Code != tc.wantCode || ae.Message != tc.wantMsg {
				t.Fatalf("got %+v, want status %d code %q message %q", ae, tc.status, tc.wantCode, tc.wantMsg)
			}
			if tc.wantCode != "" && !IsCode(err, tc.wantCode) {
				t.Fatalf("IsCode(%v, %q) is false", err, tc.wantCode)
			}
		})
	}
}

func TestLobbyBadSuccessBody(t *testing.T) {
	l, _ := fakeLobby(t, 200, `{"matchID":`)
	if _, err := l.Create(context.Background(), "gomoku", protocol.CreateRequest{NumPlayers: 2}); err == nil {
		t.Fatal("truncated body accepted")
	}
}
