package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server/servertest"
)

func init() {
	// The binary the end-to-end tests run, and every test here, keep
	// their seats in a file of the test run's own, never in the user's
	// config directory. A test that ends its game leaves no file.
	if os.Getenv(seatsEnv) == "" {
		os.Setenv(seatsEnv, filepath.Join(os.TempDir(), fmt.Sprintf("chaguan-term-test-seats-%d.json", os.Getpid())))
	}
}

// tcpProxy forwards TCP connections from its own address to a backend that
// can be switched (a restarted server) or taken away (new connections are
// closed at once); drop cuts every forwarded connection.
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

func (p *tcpProxy) setTarget(addr string) {
	p.mu.Lock()
	p.target = addr
	p.mu.Unlock()
}

func (p *tcpProxy) drop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for c := range p.conns {
		c.Close()
	}
}

// restartable is a test server behind a proxy (its address stays across
// a restart, as a real server's does), on a memory store that outlives
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
	r.proxy = startProxy(t, strings.TrimPrefix(r.srv.URL, "http://"))
	return r
}

// stop shuts the server down as SIGTERM does and refuses connections.
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
	r.proxy.setTarget(strings.TrimPrefix(r.srv.URL, "http://"))
}

// reconnectingPlayer creates a 9x9 match at base and seats a player in
// seat 0 with the Go client, reconnecting as the web page does.
func reconnectingPlayer(ctx context.Context, t *testing.T, base string) (string, *client.Conn) {
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
	c, err := client.DialWith(ctx, base, gameName, id, jr.PlayerID, jr.PlayerCredentials,
		client.Options{Reconnect: true, MinBackoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return id, c
}

// tempStore is a seats file in the test's own directory.
func tempStore(t *testing.T) *seatStore {
	return &seatStore{path: filepath.Join(t.TempDir(), "seats.json")}
}

// pumped hides the real backend's pushes from the harness (which would
// run the model's listen commands itself and drop what they return);
// pump feeds them to the model instead.
type pumped struct{ *netBackend }

func (pumped) Next() tea.Msg { return nil }

// pump feeds the model what the server pushes until ok holds.
func pump(t *testing.T, h *harness, be *netBackend, what string, ok func() bool) {
	t.Helper()
	guard := time.After(20 * time.Second)
	for !ok() {
		ch := make(chan tea.Msg, 1)
		go func() { ch <- be.Next() }()
		select {
		case msg := <-ch:
			h.send(msg)
		case <-guard:
			t.Fatalf("no %s; the status line: %q", what, h.statusLine())
		}
	}
}

// termOn drives a model on session s as the program would, its pushes
// fed by pump.
func termOn(t *testing.T, s *session, l lang) *harness {
	t.Helper()
	t.Cleanup(s.be.Close)
	h := newHarnessOn(t, s.mode, s.seats, l, pumped{s.be}, s.first)
	h.m.backFor = time.Millisecond
	s.keep(h.m)
	return h
}

func moves(v weiqi.View) int { return len(v.Moves) }

// TestTermReconnectsAfterServerRestart: the server restarts on the same
// store mid-game. The terminal says it is reconnecting and refuses moves
// on the spot meanwhile; once back it redraws from the full state, says
// so, and plays on.
func TestTermReconnectsAfterServerRestart(t *testing.T) {
	r := startRestartable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, browser := reconnectingPlayer(ctx, t, r.proxy.URL())
	s, err := resumeOrJoin(ctx, r.proxy.URL(), id, "Term", false, tempStore(t), langEn)
	if err != nil {
		t.Fatal(err)
	}
	h := termOn(t, s, langEn)
	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	pump(t, h, s.be, "black's stone", func() bool { return moves(h.m.v) == 1 })

	r.stop()
	pump(t, h, s.be, "reconnecting", func() bool { return h.m.reconnecting })
	wantStatus(t, h, "reconnecting…")
	if hs := h.m.hints(200); strings.Contains(hs, "Enter") || strings.Contains(hs, "pass") || !strings.Contains(hs, "quit") {
		t.Fatalf("while reconnecting the key hints offer %q", hs)
	}
	h.keys("l", "enter", "p", "u", "r", "y", "e")
	wantStatus(t, h, "reconnecting…")
	if h.m.cx != 5 || h.m.busy {
		t.Fatalf("while reconnecting: cursor column %d (want 5, moved by l), busy %v", h.m.cx, h.m.busy)
	}
	r.start()
	pump(t, h, s.be, "the reconnect", func() bool { return !h.m.reconnecting })
	wantStatus(t, h, "Reconnected")
	if moves(h.m.v) != 1 || h.m.v.ToMove != "1" {
		t.Fatalf("after the reconnect: %d moves, %s to move", moves(h.m.v), h.m.v.ToMove)
	}
	h.keys("enter") // F5: the cursor stayed where l put it
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return moves(v) == 2 && v.Moves[1] == "F5" })
	if h.m.status != "" && h.m.statusErr {
		t.Fatalf("the move after the reconnect says %q", h.m.status)
	}
}

