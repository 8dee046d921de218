package rooms

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"strconv"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// This file writes patch messages: RFC 6902 JSON Patch operations that
// turn the view a connection holds into its new one, for connections that
// asked for them in their hello (docs/api.md, "Patches"). The diff works
// on the encoded JSON itself: values are compared as bytes and copied into
// the operations as they are, never decoded and encoded again, so an
// operation's value is exactly the bytes a full state would carry.
//
// It is specialised for the way views change: a history that grows (a
// log, the finished tricks and rounds, a board's tiles, a game record)
// gets one "add" at "/…/-" per new entry; a window that drops its oldest
// entries as it grows (the log's newest 20, the history's newest 100)
// gets "remove" at "/…/0" and the new entries appended; any other array
// is compared index by index. A subtree whose operations would be longer
// than its new value is replaced whole, so a patch is never much longer
// than what it changes.

// errBadJSON is a value the diff cannot split; the caller sends a full
// state instead.
var errBadJSON = protocol.ErrMalformedJSON

// member is one member of an object (key is the raw JSON string, quotes
// included) or one element of an array (key is nil).
type member struct {
	key, val []byte
}

// differ appends the operations turning one JSON value into another.
type differ struct {
	out  []byte   // the operations so far, comma-separated, no brackets
	path []byte   // the JSON Pointer of the value compared (RFC 6901)
	mem  []member // a stack of split objects and arrays, reused
	// known are values already split (a frame's views: see
	// frame.members), so that split need not scan them again.
	known [2]struct {
		js  []byte
		mem []member
	}
	// memo, when set, keeps the operations of each member of the top
	// object diffed (G): the views of one move share most of their
	// members, whose changes are then worked out once.
	memo *[]memoOps
	// copied are the values of b that a copy operation already put in
	// place (see copies): diffed from the copy's source, not from a's.
	copied []copiedVal
	// noEnds turns arrayEnds off, for tests comparing it with array's
	// entry by entry comparison.
	noEnds bool
}

// scratch returns d emptied, its buffers kept for another diff: a room
// keeps them between broadcasts, so its patches do not grow new ones on
// every move. Nothing of the frames diffed stays referenced.
func (d *differ) scratch() differ {
	clear(d.mem[:cap(d.mem)])
	clear(d.copied[:cap(d.copied)])
	return differ{out: d.out[:0], path: d.path[:0], mem: d.mem[:0], copied: d.copied[:0]}
}

// copiedVal is a value of b (by identity) whose client-side value is now
// old, copied there from elsewhere in the document.
type copiedVal struct {
	b, old []byte
}

// memoOps are the operations that turned member key's value a into b.
type memoOps struct {
	key, a, b, ops []byte
}

// diff appends to d.out the operations turning a into b at d.path. Both
// must be valid JSON (as the room's encoders write it).
func (d *differ) diff(a, b []byte) error {
	a, b = protocol.TrimSpace(a), protocol.TrimSpace(b)
	if bytes.Equal(a, b) {
		return nil
	}
	if len(a) == 0 || len(b) == 0 {
		return errBadJSON
	}
	var compare func(a, b []byte) error
	switch {
	case a[0] == '{' && b[0] == '{':
		compare = d.object
	case a[0] == '[' && b[0] == '[':
		compare = d.array
	default:
		d.op(opReplace, nil, b)
		return nil
	}
	mark := len(d.out)
	if err := compare(a, b); err != nil {
		return err
	}
	// Replace the whole subtree when that is shorter than its changes.
	if len(d.out)-mark > d.replaceLen(len(b)) {
		d.out = d.out[:mark]
		d.op(opReplace, nil, b)
	}
	return nil
}

// replaceLen is about the length of one replace operation of a value of
// n bytes at d.path (the path counted as written, before any escaping).
func (d *differ) replaceLen(n int) int {
	return len(`,{"op":"replace","path":"","value":}`) + len(d.path) + n
}

