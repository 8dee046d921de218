//go:build linux

package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// Sizes of TestFaultChatBurst's burst: each chatter sends what the default
// rate limit lets one connection send at once (WSConfig.Burst).
const (
	burstChatters = 5
	burstLines    = 20
)

// Sizes of TestFaultClientStopsReading's load.
const (
	stuckClients  = 30 // spectators that never read
	calmMoves     = 10 // moves before they connect
	busyMoves     = 40 // moves while they sit on the match
	chatsPerMove  = 6  // 500-character chats sent before each busy move
	stuckRcvBytes = 4096
)

// TestFaultClientStopsReading: a Gomoku match is busy (moves, and long
// chat before each) while 30 spectators sit on it that said hello and never
// read again, through sockets with a 4 KiB receive buffer. The server
// drops every one of them (the frames it cannot deliver are not kept: the
// queue of each is capped, and a state supersedes the older ones), while
// the players' moves are all acknowledged and a reading spectator sees
// every one. Figure: the players' acknowledgement times before and with
// the stuck clients, the heap they cost against what they were sent, and
// how soon they were dropped.
func TestFaultClientStopsReading(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{WriteWait: 2 * time.Second, PongWait: 4 * time.Second, PingEvery: time.Second, Rate: 1000, Burst: 1000}})
	id, black, white := startedGomoku(t, srv.URL)
	players := [2]*wsClient{dial(t, srv.URL, "gomoku", id), dial(t, srv.URL, "gomoku", id)}
	players[0].hello(&black)
	players[1].hello(&white)
	watcher := watch(t, srv.URL, id)

	calm := playFaultMoves(players, 0, calmMoves, chatsPerMove)
	before := heapAlloc()
	for range stuckClients {
		dialStuck(t, srv.URL, id)
	}
	awaitConns(t, srv.URL, 3+stuckClients)
	sentBefore := watcher.bytes.Load()
	busy := playFaultMoves(players, calmMoves, busyMoves, chatsPerMove)
	peak := heapAlloc()
	busyEnded := time.Now()
	awaitConns(t, srv.URL, 3)
	dropped := time.Since(busyEnded)
	watcher.await(t, calmMoves+busyMoves)
	owed := (watcher.bytes.Load() - sentBefore) * stuckClients
	grew := int64(peak) - int64(before)
	t.Logf("FIGURE client stops reading: ack median/max %v/%v before, %v/%v with %d stuck clients; heap +%.1f MiB for %.1f MiB they were sent; all dropped %v after the load ended",
		median(calm), slices.Max(calm), median(busy), slices.Max(busy), stuckClients,
		float64(grew)/(1<<20), float64(owed)/(1<<20), dropped.Round(time.Millisecond))
	if grew > owed/2 {
		t.Errorf("the stuck clients cost %d bytes of heap, more than half the %d they were sent: their queues are not bounded", grew, owed)
	}
}

// TestFaultChatBurst: five spectators each send the burst of chat their
// rate limit allows (20 long lines) at the same moment. Every reader of the
// room stays connected, the chatters and a reading spectator alike: a
// viewer whose queue the burst fills misses some lines instead of being
// dropped as too slow (it was dropped before: 100 lines outrun the
// 32-frame queue of a viewer whose writer lags). Figure: the lines each received.
func TestFaultChatBurst(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, _, _ := startedGomoku(t, srv.URL)
	wa := watch(t, srv.URL, id)
	var chatters []*wsClient
	for range burstChatters {
		c := dial(t, srv.URL, "gomoku", id)
		c.hello(nil)
		chatters = append(chatters, c)
	}
	line, _ := json.Marshal(map[string]any{"type": "chat", "text": strings.Repeat("茶", protocol.MaxChat)})
	for _, c := range chatters {
		go func() {
			for range burstLines {
				if c.c.WriteMessage(websocket.TextMessage, line) != nil {
					return
				}
			}
		}()
	}
	wa.awaitQuiet(500 * time.Millisecond)
	got := []int64{wa.chats.Load()}
	for _, c := range chatters {
		n, open := countChats(c, 500*time.Millisecond)
		if !open {
			t.Errorf("a chatting spectator was dropped after %d lines", n)
		}
		got = append(got, n)
	}
	if n := wsConns(t, srv.URL); n != 1+burstChatters {
		t.Fatalf("%d of the %d readers still connected after a burst of %d chat lines", n, 1+burstChatters, burstChatters*burstLines)
	}
	t.Logf("FIGURE chat burst: of %d lines the watcher and the %d chatters received %v; all stayed connected", burstChatters*burstLines, burstChatters, got)
}

