package main

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestDialLeanErrors: a refused hello, an unknown match and a closed port
// are counted under the same kinds as with the full client.
func TestDialLeanErrors(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, _ := newMatch(t, srv.URL)
	tests := []struct {
		name, url, id, creds string
		want                 string // "" when only the clients must agree
	}{
		{"wrong credentials", srv.URL, id, "nope", "dial/unauthorized"},
		{"unknown match", srv.URL, "no-such-match", "nope", ""},
		{"closed port", "http://127.0.0.1:1", id, "nope", "dial/transport"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := dialLean(ctx, tc.url, tc.id, "0", tc.creds)
			if err == nil {
				c.Close()
				t.Fatal("dialLean succeeded")
			}
			fc, ferr := client.Dial(ctx, tc.url, gameName, tc.id, "0", tc.creds)
			if ferr == nil {
				fc.Close()
				t.Fatal("client.Dial succeeded")
			}
			lean, full := errKind("dial", err), errKind("dial", ferr)
			if lean != full || (tc.want != "" && lean != tc.want) {
				t.Fatalf("lean %q (%v), full %q (%v), want %q", lean, err, full, ferr, tc.want)
			}
		})
	}
}

// TestLeanAnswersPings: a lean connection that reads nothing but the
// server's pings answers them, so the server keeps it past its pong wait.
func TestLeanAnswersPings(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{PongWait: 300 * time.Millisecond, PingEvery: 100 * time.Millisecond}})
	id, creds := newMatch(t, srv.URL)
	c, err := dialLean(context.Background(), srv.URL, id, "0", creds[0])
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.due = time.Now().Add(time.Second) // an answer "due": pings do not renew the deadline
	for {
		c.armRead()
		if _, _, err = c.next(); err != nil {
			break
		}
	}
	if !isTimeout(err) {
		t.Fatalf("read ended with %v, want our own deadline (the server dropped the connection?)", err)
	}
}

// TestRefusals runs against a server that refuses most moves (rate_limited)
// and checks that both clients count the refusals and keep playing: pause,
// sync, retry.
func TestRefusals(t *testing.T) {
	for _, kind := range []string{clientLean, clientFull} {
		t.Run(kind, func(t *testing.T) {
			srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 40, Burst: 5}})
			rep := runFor(t, srv.URL, "-matches", "1", "-duration", "1500ms", "-seat-rate", "0", "-client", kind)
			t.Logf("moves=%d games=%d errors=%v", rep.Moves, rep.Games, rep.Errors)
			if rep.Errors["rate_limited"] == 0 {
				t.Fatalf("no refusal counted: %v", rep.Errors)
			}
			if rep.Moves < 20 {
				t.Fatalf("only %d moves accepted: refusals stopped the play", rep.Moves)
			}
		})
	}
}