// object compares two objects member by member. A member that only b
// has is added, which appends it to the object on the client; when that
// would leave the members in another order than b's (a new member before
// an old one), the object is replaced whole, so the client's object has
// b's order and shows exactly what a full state would.
func (d *differ) object(a, b []byte) error {
	start := len(d.mem)
	defer func() { d.mem = d.mem[:start] }()
	if err := d.split(a, true); err != nil {
		return err
	}
	mid := len(d.mem)
	if err := d.split(b, true); err != nil {
		return err
	}
	am, bm := d.mem[start:mid], d.mem[mid:]
	// at[i] is the index in am of bm[i]'s key, or -1; kept on the stack
	// for the usual small object.
	var buf [24]int
	at := buf[:0]
	if len(bm) > len(buf) {
		at = make([]int, 0, len(bm))
	}
	if hasDuplicates(am) || hasDuplicates(bm) {
		return errBadJSON // no encoder of ours writes one; which would count?
	}
	last, added, ordered := -1, false, true
	hint := 0
	for _, m := range bm {
		j := find(am, m.key, hint)
		at = append(at, j)
		switch {
		case j < 0:
			added = true
		case added || j < last:
			ordered = false
		default:
			last, hint = j, j+1
		}
	}
	if !ordered {
		d.op(opReplace, nil, b)
		return nil
	}
	memo := d.memo
	var viaCopy []bool // members of bm holding a value a copy put in place
	if memo != nil {
		var err error
		if viaCopy, err = d.copies(am, bm, at); err != nil {
			return err
		}
	}
	for i, m := range am {
		if find(bm, m.key, i) < 0 {
			if err := d.withKey(m.key, func() error { d.op(opRemove, nil, nil); return nil }); err != nil {
				return err
			}
		}
	}
	d.memo = nil // only for the top object's own members
	defer func() { d.memo = memo }()
	for i, m := range bm {
		j := at[i]
		if j < 0 {
			continue
		}
		old := d.copiedFrom(m.val, am[j].val)
		if bytes.Equal(old, m.val) {
			continue
		}
		if viaCopy != nil && viaCopy[i] {
			if err := d.withKey(m.key, func() error { return d.diff(old, m.val) }); err != nil {
				return err
			}
			continue
		}
		if memo != nil {
			if ops, ok := findMemo(*memo, m.key, am[j].val, m.val); ok {
				d.appendOps(ops)
				continue
			}
		}
		mark := len(d.out)
		if err := d.withKey(m.key, func() error { return d.diff(old, m.val) }); err != nil {
			return err
		}
		if memo != nil {
			ops := bytes.TrimPrefix(d.out[mark:], []byte{','})
			*memo = append(*memo, memoOps{key: m.key, a: am[j].val, b: m.val, ops: bytes.Clone(ops)})
		}
	}
	for i, m := range bm {
		if at[i] < 0 {
			if err := d.withKey(m.key, func() error { d.op(opAdd, nil, m.val); return nil }); err != nil {
				return err
			}
		}
	}
	return nil
}

// minCopy is the shortest array worth a copy operation (see copies).
const minCopy = 256

// copies looks, among the members of the top object (G) that are
// objects, for an array that extends an array member of the old top
// object held elsewhere: a round's finished tricks, which become the
// last round's. It writes a copy operation for each, first of all, while
// the source is still as the client holds it, so the array costs its new
// entries instead of being sent again whole; the diff then goes on from
// the copy (d.copied). at maps bm to am (find). viaCopy[i] is true when
// bm[i] holds such an array: its operations depend on the copy, so they
// are not shared through the memo.
func (d *differ) copies(am, bm []member, at []int) (viaCopy []bool, err error) {
	var srcs []int // array members of a long enough to copy
	for j, m := range am {
		if len(m.val) >= minCopy && m.val[0] == '[' {
			srcs = append(srcs, j)
		}
	}
	if len(srcs) == 0 {
		return nil, nil
	}
	for i, m := range bm {
		j := at[i]
		if j < 0 || len(m.val) < minCopy || m.val[0] != '{' || am[j].val[0] != '{' || bytes.Equal(am[j].val, m.val) {
			continue
		}
		start := len(d.mem)
		if err := d.splitAfter(am[j].val, 0, true, nil); err != nil {
			d.mem = d.mem[:start]
			return nil, err
		}
		mid := len(d.mem)
		if err := d.splitAfter(m.val, 0, true, nil); err != nil {
			d.mem = d.mem[:start]
			return nil, err
		}
		olds, news := d.mem[start:mid], d.mem[mid:]
		for _, n := range news {
			k := find(olds, n.key, 0)
			if k < 0 || len(n.val) < minCopy || n.val[0] != '[' || bytes.Equal(olds[k].val, n.val) || bytes.HasPrefix(n.val, trimClose(olds[k].val)) {
				continue // new, short, unchanged, or appended to as it is
			}
			for _, s := range srcs {
				if s == j || !extends(n.val, am[s].val) {
					continue
				}
				if !d.copyOp(am[s].key, m.key, n.key) {
					continue
				}
				d.copied = append(d.copied, copiedVal{b: n.val, old: am[s].val})
				if viaCopy == nil {
					viaCopy = make([]bool, len(bm))
				}
				viaCopy[i] = true
				break
			}
		}
		d.mem = d.mem[:start]
	}
	return viaCopy, nil
}

// extends reports whether the array b begins with every entry of the
// array a (as encoded: compact, as the room's encoders write) and has
// more.
func extends(b, a []byte) bool {
	head := trimClose(a)
	return len(head) > 1 && len(b) > len(head) && bytes.HasPrefix(b, head) && b[len(head)] == ','
}

