package protocol

// The scanning that a patch's sender (rooms, diffing two views) and its
// receivers (clients/client, patching the view it holds) share: finding
// where a JSON value ends without decoding it. Neither validates: a value
// these accept may still be malformed inside; both sides only ever scan
// JSON an encoder wrote. ValidJSON, last, does validate: a receiver checks
// each value a patch operation puts in its view.

import (
	"bytes"
	"encoding/json"
	"errors"
)

// ErrMalformedJSON is a value the scanner cannot find the end of.
var ErrMalformedJSON = errors.New("malformed JSON")

// structural marks the bytes that matter when skipping a container.
var structural = [256]bool{'"': true, '{': true, '}': true, '[': true, ']': true}

// SkipValue returns the index just past the JSON value that starts at i.
func SkipValue(js []byte, i int) (int, error) {
	if i >= len(js) {
		return 0, ErrMalformedJSON
	}
	switch js[i] {
	case '"':
		return SkipString(js, i)
	case '{', '[':
		depth := 0
		for i < len(js) {
			c := js[i]
			if !structural[c] {
				i++
				continue
			}
			switch c {
			case '"':
				end, err := SkipString(js, i)
				if err != nil {
					return 0, err
				}
				i = end
				continue
			case '{', '[':
				depth++
			default:
				if depth--; depth == 0 {
					return i + 1, nil
				}
			}
			i++
		}
		return 0, ErrMalformedJSON
	case ',', ':', '}', ']':
		return 0, ErrMalformedJSON
	}
	j := i
	for j < len(js) {
		switch js[j] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return j, nil
		}
		j++
	}
	return j, nil
}

// shortString is how far SkipString looks byte by byte before it hands a
// long string to bytes.IndexByte: most strings (keys, paths, IDs, a board
// row) end sooner, and a loop finds their end in about half the time the
// call takes to set up (BenchmarkSkipString).
const shortString = 32

// SkipString returns the index just past the JSON string that starts at i.
func SkipString(js []byte, i int) (int, error) {
	start := i + 1
	end := min(len(js), start+shortString)
	for i = start; i < end; i++ {
		switch js[i] {
		case '"':
			return i + 1, nil
		case '\\':
			i++ // the escaped byte
		}
	}
	// Past the first bytes (and any escape among them): the quote that
	// ends a run of backslashes of even length closes the string.
	for {
		if i >= len(js) {
			return 0, ErrMalformedJSON
		}
		q := bytes.IndexByte(js[i:], '"')
		if q < 0 {
			return 0, ErrMalformedJSON
		}
		q += i
		// The quote closes the string unless an odd run of backslashes
		// escapes it.
		n := 0
		for k := q - 1; k >= start && js[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		i = q + 1
	}
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(js []byte, i int) int {
	for i < len(js) && IsSpace(js[i]) {
		i++
	}
	return i
}

// IsSpace says whether c is JSON white space.
func IsSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// TrimSpace returns js without JSON white space at either end.
func TrimSpace(js []byte) []byte {
	i, j := 0, len(js)
	for i < j && IsSpace(js[i]) {
		i++
	}
	for j > i && IsSpace(js[j-1]) {
		j--
	}
	return js[i:j]
}

// ValidJSON is json.Valid with a short way for the small values a patch
// operation mostly carries (an integer, a string with no escape, an array
// of integers: a Gomoku move's turn, player and point); anything else
// goes to json.Valid, whose set-up costs more than these checks.
func ValidJSON(js []byte) bool {
	if len(js) == 0 {
		return false
	}
	switch c := js[0]; {
	case c == '"':
	loop:
		for i := 1; i < len(js); i++ {
			switch js[i] {
			case '"':
				if i == len(js)-1 {
					return true
				}
				break loop
			case '\\':
				break loop
			default:
				if js[i] < 0x20 {
					return false
				}
			}
		}
	case c == '-' || '0' <= c && c <= '9':
		if intEnd(js, 0) == len(js) {
			return true
		}
	case c == '[':
		if len(js) == 2 && js[1] == ']' {
			return true
		}
		for i := 1; ; {
			end := intEnd(js, i)
			if end < 0 || end >= len(js) {
				break
			}
			if js[end] == ']' {
				if end == len(js)-1 {
					return true
				}
				break
			}
			if js[end] != ',' {
				break
			}
			i = end + 1
		}
	}
	return json.Valid(js)
}

// intEnd returns the index just past the JSON integer at js[i] (a '-' or
// not, then 0 or digits that do not start with 0), or -1 if there is none.
func intEnd(js []byte, i int) int {
	if i < len(js) && js[i] == '-' {
		i++
	}
	if i >= len(js) || js[i] < '0' || js[i] > '9' {
		return -1
	}
	if js[i] == '0' {
		return i + 1
	}
	for i < len(js) && '0' <= js[i] && js[i] <= '9' {
		i++
	}
	return i
}
