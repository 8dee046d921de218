package main

import (
	"bytes"
	"encoding/json"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// This file reads what a lean seat needs from a server frame without
// decoding it: a small walker over the JSON text that skips every value it
// does not need (strings, escapes and nesting handled) and never allocates.
// Frames come from the server under test, so the walker checks structure
// only as far as it needs to find its way; a frame it cannot walk is
// ignored, as clients/client ignores a frame it cannot decode.

// frameKind is what a server frame is, by its "type".
type frameKind uint8

const (
	frameOther frameKind = iota // chat, an unknown type, or not a walkable object
	frameState
	frameError
	framePatch // a patch message (docs/api.md, "Patches"); v is not filled
)

// view is what a seat needs from one state frame.
type view struct {
	stateID int64
	ack     int64 // the mover's own move id; valid when hasAck
	hasAck  bool
	current string   // ctx.currentPlayer
	started bool     // ctx.started
	over    bool     // ctx.gameover is present and not null
	empty   [2]point // per seat: the first empty point of G.board, row by row, that the seat's pattern gives it
	card    string   // Gong Zhu: the first card of the seat's legal list; "" for none
}

// point is a Gomoku point; ok is false when there is none.
type point struct {
	x, y int
	ok   bool
}

// next is the point the seat whose turn it is plays: the first empty point
// of its pattern; false when the current player is neither seat or has none.
func (v *view) next() (point, bool) {
	switch v.current {
	case "0":
		return v.empty[0], v.empty[0].ok
	case "1":
		return v.empty[1], v.empty[1].ok
	}
	return point{}, false
}

// scanFrame is scanFrameWith for Gomoku's board.
func scanFrame(b []byte, v *view) frameKind { return scanFrameWith(b, v, scanBoard) }

// scanFrameWith returns the kind of frame b and, for a state, fills v
// (which it clears first), reading "G" with scanG. It stops reading a
// state once it has seen "G" and "ctx": "stateID" and "ack" come before "G" in protocol.State's field
// order, which the server's encoder (rooms frame.encode) keeps. A state
// frame that cannot be walked, or lacks "ctx", is frameOther.
func scanFrameWith(b []byte, v *view, scanG func(g []byte, v *view)) frameKind {
	*v = view{}
	it := members{b: b}
	kind := frameOther
	seenG, seenCtx := false, false
	for !(seenG && seenCtx) {
		key, val, ok := it.next()
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			switch string(val) {
			case `"state"`:
				kind = frameState
			case `"error"`:
				return frameError
			case `"patch"`:
				return framePatch
			default:
				return frameOther
			}
		case "stateID":
			v.stateID, _ = parseInt(val)
		case "ack":
			v.ack, v.hasAck = parseInt(val)
		case "G":
			seenG = true
			scanG(val, v)
		case "ctx":
			seenCtx = true
			if !scanCtx(val, v) {
				return frameOther
			}
		}
	}
	if it.bad || !seenCtx {
		return frameOther
	}
	return kind
}

// scanCtx reads currentPlayer, started and gameover from the ctx object
// val. It reports false if val is not a walkable object.
func scanCtx(val []byte, v *view) bool {
	it := members{b: val}
	for {
		key, val, ok := it.next()
		if !ok {
			return !it.bad
		}
		switch string(key) {
		case "currentPlayer":
			if len(val) >= 2 && val[0] == '"' {
				v.current = seatID(val[1 : len(val)-1])
			}
		case "started":
			v.started = string(val) == "true"
		case "gameover":
			v.over = string(val) != "null"
		}
	}
}

// viewCtx is scanCtx on the ctx of a view held: it looks up the three
// members one by one, so the ctx object, which patches split, is not
// encoded again to be scanned. It reports false if the view has no ctx
// with started.
func viewCtx(pv *client.View, v *view) bool {
	started := pv.Lookup("ctx", "started")
	if started == nil {
		return false
	}
	v.started = string(started) == "true"
	if over := pv.Lookup("ctx", "gameover"); over != nil {
		v.over = string(over) != "null"
	}
	if cur := pv.Lookup("ctx", "currentPlayer"); len(cur) >= 2 && cur[0] == '"' {
		v.current = seatID(cur[1 : len(cur)-1])
	}
	return true
}

