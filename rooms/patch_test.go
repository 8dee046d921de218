package rooms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
)

// onode is a JSON value that keeps its members' order, so a test can
// apply a patch as a browser does (a JavaScript object keeps the order
// its keys were added in) and compare the result byte for byte.
type onode struct {
	kind byte // '{', '[' or 0 for a scalar
	keys []string
	kids []*onode
	raw  []byte // a scalar's JSON
}

func oparse(js []byte) (*onode, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	n, err := oread(dec)
	if err == nil && dec.More() {
		err = fmt.Errorf("trailing data")
	}
	return n, err
}

func oread(dec *json.Decoder) (*onode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		n := &onode{kind: byte(t)}
		for dec.More() {
			if n.kind == '{' {
				k, err := dec.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			kid, err := oread(dec)
			if err != nil {
				return nil, err
			}
			n.kids = append(n.kids, kid)
		}
		if _, err := dec.Token(); err != nil { // the closing delimiter
			return nil, err
		}
		return n, nil
	default:
		b, err := json.Marshal(t)
		return &onode{raw: b}, err
	}
}

func (n *onode) encode(b []byte) []byte {
	switch n.kind {
	case '{':
		b = append(b, '{')
		for i, k := range n.keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = n.kids[i].encode(b)
		}
		return append(b, '}')
	case '[':
		b = append(b, '[')
		for i, k := range n.kids {
			if i > 0 {
				b = append(b, ',')
			}
			b = k.encode(b)
		}
		return append(b, ']')
	}
	return append(b, n.raw...)
}

