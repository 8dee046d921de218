package protocol

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// decodePlain decodes the messages clients send in the form they send
// them, without encoding/json's reflection: an object whose keys are
// ClientMessage's JSON names as written there, each once, with plain
// values (strings with no escape and valid UTF-8, integers, true or
// false, and an args array). It gives exactly what json.Unmarshal gives
// for such a message (FuzzDecodeClient compares the two); ok is false
// for anything else (another key or spelling, an escape, a null, a
// number that is not an integer, duplicates), which json.Unmarshal then
// reads. A move is a client's most frequent message, and decoding it
// was a few per cent of the server's CPU under load.
func decodePlain(data []byte) (m ClientMessage, ok bool) {
	i := SkipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return m, false
	}
	var seen uint16
	i = SkipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return m, SkipSpace(data, i+1) == len(data)
	}
	for {
		key, next, ok := plainRaw(data, i)
		if !ok {
			return m, false
		}
		i = SkipSpace(data, next)
		if i >= len(data) || data[i] != ':' {
			return m, false
		}
		i = SkipSpace(data, i+1)
		if i >= len(data) {
			return m, false
		}
		var bit uint16
		if i, bit, ok = m.plainMember(key, data, i); !ok || seen&bit != 0 {
			return m, false
		}
		seen |= bit
		i = SkipSpace(data, i)
		if i >= len(data) {
			return m, false
		}
		switch data[i] {
		case ',':
			i = SkipSpace(data, i+1)
		case '}':
			return m, SkipSpace(data, i+1) == len(data)
		default:
			return m, false
		}
	}
}

// plainMember decodes the value at data[i] of member key into m; bit is
// the key's in a set of keys seen. ok is false for a key or a value this
// decoder leaves to json.Unmarshal.
func (m *ClientMessage) plainMember(key []byte, data []byte, i int) (next int, bit uint16, ok bool) {
	var s *string
	var n **int64
	switch string(key) {
	case "type":
		s, bit = &m.Type, 1<<0
	case "credentials":
		s, bit = &m.Credentials, 1<<1
	case "name":
		s, bit = &m.Name, 1<<2
	case "move":
		s, bit = &m.Move, 1<<3
	case "text":
		s, bit = &m.Text, 1<<4
	case "playerID":
		m.PlayerID = new(string)
		s, bit = m.PlayerID, 1<<5
	case "id":
		n, bit = &m.ID, 1<<6
	case "stateID":
		n, bit = &m.StateID, 1<<7
	case "patches":
		m.Patches, next, ok = plainBool(data, i)
		return next, 1 << 8, ok
	case "on":
		v, next, ok := plainBool(data, i)
		m.On = &v
		return next, 1 << 9, ok
	case "args":
		if data[i] != '[' {
			return i, 0, false // null, or not an array: json.Unmarshal's to say
		}
		end, err := SkipValue(data, i)
		if err != nil || !json.Valid(data[i:end]) {
			return i, 0, false
		}
		m.Args = append(json.RawMessage(nil), data[i:end]...)
		return end, 1 << 10, true
	default:
		return i, 0, false
	}
	if s != nil {
		var raw []byte
		raw, next, ok = plainRaw(data, i)
		*s = string(raw)
		return next, bit, ok
	}
	v, next, ok := plainInt(data, i)
	*n = &v
	return next, bit, ok
}

// plainRaw reads the string at data[i] and returns its bytes between the
// quotes: no escape, no control character, valid UTF-8 (where
// json.Unmarshal would change nothing).
func plainRaw(data []byte, i int) (s []byte, next int, ok bool) {
	if i >= len(data) || data[i] != '"' {
		return nil, i, false
	}
	ascii := true
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			raw := data[i+1 : j]
			if !ascii && !utf8.Valid(raw) {
				return nil, i, false
			}
			return raw, j + 1, true
		case c == '\\' || c < 0x20:
			return nil, i, false
		case c >= 0x80:
			ascii = false
		}
	}
	return nil, i, false
}

// plainInt reads the integer at data[i], as JSON writes one (-?(0|[1-9][0-9]*)),
// that fits an int64.
func plainInt(data []byte, i int) (n int64, next int, ok bool) {
	j := i
	if j < len(data) && data[j] == '-' {
		j++
	}
	start := j
	for j < len(data) && '0' <= data[j] && data[j] <= '9' {
		j++
	}
	if j == start || (data[start] == '0' && j > start+1) {
		return 0, i, false
	}
	if j < len(data) && (data[j] == '.' || data[j] == 'e' || data[j] == 'E') {
		return 0, i, false
	}
	n, err := strconv.ParseInt(string(data[i:j]), 10, 64)
	return n, j, err == nil
}

// plainBool reads true or false at data[i].
func plainBool(data []byte, i int) (v bool, next int, ok bool) {
	switch {
	case len(data)-i >= 4 && string(data[i:i+4]) == "true":
		return true, i + 4, true
	case len(data)-i >= 5 && string(data[i:i+5]) == "false":
		return false, i + 5, true
	}
	return false, i, false
}
