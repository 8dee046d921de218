package rooms

import (
	"bytes"
	"encoding/json"
	"maps"
	"strconv"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// The wire side of a room: encoding each viewer's state message once per
// change (frame, seatCache, wireCache) and sending it (broadcast,
// sendState, send).

// send queues b, a message of the given kind, for v, dropping a viewer
// that cannot keep up.
func (r *room) send(v *Viewer, b []byte, kind Kind) {
	if v.sink.Send(b, kind) {
		return
	}
	r.log.Info("dropping slow viewer", "seat", v.seat)
	r.disconnect(v)
	v.sink.Close()
}

func (r *room) sendError(v *Viewer, e *Error, ref *int64) {
	r.m.cfg.Metrics.MoveRefused(e.Code)
	r.send(v, e.Frame(ref), KindOther)
}

func mustMarshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("rooms: marshal: " + err.Error())
	}
	return b
}

// movesJSON returns the JSON of rec.Moves for encodeRecord, or nil when
// there are none: valid until the next call.
func (c *wireCache) movesJSON(rec *Record) []byte {
	if len(rec.Moves) == 0 {
		return nil
	}
	return c.moves.encode(rec.SealedMoves, rec.Moves)
}

// broadcast sends every viewer its own view. Views are computed once per
// seat; the mover's message carries ack. A viewer that asked for patches
// gets the changes to the view it holds instead (patch.go), computed once
// per distinct pair of views.
func (r *room) broadcast(mover *Viewer, ack *int64) {
	if len(r.viewers) == 0 {
		return
	}
	f := r.newFrame()
	var sent seatCache // the message of each seat, for its other viewers
	var ps *patchSet   // made for the first viewer that takes patches
	defer func() {
		if ps != nil {
			r.diffs = ps.d.scratch()
		}
	}()
	for v := range r.viewers {
		if v.patches {
			if ps == nil {
				// The room's scratch is taken, not shared: a broadcast
				// that this one's sends set off (a slow viewer's
				// presence) starts with none.
				ps = newPatchSet(f, r.diffs)
				r.diffs = differ{}
			}
			a := (*int64)(nil)
			if v == mover {
				a = ack
			}
			r.sendPatch(v, ps, a)
			continue
		}
		if v == mover {
			r.send(v, f.encode(v.seat, ack), stateKind(ack))
			continue
		}
		b, ok := sent.get(v.seat)
		if !ok {
			b = f.encode(v.seat, nil)
			sent.put(v.seat, b)
		}
		r.send(v, b, KindState)
	}
}

// sendState sends v the whole current view (a connection's first state,
// a sync), reusing the last frame when it still shows the current record.
func (r *room) sendState(v *Viewer, ack *int64) {
	f := r.last
	if f == nil || f.rec != r.rec || f.clock != nil || f.thinking != nil || r.thinkingNow() != nil { // a clock (and thinking) shows the time of each message
		f = r.newFrame()
	}
	r.sendFull(v, f, ack)
}

// sendFull sends v its whole view in f; a patch viewer's next patch
// starts from it.
func (r *room) sendFull(v *Viewer, f *frame, ack *int64) {
	if v.patches {
		v.sent = sentView{f: f, seat: v.seat}
	}
	r.send(v, f.encode(v.seat, ack), stateKind(ack))
}

// seatCache maps seats (and games.Spectator) to encoded bytes without a
// map for the usual handful of seats.
type seatCache struct {
	n     int
	seats [4]int
	vals  [4][]byte
	more  map[int][]byte // the seats beyond the first four
}

func (c *seatCache) get(seat int) ([]byte, bool) {
	for i := range c.n {
		if c.seats[i] == seat {
			return c.vals[i], true
		}
	}
	b, ok := c.more[seat]
	return b, ok
}

// clone returns a copy that later puts on either do not change the other.
func (c *seatCache) clone() seatCache {
	n := *c
	if c.more != nil {
		n.more = make(map[int][]byte, len(c.more))
		for k, v := range c.more {
			n.more[k] = v
		}
	}
	return n
}

func (c *seatCache) put(seat int, b []byte) {
	if c.n < len(c.seats) {
		c.seats[c.n], c.vals[c.n] = seat, b
		c.n++
		return
	}
	if c.more == nil {
		c.more = map[int][]byte{}
	}
	c.more[seat] = b
}

// frame holds what every viewer's state message shares, encoded once per
// change; encode splices in each viewer's view, ack and seat, producing
// exactly what json.Marshal(protocol.State) would (a test checks). A frame
// never changes once built but for the views it encodes on first use, so
// a patch viewer's next patch is computed from the frame it was sent.
type frame struct {
	rec          *Record     // the record shown
	st           games.State // its state, whose views these are
	seq          int64       // the stateID on the wire
	head         []byte      // {"type":"state","matchID":…,"stateID":N
	ctx          []byte      // the JSON of ctx, players and log, spliced in by encode
	players, log []byte
	views        seatCache // each viewer's encoded G
	// public: the game's view is the same for every viewer
	// (games.Info.PublicView).
	public bool
	// entries are the seats' "players" objects, when their views are the
	// spectators' with that object's content spliced in (games.SeatEntry;
	// frame.seatPlayers): nil for a seat whose view is not.
	entries seatCache
	clock   []byte // the JSON of the clocks at this change; nil without a clock
	// thinking is the JSON of the seat thinking at this change
	// (protocol.Thinking); nil when none is.
	thinking []byte
	// tops are the members of each view's G, for patches (patch.go).
	tops map[int][]member
}