// seatIDs are the player IDs of the seats a match may have.
var seatIDs = [...]string{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9"}

// seatID is the string of b, with no copy for a seat's player ID.
func seatID(b []byte) string {
	if len(b) == 1 && '0' <= b[0] && b[0] <= '9' {
		return seatIDs[b[0]-'0']
	}
	return string(b)
}

// scanBoard finds the first '.' of G.board (an array of row strings) in
// row-major order: x is its column, y its row. Anything else in G is
// skipped, and the walk stops at the board.
func scanBoard(g []byte, v *view) {
	if val, ok := member(g, "board"); ok {
		scanRows(val, v)
	}
}

// scanRows finds, for each seat, the first '.' of the board val (an
// array of row strings) in row-major order that owner gives the seat.
func scanRows(val []byte, v *view) {
	// Rows hold '.', 'B', 'W' (no escapes).
	eachString(val, func(y int, row []byte) bool { return !emptyIn(row, y, v) })
}

// eachString calls f with the index and the bytes between the quotes
// (escapes as they are) of each string of the JSON array val, in order,
// until f returns false. It reports whether it walked the array to its
// closing bracket: false for a value that is not an array of strings, or
// when f stopped it.
func eachString(val []byte, f func(i int, s []byte) bool) bool {
	if len(val) == 0 || val[0] != '[' {
		return false
	}
	i := protocol.SkipSpace(val, 1)
	for n := 0; i < len(val) && val[i] == '"'; n++ {
		end := skipString(val, i)
		if end < 0 || !f(n, val[i+1:end-1]) {
			return false
		}
		i = protocol.SkipSpace(val, end)
		if i < len(val) && val[i] == ',' {
			i = protocol.SkipSpace(val, i+1)
		}
	}
	return i < len(val) && val[i] == ']'
}

// emptyIn records in v the first '.' of row y that each seat still lacks;
// true once both seats have one.
func emptyIn(row []byte, y int, v *view) bool {
	for x := 0; ; x++ {
		d := bytes.IndexByte(row[x:], '.')
		if d < 0 {
			return false
		}
		x += d
		if e := &v.empty[owner(x, y)]; !e.ok {
			*e = point{x, y, true}
			if v.empty[0].ok && v.empty[1].ok {
				return true
			}
		}
	}
}

// member returns the raw value of the first member named name of the
// JSON object obj; false if there is none or the walk fails before it.
// Members after it are not read.
func member(obj []byte, name string) ([]byte, bool) {
	it := members{b: obj}
	for {
		key, val, ok := it.next()
		if !ok {
			return nil, false
		}
		if string(key) == name {
			return val, true
		}
	}
}

// members walks the members of the JSON object that starts b. next
// returns each key (the raw bytes between its quotes) and value (the raw
// bytes of the JSON value) in turn; bad is set when the walk stopped on
// something that is not a well-formed object. b may go on after the
// object: end is then where it ends.
type members struct {
	b       []byte
	i       int  // where the next member (or the opening brace) starts
	started bool // the opening brace has been read
	done    bool
	bad     bool
	end     int // once done and not bad: the index just past the closing brace
}

// next returns the next member's key and value, or ok false at the end
// of the object or on malformed input (then bad is set).
func (m *members) next() (key, val []byte, ok bool) {
	if key, ok = m.key(); !ok {
		return nil, nil, false
	}
	val, ok = m.value()
	return key, val, ok
}

// key reads the next member's key and the colon after it, and leaves
// m.i at its value, which the caller reads: with value, or on its own,
// then setting m.i past it.
func (m *members) key() ([]byte, bool) {
	if m.done {
		return nil, false
	}
	b := m.b
	i := protocol.SkipSpace(b, m.i)
	if !m.started {
		if i >= len(b) || b[i] != '{' {
			return m.fail()
		}
		m.started = true
		i = protocol.SkipSpace(b, i+1)
		if i < len(b) && b[i] == '}' {
			m.done, m.end = true, i+1
			return nil, false
		}
	} else {
		switch {
		case i < len(b) && b[i] == ',':
			i = protocol.SkipSpace(b, i+1)
		case i < len(b) && b[i] == '}':
			m.done, m.end = true, i+1
			return nil, false
		default:
			return m.fail()
		}
	}
	if i >= len(b) || b[i] != '"' {
		return m.fail()
	}
	kend := skipString(b, i)
	if kend < 0 {
		return m.fail()
	}
	key := b[i+1 : kend-1]
	i = protocol.SkipSpace(b, kend)
	if i >= len(b) || b[i] != ':' {
		return m.fail()
	}
	m.i = protocol.SkipSpace(b, i+1)
	return key, true
}

// value reads the value at m.i, after key.
func (m *members) value() ([]byte, bool) {
	i := m.i
	vend := skipValue(m.b, i)
	if vend < 0 {
		return m.fail()
	}
	m.i = vend
	return m.b[i:vend], true
}

// fail ends the walk as malformed; it is what key and value return then.
func (m *members) fail() ([]byte, bool) {
	m.done, m.bad = true, true
	return nil, false
}

// skipString returns the index just past the JSON string whose opening
// quote is b[i], or -1 if it is not closed.
func skipString(b []byte, i int) int {
	end, err := protocol.SkipString(b, i)
	if err != nil {
		return -1
	}
	return end
}

// skipValue returns the index just past the JSON value that starts at
// b[i], or -1 if there is none (protocol.SkipValue).
func skipValue(b []byte, i int) int {
	end, err := protocol.SkipValue(b, i)
	if err != nil {
		return -1
	}
	return end
}

// parseInt reads a JSON integer, optionally negative; false if b is not
// one (or overflows).
func parseInt(b []byte) (int64, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var n int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// scanPatch reads the patch message b (docs/api.md, "Patches") into p
// without encoding/json: stateID, base, ack (into *ack, p.Ack pointing at
// it) and the operations, appended to p.Ops[:0]. With part "" it reads
// every operation, whose values are slices of b (not checked:
// client.View.Apply checks each); with a part, only those a lean view
// holding ctx and G's member part needs (heldPath), their values copied.
// It reports false for a frame that is not a walkable patch message.
func scanPatch(b []byte, p *protocol.Patch, ack *int64, part string) bool {
	*p = protocol.Patch{Type: protocol.TypePatch, Ops: p.Ops[:0]}
	it := members{b: b}
	seen := 0 // stateID, base and ops, as bits
	for {
		key, ok := it.key()
		if !ok {
			break
		}
		if string(key) == "ops" {
			// Read where it is, not skipped first and read again.
			gpath := "" // the pointer to G's member held, with a part
			if part != "" {
				gpath = "/G/" + part
			}
			end, ok := scanOps(b, it.i, p, gpath)
			if !ok {
				return false
			}
			it.i = end
			seen |= 4
			continue
		}
		val, ok := it.value()
		if !ok {
			break
		}
		switch string(key) {
		case "type":
			if string(val) != `"patch"` {
				return false
			}
		case "stateID":
			if p.StateID, ok = parseInt(val); !ok {
				return false
			}
			seen |= 1
		case "base":
			if p.Base, ok = parseInt(val); !ok {
				return false
			}
			seen |= 2
		case "ack":
			if string(val) == "null" {
				continue
			}
			if *ack, ok = parseInt(val); !ok {
				return false
			}
			p.Ack = ack
		}
	}
	return !it.bad && seen == 7
}

// scanOps appends the operations of the JSON array at b[i] to p.Ops (with
// gpath, /G/PART, only those heldPath keeps, their values copied) and
// returns the index just past the array, each operation read once.
func scanOps(b []byte, i int, p *protocol.Patch, gpath string) (end int, ok bool) {
	if i >= len(b) || b[i] != '[' {
		return 0, false
	}
	i = protocol.SkipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return i + 1, true
	}
	for {
		var op protocol.PatchOp
		var path, from []byte // as JSON strings
		it := members{b: b, i: i}
		for {
			key, v, ok := it.next()
			if !ok {
				break
			}
			switch string(key) {
			case "op":
				op.Op, ok = opName(v)
			case "path":
				path, ok = v, isString(v)
			case "from":
				from, ok = v, isString(v)
			case "value":
				op.Value = v
			}
			if !ok {
				return 0, false
			}
		}
		if it.bad {
			return 0, false
		}
		if gpath == "" || heldPath(path, gpath) || (from != nil && heldPath(from, gpath)) {
			if path != nil {
				if op.Path, ok = jsonString(path); !ok {
					return 0, false
				}
			}
			if from != nil {
				if op.From, ok = jsonString(from); !ok {
					return 0, false
				}
			}
			if gpath != "" {
				op.Value = bytes.Clone(op.Value)
			}
			p.Ops = append(p.Ops, op)
		}
		i = protocol.SkipSpace(b, it.end)
		if i < len(b) && b[i] == ',' {
			i = protocol.SkipSpace(b, i+1)
			continue
		}
		if i < len(b) && b[i] == ']' {
			return i + 1, true
		}
		return 0, false
	}
}

// heldPath reports whether the JSON Pointer in the JSON string path
// reaches what a lean view holding ctx and G's member gpath (/G/PART)
// holds: it is /ctx or gpath, inside one, or above one (the whole G, the
// whole view). A missing path is kept (it is the whole view's).
func heldPath(path []byte, gpath string) bool {
	if path == nil {
		return true
	}
	ptr := path[1 : len(path)-1]
	if bytes.IndexByte(ptr, '\\') >= 0 {
		s, ok := jsonString(path)
		if !ok {
			return true // scanOps refuses it
		}
		ptr = []byte(s)
	}
	return related(ptr, "/ctx") || related(ptr, gpath)
}

// related reports whether JSON Pointer path is held, inside held or above
// it (a pointer ends a token only at '/' or its end).
func related(path []byte, held string) bool {
	if len(path) >= len(held) {
		return string(path[:len(held)]) == held && (len(path) == len(held) || path[len(held)] == '/')
	}
	return held[:len(path)] == string(path) && held[len(path)] == '/'
}

// isString reports whether v is a JSON string (as far as its quotes).
func isString(v []byte) bool { return len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' }

// opName is an operation's name, without allocating for the server's.
func opName(v []byte) (string, bool) {
	switch string(v) {
	case `"add"`:
		return "add", true
	case `"remove"`:
		return "remove", true
	case `"replace"`:
		return "replace", true
	case `"copy"`:
		return "copy", true
	}
	return jsonString(v)
}

// jsonString decodes the JSON string v.
func jsonString(v []byte) (string, bool) {
	if inner, ok := plainString(v); ok {
		return string(inner), true
	}
	if !isString(v) {
		return "", false
	}
	var s string
	return s, json.Unmarshal(v, &s) == nil
}
