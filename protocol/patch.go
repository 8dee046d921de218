package protocol

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ErrPatch is wrapped by ApplyPatch for every operation that cannot be
// applied.
var ErrPatch = errors.New("cannot apply patch")

// DecodeDoc decodes JSON as ApplyPatch's documents are held: objects as
// map[string]any, arrays as []any, numbers as json.Number (so that an
// integer of any size keeps its digits).
func DecodeDoc(js []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("trailing data after the JSON value")
	}
	return v, nil
}

// ApplyPatch applies RFC 6902 operations (add, remove, replace, move,
// copy, test) to doc, a document as DecodeDoc returns it, and returns the
// result. doc itself is never changed: on any error (a path that does not
// exist, a failed test, a bad pointer or value) the result is doc and the
// error wraps ErrPatch, as RFC 6902 has a patch apply whole or not at all.
func ApplyPatch(doc any, ops []PatchOp) (any, error) {
	out := deepCopy(doc)
	for i, op := range ops {
		var err error
		if out, err = applyOp(out, op); err != nil {
			return doc, fmt.Errorf("%w: operation %d (%s %q): %v", ErrPatch, i, op.Op, op.Path, err)
		}
	}
	return out, nil
}

func applyOp(doc any, op PatchOp) (any, error) {
	path, err := ParsePointer(op.Path)
	if err != nil {
		return doc, err
	}
	value := func() (any, error) {
		if len(op.Value) == 0 {
			return nil, errors.New("missing value")
		}
		return DecodeDoc(op.Value)
	}
	switch op.Op {
	case "add", "replace", "test":
		v, err := value()
		if err != nil {
			return doc, err
		}
		if op.Op == "test" {
			cur, err := get(doc, path)
			if err != nil {
				return doc, err
			}
			if !EqualJSON(cur, v) {
				return doc, errors.New("test failed")
			}
			return doc, nil
		}
		return set(doc, path, v, op.Op == "add")
	case "remove":
		out, _, err := remove(doc, path)
		return out, err
	case "move", "copy":
		from, err := ParsePointer(op.From)
		if err != nil {
			return doc, err
		}
		if op.Op == "move" {
			if len(from) < len(path) && slices.Equal(from, path[:len(from)]) {
				return doc, errors.New("cannot move a value into itself")
			}
			out, v, err := remove(doc, from)
			if err != nil {
				return doc, err
			}
			return set(out, path, v, true)
		}
		v, err := get(doc, from)
		if err != nil {
			return doc, err
		}
		return set(doc, path, deepCopy(v), true)
	}
	return doc, fmt.Errorf("unknown op %q", op.Op)
}

// ParsePointer splits an RFC 6901 JSON Pointer into its unescaped tokens.
func ParsePointer(p string) ([]string, error) { return AppendPointer(nil, p) }