func (r *room) frame() *frame {
	f := &frame{rec: r.rec, st: r.st, seq: r.rec.StateID, public: r.game.Info().PublicView}
	f.head = make([]byte, 0, 64+len(r.id))
	f.head = append(f.head, `{"type":"state","matchID":`...)
	f.head = appendString(f.head, r.id)
	f.head = append(f.head, `,"stateID":`...)
	f.head = strconv.AppendInt(f.head, r.rec.StateID, 10)
	f.players, f.log = r.wire.players(r.rec), r.wire.log(r.rec)
	st := r.st.Status()
	f.ctx = r.rec.appendWireCtx(make([]byte, 0, 256), st) // about 150-250 bytes
	if r.rec.Options.Clock != nil {
		f.clock = mustMarshal(r.rec.clockView(st, r.m.now()))
	}
	if t := r.thinkingNow(); t != nil {
		f.thinking = mustMarshal(t)
	}
	return f
}

// newFrame is frame for a message about to be sent, remembered as the
// room's last. A change that left the game's state as it was (presence,
// a rename, a seat taken) shows the same views, so the last frame's
// encodings of them are reused instead of built again.
func (r *room) newFrame() *frame {
	f := r.frame()
	if l := r.last; l != nil && (sameSlice(l.rec.State, r.rec.State) || bytes.Equal(l.rec.State, r.rec.State)) {
		f.views, f.tops = l.views.clone(), maps.Clone(l.tops)
	}
	r.last = f
	return f
}

// viewOf is the view seat sees in f: its own, or the one public view.
func (f *frame) viewOf(seat int) int {
	if f.public {
		return games.Spectator // the same view for all: encode it once
	}
	return seat
}

// g returns the encoded view (G) of viewer, encoding it on first use.
func (f *frame) g(viewer int) []byte {
	g, ok := f.views.get(viewer)
	if !ok {
		var err error
		if g, err = f.st.AppendView(nil, viewer); err != nil {
			panic("rooms: encode view: " + err.Error()) // as mustMarshal: a bug in the game
		}
		f.views.put(viewer, g)
	}
	return g
}

func (f *frame) encode(seat int, ack *int64) []byte {
	g := f.g(f.viewOf(seat))
	b := make([]byte, 0, f.fullLen(len(g)))
	b = append(b, f.head...)
	if ack != nil {
		b = append(b, `,"ack":`...)
		b = strconv.AppendInt(b, *ack, 10)
	}
	b = append(b, `,"G":`...)
	b = append(b, g...)
	b = append(b, `,"ctx":`...)
	b = append(b, f.ctx...)
	b = append(b, `,"players":`...)
	b = append(b, f.players...)
	b = append(b, `,"log":`...)
	b = append(b, f.log...)
	b = append(b, `,"you":`...)
	b = appendYou(b, seat)
	if f.clock != nil {
		b = append(b, `,"clock":`...)
		b = append(b, f.clock...)
	}
	if f.thinking != nil {
		b = append(b, `,"thinking":`...)
		b = append(b, f.thinking...)
	}
	return append(b, '}')
}

// fullLen is about the length of a state message with a view of gLen
// bytes, ack and seat included.
func (f *frame) fullLen(gLen int) int {
	return len(f.head) + gLen + len(f.ctx) + len(f.players) + len(f.log) + len(f.clock) + len(f.thinking) + 80
}

// gLen is len(f.g(viewer)), without encoding a seat's view that is the
// spectators' with its players object spliced in.
func (f *frame) gLen(viewer int) int {
	if g, ok := f.views.get(viewer); ok {
		return len(g)
	}
	if p, ok := f.seatPlayers(viewer); ok {
		return len(f.g(games.Spectator)) + len(p) - len("{}")
	}
	return len(f.g(viewer))
}

// appendYou appends the JSON of the wire "you" for seat.
func appendYou(b []byte, seat int) []byte {
	if seat < 0 {
		return append(b, `""`...)
	}
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(seat), 10)
	return append(b, '"')
}

