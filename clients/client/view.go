package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/protocol"
)

// This file holds a view for patches (docs/api.md, "Patches"): the fields
// of the last state message but type, stateID and ack, as patched since.
// It works on the JSON text, as the server's diff does: a value is kept as
// the bytes it arrived as, and split into members or elements only where
// an operation reaches inside it, so the view encodes again to exactly the
// bytes a full state would carry (member order included: an added member
// comes last, as on the server), and an operation costs the work on its
// path, not a decode of the whole view.

// ErrGap is returned by View.Apply for a patch that does not start from
// the view held: its base is not the view's stateID, or no view is held.
// The client then asks for the whole view (sync).
var ErrGap = errors.New("chaguan: the patch does not start from the view held")

// View is a match view held by a client that takes patches. Its zero
// value holds nothing. Feed it every state message (SetState) and patch
// message (Apply) of one connection in order; State returns the state a
// full state message would have given. An Apply that fails leaves it
// holding nothing until the next SetState. A View is not safe for
// concurrent use.
type View struct {
	root node
	id   int64
	held bool
	// cur holds the decoded members of the last State (or of the state
	// message set), reused while no operation touches them; dirty names
	// the members changed since (all: every one).
	cur   protocol.State
	dirty []string
	all   bool
	// toks and from hold the tokens of the operation being applied.
	toks, from []string
}

// stateFields maps the JSON name of each field of protocol.State that a
// view holds to its index: all but type, stateID and ack.
var stateFields = func() map[string]int {
	m := map[string]int{}
	t := reflect.TypeFor[protocol.State]()
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		switch name {
		case "", "-", "type", "stateID", "ack":
			continue
		}
		m[name] = i
	}
	return m
}()

var rawMessageType = reflect.TypeFor[json.RawMessage]()

// Held reports whether the view holds a state.
func (v *View) Held() bool { return v.held }

// StateID is the stateID of the view held.
func (v *View) StateID() int64 { return v.id }

// Reset forgets the view held.
func (v *View) Reset() {
	*v = View{}
}

// SetState makes the state message frame the view held. The view keeps
// parts of frame: the caller must not change it afterwards.
func (v *View) SetState(frame []byte) error {
	var st protocol.State
	if err := json.Unmarshal(frame, &st); err != nil {
		v.Reset()
		return fmt.Errorf("chaguan: state message: %w", err)
	}
	return v.setState(frame, &st)
}

// setState is SetState with the message already decoded as st.
func (v *View) setState(frame []byte, st *protocol.State) error {
	v.Reset()
	var top node
	top.raw = protocol.TrimSpace(frame)
	if err := top.split(); err != nil || top.kind() != '{' {
		return fmt.Errorf("chaguan: state message is not an object")
	}
	if hasDuplicateKeys(top.s.keys) {
		return fmt.Errorf("chaguan: state message has a member twice")
	}
	// The view is the message less type, stateID and ack.
	for i := 0; i < len(top.s.keys); {
		switch top.s.keys[i] {
		case "type", "stateID", "ack":
			top.removeAt(i)
		default:
			i++
		}
	}
	top.raw = nil
	v.root, v.id, v.held, v.cur = top, st.StateID, true, *st
	return nil
}

// Apply applies patch message p to the view held: an error wrapping
// ErrGap when p does not start from it, one wrapping protocol.ErrPatch
// when an operation does not apply. After an error the view holds
// nothing.
func (v *View) Apply(p *protocol.Patch) error {
	if !v.held || p.Base != v.id {
		held, id := v.held, v.id
		v.Reset()
		if !held {
			return ErrGap
		}
		return fmt.Errorf("%w: its base is %d, the view's stateID %d", ErrGap, p.Base, id)
	}
	for i, op := range p.Ops {
		if err := v.apply(op); err != nil {
			v.Reset()
			return fmt.Errorf("%w: operation %d (%s %q): %v", protocol.ErrPatch, i, op.Op, op.Path, err)
		}
	}
	v.id = p.StateID
	return nil
}