// TestQuitAndJoinAgainResumes: a seat taken with -join is kept in the
// seats file; quitting and -join with the same link sits in it again (not
// a spectator, no new seat). A seat the server no longer knows is
// forgotten, and the game's end forgets it too.
func TestQuitAndJoinAgainResumes(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, browser := reconnectingPlayer(ctx, t, srv.URL)
	store := tempStore(t)

	s, err := resumeOrJoin(ctx, srv.URL, id, "Term", false, store, langEn)
	if err != nil {
		t.Fatal(err)
	}
	if s.mode != modeRemote || !slices.Equal(s.seats, []string{"1"}) || s.held == nil {
		t.Fatalf("first -join: mode %v seats %v held %v", s.mode, s.seats, s.held)
	}
	held, ok, err := store.find(srv.URL+"/", gameName, id) // a trailing slash names the same server
	if err != nil || !ok || held.PlayerID != "1" || held.Credentials == "" {
		t.Fatalf("seats file after the join: %+v %v %v", held, ok, err)
	}
	s.be.Close() // q

	s, err = resumeOrJoin(ctx, srv.URL, id, "Term", false, store, langEn)
	if err != nil {
		t.Fatal(err)
	}
	h := termOn(t, s, langEn)
	if s.mode != modeRemote || !slices.Equal(s.seats, []string{"1"}) || s.first.You != "1" {
		t.Fatalf("-join again: mode %v seats %v you %q; want seat 1 back", s.mode, s.seats, s.first.You)
	}
	wantStatus(t, h, "Back in your seat: White")
	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	pump(t, h, s.be, "black's stone", func() bool { return moves(h.m.v) == 1 })
	h.keys("l", "enter")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return moves(v) == 2 && v.Moves[1] == "F5" })

	// Without the seats file the same link watches: both seats are taken.
	if w, err := joinMatch(ctx, srv.URL, id, "Third", false); err != nil || w.mode != modeSpectate {
		t.Fatalf("a -join without the seat: %v", err)
	} else {
		w.be.Close()
	}

	// White resigns: the game is over and the seat forgotten.
	h.keys("r", "y")
	pump(t, h, s.be, "the end", func() bool { return h.m.v.Phase == "over" })
	if _, ok, _ := store.find(srv.URL, gameName, id); ok {
		t.Fatal("the seat of a finished game is still kept")
	}
	if _, err := os.Stat(store.path); !os.IsNotExist(err) {
		t.Fatalf("an empty seats file stays: %v", err)
	}
}