// wireCache keeps the encoded players list and log between changes: most
// changes are moves, which touch neither the seats nor (but for one entry)
// the log. The players list is encoded again when what it shows of a seat
// differs from what it was encoded from: compared by value, not by
// version, because a move may change the seats too (the third timeout in
// a row hands a seat to the bot), in this process or in another whose
// record this one takes.
//
// The log is cached entry by entry: a move appends one entry and, once the
// log holds maxLog, drops the oldest, so only the new entry is encoded and
// the others' encodings are joined again.
type wireCache struct {
	shown       []seatShown // what playersJSON shows of each seat
	playersJSON []byte

	moves movesCache  // the record's move list, for EncodeRecord
	rec   recordCache // the record's head and tail, for EncodeRecord

	logEntries []protocol.LogEntry // the log last encoded (a copy)
	logEnc     [][]byte            // each entry's JSON, parallel to logEntries
	logJS      []byte              // the JSON array of logEnc; nil until first use
	logOf      []protocol.LogEntry // the log last asked for (not a copy)
}

// players returns the JSON of rec.players(), encoded again only when a
// seat shows differently from the seats it was last encoded from.
func (c *wireCache) players(rec *Record) []byte {
	if c.playersJSON == nil || !sameShown(c.shown, rec.Seats) {
		c.shown = c.shown[:0]
		for i := range rec.Seats {
			c.shown = append(c.shown, shownOf(&rec.Seats[i]))
		}
		c.playersJSON = mustMarshal(rec.players())
	}
	return c.playersJSON
}

// seatShown is what Record.players shows of a seat.
// TestSeatShownFields fails when players shows a field this does not keep.
type seatShown struct {
	name, bot, data     string
	connected, autoplay bool
}

func shownOf(s *Seat) seatShown {
	return seatShown{name: s.Name, bot: s.Bot, data: string(s.Data), connected: s.Processes > 0, autoplay: s.Autoplay}
}

// sameShown reports whether seats show as shown does.
func sameShown(shown []seatShown, seats []Seat) bool {
	if len(shown) != len(seats) {
		return false
	}
	for i := range seats {
		s, k := &seats[i], &shown[i]
		if s.Name != k.name || s.Bot != k.bot || string(s.Data) != k.data ||
			(s.Processes > 0) != k.connected || s.Autoplay != k.autoplay {
			return false
		}
	}
	return true
}

// log returns exactly what json.Marshal gives for rec.Log, but "[]" for a
// nil log (a state message always carries an array). It reuses the
// encodings of the entries that rec.Log shares with the log it was last
// called with, whatever record that came from: entries are compared by
// value, and equal entries encode equally. New entries are written by
// hand (appendLogEntry). The result is never modified
// afterwards, so callers may keep it.
func (c *wireCache) log(rec *Record) []byte {
	log := rec.Log
	// The very entries of the last call (a move's record is encoded for
	// its write and then for its frame): a record's log entries are
	// never changed in place (recordPieces relies on it too), but the
	// entry after a record's log may be written by each of its successors
	// (appendMoveLog): a successor that was not committed and the next
	// have the same slice, so the last entry is compared too.
	if c.logJS != nil && sameSlice(c.logOf, log) &&
		(len(log) == 0 || sameEntries(c.logEntries[len(c.logEntries)-1:], log[len(log)-1:])) {
		return c.logJS
	}
	c.logOf = log
	// The longest run of cached entries, old[from:], that log starts with.
	// A move has from 0 while the log grows, then 1.
	old := c.logEntries
	keep, from := 0, 0
	for d := range old {
		if n := len(old) - d; n <= len(log) && sameEntries(old[d:], log[:n]) {
			keep, from = n, d
			break
		}
	}
	if c.logJS != nil && keep == len(old) && keep == len(log) {
		return c.logJS
	}
	copy(c.logEnc, c.logEnc[from:from+keep])
	c.logEnc = c.logEnc[:keep]
	for i := range log[keep:] {
		e := &log[keep+i]
		size := 64 + len(e.PlayerID) + len(e.Move) + len(e.Args) + len(e.Text) + len(e.BotReason) // the keys and a little escaping
		c.logEnc = append(c.logEnc, appendLogEntry(make([]byte, 0, size), e))
	}
	c.logEntries = append(c.logEntries[:0], log...)
	n := 2 + max(len(c.logEnc)-1, 0)
	for _, b := range c.logEnc {
		n += len(b)
	}
	js := make([]byte, 0, n)
	js = append(js, '[')
	for i, b := range c.logEnc {
		if i > 0 {
			js = append(js, ',')
		}
		js = append(js, b...)
	}
	c.logJS = append(js, ']')
	return c.logJS
}

// sameEntries reports whether a and b hold equal entries, so that they
// encode equally. TestSameEntriesFields fails when LogEntry gains a field
// this does not compare.
func sameEntries(a, b []protocol.LogEntry) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := &a[i], &b[i]
		if x.Turn != y.Turn || x.PlayerID != y.PlayerID || x.Move != y.Move ||
			x.Text != y.Text || !bytes.Equal(x.Args, y.Args) ||
			x.BotReason != y.BotReason || !sameFallback(x.Fallback, y.Fallback) {
			return false
		}
	}
	return true
}

// sameFallback reports whether two log entries' fallbacks are equal.
func sameFallback(a, b *protocol.LogFallback) bool {
	return a == b || (a != nil && b != nil && *a == *b)
}
