package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// decodedView is the view of a state frame as the full client gets it:
// decoded with encoding/json, the board read by firstEmpty.
func decodedView(t *testing.T, frame []byte) view {
	t.Helper()
	var st protocol.State
	if err := json.Unmarshal(frame, &st); err != nil {
		t.Fatalf("state frame does not decode: %v\n%s", err, frame)
	}
	v := view{stateID: st.StateID, current: st.Ctx.CurrentPlayer, started: st.Ctx.Started, over: over(&st)}
	if st.Ack != nil {
		v.ack, v.hasAck = *st.Ack, true
	}
	for seat := range v.empty {
		x, y, ok := firstEmpty(st.G, seat)
		v.empty[seat] = point{x, y, ok}
	}
	return v
}

// frameCheck compares scanFrame with encoding/json on every frame it is
// given and records which cases it has seen.
type frameCheck struct {
	t                                       *testing.T
	ack, noAck, over, errs, chat, belowRow0 bool
	states                                  int
}

// check scans frame and compares; it returns the frame's kind and view.
func (fc *frameCheck) check(frame []byte) (frameKind, view) {
	t := fc.t
	t.Helper()
	var got view
	kind := scanFrame(frame, &got)
	var head struct{ Type string }
	if err := json.Unmarshal(frame, &head); err != nil {
		t.Fatalf("server frame is not JSON: %v", err)
	}
	switch head.Type {
	case protocol.TypeState:
		if kind != frameState {
			t.Fatalf("scanFrame kind %d, want state:\n%s", kind, frame)
		}
		if want := decodedView(t, frame); got != want {
			t.Fatalf("scanFrame view\n got %+v\nwant %+v\nframe %s", got, want, frame)
		}
		fc.states++
		fc.ack = fc.ack || got.hasAck
		fc.noAck = fc.noAck || !got.hasAck
		fc.over = fc.over || got.over
		fc.belowRow0 = fc.belowRow0 || (got.empty[0].ok && got.empty[0].y > 0)
	case protocol.TypeError:
		if kind != frameError {
			t.Fatalf("scanFrame kind %d, want error:\n%s", kind, frame)
		}
		fc.errs = true
	default:
		if kind != frameOther {
			t.Fatalf("scanFrame kind %d, want other:\n%s", kind, frame)
		}
		fc.chat = fc.chat || head.Type == protocol.TypeChat
	}
	return kind, got
}

// rawSeat is a bare WebSocket to the test server, independent of the code
// under test, whose frames all go through a frameCheck.
type rawSeat struct {
	t  *testing.T
	ws *websocket.Conn
	fc *frameCheck
}

// dialRaw connects a rawSeat as pid ("" spectates) and reads up to its
// first state.
func dialRaw(t *testing.T, fc *frameCheck, baseURL, id, pid, creds string) *rawSeat {
	t.Helper()
	u, err := client.WebSocketURL(baseURL, gameName, id)
	if err != nil {
		t.Fatal(err)
	}
	ws, _, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	s := &rawSeat{t: t, ws: ws, fc: fc}
	hello := protocol.ClientMessage{Type: protocol.TypeHello, Credentials: creds}
	if pid != "" {
		hello.PlayerID = &pid
	}
	s.send(hello)
	s.until(func(k frameKind, _ view) bool { return k == frameState })
	return s
}

// send writes m as JSON.
func (s *rawSeat) send(m protocol.ClientMessage) {
	s.t.Helper()
	if err := s.ws.WriteJSON(m); err != nil {
		s.t.Fatal(err)
	}
}

// until reads and checks frames until ok accepts one, and returns its view.
func (s *rawSeat) until(ok func(frameKind, view) bool) view {
	s.t.Helper()
	for {
		s.ws.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, b, err := s.ws.ReadMessage()
		if err != nil {
			s.t.Fatalf("read: %v", err)
		}
		if k, v := s.fc.check(b); ok(k, v) {
			return v
		}
	}
}

// newMatch creates a Gomoku match and joins both seats, returning its id
// and the seats' credentials.
func newMatch(t *testing.T, baseURL string) (string, [2]string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l := client.NewLobby(baseURL, nil)
	id, err := l.Create(ctx, gameName, protocol.CreateRequest{NumPlayers: 2, Unlisted: true})
	if err != nil {
		t.Fatal(err)
	}
	var creds [2]string
	for seat := range 2 {
		pid := fmt.Sprint(seat)
		j, err := l.Join(ctx, gameName, id, protocol.JoinRequest{PlayerName: "p" + pid, PlayerID: &pid})
		if err != nil {
			t.Fatal(err)
		}
		creds[seat] = j.PlayerCredentials
	}
	return id, creds
}