// TestLostSeatIsForgotten: the kept seat was given up from elsewhere (a
// bot has it): -join says so, forgets it and watches.
func TestLostSeatIsForgotten(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, _ := reconnectingPlayer(ctx, t, srv.URL)
	store := tempStore(t)
	s, err := resumeOrJoin(ctx, srv.URL, id, "Term", false, store, langZh)
	if err != nil {
		t.Fatal(err)
	}
	s.be.Close()
	held := *s.held
	if err := client.NewLobby(srv.URL, nil).Leave(ctx, gameName, id, protocol.LeaveRequest{PlayerID: held.PlayerID, Credentials: held.Credentials}); err != nil {
		t.Fatal(err)
	}
	s, err = resumeOrJoin(ctx, srv.URL, id, "Term", false, store, langZh)
	if err != nil {
		t.Fatal(err)
	}
	h := termOn(t, s, langZh)
	if s.mode != modeSpectate || s.held != nil {
		t.Fatalf("after the seat was lost: mode %v held %v; want to watch", s.mode, s.held)
	}
	wantStatus(t, h, "你在此对局原来的座位已不在")
	if _, ok, _ := store.find(srv.URL, gameName, id); ok {
		t.Fatal("the lost seat is still kept")
	}
}

// TestLostSeatWhileReconnecting: the seat passes to the bot while the
// terminal is away; the reconnect is refused, and the terminal says the
// seat is gone, stops and forgets it.
func TestLostSeatWhileReconnecting(t *testing.T) {
	r := startRestartable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	id, _ := reconnectingPlayer(ctx, t, r.proxy.URL())
	store := tempStore(t)
	s, err := resumeOrJoin(ctx, r.proxy.URL(), id, "Term", false, store, langEn)
	if err != nil {
		t.Fatal(err)
	}
	h := termOn(t, s, langEn)
	r.proxy.setTarget("")
	r.proxy.drop()
	pump(t, h, s.be, "reconnecting", func() bool { return h.m.reconnecting })
	held := *s.held
	if err := client.NewLobby(r.srv.URL, nil).Leave(ctx, gameName, id, protocol.LeaveRequest{PlayerID: held.PlayerID, Credentials: held.Credentials}); err != nil {
		t.Fatal(err)
	}
	r.proxy.setTarget(strings.TrimPrefix(r.srv.URL, "http://"))
	pump(t, h, s.be, "the end of the connection", func() bool { return h.m.closed })
	wantStatus(t, h, "Your seat is gone")
	h.keys("enter")
	wantStatus(t, h, "Your seat is gone")
	if _, ok, _ := store.find(r.proxy.URL(), gameName, id); ok {
		t.Fatal("the lost seat is still kept")
	}
}

// TestModelLocksWhileReconnecting: on a fake backend, the model's side of
// a drop: every key that would move is refused with 正在重新连接…, the
// cursor and help still work, a move in flight that failed says the same;
// back, it redraws from the state and says so until the message's time is
// up; closed for good, keys say so.
func TestModelLocksWhileReconnecting(t *testing.T) {
	h := newHarness(t, modeRemote, []string{"0"}, langZh, game(t, 9, "E5", "F5"))
	h.m.backFor = time.Millisecond
	h.keys("r") // a pending resignation question goes with the connection
	h.send(reconnectingMsg{attempt: 1})
	if h.m.confirmResign {
		t.Fatal("the resignation question outlived the drop")
	}
	wantStatus(t, h, "正在重新连接…")
	h.keys("enter", "space", "p", "u", "e", "d", "r", "y", "n")
	wantMoves(t, h)
	wantStatus(t, h, "正在重新连接…")
	h.keys("h")
	wantStatus(t, h, "光标 D5")
	wantStatus(t, h, "正在重新连接…")
	h.keys("?")
	if !h.m.help {
		t.Fatal("help does not open while reconnecting")
	}
	h.keys("?")

	// Back: the state answering the hello is newer (the opponent moved).
	st := h.next(game(t, 9, "E5", "F5", "D4"))
	_, cmd := h.m.Update(reconnectedMsg{st})
	if h.m.reconnecting || moves(h.m.v) != 3 || h.m.v.ToMove != "1" {
		t.Fatalf("after the reconnect: reconnecting %v, %d moves", h.m.reconnecting, moves(h.m.v))
	}
	wantStatus(t, h, "已重新连接")
	h.run(cmd)
	h.send(backGoneMsg{h.m.backTok}) // its time is up
	if strings.Contains(h.statusLine(), "已重新连接") {
		t.Fatalf("the reconnect message stayed: %q", h.statusLine())
	}
	h.send(stateMsg{h.next(game(t, 9, "E5", "F5", "D4", "D6"))})
	h.keys("enter")
	wantMoves(t, h, `0 play ["D5"]`)

	// A move whose socket dropped on the way.
	h.be.refuse["play"] = fmt.Errorf("%w: the connection dropped", client.ErrDisconnected)
	h.keys("j", "enter")
	wantStatus(t, h, "正在重新连接…")
	h.moves()

	// Closed for good: the keys say so; q quits.
	h.send(closedMsg{client.ErrClosed})
	for _, k := range []string{"enter", "u", "p"} {
		h.keys(k)
		wantStatus(t, h, "连接已断开")
	}
	wantMoves(t, h)
	h.keys("q")
	if !h.quit {
		t.Fatal("q did not quit a closed game")
	}

	// The first connection's own "open" says nothing.
	h = newHarness(t, modeRemote, []string{"0"}, langEn, game(t, 9))
	h.send(reconnectedMsg{h.next(game(t, 9, "E5"))})
	if strings.Contains(h.statusLine(), "Reconnected") {
		t.Fatal("an open that was no reconnect said Reconnected")
	}
}