// oapply applies add, remove, replace and copy operations in place, as a
// browser's patch.js does, adding an object's new member last.
func oapply(doc *onode, ops []protocol.PatchOp) error {
	for _, op := range ops {
		if op.Op == "copy" { // the value at from, as encoded, added at path
			from, err := oget(doc, op.From)
			if err != nil {
				return fmt.Errorf("copy from %s: %v", op.From, err)
			}
			op = protocol.PatchOp{Op: "add", Path: op.Path, Value: from.encode(nil)}
		}
		if op.Path == "" || op.Path[0] != '/' {
			return fmt.Errorf("bad path %q", op.Path)
		}
		toks := strings.Split(op.Path[1:], "/")
		for i, t := range toks {
			toks[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
		parent := doc
		for _, t := range toks[:len(toks)-1] {
			i, err := parent.index(t, false)
			if err != nil {
				return fmt.Errorf("%s %s: %v", op.Op, op.Path, err)
			}
			parent = parent.kids[i]
		}
		last := toks[len(toks)-1]
		var val *onode
		if op.Op != "remove" {
			var err error
			if val, err = oparse(op.Value); err != nil {
				return fmt.Errorf("%s %s: value: %v", op.Op, op.Path, err)
			}
		}
		switch op.Op {
		case "add":
			if parent.kind == '{' {
				if i, err := parent.index(last, false); err == nil {
					parent.kids[i] = val
				} else {
					parent.keys = append(parent.keys, last)
					parent.kids = append(parent.kids, val)
				}
				continue
			}
			i, err := parent.index(last, true)
			if err != nil {
				return fmt.Errorf("add %s: %v", op.Path, err)
			}
			parent.kids = slices.Insert(parent.kids, i, val)
		case "replace":
			i, err := parent.index(last, false)
			if err != nil {
				return fmt.Errorf("replace %s: %v", op.Path, err)
			}
			parent.kids[i] = val
		case "remove":
			i, err := parent.index(last, false)
			if err != nil {
				return fmt.Errorf("remove %s: %v", op.Path, err)
			}
			parent.kids = slices.Delete(parent.kids, i, i+1)
			if parent.kind == '{' {
				parent.keys = slices.Delete(parent.keys, i, i+1)
			}
		default:
			return fmt.Errorf("op %q: the server writes only add, remove, replace and copy", op.Op)
		}
	}
	return nil
}

// index finds a member or an array index in n; end allows "-" and len.
// oget returns the node at the JSON Pointer path.
func oget(doc *onode, path string) (*onode, error) {
	if path == "" {
		return doc, nil
	}
	if path[0] != '/' {
		return nil, fmt.Errorf("bad path %q", path)
	}
	n := doc
	for _, t := range strings.Split(path[1:], "/") {
		i, err := n.index(strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~"), false)
		if err != nil {
			return nil, err
		}
		n = n.kids[i]
	}
	return n, nil
}

func (n *onode) index(tok string, end bool) (int, error) {
	switch n.kind {
	case '{':
		if i := slices.Index(n.keys, tok); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("no member %q", tok)
	case '[':
		if tok == "-" && end {
			return len(n.kids), nil
		}
		i, err := strconv.Atoi(tok)
		if err != nil || i < 0 || i > len(n.kids) || (i == len(n.kids) && !end) || strconv.Itoa(i) != tok {
			return 0, fmt.Errorf("bad index %q of %d", tok, len(n.kids))
		}
		return i, nil
	}
	return 0, fmt.Errorf("%q in a scalar", tok)
}

// wireMsg is the head of a state or patch message.
type wireMsg struct {
	Type    string             `json:"type"`
	StateID int64              `json:"stateID"`
	Base    int64              `json:"base"`
	Ack     *int64             `json:"ack"`
	Ops     []protocol.PatchOp `json:"ops"`
}

// stateDoc is what a client holds of a state message: its JSON without
// type, stateID and ack, in the server's order.
func stateDoc(t testing.TB, msg []byte) []byte {
	t.Helper()
	const head = `{"type":"state",`
	g := bytes.Index(msg, []byte(`,"G":`))
	s := bytes.Index(msg, []byte(`,"stateID":`))
	if !bytes.HasPrefix(msg, []byte(head)) || g < 0 || s < 0 || s > g {
		t.Fatalf("not a state message: %.200s", msg)
	}
	return slices.Concat([]byte("{"), msg[len(head):s], msg[g:])
}

// holder is a patch client: it keeps the view its messages build.
type holder struct {
	doc     *onode
	stateID int64
}

// take applies one message and returns it decoded.
func (h *holder) take(t testing.TB, msg []byte) wireMsg {
	t.Helper()
	var m wireMsg
	if err := json.Unmarshal(msg, &m); err != nil {
		t.Fatalf("bad message %.200s: %v", msg, err)
	}
	switch m.Type {
	case protocol.TypeState:
		doc, err := oparse(stateDoc(t, msg))
		if err != nil {
			t.Fatal(err)
		}
		h.doc, h.stateID = doc, m.StateID
	case protocol.TypePatch:
		if h.doc == nil || m.Base != h.stateID {
			t.Fatalf("patch from %d, client holds %d", m.Base, h.stateID)
		}
		if err := oapply(h.doc, m.Ops); err != nil {
			t.Fatalf("patch %d->%d: %v\n%.600s", m.Base, m.StateID, err, msg)
		}
		h.stateID = m.StateID
	default:
		t.Fatalf("unexpected message %.200s", msg)
	}
	return m
}

// recSink keeps every message.
type recSink struct{ msgs [][]byte }

func (s *recSink) Send(msg []byte, _ Kind) bool { s.msgs = append(s.msgs, msg); return true }
func (s *recSink) Close()                       {}

// pair is a patch viewer and a full viewer of the same seat, and what the
// patch viewer's client holds.
type pair struct {
	seat        int
	patch, full *Viewer
	ps, fs      *recSink
	h           holder
	seen        int   // messages of ps checked
	patchBytes  int64 // bytes of the patch viewer's messages after its first
	fullBytes   int64 // and of the full viewer's
}

// testRoom is a room without a store or goroutine: moves become current
// at once, as midGame's do.
func testRoom(t testing.TB, g games.Game, seats int, deal uint64) *room {
	t.Helper()
	st, err := g.Setup(seats, nil, deal)
	if err != nil {
		t.Fatal(err)
	}
	state, _ := st.MarshalJSON()
	rec := &Record{ID: "7c1d2a40-5b1e-4f0a-9d3c-2e8f6a7b9c01", Game: g.Info().Name, NumPlayers: seats,
		CreatedAt: 1_764_450_000_000, UpdatedAt: 1_764_450_000_000, Version: 3, StateID: 1, State: state,
		Options: Options{GraceMs: 60_000}}
	for i := range seats {
		rec.Seats = append(rec.Seats, Seat{Name: "P" + strconv.Itoa(i), CredHash: strings.Repeat(strconv.Itoa(i), 64), Processes: 1})
	}
	now := time.UnixMilli(1_764_450_000_000)
	m := &Manager{cfg: Config{Now: func() time.Time { now = now.Add(700 * time.Millisecond); return now }}}
	return &room{m: m, id: rec.ID, game: g, rec: rec, st: st, log: slog.New(slog.NewTextHandler(io.Discard, nil)),
		viewers: map[*Viewer]struct{}{}, presence: map[int]int{}}
}

// watch connects a patch viewer and a full viewer for seat.
func (r *room) watchPair(seat int) *pair {
	p := &pair{seat: seat, ps: &recSink{}, fs: &recSink{}}
	p.patch = &Viewer{r: r, sink: p.ps, seat: seat, patches: true}
	p.full = &Viewer{r: r, sink: p.fs, seat: seat}
	if seat >= 0 {
		p.patch.credHash, p.full.credHash = r.rec.Seats[seat].CredHash, r.rec.Seats[seat].CredHash
	}
	r.viewers[p.patch], r.viewers[p.full] = struct{}{}, struct{}{}
	r.sendState(p.patch, nil)
	r.sendFull(p.full, r.last, nil) // the same frame: with a clock, the same time
	return p
}

// check applies the patch viewer's new messages and compares what its
// client holds with the full viewer's latest state, byte for byte.
func (p *pair) check(t testing.TB) (last wireMsg) {
	t.Helper()
	if len(p.ps.msgs) != len(p.fs.msgs) {
		t.Fatalf("seat %d: %d messages to the patch viewer, %d to the full one", p.seat, len(p.ps.msgs), len(p.fs.msgs))
	}
	for ; p.seen < len(p.ps.msgs); p.seen++ {
		msg, full := p.ps.msgs[p.seen], p.fs.msgs[p.seen]
		last = p.h.take(t, msg)
		if p.seen > 0 {
			p.patchBytes += int64(len(msg))
			p.fullBytes += int64(len(full))
		}
		if sid := []byte(`"stateID":` + strconv.FormatInt(last.StateID, 10) + `,`); !bytes.Contains(full[:min(len(full), 120)], sid) {
			t.Fatalf("seat %d message %d: patch viewer at %d, full at %.120s", p.seat, p.seen, last.StateID, full)
		}
		got, want := p.h.doc.encode(nil), stateDoc(t, full)
		if !bytes.Equal(got, want) {
			t.Fatalf("seat %d message %d (%.300s): the patched view differs\n got %s\nwant %s", p.seat, p.seen, msg, got, want)
		}
	}
	return last
}

// botMove makes the next move, chosen by the easy bot of the seat to move,
// and broadcasts it with ack to mover when mover holds that seat.
func (r *room) botMove(t testing.TB, rng *rand.Rand, movers map[int]*Viewer) {
	t.Helper()
	seat := r.easyStep(t, rng)
	ack := int64(r.rec.StateID * 10)
	r.broadcast(movers[seat], &ack)
}

// easyStep makes the next move, chosen by the easy bot of the (first)
// seat to move, as the room's record and state, without broadcasting it;
// it returns the seat that moved.
func (r *room) easyStep(t testing.TB, rng *rand.Rand) int {
	t.Helper()
	before := r.st.Status()
	seat := before.Movers(r.rec.NumPlayers)[0]
	name, args, err := r.st.Bot("easy", seat, rng)
	if err != nil {
		t.Fatal(err)
	}
	next, err := r.st.Apply(seat, name, args)
	if err != nil {
		t.Fatal(err)
	}
	nr, err := r.successor(seat, name, args, before, next, false)
	if err != nil {
		t.Fatal(err)
	}
	nr.Version = r.rec.Version + 1
	r.rec, r.st = nr, next
	return seat
}

// presence stores a change of who is connected: a new record, the same
// stateID on the wire.
func (r *room) presenceChange(seat int) {
	nr := r.rec.clone()
	nr.Seats[seat].Processes = 1 - nr.Seats[seat].Processes
	nr.Version++
	r.rec = nr
	r.broadcast(nil, nil)
}

// otherHands returns every card in the hands of the seats but seat, as
// the state (not any view) holds them.
func otherHands(t testing.TB, r *room, seat int) []string {
	var s struct {
		Hands [][]string `json:"hands"`
	}
	if err := json.Unmarshal(r.rec.State, &s); err != nil || len(s.Hands) == 0 {
		t.Fatalf("no hands in the state: %v", err)
	}
	var out []string
	for i, h := range s.Hands {
		if i != seat {
			out = append(out, h...)
		}
	}
	return out
}

// TestPatchFollowsGongzhu: a patch viewer and a full viewer of each seat
// and of the spectators watch 1,000 changes of Gong Zhu (19 rounds; 300
// with -short), with
// presence changes and syncs among them; after every message the patch
// viewer's client holds exactly the full viewer's view, byte for byte.
// Seat 0's patches never hold another seat's card or players entry;
// every spectator gets the very same bytes; a presence change is a patch
// whose stateID is its base and that touches only players; history is
// appended, never resent.
func TestPatchFollowsGongzhu(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 11)
	var pairs []*pair
	movers := map[int]*Viewer{}
	for _, seat := range []int{0, 1, 2, 3, games.Spectator} {
		p := r.watchPair(seat)
		pairs = append(pairs, p)
		if seat >= 0 {
			movers[seat] = p.patch
		}
	}
	spect2 := &recSink{}
	sv := &Viewer{r: r, sink: spect2, seat: games.Spectator, patches: true}
	r.viewers[sv] = struct{}{}
	r.sendState(sv, nil)
	rng := rand.New(rand.NewPCG(3, 4))
	appends, states := 0, 0
	changes := 1000
	if testing.Short() {
		changes = 300 // six rounds
	}
	for i := range changes {
		hands := otherHands(t, r, 0)
		switch {
		case i%97 == 50:
			r.presenceChange(i % 4)
		case i%131 == 7:
			r.sendState(pairs[i%5].patch, nil)
			r.sendState(pairs[i%5].full, nil)
		default:
			r.botMove(t, rng, movers)
		}
		for _, p := range pairs {
			p.check(t)
		}
		last := pairs[0].ps.msgs[len(pairs[0].ps.msgs)-1]
		if i%131 != 7 { // a sync sends a state
			var m wireMsg
			_ = json.Unmarshal(last, &m)
			if m.Type != protocol.TypePatch {
				// Most of the view changed (a new round while the
				// history is short): the whole view is shorter.
				states++
			}
			for _, op := range m.Ops {
				if strings.HasPrefix(op.Path, "/G/players/") && !strings.HasPrefix(op.Path, "/G/players/0") {
					t.Fatalf("move %d: seat 0's patch touches %s", i, op.Path)
				}
				if strings.HasPrefix(op.Path, "/G/history/") && strings.HasSuffix(op.Path, "/-") && op.Op == "add" {
					appends++
				}
				if strings.HasPrefix(op.Path, "/G/history") && op.Op == "replace" {
					t.Fatalf("move %d: the history was resent: %s", i, op.Path)
				}
			}
			// After the move, the hands as they were before it hold every
			// card still hidden, and the one just played (now public).
			played := ""
			if e := r.rec.Log[len(r.rec.Log)-1]; i%97 != 50 && len(e.Args) > 0 {
				var a []string
				_ = json.Unmarshal(e.Args, &a)
				played = a[0]
			}
			for _, c := range hands {
				if c != played && bytes.Contains(last, []byte(`"`+c+`"`)) {
					t.Fatalf("move %d: seat 0's patch names %s, a card in another hand: %s", i, c, last)
				}
			}
			if i%97 == 50 {
				if m.StateID != m.Base {
					t.Fatalf("presence change: patch from %d to %d, want the same stateID", m.Base, m.StateID)
				}
				for _, op := range m.Ops {
					if !strings.HasPrefix(op.Path, "/players/") {
						t.Fatalf("presence change: patch touches %s", op.Path)
					}
				}
			}
		}
		// Every spectator that takes patches gets the same bytes.
		a, b := pairs[4].ps.msgs[len(pairs[4].ps.msgs)-1], spect2.msgs[len(spect2.msgs)-1]
		if i%131 != 7 && &a[0] != &b[0] {
			t.Fatalf("move %d: the spectators' patches were encoded apart", i)
		}
	}
	if appends == 0 {
		t.Fatal("no history row was appended with add /G/history/-")
	}
	if states > 10 {
		t.Fatalf("seat 0 got %d whole states instead of patches in %d changes", states, changes)
	}
	for _, p := range pairs {
		t.Logf("seat %2d: %d bytes of patches against %d of full states (%.1f%%)", p.seat, p.patchBytes, p.fullBytes, 100*float64(p.patchBytes)/float64(p.fullBytes))
		if p.patchBytes*5 > p.fullBytes {
			t.Errorf("seat %d: patches are %d bytes, full states %d: want a fifth at most", p.seat, p.patchBytes, p.fullBytes)
		}
	}
}

// TestPatchGomokuWholeGame: Gomoku (a public view) through a whole game,
// with the movers' acks: patches append the moves (add at /G/moves/-)
// and the log, and end equal to the full view with the result.
func TestPatchGomokuWholeGame(t *testing.T) {
	r := testRoom(t, gomoku.Game, 2, 5)
	var pairs []*pair
	movers := map[int]*Viewer{}
	for _, seat := range []int{0, 1, games.Spectator} {
		p := r.watchPair(seat)
		pairs = append(pairs, p)
		if seat >= 0 {
			movers[seat] = p.patch
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	moveAdds, logAdds, logRemoves := 0, 0, 0
	for r.st.Status().Outcome == nil {
		r.botMove(t, rng, movers)
		for _, p := range pairs {
			last := p.check(t)
			if last.Type != protocol.TypePatch {
				t.Logf("move %d: %s", r.rec.StateID, p.ps.msgs[len(p.ps.msgs)-1])
			}
			if p.seat != 0 {
				continue
			}
			// The room writes exactly what json.Marshal of protocol.Patch does.
			msg := p.ps.msgs[len(p.ps.msgs)-1]
			var wire protocol.Patch
			if err := json.Unmarshal(msg, &wire); err != nil || !bytes.Equal(mustMarshal(wire), msg) {
				t.Fatalf("patch message %s is not protocol.Patch's form (%v)", msg, err)
			}
			if mover := r.rec.Moves[len(r.rec.Moves)-1].Seat; (mover == 0) != (last.Ack != nil) {
				t.Fatalf("move %d by seat %d: seat 0's patch has ack %v", r.rec.StateID, mover, last.Ack)
			}
			for _, op := range last.Ops {
				switch {
				case op.Op == "add" && op.Path == "/G/moves/-":
					moveAdds++
				case op.Op == "add" && op.Path == "/log/-":
					logAdds++
				case op.Op == "remove" && op.Path == "/log/0":
					logRemoves++
				case op.Op == "replace" && (op.Path == "/G/moves" || op.Path == "/log"):
					t.Fatalf("move %d: %s resent whole", r.rec.StateID, op.Path)
				}
			}
		}
	}
	n := int(r.rec.StateID - 1)
	if moveAdds != n || logAdds != n || logRemoves != max(0, n-maxLog) {
		t.Fatalf("%d moves: %d adds to G.moves, %d to the log, %d removes from it (want %d, %d, %d)",
			n, moveAdds, logAdds, logRemoves, n, n, max(0, n-maxLog))
	}
}

// countingState counts the views a state encodes.
type countingState struct {
	games.State
	n *int
}

func (s countingState) AppendView(b []byte, viewer int) ([]byte, error) {
	*s.n++
	return s.State.AppendView(b, viewer)
}

// TestPatchViewsEncodedOnce: a move encodes each distinct view once,
// however many full and patch viewers each has; a change of presence
// encodes none (the state did not change).
func TestPatchViewsEncodedOnce(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 2)
	for _, seat := range []int{0, 0, 1, 2, 3, games.Spectator, games.Spectator} {
		r.watchPair(seat)
	}
	n := 0
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range 40 {
		before := r.st.Status()
		seat := before.Current
		name, args, err := r.st.Bot("easy", seat, rng)
		if err != nil {
			t.Fatal(err)
		}
		next, err := r.st.Apply(seat, name, args)
		if err != nil {
			t.Fatal(err)
		}
		nr, err := r.successor(seat, name, args, before, next, false)
		if err != nil {
			t.Fatal(err)
		}
		nr.Version = r.rec.Version + 1
		r.rec, r.st = nr, countingState{next, &n}
		n = 0
		r.broadcast(nil, nil)
		if n != 5 {
			t.Fatalf("move %d encoded %d views, want 5 (four seats and the spectators)", i, n)
		}
		n = 0
		r.presenceChange(i % 4)
		if n != 0 {
			t.Fatalf("a presence change encoded %d views, want none", n)
		}
	}
}

// TestPatchDemotedViewer: a seat taken away (a bot took it over) turns
// its patch viewer into a spectator: the patch removes its hand and says
// you "", and the view equals a full viewer's.
func TestPatchDemotedViewer(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 9)
	p := r.watchPair(2)
	rng := rand.New(rand.NewPCG(9, 9))
	for range 10 {
		r.botMove(t, rng, nil)
	}
	p.check(t)
	nr := r.rec.clone()
	nr.Seats[2].CredHash, nr.Seats[2].Bot = "", "normal"
	nr.Version++
	r.rec = nr
	r.demoteUnseated()
	r.broadcast(nil, nil)
	last := p.check(t)
	if last.Type != protocol.TypePatch {
		t.Fatalf("got %s, want a patch", last.Type)
	}
	var you, hand bool
	for _, op := range last.Ops {
		you = you || (op.Path == "/you" && string(op.Value) == `""`)
		hand = hand || (op.Op == "remove" && op.Path == "/G/players/2") || (op.Op == "replace" && op.Path == "/G/players")
	}
	if !you || !hand {
		t.Fatalf("demotion patch does not clear you and the hand: %+v", last.Ops)
	}
}

// TestPatchWithClock: a match with a turn clock: each message's clock is
// that moment's, patched like the rest.
func TestPatchWithClock(t *testing.T) {
	r := testRoom(t, gomoku.Game, 2, 4)
	r.rec.Options.Clock = &ClockOptions{PerMoveMs: 5000, BankMs: 60000}
	p := r.watchPair(0)
	rng := rand.New(rand.NewPCG(4, 4))
	clockOps := 0
	for range 30 {
		r.botMove(t, rng, nil)
		for _, op := range p.check(t).Ops {
			if strings.HasPrefix(op.Path, "/clock") {
				clockOps++
			}
		}
	}
	if clockOps == 0 {
		t.Fatal("no patch changed the clock")
	}
}

// TestPatchFallsBackToState: a patch no shorter than the state, or a view
// the diff cannot read, sends the whole state instead.
func TestPatchFallsBackToState(t *testing.T) {
	mk := func(g string) *frame {
		f := &frame{seq: 5, public: true, head: []byte(`{"type":"state","matchID":"m","stateID":5`),
			ctx: []byte(`{}`), players: []byte(`[]`), log: []byte(`[]`)}
		f.views.put(games.Spectator, []byte(g))
		return f
	}
	pad := strings.Repeat("x", 300)
	from := mk(`{"a":[1,2,3],"b":"` + pad + `"}`)
	cases := []struct {
		to   string
		ok   bool
		what string
	}{
		{`{"a":[1,2,3,4],"b":"` + pad + `"}`, true, "an append"},
		{`[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]`, false, "a new view as long as the state"},
		{`{"a":[1,2,3,4],"b":"x"`, false, "malformed JSON"},
	}
	for _, c := range cases {
		p := &patchSet{to: mk(c.to)}
		if m := p.message(sentView{f: from, seat: games.Spectator}, games.Spectator); m.ok != c.ok {
			t.Errorf("%s: ok %v, want %v (err %v)", c.what, m.ok, c.ok, m.err)
		}
	}
	if m := (&patchSet{to: mk(`{}`)}).message(sentView{}, 0); m.ok {
		t.Error("a viewer holding nothing got a patch")
	}
}

// TestPatchDiff: the operations turn each value into the next one, and
// the history-like arrays grow by appends.
func TestPatchDiff(t *testing.T) {
	const pad = `"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"`
	e := func(i int) string {
		return `{"turn":` + strconv.Itoa(i) + `,"playerID":"0","move":"play","args":["QS"]}`
	}
	log := func(from, to int) string {
		var s []string
		for i := from; i < to; i++ {
			s = append(s, e(i))
		}
		return `{"log":[` + strings.Join(s, ",") + `]}`
	}
	cases := []struct {
		a, b string
		ops  string // the operations expected, when given
	}{
		{`{"a":1}`, `{"a":1}`, ``},
		{`{"a":1}`, `{"a":2}`, `{"op":"replace","path":"/a","value":2}`},
		{log(0, 5), log(0, 7), `{"op":"add","path":"/log/-","value":` + e(5) + `},{"op":"add","path":"/log/-","value":` + e(6) + `}`},
		{log(0, 20), log(1, 21), `{"op":"remove","path":"/log/0"},{"op":"add","path":"/log/-","value":` + e(20) + `}`},
		{log(0, 20), log(3, 22), `{"op":"remove","path":"/log/0"},{"op":"remove","path":"/log/0"},{"op":"remove","path":"/log/0"},{"op":"add","path":"/log/-","value":` + e(20) + `},{"op":"add","path":"/log/-","value":` + e(21) + `}`},
		{`{"w":[` + e(1) + `,` + e(1) + `,` + e(2) + `]}`, `{"w":[` + e(1) + `,` + e(2) + `,` + e(5) + `]}`, `{"op":"remove","path":"/w/0"},{"op":"add","path":"/w/-","value":` + e(5) + `}`},
		{`{"a":1,"b":` + pad + `}`, `{"a":1,"b":` + pad + `,"c":3}`, `{"op":"add","path":"/c","value":3}`},
		{`{"a":1,"c":3}`, `{"a":1,"b":2,"c":3}`, `{"op":"replace","path":"","value":{"a":1,"b":2,"c":3}}`},
		{`{"a":1,"b":` + pad + `}`, `{"b":` + pad + `}`, `{"op":"remove","path":"/a"}`},
		{`{"a/b":1,"m~n":2,"z":` + pad + `}`, `{"a/b":3,"m~n":4,"z":` + pad + `}`, `{"op":"replace","path":"/a~1b","value":3},{"op":"replace","path":"/m~0n","value":4}`},
		{`{"t":[{"p":[1],"w":-1},{"p":[2],"w":0,"z":` + pad + `}]}`, `{"t":[{"p":[1],"w":-1},{"p":[2,3],"w":0,"z":` + pad + `}]}`, `{"op":"add","path":"/t/1/p/-","value":3}`},
		{`{"x":[1,2,3,4,5,6,7,8,9,10]}`, `{"x":[]}`, `{"op":"replace","path":"/x","value":[]}`},
		{`{"x":[1,2,3]}`, `{"x":[1,9,3]}`, `{"op":"replace","path":"/x/1","value":9}`},
		{`{"x":[1,2,3]}`, `{"x":[1]}`, `{"op":"replace","path":"/x","value":[1]}`},
		{`{"hand":["2S","5S","QS","3H","TD"],"z":` + pad + `}`, `{"hand":["2S","5S","3H","TD"],"z":` + pad + `}`, `{"op":"remove","path":"/hand/2"}`},
		{`{"hand":["2S","5S","3H","TD"],"z":` + pad + `}`, `{"hand":["2S","5S","QS","3H","TD"],"z":` + pad + `}`, `{"op":"add","path":"/hand/2","value":"QS"}`},
		{`{"hand":["5S","3H"],"z":` + pad + `}`, `{"hand":["2S","5S","3H"],"z":` + pad + `}`, `{"op":"add","path":"/hand/0","value":"2S"}`},
		{`{"x":[` + pad + `,` + pad + `,3]}`, `{"x":[` + pad + `]}`, `{"op":"remove","path":"/x/2"},{"op":"remove","path":"/x/1"}`},
		{`{"x":null}`, `{"x":{"y":1}}`, `{"op":"replace","path":"/x","value":{"y":1}}`},
		{`{"k":"<\u2028>","z":` + pad + `}`, `{"k":"<\u2028>","z":` + pad + `,"\u00e9\"":1}`, `{"op":"add","path":"/é\"","value":1}`},
		{` { "a" : [ 1 , 2 ] , "z" : ` + pad + ` } `, `{"a":[1,2,3],"z":` + pad + `}`, `{"op":"add","path":"/a/-","value":3}`},
		{`[]`, `[{}]`, `{"op":"add","path":"/-","value":{}}`},
		{`{}`, `[]`, `{"op":"replace","path":"","value":[]}`},
	}
	for _, c := range cases {
		var d differ
		if err := d.diff([]byte(c.a), []byte(c.b)); err != nil {
			t.Fatalf("%s -> %s: %v", c.a, c.b, err)
		}
		var ops []protocol.PatchOp
		if err := json.Unmarshal(append(append([]byte("["), d.out...), ']'), &ops); err != nil {
			t.Fatalf("%s -> %s: operations are not JSON: %s", c.a, c.b, d.out)
		}
		if c.ops != "" || len(d.out) == 0 {
			want, _ := protocol.DecodeDoc([]byte("[" + c.ops + "]"))
			got, _ := protocol.DecodeDoc(append(append([]byte("["), d.out...), ']'))
			if mustMarshal(want) == nil || string(mustMarshal(got)) != string(mustMarshal(want)) {
				t.Errorf("%s -> %s:\n got %s\nwant %s", c.a, c.b, d.out, c.ops)
			}
		}
		checkApplies(t, c.a, c.b, ops)
	}
}

// checkApplies fails t unless ops turn a into b, in b's member order when
// both are compact.
func checkApplies(t *testing.T, a, b string, ops []protocol.PatchOp) {
	t.Helper()
	doc, err := oparse([]byte(a))
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) == 1 && ops[0].Path == "" { // the whole document replaced
		if doc, err = oparse(ops[0].Value); err != nil {
			t.Fatal(err)
		}
	} else if err := oapply(doc, ops); err != nil {
		t.Fatalf("%s -> %s: %v", a, b, err)
	}
	want, _ := oparse([]byte(b))
	if got, w := doc.encode(nil), want.encode(nil); !bytes.Equal(got, w) {
		t.Fatalf("%s -> %s: patched into %s", a, b, got)
	}
}

// randJSON writes a random value of depth at most d, with arrays that
// tend to grow and objects whose keys come from a small set.
func randJSON(rng *rand.Rand, d int) any {
	switch k := rng.IntN(7); {
	case d <= 0 || k < 2:
		switch rng.IntN(5) {
		case 0:
			return rng.IntN(20) - 5
		case 1:
			return []string{"QS", "a/b", "m~n", "é", "<&>", ""}[rng.IntN(6)]
		case 2:
			return rng.IntN(2) == 0
		case 3:
			return nil
		}
		return rng.Float64()
	case k < 4:
		a := make([]any, rng.IntN(6))
		for i := range a {
			a[i] = randJSON(rng, d-1)
		}
		return a
	default:
		m := map[string]any{}
		for range rng.IntN(6) {
			m[[]string{"a", "b", "c", "d", "e/f", "g~h", "tricks", "log"}[rng.IntN(8)]] = randJSON(rng, d-1)
		}
		return m
	}
}

// mutate returns a changed copy of v: members added, removed or changed,
// arrays appended to, shifted or cut.
func mutate(rng *rand.Rand, v any, d int) any {
	switch x := v.(type) {
	case map[string]any:
		m := map[string]any{}
		for k, c := range x {
			switch rng.IntN(6) {
			case 0: // removed
			case 1, 2:
				m[k] = mutate(rng, c, d-1)
			default:
				m[k] = c
			}
		}
		if rng.IntN(3) == 0 {
			m[[]string{"a", "b", "z", "new"}[rng.IntN(4)]] = randJSON(rng, d-1)
		}
		return m
	case []any:
		a := slices.Clone(x)
		switch rng.IntN(5) {
		case 0:
			for range 1 + rng.IntN(3) {
				a = append(a, randJSON(rng, d-1))
			}
		case 1:
			if len(a) > 0 {
				a = append(a[rng.IntN(len(a)):], randJSON(rng, d-1))
			}
		case 2:
			a = a[:rng.IntN(len(a)+1)]
		default:
			for i := range a {
				if rng.IntN(3) == 0 {
					a[i] = mutate(rng, a[i], d-1)
				}
			}
		}
		return a
	}
	if rng.IntN(2) == 0 {
		return randJSON(rng, d)
	}
	return v
}

// TestPatchDiffRandom: random values and random changes of them; the
// operations always turn one into the other exactly.
func TestPatchDiffRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for i := range 5000 {
		a := randJSON(rng, 4)
		b := mutate(rng, a, 4)
		if i%10 == 0 {
			b = randJSON(rng, 4)
		}
		aj, bj := mustMarshal(a), mustMarshal(b)
		var d differ
		d.path = append(d.path, "/G"...)
		var memo []memoOps
		if i%2 == 0 {
			d.memo = &memo // as for a view's G: copies tried
		}
		if err := d.diff(aj, bj); err != nil {
			t.Fatalf("%s -> %s: %v", aj, bj, err)
		}
		var ops []protocol.PatchOp
		if err := json.Unmarshal(append(append([]byte("["), d.out...), ']'), &ops); err != nil {
			t.Fatalf("operations are not JSON: %s", d.out)
		}
		doc, _ := oparse(append(append([]byte(`{"G":`), aj...), '}'))
		if err := oapply(doc, ops); err != nil {
			t.Fatalf("%s -> %s: %v\n%s", aj, bj, err, d.out)
		}
		if got, want := doc.encode(nil), append(append([]byte(`{"G":`), bj...), '}'); !bytes.Equal(got, want) {
			t.Fatalf("%s -> %s: patched into %s by %s", aj, bj, got, d.out)
		}
		if len(aj) > 0 && aj[0] == '{' && bj[0] == '{' {
			checkSplitLike(t, aj, bj)
		}
		if len(d.out) > len(bj)+len(`,{"op":"replace","path":"/G","value":}`) {
			t.Fatalf("%s -> %s: %d bytes of operations for a %d-byte value: %s", aj, bj, len(d.out), len(bj), d.out)
		}
	}
}

