package main

import (
	"bytes"
	"strings"

	"github.com/chaguan/chaguan/protocol"
)

// rowView is what a lean seat with patches holds of its view when its
// workload's member of G is an array of strings (Gomoku's board): the
// three members of ctx it reads (started, gameover, currentPlayer) and
// the rows, as bytes, instead of a client.View of them. A move's patch
// changes them in two ways only, and those are all it applies: add or
// replace of one of those ctx members, and replace of one row by a
// string without escapes. Operations on ctx's other members are skipped,
// as the scan of a whole state skips those members. Any other operation
// that scanPatch keeps (at, inside or above /ctx and /G/PART: a whole
// ctx, board or row replaced, a row added or removed, move, copy, test)
// does not apply, and neither does a patch whose base is not the view's
// stateID: a gap, answered by a sync as one that client.View refuses.
// The full client (-client full) holds and checks the whole view with
// client.View; here the server's acceptance of every move made from the
// rows is what checks them.
type rowView struct {
	held    bool
	id      int64 // the stateID of the view held
	started bool
	over    bool
	current string
	rows    [][]byte
}

// hold makes the state frame b, scanned into v, the view held: ctx's
// members from v, the rows from G's member part. Without a walkable array
// of strings there, nothing is held (the next patch asks for a state).
func (r *rowView) hold(b []byte, v *view, part string) {
	r.held = false
	g, ok := member(b, "G")
	if !ok {
		return
	}
	val, ok := member(g, part)
	if !ok {
		return
	}
	n := 0
	walked := eachString(val, func(y int, row []byte) bool {
		if bytes.IndexByte(row, '\\') >= 0 {
			return false
		}
		if y == len(r.rows) {
			r.rows = append(r.rows, nil)
		}
		r.rows[y] = append(r.rows[y][:0], row...)
		n = y + 1
		return true
	})
	if !walked {
		return
	}
	r.rows = r.rows[:n]
	r.id, r.started, r.over, r.current = v.stateID, v.started, v.over, v.current
	r.held = true
}

// apply applies p to the view held, whose rows are G's member part;
// false, and nothing held, when it does not apply (see rowView).
func (r *rowView) apply(p *protocol.Patch, part string) bool {
	if !r.held || p.Base != r.id || !r.ops(p.Ops, part) {
		r.held = false
		return false
	}
	r.id = p.StateID
	return true
}

func (r *rowView) ops(ops []protocol.PatchOp, part string) bool {
	for _, op := range ops {
		val := protocol.TrimSpace(op.Value)
		switch key, inCtx := strings.CutPrefix(op.Path, "/ctx/"); {
		case inCtx:
			if i := strings.IndexByte(key, '/'); i >= 0 {
				// Inside a member of ctx: only one not read may
				// change, and only by operations that read nothing.
				if readCtx(key[:i]) || !writeOnly(op.Op) {
					return false
				}
				continue
			}
			if !r.ctxOp(op.Op, key, val) {
				return false
			}
		case op.Op == "replace" && rowPath(op.Path, part):
			y, ok := arrayIndex(op.Path[len("/G/")+len(part)+1:])
			row, plain := plainString(val)
			if !ok || y >= len(r.rows) || !plain {
				return false
			}
			r.rows[y] = append(r.rows[y][:0], row...)
		default:
			return false
		}
	}
	return true
}

// rowPath reports whether path begins with /G/PART/ (a token of part
// held: none of its characters is escaped in a pointer).
func rowPath(path, part string) bool {
	n := len("/G/") + len(part)
	return len(path) > n && strings.HasPrefix(path, "/G/") && path[len("/G/"):n] == part && path[n] == '/'
}

// writeOnly reports whether operation op only writes (add, replace,
// remove): it neither reads another place (move, copy) nor checks one
// (test).
func writeOnly(op string) bool { return op == "add" || op == "replace" || op == "remove" }

// arrayIndex parses a JSON Pointer token as an index of an existing array
// element: "0" or digits without a leading zero.
func arrayIndex(tok string) (int, bool) {
	if tok == "" || len(tok) > 9 || (tok[0] == '0' && len(tok) > 1) {
		return 0, false
	}
	n := 0
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return 0, false
		}
		n = n*10 + int(tok[i]-'0')
	}
	return n, true
}

// readCtx reports whether key is a member of ctx that the view reads.
func readCtx(key string) bool {
	return key == "started" || key == "gameover" || key == "currentPlayer"
}

// ctxOp applies op on ctx's member key with the value val.
func (r *rowView) ctxOp(op, key string, val []byte) bool {
	if !readCtx(key) {
		return writeOnly(op) // another member: skipped
	}
	if op != "add" && op != "replace" {
		return false
	}
	switch key {
	case "started":
		switch string(val) {
		case "true", "false":
			r.started = string(val) == "true"
			return true
		}
		return false
	case "gameover":
		if !protocol.ValidJSON(val) {
			return false
		}
		r.over = string(val) != "null"
		return true
	default: // currentPlayer
		if string(val) == "null" {
			r.current = ""
			return true
		}
		id, plain := plainString(val)
		if !plain {
			return false
		}
		r.current = seatID(id)
		return true
	}
}

// plainString returns what is between the quotes of the JSON string val,
// when val is one without escapes.
func plainString(val []byte) ([]byte, bool) {
	if !isString(val) || bytes.IndexByte(val[1:len(val)-1], '\\') >= 0 {
		return nil, false
	}
	return val[1 : len(val)-1], true
}

// fill fills v from the view held, as scanFrameWith fills it from the
// state it stands for (the rows scanned only when it is seat me's turn:
// the seat plays only on such a view).
func (r *rowView) fill(v *view, me string) {
	v.started, v.over, v.current = r.started, r.over, r.current
	if !v.started || v.current != me {
		return
	}
	for y, row := range r.rows {
		if emptyIn(row, y, v) {
			return
		}
	}
}