// trimClose is a compact array without its closing bracket.
func trimClose(a []byte) []byte { return a[:len(a)-1] }

// copiedFrom returns the value the client holds for b: what a copy put
// there, or else old.
func (d *differ) copiedFrom(b, old []byte) []byte {
	for _, c := range d.copied {
		if sameSlice(c.b, b) {
			return c.old
		}
	}
	return old
}

// copyOp appends a copy of the member from of the object at d.path to
// its member to's member sub (keys as raw JSON strings); false when a key
// cannot be read (nothing is written).
func (d *differ) copyOp(from, to, sub []byte) bool {
	mark := len(d.path)
	defer func() { d.path = d.path[:mark] }()
	return d.withKey(from, func() error {
		fromPath := bytes.Clone(d.path)
		d.path = d.path[:mark]
		return d.withKey(to, func() error {
			return d.withKey(sub, func() error {
				if len(d.out) > 0 {
					d.out = append(d.out, ',')
				}
				d.out = append(d.out, `{"op":"copy","from":`...)
				d.out = appendPointer(d.out, fromPath, nil)
				d.out = append(d.out, `,"path":`...)
				d.out = appendPointer(d.out, d.path, nil)
				d.out = append(d.out, '}')
				return nil
			})
		})
	}) == nil
}

// hasDuplicates reports whether two of ms have the same key.
func hasDuplicates(ms []member) bool {
	for _, m := range ms {
		if bytes.IndexByte(m.key, '\\') >= 0 { // compare the keys as decoded
			seen := make(map[string]struct{}, len(ms))
			for _, m := range ms {
				var k string
				if json.Unmarshal(m.key, &k) != nil {
					return true
				}
				if _, ok := seen[k]; ok {
					return true
				}
				seen[k] = struct{}{}
			}
			return false
		}
	}
	if len(ms) > 16 {
		seen := make(map[string]struct{}, len(ms))
		for _, m := range ms {
			if _, ok := seen[string(m.key)]; ok {
				return true
			}
			seen[string(m.key)] = struct{}{}
		}
		return false
	}
	for i := range ms {
		for j := i + 1; j < len(ms); j++ {
			if bytes.Equal(ms[i].key, ms[j].key) {
				return true
			}
		}
	}
	return false
}

// findMemo returns the operations memo holds for member key from a to b.
func findMemo(memo []memoOps, key, a, b []byte) ([]byte, bool) {
	for _, m := range memo {
		if bytes.Equal(m.key, key) && bytes.Equal(m.a, a) && bytes.Equal(m.b, b) {
			return m.ops, true
		}
	}
	return nil, false
}

// appendOps appends operations (comma-separated, as op writes them).
func (d *differ) appendOps(ops []byte) {
	if len(ops) == 0 {
		return
	}
	if len(d.out) > 0 {
		d.out = append(d.out, ',')
	}
	d.out = append(d.out, ops...)
}

// find returns the index in ms of the member whose key is key, looking
// from hint on first (members usually come in the same order), or -1.
func find(ms []member, key []byte, hint int) int {
	hint = min(max(hint, 0), len(ms))
	for i := hint; i < len(ms); i++ {
		if bytes.Equal(ms[i].key, key) {
			return i
		}
	}
	for i := 0; i < hint; i++ {
		if bytes.Equal(ms[i].key, key) {
			return i
		}
	}
	return -1
}

// array compares two arrays: b extending a is appended to; b extending
// what is left of a once its first entries are gone (a window moving on)
// removes those and appends; anything else is compared index by index.
func (d *differ) array(a, b []byte) error {
	start := len(d.mem)
	defer func() { d.mem = d.mem[:start] }()
	if ok, err := d.arrayEnds(a, b); ok || err != nil {
		return err
	}
	if err := d.split(a, false); err != nil {
		return err
	}
	mid := len(d.mem)
	if err := d.split(b, false); err != nil {
		return err
	}
	ae, be := d.mem[start:mid], d.mem[mid:]
	p := 0
	for p < len(ae) && p < len(be) && bytes.Equal(ae[p].val, be[p].val) {
		p++
	}
	if p == len(ae) {
		d.appendAll(be[p:])
		return nil
	}
	// A window that moved on: cheaper than comparing index by index when
	// nothing was in common at the start, or when its few operations are
	// fewer than the entries from the first difference on.
	if len(be) > 0 {
		if s := shift(ae, be); s > 0 && (p == 0 || s+len(be)-(len(ae)-s) <= len(ae)-p) {
			for range s {
				d.op(opRemove, []byte("/0"), nil)
			}
			d.appendAll(be[len(ae)-s:])
			return nil
		}
	}
	// One entry taken out (a card played from a hand) or put in (a card
	// into a sorted list) at p.
	if len(ae) == len(be)+1 && sameVals(ae[p+1:], be[p:]) {
		d.op(opRemove, strconv.AppendInt([]byte{'/'}, int64(p), 10), nil)
		return nil
	}
	if len(be) == len(ae)+1 && sameVals(ae[p:], be[p+1:]) {
		if p == len(ae) {
			d.appendAll(be[p:])
		} else {
			d.op(opAdd, strconv.AppendInt([]byte{'/'}, int64(p), 10), be[p].val)
		}
		return nil
	}
	n := min(len(ae), len(be))
	for i := p; i < n; i++ {
		mark := len(d.path)
		d.path = append(d.path, '/')
		d.path = strconv.AppendInt(d.path, int64(i), 10)
		err := d.diff(ae[i].val, be[i].val)
		d.path = d.path[:mark]
		if err != nil {
			return err
		}
	}
	d.appendAll(be[n:])
	for i := len(ae) - 1; i >= len(be); i-- {
		d.op(opRemove, strconv.AppendInt([]byte{'/'}, int64(i), 10), nil)
	}
	return nil
}