// checkSplitLike fails t unless splitLike, from a's members, splits b as
// split does.
func checkSplitLike(t *testing.T, a, b []byte) {
	t.Helper()
	var da, db, dl differ
	if err := da.split(a, true); err != nil {
		t.Fatal(err)
	}
	if err := db.split(b, true); err != nil {
		t.Fatal(err)
	}
	if err := dl.splitLike(a, da.mem, b); err != nil {
		t.Fatalf("splitLike %s -> %s: %v", a, b, err)
	}
	same := len(db.mem) == len(dl.mem)
	for i := 0; same && i < len(db.mem); i++ {
		x, y := db.mem[i], dl.mem[i]
		same = sameSlice(x.key, y.key) && sameSlice(x.val, y.val)
	}
	if !same {
		t.Fatalf("splitLike %s -> %s: %q, split gives %q", a, b, dl.mem, db.mem)
	}
}

// TestPatchSplitLike: splitting a view from the last one's members gives
// the members a whole split gives, move after move.
func TestPatchSplitLike(t *testing.T) {
	r := testRoom(t, gongzhu.Game, 4, 21)
	rng := rand.New(rand.NewPCG(21, 21))
	prev := r.frame()
	for range 400 {
		r.botMove(t, rng, nil)
		f := r.frame()
		for _, v := range []int{0, games.Spectator} {
			checkSplitLike(t, prev.g(v), f.g(v))
		}
		prev = f
	}
	// Whitespace, nesting and strings with brackets around the change.
	checkSplitLike(t, []byte(`{"a":"}{","b":[1,{"c":"]"}],"z":2}`), []byte(`{"a":"}{","b":[1,{"c":"]"},3],"z":2}`))
	checkSplitLike(t, []byte(`{ "a" : 1 , "b" : 2 }`), []byte(`{ "a" : 1 , "b" : 3 }`))
	checkSplitLike(t, []byte(`{"a":1,"b":2}`), []byte(`{"a":1}`))
	checkSplitLike(t, []byte(`{"a":1}`), []byte(`{"a":1,"b":2}`))
	checkSplitLike(t, []byte(`{"a":12,"b":2}`), []byte(`{"a":1,"b":2}`))
	checkSplitLike(t, []byte(`{}`), []byte(`{"a":1}`))
	checkSplitLike(t, []byte(`{"a":1}`), []byte(`{}`))
	checkSplitLike(t, []byte(`{"x":[1,1,1],"y":1}`), []byte(`{"x":[1,1],"y":1,"y2":1}`))
}

