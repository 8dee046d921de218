package games

import "encoding/json"

// Helpers for views and states that write their own JSON (JSONAppender,
// StateAppender): each writes exactly what json.Marshal writes, so the
// game's tests can compare the two byte for byte.

// AppendList appends xs as json.Marshal writes a slice (null when nil),
// each element by one.
func AppendList[T any](b []byte, xs []T, one func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = one(b, x)
	}
	return append(b, ']')
}

// AppendString appends s as json.Marshal writes it: plain ASCII as it is,
// any other string through json.Marshal (its escapes of control
// characters, <, > and &, U+2028 and U+2029, bad UTF-8).
func AppendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x80 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			j, _ := json.Marshal(s)
			return append(b, j...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// AppendPatchOp appends the start of one RFC 6902 operation for a
// ViewPatcher: a comma when b holds operations past start, then
// {"op":kind,"path":prefix+path and, but for a remove, ,"value": — the
// caller appends the value (if any) and the closing brace. prefix and
// path must need no JSON escaping (pointers of member names and indexes).
func AppendPatchOp(b []byte, start int, kind, prefix, path string) []byte {
	if len(b) > start {
		b = append(b, ',')
	}
	b = append(b, `{"op":"`...)
	b = append(b, kind...)
	b = append(b, `","path":"`...)
	b = append(b, prefix...)
	b = append(b, path...)
	b = append(b, '"')
	if kind != "remove" {
		b = append(b, `,"value":`...)
	}
	return b
}