// arrayEnds tells two arrays apart from their bytes when b is a with
// entries added at the end (a log below its cap, a move list), or with
// its first entry gone and entries added (a log at its cap), as array
// would from their entries: the same operations, but only the added
// entries are split. ok is false when a and b are not so (array then
// compares them entry by entry), and when a is empty; a first entry gone
// is looked for only when a has two entries or more.
func (d *differ) arrayEnds(a, b []byte) (ok bool, err error) {
	if d.noEnds || len(a) < 2 || len(b) < 2 || b[0] != '[' || a[len(a)-1] != ']' {
		return false, nil
	}
	first := protocol.SkipSpace(a, 1)
	if first >= len(a)-1 {
		return false, nil // []
	}
	// after reports whether b's entries start with the bytes rest, then
	// go on or end, and appends the operations adding the rest of b.
	after := func(rest []byte) (bool, error) {
		k := 1 + len(rest)
		if !bytes.HasPrefix(b[1:], rest) || k >= len(b) || (b[k] != ',' && (b[k] != ']' || k != len(b)-1)) {
			return false, nil
		}
		mark := len(d.mem)
		if err := d.splitAfter(b, k, false, nil); err != nil {
			return false, err
		}
		d.appendAll(d.mem[mark:])
		return true, nil
	}
	if ok, err := after(a[1 : len(a)-1]); ok || err != nil {
		return ok, err
	}
	// The first entry gone: b starts with a's second entry, which differs
	// from a's first (else array would keep the first and compare on).
	end, err := protocol.SkipValue(a, first)
	if err != nil {
		return false, nil
	}
	comma := protocol.SkipSpace(a, end)
	if comma >= len(a) || a[comma] != ',' {
		return false, nil // one entry
	}
	second := protocol.SkipSpace(a, comma+1)
	end2, err := protocol.SkipValue(a, second)
	if err != nil || bytes.Equal(a[first:end], a[second:end2]) {
		return false, nil
	}
	mark := len(d.out)
	d.op(opRemove, []byte("/0"), nil)
	if ok, err := after(a[second : len(a)-1]); ok || err != nil {
		return ok, err
	}
	d.out = d.out[:mark]
	return false, nil
}