// FuzzPatchDiff: for any two JSON values, the diff either refuses them or
// turns one into the other.
func FuzzPatchDiff(f *testing.F) {
	f.Add(`{"a":[1,2]}`, `{"a":[2,3]}`)
	f.Add(`{"a":"\"}"}`, `{"a":"]","b":[{}]}`)
	f.Add(`[1,[2,[3]]]`, `[1,[2,[3,4]],5]`)
	f.Add(`{"a":1,"\u0061":2}`, `{"a":3}`)
	long := `[` + strings.Repeat(`"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",`, 12) + `1]`
	f.Add(`{"t":`+long+`,"l":{"t":[]}}`, `{"t":[],"l":{"t":`+long[:len(long)-1]+`,2]}}`)
	f.Fuzz(func(t *testing.T, a, b string) {
		if !json.Valid([]byte(a)) || !json.Valid([]byte(b)) {
			return
		}
		var d differ
		d.path = append(d.path, "/G"...)
		var memo []memoOps
		d.memo = &memo // as for a view's G: copies tried
		if err := d.diff([]byte(a), []byte(b)); err != nil {
			return // a value it cannot split gets a full state
		}
		if ta, tb := protocol.TrimSpace([]byte(a)), protocol.TrimSpace([]byte(b)); ta[0] == '{' && tb[0] == '{' {
			checkSplitLike(t, ta, tb)
		}
		var ops []protocol.PatchOp
		if err := json.Unmarshal(append(append([]byte("["), d.out...), ']'), &ops); err != nil {
			t.Fatalf("operations are not JSON: %s", d.out)
		}
		da, _ := protocol.DecodeDoc([]byte(`{"G":` + a + `}`))
		db, _ := protocol.DecodeDoc([]byte(`{"G":` + b + `}`))
		got, err := protocol.ApplyPatch(da, ops)
		if err != nil {
			t.Fatalf("%s -> %s: %v\n%s", a, b, err, d.out)
		}
		if g, w := mustMarshal(got), mustMarshal(db); !bytes.Equal(g, w) {
			t.Fatalf("%s -> %s: patched into %s", a, b, g)
		}
	})
}