// TestScanFrameServer plays a game over bare WebSockets against an
// in-process server and checks scanFrame against encoding/json on every
// frame the two seats and a spectator receive: acked and unacked states,
// a board whose first empty point is past row 0, refused moves, a chat, a
// sync, and the resignation's gameover object.
func TestScanFrameServer(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1e6, Burst: 1000}})
	id, creds := newMatch(t, srv.URL)
	fc := &frameCheck{t: t}
	seats := [2]*rawSeat{dialRaw(t, fc, srv.URL, id, "0", creds[0]), dialRaw(t, fc, srv.URL, id, "1", creds[1])}
	spec := dialRaw(t, fc, srv.URL, id, "", "")

	var last view
	seqOf := func(want int64) func(frameKind, view) bool {
		return func(k frameKind, v view) bool { return k == frameState && v.stateID >= want }
	}
	last = seats[0].until(func(k frameKind, v view) bool { return k == frameState && v.started })
	// 20 stones: row 0 fills (seat 0 has its 8 points, seat 1 its 7),
	// then each seat takes its own points of row 1, seat 1 first: seat 0
	// has (0,1) and (2,1), so its first empty point is (4, 1).
	for i := range 20 {
		mover, other := seats[i%2], seats[1-i%2]
		p, ok := last.next()
		if !ok || last.current != fmt.Sprint(i%2) {
			t.Fatalf("move %d: view %+v", i, last)
		}
		moveID := int64(i + 1)
		mover.send(protocol.ClientMessage{Type: protocol.TypeMove, ID: &moveID, Move: moveName, Args: json.RawMessage(fmt.Sprintf("[%d,%d]", p.x, p.y))})
		acked := mover.until(func(k frameKind, v view) bool { return k == frameState && v.hasAck && v.ack == moveID })
		other.until(seqOf(acked.stateID))
		spec.until(seqOf(acked.stateID))
		last = acked
	}
	if p, _ := last.next(); p != (point{4, 1, true}) || last.empty[1] != (point{7, 1, true}) {
		t.Fatalf("after 20 stones the seats' first empty points are %+v, want (4,1) and (7,1)", last.empty)
	}
	// Out of turn (seat 0 is to move): refused with its ref.
	bad := int64(99)
	seats[1].send(protocol.ClientMessage{Type: protocol.TypeMove, ID: &bad, Move: moveName, Args: json.RawMessage("[14,14]")})
	seats[1].until(func(k frameKind, _ view) bool { return k == frameError })
	seats[0].send(protocol.ClientMessage{Type: protocol.TypeChat, Text: `say "ctx":{"currentPlayer":"1"} \ ok`})
	for _, s := range []*rawSeat{seats[0], seats[1], spec} {
		s.until(func(k frameKind, _ view) bool { return k == frameOther })
	}
	seats[1].send(protocol.ClientMessage{Type: protocol.TypeSync})
	if v := seats[1].until(func(k frameKind, _ view) bool { return k == frameState }); v.hasAck {
		t.Fatalf("sync answered with an ack: %+v", v)
	}
	resignID := int64(100)
	seats[1].send(protocol.ClientMessage{Type: protocol.TypeMove, ID: &resignID, Move: "resign", Args: json.RawMessage("[]")})
	seats[1].until(func(k frameKind, v view) bool { return k == frameState && v.over })
	seats[0].until(func(k frameKind, v view) bool { return k == frameState && v.over })
	spec.until(func(k frameKind, v view) bool { return k == frameState && v.over })
	after := int64(101)
	seats[0].send(protocol.ClientMessage{Type: protocol.TypeMove, ID: &after, Move: moveName, Args: json.RawMessage("[5,1]")})
	seats[0].until(func(k frameKind, _ view) bool { return k == frameError })

	if !fc.ack || !fc.noAck || !fc.over || !fc.errs || !fc.chat || !fc.belowRow0 {
		t.Fatalf("cases not all seen: %+v", *fc)
	}
	t.Logf("%d state frames checked", fc.states)
}

