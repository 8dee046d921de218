package server_test

import (
	"context"
	"sync"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/server/servertest"
)

// twoServers starts two servers, as two processes would run, sharing one
// Redis through two independent store clients.
func twoServers(t *testing.T) (a, b *servertest.Server) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	open := func() rooms.Store {
		st, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	return servertest.Start(t, servertest.Options{Store: open()}), servertest.Start(t, servertest.Options{Store: open()})
}

func TestCrossProcessViewerSeesMoves(t *testing.T) {
	a, b := twoServers(t)
	id, black, white := startedGomoku(t, a.URL)
	pa := dial(t, a.URL, "gomoku", id) // black plays on server A
	pa.hello(&black)
	pb := dial(t, b.URL, "gomoku", id) // white plays on server B
	pb.hello(&white)
	spec := dial(t, b.URL, "gomoku", id) // a spectator on B
	spec.hello(nil)
	moves := [][2]int{{7, 7}, {0, 0}, {7, 8}, {0, 1}, {7, 9}, {0, 2}, {7, 10}, {0, 3}, {7, 11}}
	var last *protocol.State
	for i, mv := range moves {
		p := pa
		if i%2 == 1 {
			p = pb
		}
		p.acked(p.move("place", mv[0], mv[1]))
		turn := i + 2
		last = spec.stateWhere(func(s *protocol.State) bool { return s.Ctx.Turn == turn })
	}
	if g := gview(t, last); g.Result == nil || g.Result.Winner != "0" || string(last.Ctx.Gameover) == "null" {
		t.Fatalf("spectator on B did not see black win on A: %s %s", last.G, last.Ctx.Gameover)
	}
	// A match created on B is visible to the lobby of A.
	id2 := create(t, b.URL, "gomoku", map[string]any{"numPlayers": 2})
	if code, _ := get(t, a.URL+"/games/gomoku/"+id2); code != 200 {
		t.Fatalf("match created on B unknown to A: %d", code)
	}
}

func TestRacingConflictingMovesNeverBothLand(t *testing.T) {
	a, b := twoServers(t)
	for round := 0; round < 10; round++ {
		id, black, _ := startedGomoku(t, a.URL)
		// Black is connected twice, once to each server, and both
		// connections play a different first move at the same moment.
		pa, pb := dial(t, a.URL, "gomoku", id), dial(t, b.URL, "gomoku", id)
		sa, sb := pa.hello(&black), pb.hello(&black)
		var wg sync.WaitGroup
		results := make([]string, 2)
		for i, p := range []*wsClient{pa, pb} {
			wg.Add(1)
			sid := sa.StateID
			if i == 1 {
				sid = sb.StateID
			}
			go func(i int, p *wsClient, x int) {
				defer wg.Done()
				p.send(map[string]any{"type": "move", "id": 1, "move": "place", "args": []int{x, x}, "stateID": sid})
				for {
					typ, b := p.read()
					if typ == "error" {
						results[i] = "refused:" + string(b)
						return
					}
					if typ == "state" && containsAck(b) {
						results[i] = "accepted"
						return
					}
				}
			}(i, p, 3+i*6)
		}
		wg.Wait()
		accepted := 0
		for _, r := range results {
			if r == "accepted" {
				accepted++
			}
		}
		if accepted != 1 {
			t.Fatalf("round %d: %d of 2 conflicting moves landed: %v", round, accepted, results)
		}
		_, body := get(t, a.URL+"/games/gomoku/"+id)
		_ = body
		w := dial(t, b.URL, "gomoku", id)
		s := w.hello(nil)
		if g := gview(t, s); countStones(g.Board) != 1 || g.ToMove != "1" {
			t.Fatalf("round %d: board after the race: %v", round, g.Board)
		}
	}
}

func containsAck(b []byte) bool {
	var s protocol.State
	_ = jsonUnmarshal(b, &s)
	return s.Ack != nil && *s.Ack == 1
}

func countStones(board []string) int {
	n := 0
	for _, row := range board {
		for _, c := range row {
			if c != '.' {
				n++
			}
		}
	}
	return n
}