// TestDroppable: a queued state is redundant once a newer one comes,
// unless it carries an ack or the next state or patch after it is a patch
// (which applies to it); patches never are.
func TestDroppable(t *testing.T) {
	state, acked, patch, chat := KindState, KindAckedState, KindPatch, KindOther
	got := Droppable([]Kind{state, patch, acked, state, chat, patch, state, chat, state, state, chat, KindAckedPatch})
	want := []bool{false, false, false, false, false, false, true, false, true, false, false, false}
	if !slices.Equal(got, want) {
		t.Fatalf("Droppable = %v, want %v", got, want)
	}
}

// TestPatchEveryGame: every game, its easiest bots playing, watched by a
// patch and a full viewer of each seat and of the spectators: the views
// agree after every message, and what only grows is appended to (the
// moves of a board game, the tiles of a Carcassonne board).
func TestPatchEveryGame(t *testing.T) {
	appended := map[string]string{"gomoku": "/G/moves/-", "weiqi": "/G/moves/-", "carcassonne": "/G/board/-", "gongzhu": "/G/trick/plays/-", "threemonks": "/log/-"}
	for _, name := range all.Registry().Names() {
		t.Run(name, func(t *testing.T) {
			g, _ := all.Registry().Get(name)
			info := g.Info()
			seats := max(info.MinPlayers, 2)
			r := testRoom(t, g, seats, 5)
			if name == "weiqi" {
				st, err := g.Setup(seats, json.RawMessage(`{"size":9}`), 5)
				if err != nil {
					t.Fatal(err)
				}
				r.st = st
				r.rec.State, _ = st.MarshalJSON()
			}
			var pairs []*pair
			for seat := -1; seat < seats; seat++ {
				pairs = append(pairs, r.watchPair(seat))
			}
			rng := rand.New(rand.NewPCG(5, 5))
			appends, patches := 0, 0
			for i := 0; i < 120 && r.st.Status().Outcome == nil; i++ {
				before := r.st.Status()
				seat := before.Movers(seats)[0]
				move, args, err := r.st.Bot(info.Bots[0], seat, rng)
				if err != nil {
					t.Fatal(err)
				}
				next, err := r.st.Apply(seat, move, args)
				if err != nil {
					t.Fatal(err)
				}
				nr, err := r.successor(seat, move, args, before, next, false)
				if err != nil {
					t.Fatal(err)
				}
				nr.Version++
				r.rec, r.st = nr, next
				r.broadcast(nil, nil)
				for _, p := range pairs {
					last := p.check(t)
					if p.seat != -1 || last.Type != protocol.TypePatch {
						continue
					}
					patches++
					for _, op := range last.Ops {
						if op.Op == "add" && op.Path == appended[name] {
							appends++
						}
					}
				}
			}
			if patches == 0 || appends == 0 {
				t.Fatalf("%d patches, %d adds at %s", patches, appends, appended[name])
			}
		})
	}
}