// State returns the state message the view held stands for, with ack: the
// same State a full state message with these fields would decode to. Its
// parts that no operation changed are those of the previous State.
func (v *View) State(ack *int64) (*protocol.State, error) {
	if !v.held {
		return nil, ErrGap
	}
	if v.all || len(v.dirty) > 0 {
		if err := v.decode(); err != nil {
			v.Reset()
			return nil, err
		}
	}
	st := v.cur
	st.Type, st.StateID, st.Ack = protocol.TypeState, v.id, ack
	return &st, nil
}

// Member returns the JSON of the view's top-level member name ("G",
// "ctx", …), nil when it has none. The caller must not change it.
func (v *View) Member(name string) []byte {
	if !v.held {
		return nil
	}
	i := slices.Index(v.root.s.keys, name)
	if i < 0 {
		return nil
	}
	return v.root.s.kids[i].bytes()
}

// Lookup returns the JSON of the value at path in the view held (the
// tokens of a JSON Pointer, unescaped: "G", "players"), nil when there is
// none. Only that value is encoded, not the members around it. The
// caller must not change it.
func (v *View) Lookup(path ...string) []byte {
	if !v.held || len(path) == 0 {
		return nil
	}
	n, err := v.get(path)
	if err != nil {
		return nil
	}
	return n.bytes()
}

// AppendJSON appends the view held as one JSON object (the state message
// less type, stateID and ack) to b.
func (v *View) AppendJSON(b []byte) []byte {
	if !v.held {
		return append(b, "null"...)
	}
	return append(b, v.root.bytes()...)
}

// decode decodes the changed members into v.cur, each as a state
// message's member is decoded: into the zero value of its field, which a
// member not there leaves as it is. G is the bytes held.
func (v *View) decode() error {
	cur := v.cur
	fields := reflect.ValueOf(&cur).Elem()
	one := func(name string) error {
		i, ok := stateFields[name]
		if !ok {
			return nil // a member no field of State holds
		}
		f := fields.Field(i)
		js := v.Member(name)
		switch {
		case js == nil:
			f.SetZero()
		case f.Type() == rawMessageType:
			f.SetBytes(js[:len(js):len(js)])
		default:
			p := reflect.New(f.Type())
			if err := json.Unmarshal(js, p.Interface()); err != nil {
				return fmt.Errorf("%w: the patched %s: %v", protocol.ErrPatch, name, err)
			}
			f.Set(p.Elem())
		}
		return nil
	}
	if v.all {
		for name := range stateFields {
			if err := one(name); err != nil {
				return err
			}
		}
	} else {
		for _, name := range v.dirty {
			if err := one(name); err != nil {
				return err
			}
		}
	}
	v.cur, v.dirty, v.all = cur, v.dirty[:0], false
	return nil
}

// apply applies one operation.
func (v *View) apply(op protocol.PatchOp) error {
	path, err := protocol.AppendPointer(v.toks[:0], op.Path)
	if err != nil {
		return err
	}
	v.toks = path
	value := func() (*node, error) {
		js := protocol.TrimSpace(op.Value)
		if len(js) == 0 {
			return nil, errors.New("missing value")
		}
		if !protocol.ValidJSON(js) {
			return nil, errors.New("value is not JSON")
		}
		return &node{raw: js}, nil
	}
	switch op.Op {
	case "add", "replace":
		val, err := value()
		if err != nil {
			return err
		}
		v.touch(path)
		return v.set(path, val, op.Op == "add")
	case "remove":
		v.touch(path)
		_, err := v.remove(path)
		return err
	case "test":
		val, err := value()
		if err != nil {
			return err
		}
		cur, err := v.get(path)
		if err != nil {
			return err
		}
		if !equalJSON(cur.bytes(), val.raw) {
			return errors.New("test failed")
		}
		return nil
	case "move", "copy":
		from, err := protocol.AppendPointer(v.from[:0], op.From)
		if err != nil {
			return err
		}
		v.from = from
		if op.Op == "move" {
			if len(from) < len(path) && slices.Equal(from, path[:len(from)]) {
				return errors.New("cannot move a value into itself")
			}
			v.touch(from)
			v.touch(path)
			n, err := v.remove(from)
			if err != nil {
				return err
			}
			return v.set(path, n, true)
		}
		n, err := v.get(from)
		if err != nil {
			return err
		}
		v.touch(path)
		return v.set(path, &node{raw: n.bytes()}, true)
	}
	return fmt.Errorf("unknown op %q", op.Op)
}

