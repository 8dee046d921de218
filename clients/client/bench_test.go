package client_test

import (
	"context"
	"testing"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// BenchmarkMoveRoundTrip measures one Gomoku move over a loopback WebSocket
// against the real server (memory store): send, apply, store, fan out to
// both seats, ack. Each op is one accepted move; a finished game is
// replaced by a new match outside the timer.
func BenchmarkMoveRoundTrip(b *testing.B) {
	srv := servertest.Start(b, servertest.Options{WS: server.WSConfig{Rate: 1e9, Burst: 1 << 20}})
	l := client.NewLobby(srv.URL, nil)
	ctx := context.Background()
	newGame := func() [2]*client.Conn {
		id, err := l.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2})
		if err != nil {
			b.Fatal(err)
		}
		var conns [2]*client.Conn
		for i := range conns {
			j, err := l.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "b"})
			if err != nil {
				b.Fatal(err)
			}
			if conns[i], err = client.Dial(ctx, srv.URL, "gomoku", id, j.PlayerID, j.PlayerCredentials); err != nil {
				b.Fatal(err)
			}
		}
		return conns
	}
	conns := newGame()
	n := 0 // moves in the current game; black wins at 61 (see TestServerGame)
	b.ResetTimer()
	for b.Loop() {
		if n == 61 {
			b.StopTimer()
			conns[0].Close()
			conns[1].Close()
			conns, n = newGame(), 0
			b.StartTimer()
		}
		if _, err := conns[n%2].Move(ctx, "place", n%15, n/15); err != nil {
			b.Fatalf("move %d: %v", n, err)
		}
		n++
	}
	b.StopTimer()
	conns[0].Close()
	conns[1].Close()
}
