package client_test

import (
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

func dial(t *testing.T, url, id string, s seat) *client.Conn {
	t.Helper()
	c, err := client.Dial(ctxT(t), url, "gomoku", id, s.id, s.creds)
	if err != nil {
		t.Fatalf("Dial %q: %v", s.id, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitFor returns the first state (the latest included) that satisfies ok.
func waitFor(t *testing.T, c *client.Conn, what string, ok func(*protocol.State) bool) *protocol.State {
	t.Helper()
	if st := c.Latest(); ok(st) {
		return st
	}
	timeout := time.After(time.Minute)
	for {
		select {
		case st := <-c.States():
			if ok(st) {
				return st
			}
		case <-timeout:
			t.Fatalf("seat %q: no state where %s; latest ctx %+v", c.PlayerID(), what, c.Latest().Ctx)
		}
	}
}

func myTurn(c *client.Conn) func(*protocol.State) bool {
	return func(st *protocol.State) bool { return st.Ctx.Started && st.Ctx.CurrentPlayer == c.PlayerID() }
}

func gameOver(st *protocol.State) bool {
	return string(st.Ctx.Gameover) != "null" && len(st.Ctx.Gameover) > 0
}

// TestServerGame plays Gomoku to the end with two seats and a spectator:
// black fills rows left to right and wins on the anti-diagonal at move 61.
func TestServerGame(t *testing.T) {
	// The default limit (20 messages/s per connection) would refuse a game
	// played at machine speed.
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1e6, Burst: 1000}})
	l := client.NewLobby(srv.URL, nil)
	id, seats := gomokuMatch(t, l, 2)
	conns := []*client.Conn{dial(t, srv.URL, id, seats[0]), dial(t, srv.URL, id, seats[1])}
	spec := dial(t, srv.URL, id, seat{})
	for i := 0; i < 61; i++ {
		c := conns[i%2]
		waitFor(t, c, "it is my turn", myTurn(c))
		st, err := c.Move(ctxT(t), "place", i%15, i/15)
		if err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		if st.Ack == nil {
			t.Fatalf("move %d: state without ack", i)
		}
	}
	for _, c := range append(conns, spec) {
		st := waitFor(t, c, "the game is over", gameOver)
		var out struct{ Winner string }
		if err := json.Unmarshal(st.Ctx.Gameover, &out); err != nil || out.Winner != "0" {
			t.Fatalf("%q sees gameover %s, want winner 0", c.PlayerID(), st.Ctx.Gameover)
		}
	}
	_, err := conns[1].Move(ctxT(t), "place", 7, 7)
	if !client.IsCode(err, protocol.CodeGameOver) {
		t.Fatalf("move after the end: %v, want game_over", err)
	}
	var next [2]string
	for i, s := range seats {
		n, err := l.PlayAgain(ctxT(t), "gomoku", id, protocol.PlayAgainRequest{PlayerID: s.id, Credentials: s.creds})
		if err != nil || n == "" || n == id {
			t.Fatalf("PlayAgain %s: %q, %v", s.id, n, err)
		}
		next[i] = n
	}
	if next[0] != next[1] {
		t.Fatalf("PlayAgain gave %q and %q", next[0], next[1])
	}
}

func TestServerRefusals(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := client.NewLobby(srv.URL, nil)
	id, seats := gomokuMatch(t, l, 2)
	black, white := dial(t, srv.URL, id, seats[0]), dial(t, srv.URL, id, seats[1])
	spec := dial(t, srv.URL, id, seat{})
	waitFor(t, black, "it is my turn", myTurn(black))
	if _, err := black.Move(ctxT(t), "place", 7, 7); err != nil {
		t.Fatalf("first move: %v", err)
	}
	waitFor(t, white, "it is my turn", myTurn(white))
	// Each connection's Latest must be the current state before a refusal,
	// so that Sync afterwards shows the refusal changed nothing.
	afterFirst := func(st *protocol.State) bool { return st.StateID >= 2 }
	for _, c := range []*client.Conn{black, spec} {
		waitFor(t, c, "the first move", afterFirst)
	}
	tests := []struct {
		name string
		conn *client.Conn
		move string
		args []any
		code string
	}{
		{"not your turn", black, "place", []any{1, 1}, protocol.CodeNotYourTurn},
		{"occupied point", white, "place", []any{7, 7}, protocol.CodeInvalidMove},
		{"off the board", white, "place", []any{15, 0}, protocol.CodeInvalidMove},
		{"unknown move", white, "fly", nil, protocol.CodeUnknownMove},
		{"spectator", spec, "place", []any{0, 0}, protocol.CodeUnauthorized},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.conn.Latest().StateID
			_, err := tc.conn.Move(ctxT(t), tc.move, tc.args...)
			var me *client.MoveError
			if !errors.As(err, &me) || me.Code != tc.code || me.Message == "" {
				t.Fatalf("got %v, want a %s refusal with a message", err, tc.code)
			}
			if tc.code == protocol.CodeInvalidMove && me.MessageZh == "" {
				t.Errorf("invalid_move without a Chinese reason: %+v", me)
			}
			st, err := tc.conn.Sync(ctxT(t))
			if err != nil || st.StateID != before {
				t.Fatalf("after a refusal: stateID %d (was %d), %v", st.StateID, before, err)
			}
		})
	}
	t.Run("wrong credentials", func(t *testing.T) {
		_, err := client.Dial(ctxT(t), srv.URL, "gomoku", id, "1", "not-the-credentials")
		if !client.IsCode(err, protocol.CodeUnauthorized) {
			t.Fatalf("Dial with wrong credentials: %v, want unauthorized", err)
		}
	})
}

func TestServerChatAndAutoplay(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	l := client.NewLobby(srv.URL, nil)
	id, seats := gomokuMatch(t, l, 2)
	black, white := dial(t, srv.URL, id, seats[0]), dial(t, srv.URL, id, seats[1])
	spec := dial(t, srv.URL, id, seat{})
	if err := black.Chat(ctxT(t), "你好"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*client.Conn{white, spec} {
		select {
		case m := <-c.Chats():
			if m.Text != "你好" || m.From != "0" {
				t.Fatalf("%q got chat %+v", c.PlayerID(), m)
			}
		case <-time.After(time.Minute):
			t.Fatalf("%q got no chat", c.PlayerID())
		}
	}
	// White hands its seat to the bot; black's move is then answered by it.
	if err := white.Autoplay(ctxT(t), true); err != nil {
		t.Fatal(err)
	}
	waitFor(t, black, "seat 1 is on autoplay", func(st *protocol.State) bool { return st.Players[1].Autoplay })
	waitFor(t, black, "it is my turn", myTurn(black))
	st, err := black.Move(ctxT(t), "place", 7, 7)
	if err != nil {
		t.Fatalf("move: %v", err)
	}
	after := waitFor(t, black, "the bot answered", func(s *protocol.State) bool { return s.StateID > st.StateID && myTurn(black)(s) })
	if after.Ctx.Turn <= st.Ctx.Turn {
		t.Fatalf("turn did not advance: %d then %d", st.Ctx.Turn, after.Ctx.Turn)
	}
}