// touch marks the member path starts in as changed.
func (v *View) touch(path []string) {
	switch {
	case len(path) == 0:
		v.all = true
	case !slices.Contains(v.dirty, path[0]):
		v.dirty = append(v.dirty, path[0])
	}
}

// parent walks to the container holding path's last token, splitting
// what it passes and dropping their encodings when change is set.
func (v *View) parent(path []string, change bool) (*node, error) {
	n := &v.root
	for _, tok := range path[:len(path)-1] {
		if err := n.split(); err != nil {
			return nil, err
		}
		if change {
			n.raw = nil
		}
		i, err := n.child(tok)
		if err != nil {
			return nil, err
		}
		n = n.s.kids[i]
	}
	if err := n.split(); err != nil {
		return nil, err
	}
	if change {
		n.raw = nil
	}
	return n, nil
}

// get returns the value at path.
func (v *View) get(path []string) (*node, error) {
	if len(path) == 0 {
		return &v.root, nil
	}
	p, err := v.parent(path, false)
	if err != nil {
		return nil, err
	}
	i, err := p.child(path[len(path)-1])
	if err != nil {
		return nil, err
	}
	return p.s.kids[i], nil
}

// set stores val at path: added (add) or in place of what is there
// (replace).
func (v *View) set(path []string, val *node, add bool) error {
	if len(path) == 0 {
		// The whole view: it must stay an object to be one.
		if err := val.split(); err != nil || val.kind() != '{' {
			return errors.New("the view must be an object")
		}
		if hasDuplicateKeys(val.s.keys) {
			return errors.New("an object has a member twice")
		}
		v.root = *val
		v.root.raw = nil
		return nil
	}
	p, err := v.parent(path, true)
	if err != nil {
		return err
	}
	tok := path[len(path)-1]
	switch p.kind() {
	case '{':
		i := slices.Index(p.s.keys, tok)
		switch {
		case i >= 0:
			p.s.kids[i] = val
		case !add:
			return fmt.Errorf("no member %q to replace", tok)
		default:
			p.s.keys = append(p.s.keys, tok)
			p.s.names = append(p.s.names, encodeKey(tok))
			p.s.kids = append(p.s.kids, val)
		}
		return nil
	case '[':
		i, err := protocol.ArrayIndex(tok, len(p.s.kids), add)
		if err != nil {
			return err
		}
		if add {
			p.s.kids = slices.Insert(p.s.kids, i, val)
		} else {
			p.s.kids[i] = val
		}
		return nil
	}
	return fmt.Errorf("%q is inside a scalar", tok)
}

// remove takes the value at path out and returns it.
func (v *View) remove(path []string) (*node, error) {
	if len(path) == 0 {
		return nil, errors.New("cannot remove the whole view")
	}
	p, err := v.parent(path, true)
	if err != nil {
		return nil, err
	}
	i, err := p.child(path[len(path)-1])
	if err != nil {
		return nil, err
	}
	n := p.s.kids[i]
	p.removeAt(i)
	return n, nil
}

// node is one JSON value of a view: the bytes it arrived as until an
// operation reaches inside it, then its members (an object) or elements
// (an array), each a node. A value no operation reached inside (most of
// them: every value an operation adds) is its bytes and a nil pointer.
type node struct {
	// raw is the value's JSON: as it arrived for a value not split, the
	// encoding of its members for one split (nil once one changed, until
	// bytes encodes it again). Never changed in place once set.
	raw []byte
	s   *parts // nil until split
}

// parts are a split value's members or elements.
type parts struct {
	kind byte // '{' or '['
	// An object's members, in order: the names decoded and as JSON
	// strings (as they arrived, or encoded); an array's elements are kids.
	keys  []string
	names [][]byte
	kids  []*node
}

// kind is 0 for a value not split, else '{' or '['.
func (n *node) kind() byte {
	if n.s == nil {
		return 0
	}
	return n.s.kind
}