func TestSeatsFile(t *testing.T) {
	dir := t.TempDir()
	store := &seatStore{path: filepath.Join(dir, "chaguan", "seats.json"), ownDir: true}
	a := heldSeat{Server: "http://h:8080", Game: gameName, MatchID: "m1", PlayerID: "1", Credentials: "c1", At: 1}
	b := heldSeat{Server: "http://h:8080", Game: gameName, MatchID: "m2", PlayerID: "0", Credentials: "c2", At: 2}
	for _, h := range []heldSeat{a, b} {
		if err := store.add(h); err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(store.path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("seats file mode %v, %v; want 0600", fi.Mode().Perm(), err)
	}
	if di, err := os.Stat(filepath.Dir(store.path)); err != nil || di.Mode().Perm() != 0o700 {
		t.Fatalf("seats dir mode %v, %v; want 0700", di.Mode().Perm(), err)
	}
	if h, ok, err := store.find("HTTP://H:8080/", gameName, "m1"); err != nil || !ok || h != a {
		t.Fatalf("find m1 = %+v %v %v", h, ok, err)
	}
	a2 := a
	a2.Credentials = "c3"
	if err := store.add(a2); err != nil { // the same match again: replaced
		t.Fatal(err)
	}
	if seats, _ := store.load(); len(seats) != 2 {
		t.Fatalf("%d seats after re-adding m1, want 2", len(seats))
	}
	if err := store.remove(a); err != nil { // another seat of m1: m1 is kept
		t.Fatal(err)
	}
	if err := store.remove(a2); err != nil {
		t.Fatal(err)
	}
	if seats, _ := store.load(); len(seats) != 1 || seats[0] != b {
		t.Fatalf("after removing m1: %+v", seats)
	}
	if err := store.remove(b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(store.path); !os.IsNotExist(err) {
		t.Fatalf("the file of no seats stays: %v", err)
	}
	// An unreadable file is reported and left as it is.
	if err := os.WriteFile(store.path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := store.add(a); err == nil || !strings.Contains(err.Error(), store.path) {
		t.Fatalf("add to a broken file: %v", err)
	}
	if got, _ := os.ReadFile(store.path); string(got) != "{not json" {
		t.Fatalf("the broken file was overwritten: %q", got)
	}

	// The path: -seats, else $CHAGUAN_SEATS, else the config directory.
	t.Setenv(seatsEnv, "/env/seats.json")
	if s, _ := openSeatStore("/flag/seats.json"); s.path != "/flag/seats.json" {
		t.Errorf("-seats: %s", s.path)
	}
	if s, _ := openSeatStore(""); s.path != "/env/seats.json" || s.ownDir {
		t.Errorf("$%s: %+v", seatsEnv, s)
	}
	t.Setenv(seatsEnv, "")
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv("HOME", dir)
	if s, err := openSeatStore(""); err != nil || !strings.HasSuffix(s.path, filepath.Join("chaguan", "seats.json")) || !s.ownDir {
		t.Errorf("default: %+v %v", s, err)
	}
}

// TestJoinWithoutLink: -join alone lists the seats held, whose move it is
// from the lobby, forgets the expired, and when stdin is a terminal takes
// the number of the one to go back to.
func TestJoinWithoutLink(t *testing.T) {
	for _, tc := range []struct {
		args []string
		list bool
		join string
	}{
		{args: []string{"-join"}, list: true},
		{args: []string{"-join", "-lang", "en"}, list: true},
		{args: []string{"-join="}, list: true},
		{args: []string{"-join", "http://h/m/weiqi/x"}, join: "http://h/m/weiqi/x"},
	} {
		o, err := parseFlags(tc.args, io.Discard)
		if err != nil || o.list != tc.list || o.join != tc.join {
			t.Errorf("%q: list %v join %q, %v", tc.args, o.list, o.join, err)
		}
	}
	if _, err := parseFlags([]string{"-join", "-spectate"}, io.Discard); err == nil {
		t.Error("-join (a list) with -spectate accepted")
	}

	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	store := tempStore(t)
	mine, browser := reconnectingPlayer(ctx, t, srv.URL)
	s, err := resumeOrJoin(ctx, srv.URL, mine, "Term", false, store, langEn)
	if err != nil {
		t.Fatal(err)
	}
	s.be.Close()
	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	gone := heldSeat{Server: srv.URL, Game: gameName, MatchID: "no-such-match", PlayerID: "0", Credentials: "x", At: time.Now().UnixMilli() + 1}
	if err := store.add(gone); err != nil {
		t.Fatal(err)
	}

	var out strings.Builder
	link, code := pickSeat(store, langEn, strings.NewReader(""), false, &out)
	t.Logf("the list:\n%s", out.String())
	for _, want := range []string{
		"Seats you hold (" + store.path + "):",
		"1. weiqi  " + mine + "  White (seat 1)  your move",
		srv.URL + "/m/weiqi/" + mine,
		"weiqi  no-such-match  Black (seat 0)  expired: forgotten",
		"-join <link> takes you back",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the list lacks %q:\n%s", want, out.String())
		}
	}
	if link != "" || code != 0 {
		t.Fatalf("without a terminal: link %q code %d; want the list only", link, code)
	}
	if _, ok, _ := store.find(srv.URL, gameName, "no-such-match"); ok {
		t.Fatal("the expired seat is still kept")
	}

	out.Reset()
	link, code = pickSeat(store, langZh, strings.NewReader("1\n"), true, &out)
	if link != srv.URL+"/m/weiqi/"+mine || code != 0 || !strings.Contains(out.String(), "白方（座位 1）  轮到你了") {
		t.Fatalf("picked 1: link %q code %d\n%s", link, code, out.String())
	}
	out.Reset()
	if link, code = pickSeat(store, langEn, strings.NewReader("7\n"), true, &out); link != "" || code != 2 ||
		!strings.Contains(out.String(), `No seat "7": pick 1-1`) {
		t.Fatalf("picked 7: link %q code %d\n%s", link, code, out.String())
	}
	if err := store.remove(*s.held); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if link, code = pickSeat(store, langEn, strings.NewReader("1\n"), true, &out); link != "" || code != 0 ||
		!strings.Contains(out.String(), "You hold no seat to go back to.") {
		t.Fatalf("no seats: link %q code %d\n%s", link, code, out.String())
	}
}