// shift returns s > 0 when ae[s:] begins be (the array lost its first s
// entries, then maybe grew), trying the few places where be's first entry
// appears in ae; 0 when there is none.
func shift(ae, be []member) int {
	tries := 0
	for s := 1; s < len(ae) && tries < 4; s++ {
		if !bytes.Equal(ae[s].val, be[0].val) {
			continue
		}
		tries++
		if len(ae)-s > len(be) {
			return 0 // a later s leaves even more to match
		}
		ok := true
		for i := s + 1; i < len(ae); i++ {
			if !bytes.Equal(ae[i].val, be[i-s].val) {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return 0
}

// appendAll adds each of es at the end of the array at d.path.
func (d *differ) appendAll(es []member) {
	for _, e := range es {
		d.op(opAdd, []byte("/-"), e.val)
	}
}

// withKey runs fn with d.path extended by the object key raw (a JSON
// string, as encoded), escaped as RFC 6901 wants.
func (d *differ) withKey(raw []byte, fn func() error) error {
	mark := len(d.path)
	defer func() { d.path = d.path[:mark] }()
	d.path = append(d.path, '/')
	key := raw[1 : len(raw)-1]
	if bytes.IndexByte(key, '\\') >= 0 {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return errBadJSON
		}
		key = []byte(s)
	}
	for _, c := range key {
		switch c {
		case '~':
			d.path = append(d.path, '~', '0')
		case '/':
			d.path = append(d.path, '~', '1')
		default:
			d.path = append(d.path, c)
		}
	}
	return fn()
}

const (
	opAdd     = `{"op":"add","path":`
	opRemove  = `{"op":"remove","path":`
	opReplace = `{"op":"replace","path":`
)

// op appends one operation at d.path followed by tail (an array index,
// "/-" or nil); value is nil for a remove.
func (d *differ) op(kind string, tail, value []byte) {
	if len(d.out) > 0 {
		d.out = append(d.out, ',')
	}
	d.out = append(d.out, kind...)
	d.out = appendPointer(d.out, d.path, tail)
	if value != nil {
		d.out = append(d.out, `,"value":`...)
		d.out = append(d.out, value...)
	}
	d.out = append(d.out, '}')
}

// appendPointer appends path+tail as a JSON string.
func appendPointer(b, path, tail []byte) []byte {
	plain := true
	for _, part := range [2][]byte{path, tail} {
		for _, c := range part {
			if c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
				plain = false
			}
		}
	}
	if !plain {
		return append(b, mustMarshal(string(path)+string(tail))...)
	}
	b = append(b, '"')
	b = append(b, path...)
	b = append(b, tail...)
	return append(b, '"')
}

// split appends the members of the object (keyed) or the elements of the
// array js to d.mem.
func (d *differ) split(js []byte, keyed bool) error {
	for _, k := range d.known {
		if k.mem != nil && sameSlice(k.js, js) {
			d.mem = append(d.mem, k.mem...)
			return nil
		}
	}
	return d.splitAfter(js, 0, keyed, nil)
}

// splitAfter appends the members of the container js that follow the
// value or opening bracket ending at i; stop, when given, is told the end
// of each member and ends the split early when it returns true.
func (d *differ) splitAfter(js []byte, i int, keyed bool, stop func(end int) bool) error {
	closer := byte(']')
	if keyed {
		closer = '}'
	}
	if i == 0 { // the opening bracket
		if i = protocol.SkipSpace(js, 1); i < len(js) && js[i] == closer {
			if len(protocol.TrimSpace(js[i+1:])) > 0 {
				return errBadJSON
			}
			return nil
		}
	} else {
		switch i = protocol.SkipSpace(js, i); {
		case i >= len(js):
			return errBadJSON
		case js[i] == closer:
			return nil
		case js[i] != ',':
			return errBadJSON
		}
		i = protocol.SkipSpace(js, i+1)
	}
	for {
		var m member
		if keyed {
			if i >= len(js) || js[i] != '"' {
				return errBadJSON
			}
			end, err := protocol.SkipString(js, i)
			if err != nil {
				return err
			}
			m.key = js[i:end]
			i = protocol.SkipSpace(js, end)
			if i >= len(js) || js[i] != ':' {
				return errBadJSON
			}
			i = protocol.SkipSpace(js, i+1)
		}
		end, err := protocol.SkipValue(js, i)
		if err != nil {
			return err
		}
		m.val = js[i:end]
		d.mem = append(d.mem, m)
		if stop != nil && stop(end) {
			return nil
		}
		i = protocol.SkipSpace(js, end)
		if i >= len(js) {
			return errBadJSON
		}
		switch js[i] {
		case ',':
			i = protocol.SkipSpace(js, i+1)
		case closer:
			if len(protocol.TrimSpace(js[i+1:])) > 0 {
				return errBadJSON
			}
			return nil
		default:
			return errBadJSON
		}
	}
}

// splitLike appends the members of the object b to d.mem, knowing the
// members am of the object a: the members that lie in a's and b's common
// prefix, and those in their common suffix, are a's, moved into b, so only
// the part that changed is scanned. A move changes a few members of a
// 20 KB view, most of whose bytes (a history, a scoreboard) stay.
func (d *differ) splitLike(a []byte, am []member, b []byte) error {
	n := min(len(a), len(b))
	p := commonPrefix(a, b)
	s := min(commonSuffix(a, b), n-p)
	delta := len(b) - len(a)
	k := 0
	for k < len(am) && offset(a, am[k].val)+len(am[k].val) < p {
		d.mem = append(d.mem, moved(a, am[k], b, 0))
		k++
	}
	at := 0
	if k > 0 {
		at = offset(a, am[k-1].val) + len(am[k-1].val)
	}
	j, from := k, len(b)-s
	return d.splitAfter(b, at, true, func(end int) bool {
		if end < from {
			return false
		}
		// b from end on is a from end-delta on: if a member of a ends
		// there, the members after it are the same.
		ea := end - delta
		for j < len(am) && offset(a, am[j].val)+len(am[j].val) < ea {
			j++
		}
		if j >= len(am) || offset(a, am[j].val)+len(am[j].val) != ea {
			return false
		}
		for _, m := range am[j+1:] {
			d.mem = append(d.mem, moved(a, m, b, delta))
		}
		return true
	})
}

// offset is where sub, a slice of base, starts in base.
func offset(base, sub []byte) int { return cap(base) - cap(sub) }

// moved is m, a member of a, as the same bytes delta further on in b.
func moved(a []byte, m member, b []byte, delta int) member {
	ko, vo := offset(a, m.key)+delta, offset(a, m.val)+delta
	return member{key: b[ko : ko+len(m.key)], val: b[vo : vo+len(m.val)]}
}

// commonPrefix is the length of the longest common prefix of a and b:
// found a chunk at a time with bytes.Equal (vectorised), then in the
// chunk that differs.
func commonPrefix(a, b []byte) int {
	n := min(len(a), len(b))
	i := 0
	for ; i+256 <= n && bytes.Equal(a[i:i+256], b[i:i+256]); i += 256 {
	}
	for ; i+8 <= n && binary.LittleEndian.Uint64(a[i:]) == binary.LittleEndian.Uint64(b[i:]); i += 8 {
	}
	for i < n && a[i] == b[i] {
		i++
	}
	return i
}

// commonSuffix is the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	n := min(len(a), len(b))
	a, b = a[len(a)-n:], b[len(b)-n:]
	i := 0 // bytes matched at the end
	for ; i+256 <= n && bytes.Equal(a[n-i-256:n-i], b[n-i-256:n-i]); i += 256 {
	}
	for ; i+8 <= n && binary.LittleEndian.Uint64(a[n-i-8:]) == binary.LittleEndian.Uint64(b[n-i-8:]); i += 8 {
	}
	for i < n && a[n-1-i] == b[n-1-i] {
		i++
	}
	return i
}