// TestPatchGamesTellOps: Gomoku and Gong Zhu say what a move did to
// their views (games.ViewPatcher), so a move that only patch viewers see
// encodes no view at all once the log makes a state longer than any
// patch, but at a Gong Zhu round's end (left to the diff); and every
// viewer's patched view equals a full state's.
func TestPatchGamesTellOps(t *testing.T) {
	for _, tc := range []struct {
		g          games.Game
		seats      int
		moves      int
		maxEncoded int // moves that encode a view after the eighth
	}{
		{gomoku.Game, 2, 400, 0},
		{gongzhu.Game, 4, 200, 4}, // 52 cards a round
		{gongzhu.Game, 3, 200, 5}, // 51
	} {
		r := testRoom(t, tc.g, tc.seats, 5)
		var sinks []*recSink
		var viewers []int
		movers := map[int]*Viewer{}
		for seat := games.Spectator; seat < tc.seats; seat++ {
			s := &recSink{}
			v := &Viewer{r: r, sink: s, seat: seat, patches: true}
			if seat >= 0 {
				v.credHash = r.rec.Seats[seat].CredHash
				movers[seat] = v
			}
			r.viewers[v] = struct{}{}
			r.sendState(v, nil)
			sinks, viewers = append(sinks, s), append(viewers, seat)
		}
		rng := rand.New(rand.NewPCG(7, 8))
		encoded := 0
		for i := 0; i < tc.moves && r.st.Status().Outcome == nil; i++ {
			r.botMove(t, rng, movers)
			// The first moves' patches are weighed against the whole
			// state, G and all: what a state holds besides G is short yet.
			if (r.last.views.n > 0 || r.last.views.more != nil) && i >= 8 {
				encoded++
			}
		}
		if encoded > tc.maxEncoded {
			t.Fatalf("%s: %d moves encoded views for patch viewers only", tc.g.Info().Name, encoded)
		}
		for i, s := range sinks {
			var h holder
			for _, msg := range s.msgs {
				h.take(t, msg)
			}
			want := stateDoc(t, r.last.encode(viewers[i], nil))
			if got := h.doc.encode(nil); !bytes.Equal(got, want) {
				t.Fatalf("%s viewer %d: the patched view differs\n got %s\nwant %s", tc.g.Info().Name, viewers[i], got, want)
			}
		}
	}
}

