package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server/servertest"
)

// These tests cut the client's connection to a real server (servertest)
// and restart the server on the same store, behind a TCP proxy whose
// address stays the same, as a server's address does across a restart.

// tcpProxy forwards TCP connections from its own address to a backend that
// can be switched (a restarted server) or taken away (a server that is
// down: new connections are closed at once); drop cuts every forwarded
// connection, as a failing network or a killed process would.
type tcpProxy struct {
	ln     net.Listener
	mu     sync.Mutex
	target string
	conns  map[net.Conn]struct{}
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln, target: target, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.drop() })
	return p
}

// URL is the proxy's http:// address.
func (p *tcpProxy) URL() string { return "http://" + p.ln.Addr().String() }

func (p *tcpProxy) serve() {
	for {
		in, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		target := p.target
		p.mu.Unlock()
		var out net.Conn
		if target != "" {
			out, _ = net.Dial("tcp", target)
		}
		if out == nil {
			in.Close()
			continue
		}
		p.mu.Lock()
		p.conns[in], p.conns[out] = struct{}{}, struct{}{}
		p.mu.Unlock()
		pipe := func(dst, src net.Conn) {
			_, _ = io.Copy(dst, src)
			dst.Close()
			src.Close()
			p.mu.Lock()
			delete(p.conns, dst)
			delete(p.conns, src)
			p.mu.Unlock()
		}
		go pipe(in, out)
		go pipe(out, in)
	}
}