// patchHead begins every patch message.
const patchHead = `{"type":"patch","stateID":`

// sentView is what a patch viewer holds: seat's view in frame f (f nil
// before its first state).
type sentView struct {
	f    *frame
	seat int
}

// patchSet makes one broadcast's patch messages, each piece once: the
// operations on the parts every viewer shares (ctx, players, log, clock,
// thinking) once per frame the viewers hold (all of them, but for one that has just
// connected); those on G once per distinct pair of views (so every
// spectator's view changes by the same operations, and each seat's by its
// own); and each message once per distinct (frame held, seat held, seat).
type patchSet struct {
	to     *frame
	d      differ
	shared []patchOps
	views  []patchOps
	msgs   []patchMsg
	full   seatCache // the state message of each seat, when a patch will not do
	memo   []memoOps // G's members' operations, shared by the views (differ.memo)

	// Room for a usual change's entries (newPatchSet): a set is made
	// for every change, and growing three slices from nil would cost as
	// many allocations again.
	sharedArr, viewsArr [2]patchOps
	msgsArr             [4]patchMsg
}

// newPatchSet returns the set of patches to frame to, with the differ's
// scratch d.
func newPatchSet(to *frame, d differ) *patchSet {
	p := &patchSet{to: to, d: d}
	p.shared, p.views, p.msgs = p.sharedArr[:0], p.viewsArr[:0], p.msgsArr[:0]
	return p
}

// patchOps are the operations from a frame (and view) to the set's.
type patchOps struct {
	from       *frame
	fromV, toV int // the views, for G's
	ops        []byte
	err        error
	// told is set when the game told G's operations (games.ViewOps):
	// changes in place, never G replaced whole.
	told bool
}

// patchMsg is one message without ack; ok false sends a full state.
type patchMsg struct {
	from           *frame
	fromSeat, seat int
	body           []byte // the operations, comma-separated
	msg            []byte // the message, once a viewer without an ack needed it
	ok             bool
	err            error // the diff failed (a bug): logged
}

// noAck returns the message without ack, encoding it on first use: a
// seat whose move made the change gets its own with the ack, so a
// message only the mover would see is never encoded without one.
func (m *patchMsg) noAck(to *frame) []byte {
	if m.msg == nil {
		m.msg = to.patch(m.from.seq, nil, m.body)
	}
	return m.msg
}

// message returns the patch message (without ack) taking held to seat's
// view of the set's frame, and its operations; ok is false when a full
// state is to be sent instead: nothing held, a diff that failed, or a
// patch no shorter than the state.
func (p *patchSet) message(held sentView, seat int) (m *patchMsg) {
	for i := range p.msgs {
		if m := &p.msgs[i]; m.from == held.f && m.fromSeat == held.seat && m.seat == seat {
			return m
		}
	}
	p.msgs = append(p.msgs, patchMsg{from: held.f, fromSeat: held.seat, seat: seat})
	m = &p.msgs[len(p.msgs)-1]
	if held.f == nil {
		return m
	}
	shared := p.sharedOps(held.f)
	view := p.viewOps(held.f, held.f.viewOf(held.seat), p.to.viewOf(seat))
	if m.err = errors.Join(shared.err, view.err); m.err != nil {
		return m
	}
	// Sized for what it will hold: ops, commas and "you".
	body := make([]byte, 0, len(view.ops)+len(shared.ops)+48)
	for _, ops := range [][]byte{view.ops, shared.ops} {
		if len(ops) > 0 {
			if len(body) > 0 {
				body = append(body, ',')
			}
			body = append(body, ops...)
		}
	}
	if held.seat != seat {
		if len(body) > 0 {
			body = append(body, ',')
		}
		body = append(body, `{"op":"replace","path":"/you","value":`...)
		body = appendYou(body, seat)
		body = append(body, '}')
	}
	// The whole view, as a state, is shorter. What the message holds
	// besides G decides it most of the time, without encoding G.
	if n := len(body) + len(patchHead) + 40; n >= p.to.fullLen(0)-40 && n >= p.to.fullLen(p.to.gLen(p.to.viewOf(seat)))-40 {
		return m
	}
	m.body, m.ok = body, true
	return m
}