// countChats counts c's chat messages until none came for quiet; open is
// false when the connection ended.
func countChats(c *wsClient, quiet time.Duration) (n int64, open bool) {
	for {
		select {
		case b, ok := <-c.msgs:
			if !ok {
				return n, false
			}
			if bytes.HasPrefix(b, []byte(`{"type":"chat"`)) {
				n++
			}
		case <-time.After(quiet):
			return n, true
		}
	}
}

// playFaultMoves plays moves from..from+n-1 of a game that never ends
// (rows 0, 1, 3 and 4 filled left to right), the mover chatting chats
// times first, and returns each move's time to its acknowledgement.
func playFaultMoves(players [2]*wsClient, from, n, chats int) []time.Duration {
	text := strings.Repeat("茶", protocol.MaxChat)
	var took []time.Duration
	for i := from; i < from+n; i++ {
		p := players[i%2]
		for range chats {
			p.send(map[string]any{"type": "chat", "text": text})
		}
		start := time.Now()
		p.acked(p.move("place", i%15, [...]int{0, 1, 3, 4}[i/15]))
		took = append(took, time.Since(start))
	}
	return took
}

// median is the middle of ds.
func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2].Round(10 * time.Microsecond)
}

// heapAlloc is the live heap after a collection.
func heapAlloc() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// watcher is a spectator that reads everything, counting bytes and the
// stones of the latest state.
type watcher struct {
	bytes  atomic.Int64
	chats  atomic.Int64
	stones atomic.Int64
}

// watch connects a reading spectator to match id.
func watch(t *testing.T, base, id string) *watcher {
	w := dial(t, base, "gomoku", id)
	w.hello(nil)
	wa := &watcher{}
	go func() {
		for b := range w.msgs {
			wa.bytes.Add(int64(len(b)))
			if bytes.HasPrefix(b, []byte(`{"type":"chat"`)) {
				wa.chats.Add(1)
			}
			var s protocol.State
			if json.Unmarshal(b, &s) == nil && s.Type == protocol.TypeState {
				var v gomokuView
				if json.Unmarshal(s.G, &v) == nil {
					wa.stones.Store(int64(strings.Count(strings.Join(v.Board, ""), "B") + strings.Count(strings.Join(v.Board, ""), "W")))
				}
			}
		}
	}()
	return wa
}

// await waits up to 10 s for the watcher to see n stones.
func (wa *watcher) await(t *testing.T, n int) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); wa.stones.Load() != int64(n); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the reading spectator saw %d stones, want %d", wa.stones.Load(), n)
		}
	}
}

// awaitQuiet returns once the watcher has received nothing for quiet.
func (wa *watcher) awaitQuiet(quiet time.Duration) {
	for last := int64(-1); wa.bytes.Load() != last; time.Sleep(quiet) {
		last = wa.bytes.Load()
	}
}

// dialStuck connects a spectator that says hello and never reads, through
// a socket with a small receive buffer, so writes to it soon block.
func dialStuck(t *testing.T, base, id string) {
	t.Helper()
	nd := &net.Dialer{Control: func(_, _ string, rc syscall.RawConn) error {
		var err error
		if cerr := rc.Control(func(fd uintptr) {
			err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, stuckRcvBytes)
		}); cerr != nil {
			return cerr
		}
		return err
	}}
	d := websocket.Dialer{NetDialContext: nd.DialContext}
	c, _, err := d.Dial("ws"+strings.TrimPrefix(base, "http")+"/games/gomoku/"+id+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.WriteMessage(websocket.TextMessage, []byte(`{"type":"hello","name":"Stuck"}`)); err != nil {
		t.Fatal(err)
	}
}

// awaitConns waits up to 30 s for the server to count n WebSockets.
func awaitConns(t *testing.T, base string, n int) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		got := wsConns(t, base)
		if got == n {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("the server counts %d WebSockets, want %d", got, n)
		}
	}
}

// wsConns reads the server's count of live WebSockets from /metrics.
func wsConns(t *testing.T, base string) int {
	t.Helper()
	_, b := get(t, base+"/metrics")
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "chaguan_ws_connections "); ok {
			n, err := strconv.ParseFloat(v, 64)
			if err != nil {
				t.Fatal(err)
			}
			return int(n)
		}
	}
	t.Fatal("/metrics has no chaguan_ws_connections")
	return 0
}