// AppendPointer is ParsePointer appending the tokens to dst. The tokens
// of a pointer without escapes are substrings of p.
func AppendPointer(dst []string, p string) ([]string, error) {
	if p == "" {
		return dst, nil
	}
	if p[0] != '/' {
		return dst, fmt.Errorf("pointer %q does not start with /", p)
	}
	escaped := strings.IndexByte(p, '~') >= 0
	for rest := p[1:]; ; {
		tok, after, more := strings.Cut(rest, "/")
		if escaped {
			for j := 0; j < len(tok); j++ {
				if tok[j] == '~' && (j+1 >= len(tok) || (tok[j+1] != '0' && tok[j+1] != '1')) {
					return dst, fmt.Errorf("pointer %q has a bad ~ escape", p)
				}
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		}
		dst = append(dst, tok)
		if !more {
			return dst, nil
		}
		rest = after
	}
}

// ArrayIndex parses an array index token for an array of n elements; end
// allows n itself ("-" or n: appending).
func ArrayIndex(tok string, n int, end bool) (int, error) {
	if tok == "-" && end {
		return n, nil
	}
	if tok == "" || (len(tok) > 1 && tok[0] == '0') || strings.TrimLeft(tok, "0123456789") != "" {
		return 0, fmt.Errorf("bad array index %q", tok)
	}
	i, err := strconv.Atoi(tok)
	if err != nil || i > n || (i == n && !end) {
		return 0, fmt.Errorf("array index %q out of range (length %d)", tok, n)
	}
	return i, nil
}

func get(doc any, path []string) (any, error) {
	for _, tok := range path {
		switch n := doc.(type) {
		case map[string]any:
			v, ok := n[tok]
			if !ok {
				return nil, fmt.Errorf("no member %q", tok)
			}
			doc = v
		case []any:
			i, err := ArrayIndex(tok, len(n), false)
			if err != nil {
				return nil, err
			}
			doc = n[i]
		default:
			return nil, fmt.Errorf("%q is inside a scalar", tok)
		}
	}
	return doc, nil
}

// set stores v at path, adding it (insert: "add") or replacing what is
// there ("replace"), and returns the document.
func set(doc any, path []string, v any, insert bool) (any, error) {
	if len(path) == 0 {
		return v, nil
	}
	tok, rest := path[0], path[1:]
	switch n := doc.(type) {
	case map[string]any:
		cur, ok := n[tok]
		switch {
		case len(rest) == 0:
			if !ok && !insert {
				return doc, fmt.Errorf("no member %q to replace", tok)
			}
			n[tok] = v
		case !ok:
			return doc, fmt.Errorf("no member %q", tok)
		default:
			c, err := set(cur, rest, v, insert)
			if err != nil {
				return doc, err
			}
			n[tok] = c
		}
		return n, nil
	case []any:
		i, err := ArrayIndex(tok, len(n), len(rest) == 0 && insert)
		if err != nil {
			return doc, err
		}
		if len(rest) == 0 {
			if insert {
				return slices.Insert(n, i, v), nil
			}
			n[i] = v
			return n, nil
		}
		c, err := set(n[i], rest, v, insert)
		if err != nil {
			return doc, err
		}
		n[i] = c
		return n, nil
	}
	return doc, fmt.Errorf("%q is inside a scalar", tok)
}

// remove takes the value at path out and returns the document and it.
func remove(doc any, path []string) (any, any, error) {
	if len(path) == 0 {
		return doc, nil, errors.New("cannot remove the whole document")
	}
	tok, rest := path[0], path[1:]
	switch n := doc.(type) {
	case map[string]any:
		cur, ok := n[tok]
		if !ok {
			return doc, nil, fmt.Errorf("no member %q", tok)
		}
		if len(rest) == 0 {
			delete(n, tok)
			return n, cur, nil
		}
		c, v, err := remove(cur, rest)
		if err != nil {
			return doc, nil, err
		}
		n[tok] = c
		return n, v, nil
	case []any:
		i, err := ArrayIndex(tok, len(n), false)
		if err != nil {
			return doc, nil, err
		}
		if len(rest) == 0 {
			v := n[i]
			return slices.Delete(n, i, i+1), v, nil
		}
		c, v, err := remove(n[i], rest)
		if err != nil {
			return doc, nil, err
		}
		n[i] = c
		return n, v, nil
	}
	return doc, nil, fmt.Errorf("%q is inside a scalar", tok)
}

func deepCopy(v any) any {
	switch n := v.(type) {
	case map[string]any:
		m := maps.Clone(n)
		for k, c := range m {
			m[k] = deepCopy(c)
		}
		return m
	case []any:
		s := slices.Clone(n)
		for i, c := range s {
			s[i] = deepCopy(c)
		}
		return s
	}
	return v
}

// EqualJSON compares two documents as DecodeDoc returns them, as JSON
// values (RFC 6902's test): numbers by value, members in any order.
func EqualJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !EqualJSON(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !EqualJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case json.Number, float64:
		fa, oka := number(a)
		fb, okb := number(b)
		return oka && okb && fa == fb
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case float64:
		return n, true
	}
	return 0, false
}