// sharedOps returns the operations on ctx, players, log, clock and
// thinking from from to the set's frame.
func (p *patchSet) sharedOps(from *frame) *patchOps {
	for i := range p.shared {
		if p.shared[i].from == from {
			return &p.shared[i]
		}
	}
	to := p.to
	d := &p.d
	d.out, d.copied = d.out[:0], d.copied[:0]
	var err error
	for _, part := range []struct {
		path     string
		old, new []byte
	}{{"/ctx", from.ctx, to.ctx}, {"/players", from.players, to.players}, {"/log", from.log, to.log}} {
		d.path = append(d.path[:0], part.path...)
		if err = d.diff(part.old, part.new); err != nil {
			break
		}
	}
	for _, part := range []struct {
		path     string
		old, new []byte
	}{{"/clock", from.clock, to.clock}, {"/thinking", from.thinking, to.thinking}} {
		if err != nil {
			break
		}
		d.path = append(d.path[:0], part.path...)
		switch {
		case part.old == nil && part.new != nil:
			d.op(opAdd, nil, part.new)
		case part.old != nil && part.new == nil:
			d.op(opRemove, nil, nil)
		case part.old != nil:
			err = d.diff(part.old, part.new)
		}
	}
	p.shared = append(p.shared, patchOps{from: from, ops: bytes.Clone(d.out), err: err})
	return &p.shared[len(p.shared)-1]
}

// viewOps returns the operations on G from view fromV of from to view toV
// of the set's frame.
func (p *patchSet) viewOps(from *frame, fromV, toV int) *patchOps {
	for i := range p.views {
		if o := &p.views[i]; o.from == from && o.fromV == fromV && o.toV == toV {
			return o
		}
	}
	if fromV == toV {
		// The game's own operations, when it can tell them (ViewPatcher):
		// then neither view is encoded or split.
		if ops, ok := games.ViewOps(nil, from.st, p.to.st, fromV, "/G"); ok {
			p.views = append(p.views, patchOps{from: from, fromV: fromV, toV: toV, ops: ops, told: true})
			return &p.views[len(p.views)-1]
		}
	}
	if fromV == toV && fromV >= 0 {
		if ops, ok := p.seatOps(from, fromV); ok {
			p.views = append(p.views, patchOps{from: from, fromV: fromV, toV: toV, ops: ops})
			return &p.views[len(p.views)-1]
		}
	}
	d := &p.d
	d.out, d.copied = d.out[:0], d.copied[:0]
	d.path = append(d.path[:0], "/G"...)
	a, b := from.g(fromV), p.to.g(toV)
	am := from.members(fromV, nil, nil)
	d.known[0].js, d.known[0].mem = a, am
	d.known[1].js, d.known[1].mem = b, p.to.members(toV, a, am)
	d.memo = &p.memo
	err := d.diff(a, b)
	d.known[0].mem, d.known[1].mem, d.memo = nil, nil, nil
	p.views = append(p.views, patchOps{from: from, fromV: fromV, toV: toV, ops: bytes.Clone(d.out), err: err})
	return &p.views[len(p.views)-1]
}

