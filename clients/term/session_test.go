package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

func TestParseJoin(t *testing.T) {
	for _, tc := range []struct {
		link, base, id string
		bad            bool
	}{
		{link: "http://host:8080/m/weiqi/abc-123", base: "http://host:8080", id: "abc-123"},
		{link: "https://go.example.com/m/weiqi/abc/", base: "https://go.example.com", id: "abc"},
		{link: "http://host/chaguan/m/weiqi/x?lang=zh#top", base: "http://host/chaguan", id: "x"},
		{link: "http://host:8080/m/gomoku/abc", bad: true},
		{link: "http://host:8080/m/weiqi/", bad: true},
		{link: "http://host:8080/games/weiqi/abc", bad: true},
		{link: "host:8080/m/weiqi/abc", bad: true},
		{link: "ws://host/m/weiqi/abc", bad: true},
	} {
		base, id, err := parseJoin(tc.link)
		switch {
		case tc.bad && err == nil:
			t.Errorf("%s: accepted as %s %s", tc.link, base, id)
		case !tc.bad && (err != nil || base != tc.base || id != tc.id):
			t.Errorf("%s: got %q %q %v, want %q %q", tc.link, base, id, err, tc.base, tc.id)
		}
	}
}

func TestFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		bad  bool
	}{
		{args: nil},
		{args: []string{"-size", "9", "-komi", "6.5", "-lang", "zh"}},
		{args: []string{"-bot", "easy"}},
		{args: []string{"-join", "http://h/m/weiqi/x", "-spectate"}},
		{args: []string{"-server", "http://h", "-match", "x"}},
		{args: []string{"-size", "11"}, bad: true},
		{args: []string{"-server", "http://h"}, bad: true},
		{args: []string{"-join", "http://h/m/weiqi/x", "-bot", "easy"}, bad: true},
		{args: []string{"-join", "http://h/m/weiqi/x", "-match", "y"}, bad: true},
		{args: []string{"-spectate"}, bad: true},
		{args: []string{"-lang", "fr"}, bad: true},
		{args: []string{"extra"}, bad: true},
	} {
		_, err := parseFlags(tc.args, &strings.Builder{})
		if (err != nil) != tc.bad {
			t.Errorf("%q: err %v", tc.args, err)
		}
	}
}

// TestJoinTakesAFreeSeatThenSpectates: -join takes the free seat next to
// a player already there, and a later -join (or -spectate) watches.
func TestJoinTakesAFreeSeatThenSpectates(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	id, browser := browserPlayer(ctx, t, srv.URL)

	if size, err := matchSize(ctx, srv.URL, id); err != nil || size != 9 {
		t.Fatalf("matchSize = %d, %v; want 9", size, err)
	}
	s, err := joinMatch(ctx, srv.URL, id, "Term", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.be.Close()
	if s.mode != modeRemote || len(s.seats) != 1 || s.seats[0] != "1" {
		t.Fatalf("joined as mode %v seats %v; want remote seat 1", s.mode, s.seats)
	}
	// The browser plays; the terminal's model answers through the server.
	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	h := newHarnessOn(t, s.mode, s.seats, langEn, s.be, browser.Latest())
	h.keys("l", "enter")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return len(v.Moves) == 2 && v.Moves[1] == "F5" })

	for _, spectate := range []bool{false, true} {
		w, err := joinMatch(ctx, srv.URL, id, "Third", spectate)
		if err != nil {
			t.Fatal(err)
		}
		if w.mode != modeSpectate || len(w.seats) != 0 {
			t.Errorf("full match, spectate=%v: mode %v seats %v; want to spectate", spectate, w.mode, w.seats)
		}
		w.be.Close()
	}
}

// browserPlayer creates a 9x9 match on the server at base and seats a
// player in seat 0 with the Go client, as the web client would.
func browserPlayer(ctx context.Context, t *testing.T, base string) (string, *client.Conn) {
	t.Helper()
	lobby := client.NewLobby(base, nil)
	id, err := lobby.Create(ctx, gameName, protocol.CreateRequest{NumPlayers: 2, SetupData: json.RawMessage(`{"size":9}`)})
	if err != nil {
		t.Fatal(err)
	}
	seat := "0"
	jr, err := lobby.Join(ctx, gameName, id, protocol.JoinRequest{PlayerName: "Browser", PlayerID: &seat})
	if err != nil {
		t.Fatal(err)
	}
	c, err := client.Dial(ctx, base, gameName, id, jr.PlayerID, jr.PlayerCredentials)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return id, c
}