// split splits a value not split yet into its members or elements; a
// scalar is an error.
func (n *node) split() error {
	if n.s != nil {
		return nil
	}
	js := n.raw
	if len(js) == 0 || (js[0] != '{' && js[0] != '[') {
		return errors.New("a path goes inside a scalar")
	}
	kind := js[0]
	var keys []string
	var names [][]byte
	var kids []*node
	i := protocol.SkipSpace(js, 1)
	if i < len(js) && js[i] == kind+2 { // '}' or ']'
		i++
	} else {
		for {
			if kind == '{' {
				if i >= len(js) || js[i] != '"' {
					return errBadJSON
				}
				end, err := protocol.SkipString(js, i)
				if err != nil {
					return err
				}
				name := js[i:end]
				key, err := decodeKey(name)
				if err != nil {
					return err
				}
				keys, names = append(keys, key), append(names, name)
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
			kids = append(kids, &node{raw: js[i:end:end]})
			i = protocol.SkipSpace(js, end)
			if i < len(js) && js[i] == ',' {
				i = protocol.SkipSpace(js, i+1)
				continue
			}
			if i < len(js) && js[i] == kind+2 {
				i++
				break
			}
			return errBadJSON
		}
	}
	if protocol.SkipSpace(js, i) != len(js) {
		return errBadJSON
	}
	n.s = &parts{kind: kind, keys: keys, names: names, kids: kids}
	return nil
}

// child returns the index of member or element tok of a split node.
func (n *node) child(tok string) (int, error) {
	switch n.kind() {
	case '{':
		if i := slices.Index(n.s.keys, tok); i >= 0 {
			return i, nil
		}
		return 0, fmt.Errorf("no member %q", tok)
	case '[':
		return protocol.ArrayIndex(tok, len(n.s.kids), false)
	}
	return 0, fmt.Errorf("%q is inside a scalar", tok)
}

// removeAt removes member or element i of a split node.
func (n *node) removeAt(i int) {
	if n.s.kind == '{' {
		n.s.keys = slices.Delete(n.s.keys, i, i+1)
		n.s.names = slices.Delete(n.s.names, i, i+1)
	}
	n.s.kids = slices.Delete(n.s.kids, i, i+1)
}

// bytes returns the value's JSON, encoding what changed since it was last
// asked for. The caller must not change it.
func (n *node) bytes() []byte {
	if n.raw != nil || n.s == nil {
		return n.raw
	}
	p := n.s
	size := 2
	for i, k := range p.kids {
		size += len(k.bytes()) + 1
		if p.kind == '{' {
			size += len(p.names[i]) + 1
		}
	}
	b := make([]byte, 0, size)
	b = append(b, p.kind)
	for i, k := range p.kids {
		if i > 0 {
			b = append(b, ',')
		}
		if p.kind == '{' {
			b = append(b, p.names[i]...)
			b = append(b, ':')
		}
		b = append(b, k.raw...)
	}
	n.raw = append(b, p.kind+2)
	return n.raw
}

// errBadJSON is a value the view cannot split (never one the server
// writes).
var errBadJSON = protocol.ErrMalformedJSON

// decodeKey decodes a member name (a JSON string, quotes included).
func decodeKey(name []byte) (string, error) {
	if bytes.IndexByte(name, '\\') < 0 {
		return string(name[1 : len(name)-1]), nil
	}
	var s string
	if err := json.Unmarshal(name, &s); err != nil {
		return "", err
	}
	return s, nil
}

// encodeKey encodes a member name as the server's encoder writes it.
func encodeKey(key string) []byte {
	b, _ := json.Marshal(key) // a string always encodes
	return b
}

// hasDuplicateKeys reports whether a name comes twice: which one would a
// decoder take?
func hasDuplicateKeys(keys []string) bool {
	if len(keys) <= 16 {
		for i := range keys {
			for j := i + 1; j < len(keys); j++ {
				if keys[i] == keys[j] {
					return true
				}
			}
		}
		return false
	}
	seen := make(map[string]struct{}, len(keys))
	for _, k := range keys {
		if _, ok := seen[k]; ok {
			return true
		}
		seen[k] = struct{}{}
	}
	return false
}

// equalJSON compares two JSON texts as values (numbers by value, members
// in any order), as RFC 6902's test does.
func equalJSON(a, b []byte) bool {
	x, err1 := protocol.DecodeDoc(a)
	y, err2 := protocol.DecodeDoc(b)
	return err1 == nil && err2 == nil && protocol.EqualJSON(x, y)
}