// seatOps works out the operations on seat's G from the spectators' when
// the seat's view is the spectators' with only the content of its
// "players" object added, in both frames (what games.SeatEntries games
// write: Gong Zhu's hand and legal cards): the spectators' operations,
// worked out once for all seats, and those on the seat's own players
// object. Their paths are apart (the spectators' "players" is {} in both
// frames, so none of their operations touches it), so either order gives
// the same document, and the seat's view itself is never encoded. ok is
// false when that shape is not there, or the spectators' G was replaced
// whole: viewOps then diffs the seat's G whole.
func (p *patchSet) seatOps(from *frame, seat int) (ops []byte, ok bool) {
	a, okA := from.seatPlayers(seat)
	b, okB := p.to.seatPlayers(seat)
	if !okA || !okB {
		return nil, false
	}
	spec := p.viewOps(from, games.Spectator, games.Spectator)
	if spec.err != nil || bytes.Contains(spec.ops, []byte(`"path":"/G",`)) {
		return nil, false
	}
	ops = bytes.Clone(spec.ops)
	d := &p.d
	d.out, d.copied = d.out[:0], d.copied[:0]
	d.path = append(d.path[:0], "/G/players"...)
	if err := d.diff(a, b); err != nil {
		return nil, false
	}
	if len(d.out) > 0 {
		if len(ops) > 0 {
			ops = append(ops, ',')
		}
		ops = append(ops, d.out...)
	}
	// As diff decides for the seat's G whole: replaced when that is
	// shorter. Operations the game told change G in place; they are taken
	// as they are (message still weighs the patch against the whole
	// state), so the seat's G is not encoded to weigh them.
	d.path = append(d.path[:0], "/G"...)
	if !spec.told && len(ops) > d.replaceLen(p.to.gLen(seat)) {
		return nil, false
	}
	return ops, true
}

// seatPlayers returns the "players" object of seat's G when that G is the
// spectators' G (whose "players" is {}) with only that object's content
// added (games.SeatEntry); ok is false otherwise.
func (f *frame) seatPlayers(seat int) (players []byte, ok bool) {
	if seat < 0 {
		return nil, false
	}
	if b, ok := f.entries.get(seat); ok {
		return b, b != nil
	}
	b, ok := games.SeatEntry(f.st, []byte{'{'}, seat)
	if ok {
		b = append(b, '}')
	} else {
		b = nil
	}
	f.entries.put(seat, b)
	return b, ok
}

// members returns the members of viewer's G, split once per frame: a
// frame's views are diffed twice, from the last frame and to the next.
// When like (a view of another frame) and its members are given, only
// what differs from it is scanned. nil when G is not an object or cannot
// be split (diff then reports it).
func (f *frame) members(viewer int, like []byte, likeMembers []member) []member {
	if ms, ok := f.tops[viewer]; ok {
		return ms
	}
	g := f.g(viewer)
	var d differ
	var ms []member
	var err error
	switch {
	case len(g) == 0 || g[0] != '{':
		err = errBadJSON
	case likeMembers != nil:
		err = d.splitLike(like, likeMembers, g)
	default:
		err = d.split(g, true)
	}
	if err == nil {
		ms = d.mem[:len(d.mem):len(d.mem)]
	}
	if f.tops == nil {
		f.tops = map[int][]member{}
	}
	f.tops[viewer] = ms
	return ms
}

// patch encodes a patch message from stateID base with body's operations.
func (f *frame) patch(base int64, ack *int64, body []byte) []byte {
	b := make([]byte, 0, len(body)+80)
	b = append(b, patchHead...)
	b = strconv.AppendInt(b, f.seq, 10)
	b = append(b, `,"base":`...)
	b = strconv.AppendInt(b, base, 10)
	if ack != nil {
		b = append(b, `,"ack":`...)
		b = strconv.AppendInt(b, *ack, 10)
	}
	b = append(b, `,"ops":[`...)
	b = append(b, body...)
	return append(b, "]}"...)
}

// sendPatch sends v the patch from the view it holds to its view of the
// set's frame, or the whole view when a patch will not do; ack is v's move
// id that made the change, if it did.
func (r *room) sendPatch(v *Viewer, p *patchSet, ack *int64) {
	m := p.message(v.sent, v.seat)
	if !m.ok {
		if m.err != nil {
			r.log.Warn("no patch for a viewer; sending the whole view", "err", m.err)
		}
		if ack != nil {
			r.sendFull(v, p.to, ack)
			return
		}
		b, ok := p.full.get(v.seat)
		if !ok {
			b = p.to.encode(v.seat, nil)
			p.full.put(v.seat, b)
		}
		v.sent = sentView{f: p.to, seat: v.seat}
		r.send(v, b, KindState)
		return
	}
	var msg []byte
	if ack != nil {
		msg = p.to.patch(m.from.seq, ack, m.body)
	} else {
		msg = m.noAck(p.to)
	}
	v.sent = sentView{f: p.to, seat: v.seat}
	if v.sink.Send(msg, patchKind(ack)) {
		return
	}
	// The viewer fell behind: its queue is full. Rather than drop it, its
	// queued views give way to the whole view, when the sink can do that
	// without losing an ack (Resyncer).
	if rs, ok := v.sink.(Resyncer); ok && rs.Resync(p.to.encode(v.seat, ack), stateKind(ack)) {
		r.log.Info("resynced slow patch viewer", "seat", v.seat)
		return
	}
	r.log.Info("dropping slow viewer", "seat", v.seat)
	r.disconnect(v)
	v.sink.Close()
}

// sameVals reports whether a and b hold equal values, in order.
func sameVals(a, b []member) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i].val, b[i].val) {
			return false
		}
	}
	return true
}
