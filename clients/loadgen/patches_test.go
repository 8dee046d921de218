package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestPatchesFlag: patches by default and with -patches alone, whole
// states with -patches=false, "both" for a run with each, and anything
// else is refused.
func TestPatchesFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, patchesOn},
		{[]string{"-patches"}, patchesOn},
		{[]string{"-patches=false"}, patchesOff},
		{[]string{"-patches=true"}, patchesOn},
		{[]string{"-patches=0"}, patchesOff},
		{[]string{"-patches=both"}, patchesBoth},
	} {
		c, err := parseFlags(tc.args, io.Discard)
		if err != nil || c.Patches != tc.want || c.patches() != (tc.want == patchesOn) {
			t.Errorf("%q: %q (patches %v), %v; want %q", tc.args, c.Patches, c.patches(), err, tc.want)
		}
	}
	if _, err := parseFlags([]string{"-patches=some"}, io.Discard); err == nil {
		t.Error("-patches=some accepted")
	}
}

// TestSmokePatches runs -game gongzhu with -patches both against a real
// server, a second each: both runs play, nothing fails, and the bytes
// each viewer reads per move are counted for both, the patches' fewer.
func TestSmokePatches(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	cfg, err := parseFlags([]string{"-url", srv.URL, "-progress=false", "-matches", "2", "-duration", "1s", "-game", "gongzhu", "-patches=both"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	reps, err := runModes(ctx, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	writeReports(&out, false, reps)
	t.Logf("reports:\n%s", out.String())
	if len(reps) != 2 || reps[0].Patches || !reps[1].Patches {
		t.Fatalf("%d reports, want one with whole states and one with patches", len(reps))
	}
	for _, r := range reps {
		if r.Moves < 8 || r.Ack.Count < r.Moves {
			t.Fatalf("patches=%v: too few moves acked: moves=%d ack=%+v", r.Patches, r.Moves, r.Ack)
		}
		if n := total(r.Errors); n != 0 {
			t.Fatalf("patches=%v: errors against a healthy server: %v", r.Patches, r.Errors)
		}
		if b := r.Bytes; b == nil || b.SeatPerMove <= 0 || b.SpectatorPerMove <= 0 {
			t.Fatalf("patches=%v: bytes per viewer not counted: %+v", r.Patches, r.Bytes)
		}
	}
	if full, patched := reps[0].Bytes.ViewerPerMove, reps[1].Bytes.ViewerPerMove; patched*2 > full {
		t.Errorf("patches %.0f bytes per viewer per move, whole states %.0f: want less than half", patched, full)
	}
	for _, want := range []string{"state+patch bytes per viewer per move", "bytes per viewer per move: full states", "patches=true"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %q in the text report", want)
		}
	}
	var js bytes.Buffer
	writeReports(&js, true, reps)
	var both struct{ Full, Patches *report }
	if err := json.Unmarshal(js.Bytes(), &both); err != nil || both.Full == nil || both.Patches == nil || !both.Patches.Patches {
		t.Fatalf("JSON report %s: %v", js.String(), err)
	}
}

// TestSmokePatchesGomoku: Gomoku with patches, with each client.
func TestSmokePatchesGomoku(t *testing.T) {
	for _, c := range []string{clientLean, clientFull} {
		t.Run(c, func(t *testing.T) {
			srv := servertest.Start(t, servertest.Options{})
			rep := runFor(t, srv.URL, "-matches", "2", "-duration", "1s", "-client", c, "-patches")
			if !rep.Patches || rep.Moves == 0 || rep.Ack.Count == 0 || rep.Opponent.Count == 0 {
				t.Fatalf("patches %v, moves %d, ack %+v, opponent %+v", rep.Patches, rep.Moves, rep.Ack, rep.Opponent)
			}
			if n := total(rep.Errors); n != 0 {
				t.Fatalf("errors against a healthy server: %v", rep.Errors)
			}
			if c == clientLean && (rep.Bytes == nil || rep.Bytes.SeatPerMove <= 0) {
				t.Fatalf("bytes not counted: %+v", rep.Bytes)
			}
		})
	}
}

// TestLeanPatchGap: a lean spectator with patches whose view is lost (as
// after a patch that does not apply) sends one sync, skips patches until
// the whole state, and goes on applying patches from it.
func TestLeanPatchGap(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	delay := 2
	id, err := client.NewLobby(srv.URL, nil).Create(ctx, "gongzhu", protocol.CreateRequest{NumPlayers: 4, Unlisted: true,
		BotDelayMs: &delay, Bots: map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	var gaps, read atomic.Int64
	c, err := dialLeanGame(ctx, &gongzhuLoad, leanOptions{stateBytes: &read, patches: true, gaps: &gaps}, srv.URL, id, "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.setReadDeadline(time.Now().Add(15 * time.Second))
	// readPatches reads until n states came as patches.
	readPatches := func(n int) {
		t.Helper()
		for n > 0 {
			kind, _, err := c.next()
			if err != nil {
				t.Fatalf("read: %v (gaps %d)", err, gaps.Load())
			}
			if kind == frameState && c.pv.Held() && !c.resyncing && c.pv.StateID() == c.v.stateID && !bytes.HasPrefix(c.buf, []byte(`{"type":"state"`)) {
				n--
			}
		}
	}
	readPatches(5)
	before := c.v.stateID
	c.pv.Reset() // the next patch finds no view: a gap
	readPatches(5)
	if gaps.Load() != 1 || c.v.stateID <= before || !c.v.started {
		t.Fatalf("after a gap: %d syncs sent, stateID %d (was %d), view %+v", gaps.Load(), c.v.stateID, before, c.v)
	}
	if read.Load() == 0 {
		t.Fatal("no bytes counted")
	}
}

// TestScanPatch: scanPatch reads what encoding/json reads from a patch
// message, and refuses what is not one.
func TestScanPatch(t *testing.T) {
	for _, frame := range []string{
		`{"type":"patch","stateID":14,"base":13,"ack":7,"ops":[{"op":"add","path":"/G/tricks/-","value":{"plays":[{"seat":0,"card":"QS"}]}},{"op":"remove","path":"/log/0"},{"op":"replace","path":"/you","value":""}]}`,
		`{"type":"patch","stateID":14,"base":14,"ops":[]}`,
		`{ "type" : "patch" , "stateID" : 3 , "base" : 2 , "ack" : null , "ops" : [ { "op" : "move" , "from" : "/a~1b" , "path" : "/G/\u0078" } ] }`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"test","path":"/G/n","value":"a\"b"}],"extra":[1]}`,
		`{"ops":[{"op":"replace","path":"/G/s","value":"]}{["},{"value":{"a":[{}]},"op":"add","path":"/G/t"}],"type":"patch","stateID":2,"base":1}`,
	} {
		var want, got protocol.Patch
		if err := json.Unmarshal([]byte(frame), &want); err != nil {
			t.Fatal(err)
		}
		var ack int64
		got.Ops = make([]protocol.PatchOp, 0, 1)
		if !scanPatch([]byte(frame), &got, &ack, "") {
			t.Fatalf("%s: not read", frame)
		}
		if len(want.Ops) == 0 {
			want.Ops = got.Ops[:0]
		}
		if wj, gj := mustJSON(t, want), mustJSON(t, got); wj != gj {
			t.Fatalf("%s:\nscanPatch %s\njson      %s", frame, gj, wj)
		}
	}
	for _, bad := range []string{
		`{"type":"state","stateID":3,"base":2,"ops":[]}`,
		`{"type":"patch","base":2,"ops":[]}`,
		`{"type":"patch","stateID":3,"base":2}`,
		`{"type":"patch","stateID":"3","base":2,"ops":[]}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":1}]}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"add"}`,
		`{"type":"patch","stateID":3,"base":2,"ops":{}}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"add","path":"/a","value":1}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"add","path":"/a","value":1}}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"add","path":"/a","value":1} {"op":"remove","path":"/b"}]}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[1]}`,
		`{"type":"patch","stateID":3,"base":2,"ops":[{"op":"add","path":"/a","value":}]}`,
		`[]`,
	} {
		var p protocol.Patch
		var ack int64
		if scanPatch([]byte(bad), &p, &ack, "") {
			t.Errorf("%s: read as %+v", bad, p)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkLeanPatches is a lean seat's own work on the frames of one
// whole Gomoku match (225 moves, patches on), the network left out: the
// frames seat 0 read are taken again, in order, by a fresh connection.
//
// With many/N, N connections take the frames in turn, one frame each, as
// the load generator's seats of N matches do: the views held then do not
// all stay in the CPU's caches.
func BenchmarkLeanPatches(b *testing.B) {
	frames := gomokuFrames(b)
	for _, n := range []int{1, 200} {
		b.Run(fmt.Sprintf("many/%d", n), func(b *testing.B) {
			for b.Loop() {
				conns := make([]*leanConn, n)
				for i := range conns {
					conns[i] = &leanConn{me: "0", load: &gomokuLoad, leanOptions: leanOptions{patches: true}}
				}
				for _, f := range frames {
					for _, c := range conns {
						c.buf = append(c.buf[:0], f...)
						if _, _, err := c.take(); err != nil {
							b.Fatal(err)
						}
					}
				}
				if !conns[0].v.over {
					b.Fatalf("the match did not end: %+v", conns[0].v)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n*len(frames)), "ns/frame")
		})
	}
}

// gomokuFrames plays one Gomoku match to its 225-move draw on an
// in-process server, both seats asking for patches, and returns every
// frame seat 0 read.
func gomokuFrames(tb testing.TB) [][]byte {
	tb.Helper()
	srv := servertest.Start(tb, servertest.Options{WS: server.WSConfig{Rate: 1e6, Burst: 1000}})
	id, creds := newMatchTB(tb, srv.URL)
	var seats [2]*leanConn
	for i := range seats {
		c, err := dialLeanGame(context.Background(), &gomokuLoad, leanOptions{patches: true}, srv.URL, id, fmt.Sprint(i), creds[i])
		if err != nil {
			tb.Fatal(err)
		}
		defer c.Close()
		seats[i] = c
	}
	frames := [][]byte{bytes.Clone(seats[0].buf)}
	read := func(i int) {
		c := seats[i]
		c.setReadDeadline(time.Now().Add(5 * time.Second))
		if _, _, err := c.next(); err != nil {
			tb.Fatal(err)
		}
		if i == 0 {
			frames = append(frames, bytes.Clone(c.buf))
		}
	}
	for !seats[0].v.over {
		for i, c := range seats {
			for c.v.current != c.me && !c.v.over {
				read(i)
			}
			if c.v.over {
				break
			}
			if _, ok, err := c.playView(time.Second); err != nil || !ok {
				tb.Fatalf("seat %d cannot move: %v", i, err)
			}
			for !c.v.hasAck {
				read(i)
			}
		}
	}
	return frames
}

// TestLeanSeatsDraw: two lean seats with patches play a whole Gomoku match
// on an in-process server, each its own points of the pattern, and it
// ends as a draw on a full board after 225 moves, every frame applied.
// The view held is the board and ctx only: as rows (rowView, Gomoku's
// way) and as a client.View (pruneState, keptOps: the way of a part
// that is not rows).
func TestLeanSeatsDraw(t *testing.T) {
	frames := gomokuFrames(t)
	for _, rows := range []bool{true, false} {
		load := gomokuLoad
		load.rows = rows
		c := &leanConn{me: "0", load: &load, leanOptions: leanOptions{patches: true}}
		for _, f := range frames {
			c.buf = append(c.buf[:0], f...)
			if _, _, err := c.take(); err != nil {
				t.Fatal(err)
			}
			if c.resyncing {
				t.Fatalf("rows %v: the patch of state %d did not apply", rows, c.p.StateID)
			}
		}
		var board []string
		if rows {
			if !c.rv.held {
				t.Fatal("rows: no view held")
			}
			for _, r := range c.rv.rows {
				board = append(board, string(r))
			}
		} else {
			var g map[string]json.RawMessage
			if err := json.Unmarshal(c.pv.Member("G"), &g); err != nil {
				t.Fatal(err)
			}
			if len(g) != 1 || c.pv.Member("log") != nil || c.pv.Member("players") != nil {
				t.Fatalf("the view holds G members %v, log %s, players %s; want the board alone", slices.Collect(maps.Keys(g)), c.pv.Member("log"), c.pv.Member("players"))
			}
			if err := json.Unmarshal(g["board"], &board); err != nil {
				t.Fatal(err)
			}
			gameover := string(c.pv.Lookup("ctx", "gameover"))
			if !strings.Contains(gameover, `"draw":true`) || !strings.Contains(gameover, `"reason":"full"`) {
				t.Fatalf("gameover %s", gameover)
			}
		}
		if !c.v.over || len(board) != 15 {
			t.Fatalf("rows %v: over %v, %d rows", rows, c.v.over, len(board))
		}
		for y, row := range board {
			if len(row) != 15 {
				t.Fatalf("rows %v: row %d is %q", rows, y, row)
			}
			for x := range len(row) {
				if want := "BW"[owner(x, y)]; row[x] != want {
					t.Fatalf("rows %v: (%d,%d) holds %q, want the stone of seat %d", rows, x, y, row[x], owner(x, y))
				}
			}
		}
	}
}

// TestRowViewMatchesView: a seat holding its view as rows and one holding
// it as a client.View read the same view from every frame of a whole
// match, for each seat.
func TestRowViewMatchesView(t *testing.T) {
	frames := gomokuFrames(t)
	for _, me := range []string{"0", "1"} {
		rowsLoad, viewLoad := gomokuLoad, gomokuLoad
		rowsLoad.rows, viewLoad.rows = true, false
		a := &leanConn{me: me, load: &rowsLoad, leanOptions: leanOptions{patches: true}}
		b := &leanConn{me: me, load: &viewLoad, leanOptions: leanOptions{patches: true}}
		mine := 0
		for i, f := range frames {
			for _, c := range []*leanConn{a, b} {
				c.buf = append(c.buf[:0], f...)
				if _, _, err := c.take(); err != nil {
					t.Fatal(err)
				}
			}
			if a.v != b.v {
				t.Fatalf("seat %s, frame %d: rows give %+v, client.View %+v", me, i, a.v, b.v)
			}
			if _, ok := a.v.next(); ok && a.v.current == me {
				mine++
			}
		}
		if mine < 100 {
			t.Errorf("seat %s had a point to play on %d views; want over 100", me, mine)
		}
	}
}

// TestScanPatchPart: a lean seat keeps the operations that reach ctx or
// its member of G (inside, at or above them) and drops the others, and the
// values it keeps are its own copies.
func TestScanPatchPart(t *testing.T) {
	frame := []byte(`{"type":"patch","stateID":5,"base":4,"ops":[` +
		`{"op":"replace","path":"/G/board/7","value":".......B......."},` +
		`{"op":"add","path":"/G/moves/-","value":[7,7]},` +
		`{"op":"replace","path":"/G/boards","value":1},` +
		`{"op":"replace","path":"/ctx/currentPlayer","value":"1"},` +
		`{"op":"replace","path":"/ctxs","value":2},` +
		`{"op":"add","path":"/log/-","value":{"turn":1}},` +
		`{"op":"replace","path":"/G","value":{"board":[]}},` +
		`{"op":"replace","path":"","value":{}},` +
		`{"op":"move","from":"/G/board/1","path":"/G/x"},` +
		`{"op":"copy","from":"/G/y","path":"/ctx/z"},` +
		`{"op":"move","from":"/G/y","path":"/G/z"},` +
		`{"op":"remove","path":"/G/board"},` +
		`{"op":"replace","path":"/G/\u0062oard/3","value":"x"},` +
		`{"op":"replace","path":"/G/board~1x","value":"y"}]}`)
	var p protocol.Patch
	var ack int64
	if !scanPatch(frame, &p, &ack, "board") {
		t.Fatal("not read")
	}
	kept := p.Ops
	for i := range frame {
		frame[i] = 'x' // the next frame read into the same buffer
	}
	var got []string
	for _, op := range kept {
		got = append(got, op.Op+" "+op.From+">"+op.Path)
		if op.Value != nil && !json.Valid(op.Value) {
			t.Errorf("%s %s: the value %q was the frame's", op.Op, op.Path, op.Value)
		}
	}
	want := []string{"replace >/G/board/7", "replace >/ctx/currentPlayer", "replace >/G", "replace >", "move /G/board/1>/G/x", "copy /G/y>/ctx/z", "remove >/G/board", "replace >/G/board/3"}
	if !slices.Equal(got, want) {
		t.Fatalf("kept %q\nwant %q", got, want)
	}
}

// TestRowViewOps: the operations a rowView applies, skips and refuses.
func TestRowViewOps(t *testing.T) {
	state := []byte(`{"type":"state","stateID":4,"G":{"size":2,"board":["..","B."]},"ctx":{"numPlayers":2,"currentPlayer":"1","turn":2,"started":true,"gameover":null}}`)
	cases := []struct {
		name string
		base int64
		ops  string
		ok   bool
		want rowView // rows and ctx after, when ok
	}{
		{"a move", 4, `[{"op":"replace","path":"/G/board/0","value":"W."},{"op":"replace","path":"/ctx/currentPlayer","value":"0"},{"op":"replace","path":"/ctx/turn","value":3}]`,
			true, rowView{started: true, current: "0", rows: [][]byte{[]byte("W."), []byte("B.")}}},
		{"the end", 4, `[{"op":"replace","path":"/ctx/gameover","value":{"draw":true}},{"op":"replace","path":"/ctx/currentPlayer","value":null}]`,
			true, rowView{started: true, over: true, rows: [][]byte{[]byte(".."), []byte("B.")}}},
		{"inside another ctx member", 4, `[{"op":"add","path":"/ctx/activePlayers/0","value":"x"},{"op":"remove","path":"/ctx/turn"}]`,
			true, rowView{started: true, current: "1", rows: [][]byte{[]byte(".."), []byte("B.")}}},
		{"another base", 3, `[]`, false, rowView{}},
		{"a whole board", 4, `[{"op":"replace","path":"/G/board","value":["..",".."]}]`, false, rowView{}},
		{"a whole ctx", 4, `[{"op":"replace","path":"/ctx","value":{}}]`, false, rowView{}},
		{"a row added", 4, `[{"op":"add","path":"/G/board/-","value":".."}]`, false, rowView{}},
		{"a row removed", 4, `[{"op":"remove","path":"/G/board/1"}]`, false, rowView{}},
		{"a row past the end", 4, `[{"op":"replace","path":"/G/board/2","value":".."}]`, false, rowView{}},
		{"a leading zero", 4, `[{"op":"replace","path":"/G/board/01","value":".."}]`, false, rowView{}},
		{"an escape", 4, `[{"op":"replace","path":"/G/board/0","value":"\u002e."}]`, false, rowView{}},
		{"not a string", 4, `[{"op":"replace","path":"/G/board/0","value":7}]`, false, rowView{}},
		{"inside a row", 4, `[{"op":"replace","path":"/G/board/0/1","value":"B"}]`, false, rowView{}},
		{"a read member removed", 4, `[{"op":"remove","path":"/ctx/currentPlayer"}]`, false, rowView{}},
		{"inside a read member", 4, `[{"op":"add","path":"/ctx/gameover/x","value":1}]`, false, rowView{}},
		{"started not a boolean", 4, `[{"op":"replace","path":"/ctx/started","value":1}]`, false, rowView{}},
		{"a move", 4, `[{"op":"move","from":"/ctx/turn","path":"/ctx/currentPlayer"}]`, false, rowView{}},
		{"a copy into another member", 4, `[{"op":"copy","from":"/ctx/currentPlayer","path":"/ctx/turn"}]`, false, rowView{}},
		{"a test", 4, `[{"op":"test","path":"/ctx/turn","value":2}]`, false, rowView{}},
	}
	for _, tc := range cases {
		var r rowView
		var v view
		if scanFrameWith(state, &v, gomokuLoad.scanG) != frameState {
			t.Fatal("the state does not scan")
		}
		r.hold(state, &v, "board")
		if !r.held {
			t.Fatal("the state is not held")
		}
		p := protocol.Patch{StateID: 5, Base: tc.base}
		if err := json.Unmarshal([]byte(tc.ops), &p.Ops); err != nil {
			t.Fatal(err)
		}
		if got := r.apply(&p, "board"); got != tc.ok || r.held != tc.ok {
			t.Errorf("%s: applied %v, held %v; want %v", tc.name, got, r.held, tc.ok)
			continue
		}
		if !tc.ok {
			continue
		}
		if r.id != 5 || r.started != tc.want.started || r.over != tc.want.over || r.current != tc.want.current ||
			!slices.EqualFunc(r.rows, tc.want.rows, bytes.Equal) {
			t.Errorf("%s: holds %+v (rows %q), want %+v (rows %q)", tc.name, r, r.rows, tc.want, tc.want.rows)
		}
	}
}