// TestPatchArrayEnds: an array that grew at its end, or lost its first
// entry and grew (a log at its cap), is told from its bytes (arrayEnds)
// with the very operations that comparing it entry by entry gives, inside
// objects and arrays, with nested and repeated entries; near misses (an
// entry that only starts like a's, a first entry repeated) go entry by
// entry as before. Every result patches a into b.
func TestPatchArrayEnds(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	entry := func() any {
		switch rng.IntN(4) {
		case 0:
			return rng.IntN(3) * 10 // repeats, and 10 starts like 1 and 100
		case 1:
			return []string{"a", "a,", "ab", `a"b`, "a]"}[rng.IntN(5)]
		case 2:
			return map[string]any{"turn": rng.IntN(3), "args": []int{rng.IntN(2)}}
		}
		return []any{rng.IntN(2), "x"}
	}
	taken := 0
	for i := range 20000 {
		var a []any
		for range rng.IntN(6) {
			a = append(a, entry())
		}
		b := slices.Clone(a)
		switch rng.IntN(4) {
		case 0: // grew
		case 1: // lost its first
			if len(b) > 0 {
				b = b[1:]
			}
		case 2: // lost its first two
			if len(b) > 1 {
				b = b[2:]
			}
		case 3: // its last changed
			if len(b) > 0 {
				b = append(b[:len(b)-1:len(b)-1], entry())
			}
		}
		for range rng.IntN(3) {
			b = append(b, entry())
		}
		aj, bj := mustMarshal(map[string]any{"log": a}), mustMarshal(map[string]any{"log": b})
		if i%3 == 0 { // at the top
			aj, bj = mustMarshal(a), mustMarshal(b)
		}
		diffOf := func(noEnds bool) []byte {
			d := differ{noEnds: noEnds}
			d.path = append(d.path, "/G"...)
			if err := d.diff(aj, bj); err != nil {
				t.Fatalf("%s -> %s: %v", aj, bj, err)
			}
			return d.out
		}
		got, want := diffOf(false), diffOf(true)
		if !bytes.Equal(got, want) {
			t.Fatalf("%s -> %s:\n from the ends %s\nentry by entry %s", aj, bj, got, want)
		}
		var ops []protocol.PatchOp
		if err := json.Unmarshal(append(append([]byte("["), got...), ']'), &ops); err != nil {
			t.Fatalf("operations are not JSON: %s", got)
		}
		doc, _ := oparse(append(append([]byte(`{"G":`), aj...), '}'))
		if err := oapply(doc, ops); err != nil {
			t.Fatalf("%s -> %s: %v\n%s", aj, bj, err, got)
		}
		if g, w := doc.encode(nil), append(append([]byte(`{"G":`), bj...), '}'); !bytes.Equal(g, w) {
			t.Fatalf("%s -> %s: patched into %s by %s", aj, bj, g, got)
		}
		if i%3 == 0 {
			var d differ
			if ok, _ := d.arrayEnds(aj, bj); ok {
				taken++
			}
		}
	}
	if taken < 1000 {
		t.Fatalf("arrayEnds told only %d arrays", taken)
	}
}