// TestServerRefusalsReachTheStatusBar: on a real server, the rules'
// refusals arrive with their Chinese reasons and show as the design's
// messages (此处已有棋子, 禁止自杀).
func TestServerRefusalsReachTheStatusBar(t *testing.T) {
	ctx, s := serverMatch(t, setup{size: 9, komi: 7.5, names: [2]string{"B", "W"}})
	if s.mode != modeHotSeat || len(s.seats) != 2 {
		t.Fatalf("new match: mode %v seats %v", s.mode, s.seats)
	}
	var last *protocol.State
	var err error
	for _, mv := range [][2]string{{"0", "B1"}, {"1", "J9"}, {"0", "A2"}} {
		if last, err = s.be.Move(ctx, mv[0], "play", mv[1]); err != nil {
			t.Fatal(err)
		}
	}
	h := newHarnessOn(t, s.mode, s.seats, langZh, s.be, last)
	h.keys("h", "h", "h", "h", "j", "j", "j", "j") // A1
	h.keys("enter")
	wantStatus(t, h, "禁止自杀")
	h.keys("k", "enter") // A2: black's stone
	wantStatus(t, h, "A2 此处已有棋子")
	h.m.lang = langEn
	h.keys("enter")
	wantStatus(t, h, "A2 is occupied")
}

// TestServerSuperko: retaking a ko at once repeats the position; the
// server refuses it and the status bar says 禁止打劫.
func TestServerSuperko(t *testing.T) {
	ctx, s := serverMatch(t, setup{size: 9, komi: 7.5, names: [2]string{"B", "W"}})
	// Black surrounds D5 and white E5 on three sides; black E5, white D5
	// takes it, and black's E5 again would take D5 back.
	var last *protocol.State
	var err error
	for i, p := range []string{"D4", "E4", "D6", "E6", "C5", "F5", "E5", "D5"} {
		if last, err = s.be.Move(ctx, string(rune('0'+i%2)), "play", p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
	for _, l := range []lang{langZh, langEn} {
		h := newHarnessOn(t, s.mode, s.seats, l, s.be, last) // (white's connection took D5's state first)
		h.keys("enter")                                      // the cursor starts on E5
		wantStatus(t, h, map[lang]string{langZh: "禁止打劫", langEn: "superko (the position repeats)"}[l])
	}
}

// TestBotGame: -bot seats the server's bot in seat 1; it answers black's
// stone and agrees to an undo.
func TestBotGame(t *testing.T) {
	ctx, s := serverMatch(t, setup{size: 9, komi: 7.5, bot: "easy", names: [2]string{"Ann", ""}})
	if s.mode != modeBot || len(s.seats) != 1 || s.seats[0] != "0" {
		t.Fatalf("bot match: mode %v seats %v", s.mode, s.seats)
	}
	if _, err := s.be.Move(ctx, "0", "play", "E5"); err != nil {
		t.Fatal(err)
	}
	waitConn(ctx, t, s.be.primary, func(v weiqi.View) bool { return len(v.Moves) == 2 })
	if _, err := s.be.Move(ctx, "0", "requestUndo"); err != nil {
		t.Fatal(err)
	}
	waitConn(ctx, t, s.be.primary, func(v weiqi.View) bool { return len(v.Moves) == 0 && v.UndoRequest == nil })
}

// waitConn reads c's states until ok holds for the view.
func waitConn(ctx context.Context, t *testing.T, c *client.Conn, ok func(weiqi.View) bool) weiqi.View {
	t.Helper()
	for {
		var v weiqi.View
		if err := json.Unmarshal(c.Latest().G, &v); err == nil && ok(v) {
			return v
		}
		select {
		case <-c.States():
		case <-ctx.Done():
			t.Fatalf("no such state; the last: %s", c.Latest().G)
		}
	}
}

// serverMatch starts a test server and a match on it as the client's own
// start does, for 20 s at most; the match's connections close when the
// test ends.
func serverMatch(t *testing.T, su setup) (context.Context, *session) {
	t.Helper()
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	s, err := newMatch(ctx, srv.URL, su)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.be.Close() })
	return ctx, s
}
