package client_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// These tests run the client against the real server (servertest).

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// seat is one joined seat of a match.
type seat struct {
	id, creds string
}

// gomokuMatch creates a 2-seat Gomoku match and joins nseats of it.
func gomokuMatch(t *testing.T, l *client.Lobby, nseats int) (string, []seat) {
	t.Helper()
	ctx := ctxT(t)
	id, err := l.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	var seats []seat
	for i := range nseats {
		j, err := l.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: []string{"Ann", "Bo"}[i]})
		if err != nil {
			t.Fatalf("join %d: %v", i, err)
		}
		seats = append(seats, seat{j.PlayerID, j.PlayerCredentials})
	}
	return id, seats
}

func TestServerLobby(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := client.NewLobby(srv.URL, nil)
	ctx := ctxT(t)
	names, err := l.Games(ctx)
	if err != nil || !slices.Contains(names, "gomoku") {
		t.Fatalf("Games = %v, %v", names, err)
	}
	cat, err := l.Catalog(ctx)
	if err != nil || !slices.ContainsFunc(cat, func(e protocol.CatalogEntry) bool { return e.Name == "gomoku" && len(e.Bots) > 0 }) {
		t.Fatalf("Catalog = %+v, %v", cat, err)
	}
	id, seats := gomokuMatch(t, l, 1)
	m, err := l.GetMatch(ctx, "gomoku", id)
	if err != nil || m.Started || len(m.Players) != 2 || m.Players[0].Name != "Ann" {
		t.Fatalf("GetMatch = %+v, %v", m, err)
	}
	list, err := l.ListMatches(ctx, "gomoku", client.ListFilter{})
	if err != nil || !slices.ContainsFunc(list, func(m protocol.Match) bool { return m.MatchID == id }) {
		t.Fatalf("ListMatches lacks %s: %v", id, err)
	}
	name := "Cai"
	if err := l.Update(ctx, "gomoku", id, protocol.UpdateRequest{PlayerID: seats[0].id, Credentials: seats[0].creds, NewName: &name}); err != nil {
		t.Fatalf("Update: %v", err)
	}
	if m, _ := l.GetMatch(ctx, "gomoku", id); m == nil || m.Players[0].Name != "Cai" {
		t.Fatalf("rename not shown: %+v", m)
	}
	if err := l.AddBot(ctx, "gomoku", id, protocol.BotRequest{PlayerID: seats[0].id, Credentials: seats[0].creds, Seat: "1", Level: cat[slices.IndexFunc(cat, func(e protocol.CatalogEntry) bool { return e.Name == "gomoku" })].Bots[0]}); err != nil {
		t.Fatalf("AddBot: %v", err)
	}
	if m, _ := l.GetMatch(ctx, "gomoku", id); m == nil || !m.Started || !m.Players[1].IsBot {
		t.Fatalf("after AddBot: %+v", m)
	}
}

func TestServerLobbyErrors(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := client.NewLobby(srv.URL, nil)
	id, seats := gomokuMatch(t, l, 2)
	one := "1"
	tests := []struct {
		name   string
		call   func(ctx context.Context) error
		status int
		code   string
	}{
		{"unknown game", func(ctx context.Context) error {
			_, err := l.Create(ctx, "chess", protocol.CreateRequest{NumPlayers: 2})
			return err
		}, http.StatusNotFound, protocol.CodeNotFound},
		{"bad numPlayers", func(ctx context.Context) error {
			_, err := l.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 7})
			return err
		}, http.StatusBadRequest, protocol.CodeBadRequest},
		{"join without name", func(ctx context.Context) error {
			_, err := l.Join(ctx, "gomoku", id, protocol.JoinRequest{})
			return err
		}, http.StatusForbidden, protocol.CodeForbidden},
		{"seat taken", func(ctx context.Context) error {
			_, err := l.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "Di", PlayerID: &one})
			return err
		}, http.StatusConflict, protocol.CodeConflict},
		{"unknown match", func(ctx context.Context) error {
			_, err := l.GetMatch(ctx, "gomoku", "no-such-match")
			return err
		}, http.StatusNotFound, protocol.CodeNotFound},
		{"wrong credentials", func(ctx context.Context) error {
			return l.Leave(ctx, "gomoku", id, protocol.LeaveRequest{PlayerID: seats[0].id, Credentials: "nope"})
		}, http.StatusForbidden, protocol.CodeForbidden},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call(ctxT(t))
			var ae *client.APIError
			if !errors.As(err, &ae) || ae.Status != tc.status || ae.Code != tc.code || ae.Message == "" {
				t.Fatalf("got %v, want HTTP %d %s with a message", err, tc.status, tc.code)
			}
		})
	}
}

func TestServerLeaveBeforeStart(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := client.NewLobby(srv.URL, nil)
	ctx := ctxT(t)
	id, seats := gomokuMatch(t, l, 1)
	if err := l.Leave(ctx, "gomoku", id, protocol.LeaveRequest{PlayerID: seats[0].id, Credentials: seats[0].creds}); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	m, err := l.GetMatch(ctx, "gomoku", id)
	if err != nil || m.Players[0].Name != "" {
		t.Fatalf("after Leave: seat 0 = %+v, %v; want it free", m.Players[0], err)
	}
	// The old credentials no longer work; the seat can be taken again.
	if err := l.Leave(ctx, "gomoku", id, protocol.LeaveRequest{PlayerID: seats[0].id, Credentials: seats[0].creds}); err == nil {
		t.Fatal("second Leave with the old credentials succeeded")
	}
	zero := "0"
	if _, err := l.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "Di", PlayerID: &zero}); err != nil {
		t.Fatalf("Join the freed seat: %v", err)
	}
}