// setTarget points new connections at addr ("" refuses them).
func (p *tcpProxy) setTarget(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

// drop closes every forwarded connection.
func (p *tcpProxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// restartable is a test server behind a proxy, on a store that outlives
// each of its processes.
type restartable struct {
	t     *testing.T
	store *memstore.Store
	srv   *servertest.Server
	proxy *tcpProxy
}

func startRestartable(t *testing.T) *restartable {
	t.Helper()
	st := memstore.New(memstore.Options{})
	t.Cleanup(func() { _ = st.Close() })
	r := &restartable{t: t, store: st}
	r.srv = servertest.Start(t, servertest.Options{Store: st})
	r.proxy = startProxy(t, hostOf(r.srv.URL))
	return r
}

func hostOf(u string) string { return strings.TrimPrefix(u, "http://") }

// stop shuts the server down as SIGTERM does (going-away frames, each
// room storing its players' departure) and refuses new connections.
func (r *restartable) stop() {
	r.proxy.setTarget("")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	r.srv.Handler.Shutdown(ctx)
	r.srv.Rooms.Close()
	r.proxy.drop()
}

// start starts a new server process on the same store.
func (r *restartable) start() {
	r.srv = servertest.Start(r.t, servertest.Options{Store: r.store})
	r.proxy.setTarget(hostOf(r.srv.URL))
}

// dialBack dials seat s through the proxy with Options.Reconnect and
// short backoffs.
func dialBack(t *testing.T, url, id string, s seat) *client.Conn {
	t.Helper()
	return dialBackWith(t, url, id, s, false)
}

// dialBackWith is dialBack, asking for patches or not.
func dialBackWith(t *testing.T, url, id string, s seat, patches bool) *client.Conn {
	t.Helper()
	c, err := client.DialWith(ctxT(t), url, "gomoku", id, s.id, s.creds, client.Options{
		Reconnect: true, MinBackoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, Patches: patches,
	})
	if err != nil {
		t.Fatalf("DialWith %q: %v", s.id, err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitStatus reads c's status changes until want.
func waitStatus(t *testing.T, c *client.Conn, want client.Status) client.StatusChange {
	t.Helper()
	guard := time.After(time.Minute)
	for {
		select {
		case s := <-c.Statuses():
			if s.Status == want {
				return s
			}
		case <-guard:
			t.Fatalf("seat %q: no status %v; now %v (Err %v)", c.PlayerID(), want, c.Status(), c.Err())
		}
	}
}

// stones is the number of stones of a Gomoku state.
func stones(t *testing.T, st *protocol.State) int {
	t.Helper()
	var g struct{ Moves [][2]int }
	if err := json.Unmarshal(st.G, &g); err != nil {
		t.Fatalf("G %s: %v", st.G, err)
	}
	return len(g.Moves)
}

// drain empties c's States, so that the next state read is a new one.
func drain(c *client.Conn) {
	for len(c.States()) > 0 {
		<-c.States()
	}
}

// TestServerReconnect plays through a cut network and through a server
// restart: each time both seats reconnect with their own credentials, get
// the full state (the stones played before are there) and play on. With
// patches, each reconnect's hello asks for them again: the moves after it
// are answered by patches.
func TestServerReconnect(t *testing.T) {
	t.Run("full", func(t *testing.T) { testServerReconnect(t, false) })
	t.Run("patches", func(t *testing.T) { testServerReconnect(t, true) })
}

func testServerReconnect(t *testing.T, patches bool) {
	r := startRestartable(t)
	l := client.NewLobby(r.proxy.URL(), nil)
	id, seats := gomokuMatch(t, l, 2)
	conns := []*client.Conn{dialBackWith(t, r.proxy.URL(), id, seats[0], patches), dialBackWith(t, r.proxy.URL(), id, seats[1], patches)}
	// byPatch checks that c's states came as patches since it had applied
	// before (with patches), or that none did (without).
	byPatch := func(c *client.Conn, before int64) {
		t.Helper()
		patched, resyncs := client.PatchCounts(c)
		if patches && (patched <= before || resyncs != 0) || !patches && patched != 0 {
			t.Fatalf("seat %s: %d patches applied (%d before), %d syncs for a gap; patches asked: %v", c.PlayerID(), patched, before, resyncs, patches)
		}
	}
	played, lastID := 0, int64(0) // the moves played, the stateID of the last one
	move := func() {
		t.Helper()
		c := conns[played%2]
		waitFor(t, c, "it is my turn", myTurn(c))
		before, _ := client.PatchCounts(c)
		st, err := c.Move(ctxT(t), "place", played, 0)
		if err != nil {
			t.Fatalf("move %d: %v", played, err)
		}
		byPatch(c, before) // the ack came on a patch
		played, lastID = played+1, st.StateID
		if stones(t, st) != played {
			t.Fatalf("after move %d the board holds %d stones", played, stones(t, st))
		}
	}
	move()
	move()

	for _, outage := range []struct {
		name string
		cut  func()
	}{
		{"network cut", r.proxy.drop},
		{"server restart", func() { r.stop(); r.start() }},
	} {
		t.Run(outage.name, func(t *testing.T) {
			before := lastID
			for _, c := range conns {
				drain(c)
			}
			outage.cut()
			for _, c := range conns {
				waitStatus(t, c, client.StatusReconnecting)
				waitStatus(t, c, client.StatusOpen)
				// The hello's answer is the full state, as it was.
				st := waitFor(t, c, "the state after the reconnect", func(st *protocol.State) bool { return st.StateID >= before })
				if st.StateID != before || stones(t, st) != played || st.You != c.PlayerID() || c.Err() != nil {
					t.Fatalf("seat %s after the reconnect: stateID %d (was %d), %d stones (want %d), you %q, Err %v",
						c.PlayerID(), st.StateID, before, stones(t, st), played, st.You, c.Err())
				}
			}
			move()
			move()
		})
	}
}

// TestServerDisconnectedMoveAndLostSeat: while the server is down a move is
// refused at once with ErrDisconnected; when the seat was given up
// meanwhile (the player left from elsewhere: a bot has it), the reconnect's
// hello is refused as unauthorized and the Conn stops retrying.
func TestServerDisconnectedMoveAndLostSeat(t *testing.T) {
	r := startRestartable(t)
	l := client.NewLobby(r.proxy.URL(), nil)
	id, seats := gomokuMatch(t, l, 2)
	black := dialBack(t, r.proxy.URL(), id, seats[0])
	waitFor(t, black, "it is my turn", myTurn(black))

	r.stop()
	waitStatus(t, black, client.StatusReconnecting)
	if _, err := black.Move(ctxT(t), "place", 7, 7); !errors.Is(err, client.ErrDisconnected) {
		t.Fatalf("move while the server is down: %v, want ErrDisconnected", err)
	}
	r.start()
	waitStatus(t, black, client.StatusOpen)
	if _, err := black.Move(ctxT(t), "place", 7, 7); err != nil {
		t.Fatalf("move once back: %v", err)
	}

	r.proxy.setTarget("")
	r.proxy.drop()
	waitStatus(t, black, client.StatusReconnecting)
	direct := client.NewLobby(r.srv.URL, nil)
	if err := direct.Leave(ctxT(t), "gomoku", id, protocol.LeaveRequest{PlayerID: seats[0].id, Credentials: seats[0].creds}); err != nil {
		t.Fatalf("leave: %v", err)
	}
	r.proxy.setTarget(hostOf(r.srv.URL))
	s := waitStatus(t, black, client.StatusClosed)
	<-black.Done()
	if !client.IsCode(black.Err(), protocol.CodeUnauthorized) || !client.IsCode(s.Err, protocol.CodeUnauthorized) {
		t.Fatalf("after the seat was lost: Err %v (status %+v), want unauthorized", black.Err(), s)
	}
	if _, err := black.Move(ctxT(t), "place", 0, 0); !errors.Is(err, client.ErrClosed) {
		t.Fatalf("move after the end: %v", err)
	}
}