// TestScanFrameCases checks scanFrame on frames built with encoding/json
// from protocol types, with what a walker could trip on: escaped quotes
// and field names inside strings, white space, nested gameover objects,
// full and missing boards, and frames that are not state frames or not
// whole.
func TestScanFrameCases(t *testing.T) {
	ack := int64(42)
	rows := func(n int, row string) []string {
		b := make([]string, n)
		for i := range b {
			b[i] = row
		}
		return b
	}
	board := func(b []string) json.RawMessage {
		g, _ := json.Marshal(map[string]any{"size": 15, "board": b, "moves": [][2]int{{0, 0}}, "result": nil})
		return g
	}
	state := func(mod func(*protocol.State)) []byte {
		st := protocol.State{
			Type: protocol.TypeState, MatchID: `m"1`, StateID: 13,
			G: board(append(rows(3, strings.Repeat("B", 15)), "BW.W...........")),
			Ctx: protocol.Ctx{NumPlayers: 2, PlayOrder: []string{"0", "1"}, CurrentPlayer: "1", Phase: "play", Turn: 3,
				Started: true, Gameover: json.RawMessage("null")},
			Players: []protocol.Player{{ID: 0, Name: `x","ctx":{"currentPlayer":"0","started":false},"y":"\`}, {ID: 1, Name: "乙"}},
			Log:     []protocol.LogEntry{{Turn: 1, PlayerID: "0", Move: "place", Args: json.RawMessage("[0,0]")}},
			You:     "1",
		}
		if mod != nil {
			mod(&st)
		}
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	indented := func(b []byte) []byte {
		var out bytes.Buffer
		json.Indent(&out, b, "", "  ")
		return out.Bytes()
	}
	testdata, err := os.ReadFile("../../protocol/testdata/state.json")
	if err != nil {
		t.Fatal(err)
	}
	// Row 3 is "BW.W.....": (2,3) is seat 1's, (4,3) too, (5,3) seat 0's.
	pts := [2]point{{5, 3, true}, {2, 3, true}}
	base := view{stateID: 13, current: "1", started: true, empty: pts}
	tests := []struct {
		name  string
		frame []byte
		kind  frameKind
		want  view
	}{
		{"plain", state(nil), frameState, base},
		{"ack", state(func(s *protocol.State) { s.Ack = &ack }), frameState,
			view{stateID: 13, ack: 42, hasAck: true, current: "1", started: true, empty: pts}},
		{"indented", indented(state(func(s *protocol.State) { s.Ack = &ack })), frameState,
			view{stateID: 13, ack: 42, hasAck: true, current: "1", started: true, empty: pts}},
		{"gameover object", state(func(s *protocol.State) {
			s.Ctx.Gameover = json.RawMessage(`{"winner":"0","reason":"five","line":[[0,0],[1,1]]}`)
		}), frameState, view{stateID: 13, current: "1", started: true, over: true, empty: pts}},
		{"gameover absent", state(func(s *protocol.State) { s.Ctx.Gameover = nil }), frameState, base},
		{"not started", state(func(s *protocol.State) { s.Ctx.Started = false; s.Ctx.CurrentPlayer = "0" }), frameState,
			view{stateID: 13, current: "0", empty: pts}},
		{"empty board", state(func(s *protocol.State) { s.G = board(rows(15, strings.Repeat(".", 15))) }), frameState,
			view{stateID: 13, current: "1", started: true, empty: [2]point{{0, 0, true}, {1, 0, true}}}},
		{"last point", state(func(s *protocol.State) {
			s.G = board(append(rows(14, strings.Repeat("W", 15)), strings.Repeat("B", 14)+"."))
		}), frameState, view{stateID: 13, current: "1", started: true, empty: [2]point{1: {14, 14, true}}}},
		{"full board", state(func(s *protocol.State) { s.G = board(rows(15, strings.Repeat("W", 15))) }), frameState,
			view{stateID: 13, current: "1", started: true}},
		{"no board", state(func(s *protocol.State) { s.G = json.RawMessage(`{"size":15,"note":"board"}`) }), frameState,
			view{stateID: 13, current: "1", started: true}},
		{"null G", state(func(s *protocol.State) { s.G = json.RawMessage(`null`) }), frameState,
			view{stateID: 13, current: "1", started: true}},
		{"protocol testdata", testdata, frameState, view{stateID: 13, ack: 7, hasAck: true, current: "0", started: true}},
		{"error", []byte(`{"type":"error","code":"not_your_turn","message":"wait \"your\" turn","ref":7}`), frameError, view{}},
		{"chat", []byte(`{"type":"chat","from":"0","name":"a","text":"{\"type\":\"state\"}","at":1}`), frameOther, view{}},
		{"unknown type", []byte(`{"type":"later","stateID":1}`), frameOther, view{}},
		{"truncated", state(nil)[:200], frameOther, view{}},
		{"no ctx", []byte(`{"type":"state","stateID":1,"G":{}}`), frameOther, view{}},
		{"not an object", []byte(`["type","state"]`), frameOther, view{}},
		{"empty", nil, frameOther, view{}},
		{"bad ctx", []byte(`{"type":"state","stateID":1,"G":{},"ctx":[1]}`), frameOther, view{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got view
			if kind := scanFrame(tc.frame, &got); kind != tc.kind {
				t.Fatalf("kind %d, want %d\n%s", kind, tc.kind, tc.frame)
			}
			if tc.kind == frameState && got != tc.want {
				t.Fatalf("view\n got %+v\nwant %+v\n%s", got, tc.want, tc.frame)
			}
			if tc.kind == frameState && !bytes.Equal(tc.frame, testdata) {
				// encoding/json agrees on every frame it can decode.
				if want := decodedView(t, tc.frame); got != want {
					t.Fatalf("encoding/json reads %+v", want)
				}
			}
		})
	}
}

// TestParseInt covers the integer reader's bounds.
func TestParseInt(t *testing.T) {
	for in, want := range map[string]int64{"0": 0, "7": 7, "-12": -12, "123456789012345678": 123456789012345678} {
		if got, ok := parseInt([]byte(in)); !ok || got != want {
			t.Errorf("parseInt(%q) = %d, %v", in, got, ok)
		}
	}
	for _, in := range []string{"", "-", "1.5", "1e3", "null", `"1"`, "1234567890123456789"} {
		if _, ok := parseInt([]byte(in)); ok {
			t.Errorf("parseInt(%q) accepted", in)
		}
	}
}

// TestAppendMove checks that the lean client's messages are byte for byte
// those of clients/client (json.Marshal of protocol.ClientMessage).
func TestAppendMove(t *testing.T) {
	encode := func(id int64, name string, args ...any) []byte {
		if args == nil {
			args = []any{}
		}
		raw, _ := json.Marshal(args)
		b, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeMove, ID: &id, Move: name, Args: raw})
		return b
	}
	if got, want := appendMove(nil, 1, moveName, 7, 12), encode(1, moveName, 7, 12); !bytes.Equal(got, want) {
		t.Errorf("place: %s, want %s", got, want)
	}
	if got, want := appendMove(nil, 123456, "resign"), encode(123456, "resign"); !bytes.Equal(got, want) {
		t.Errorf("resign: %s, want %s", got, want)
	}
	want, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeSync})
	if !bytes.Equal(syncMsg, want) {
		t.Errorf("sync: %s, want %s", syncMsg, want)
	}
}

// serverFrame is one state frame as the server sends it mid-game: seat
// 0's acked view after 40 stones.
func serverFrame(tb testing.TB) []byte {
	tb.Helper()
	srv := servertest.Start(tb, servertest.Options{WS: server.WSConfig{Rate: 1e6, Burst: 1000}})
	id, creds := newMatchTB(tb, srv.URL)
	var seats [2]*leanConn
	for i := range seats {
		c, err := dialLean(context.Background(), srv.URL, id, fmt.Sprint(i), creds[i])
		if err != nil {
			tb.Fatal(err)
		}
		defer c.Close()
		seats[i] = c
	}
	for n := 0; ; {
		for i, c := range seats {
			c.setReadDeadline(time.Now().Add(5 * time.Second))
			for c.v.current != c.me || !c.v.started {
				if _, _, err := c.next(); err != nil {
					tb.Fatal(err)
				}
			}
			p, _ := c.v.next()
			if _, err := c.move(time.Second, moveName, p.x, p.y); err != nil {
				tb.Fatal(err)
			}
			for !c.v.hasAck {
				if _, _, err := c.next(); err != nil {
					tb.Fatal(err)
				}
			}
			if n++; n == 40 && i == 1 {
				return bytes.Clone(c.buf)
			}
		}
	}
}

// newMatchTB is newMatch for benchmarks too.
func newMatchTB(tb testing.TB, baseURL string) (string, [2]string) {
	if t, ok := tb.(*testing.T); ok {
		return newMatch(t, baseURL)
	}
	ctx := context.Background()
	l := client.NewLobby(baseURL, nil)
	id, err := l.Create(ctx, gameName, protocol.CreateRequest{NumPlayers: 2, Unlisted: true})
	if err != nil {
		tb.Fatal(err)
	}
	var creds [2]string
	for seat := range 2 {
		pid := fmt.Sprint(seat)
		j, err := l.Join(ctx, gameName, id, protocol.JoinRequest{PlayerName: "p" + pid, PlayerID: &pid})
		if err != nil {
			tb.Fatal(err)
		}
		creds[seat] = j.PlayerCredentials
	}
	return id, creds
}

// TestScanFrameAllocs: scanning a real state frame allocates nothing.
func TestScanFrameAllocs(t *testing.T) {
	frame := serverFrame(t)
	var v view
	if n := testing.AllocsPerRun(100, func() { scanFrame(frame, &v) }); n != 0 {
		t.Fatalf("scanFrame allocates %.0f times per frame", n)
	}
	if p, ok := v.next(); !v.hasAck || v.current != "0" || !ok || p.y != 2 {
		t.Fatalf("unexpected view %+v of\n%s", v, frame)
	}
	t.Logf("frame of %d bytes: %s", len(frame), frame)
}

// BenchmarkScanFrame and BenchmarkDecodeFrame compare the lean client's
// scan of a mid-game state frame with the full client's decode.
func BenchmarkScanFrame(b *testing.B) {
	frame := serverFrame(b)
	b.SetBytes(int64(len(frame)))
	var v view
	for b.Loop() {
		scanFrame(frame, &v)
	}
}

// BenchmarkDecodeFrame is the full client's cost: decode, then firstEmpty.
func BenchmarkDecodeFrame(b *testing.B) {
	frame := serverFrame(b)
	b.SetBytes(int64(len(frame)))
	for b.Loop() {
		var st protocol.State
		json.Unmarshal(frame, &st)
		firstEmpty(st.G, 0)
	}
}

// TestViewCtx: viewCtx reads from a view held what scanCtx reads from
// its ctx's JSON, whether the ctx arrived whole or was split by patches,
// and reports a view without a ctx.
func TestViewCtx(t *testing.T) {
	state := `{"type":"state","matchID":"m","stateID":3,"G":{},"ctx":{"numPlayers":2,"currentPlayer":"1","phase":"play","turn":3,"started":true,"gameover":null},"players":[],"log":[],"you":"0"}`
	patches := []string{
		`{"type":"patch","stateID":4,"base":3,"ops":[{"op":"replace","path":"/ctx/currentPlayer","value":"0"},{"op":"replace","path":"/ctx/turn","value":4}]}`,
		`{"type":"patch","stateID":5,"base":4,"ops":[{"op":"replace","path":"/ctx/gameover","value":{"draw":true}}]}`,
		`{"type":"patch","stateID":6,"base":5,"ops":[{"op":"replace","path":"/ctx/currentPlayer","value":"player \"12\""},{"op":"remove","path":"/ctx/gameover"}]}`,
		`{"type":"patch","stateID":7,"base":6,"ops":[{"op":"replace","path":"/ctx/started","value":false}]}`,
		`{"type":"patch","stateID":8,"base":7,"ops":[{"op":"remove","path":"/ctx/started"}]}`,
	}
	var pv client.View
	if err := pv.SetState([]byte(state)); err != nil {
		t.Fatal(err)
	}
	check := func(step string) {
		t.Helper()
		var got, want view
		okGot, okWant := viewCtx(&pv, &got), scanCtx(pv.Member("ctx"), &want)
		if _, hasStarted := member(pv.Member("ctx"), "started"); !hasStarted {
			okWant = false // viewCtx asks for started; scanCtx does not
		}
		if okGot != okWant || okGot && got != want {
			t.Fatalf("%s: viewCtx %+v, %v; scanCtx %+v, %v", step, got, okGot, want, okWant)
		}
	}
	check("the state")
	for i, p := range patches {
		var patch protocol.Patch
		if err := json.Unmarshal([]byte(p), &patch); err != nil {
			t.Fatal(err)
		}
		if err := pv.Apply(&patch); err != nil {
			t.Fatalf("patch %d: %v", i, err)
		}
		check(fmt.Sprintf("patch %d", i))
	}
}
