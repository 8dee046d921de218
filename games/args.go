package games

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MaxArgsBytes bounds the raw JSON of one move's args. The longest move
// any game takes (weiqi's setDead listing every stone of a 19x19 board)
// needs about half of it.
const MaxArgsBytes = 4 << 10

// MaxArgString bounds, in bytes, each string inside a move's args: a
// point, a card, a feature or a choice is a short word.
const MaxArgString = 32

// ArgsParser is implemented by a Rules value that parses its moves' args
// into typed values. CanonicalArgs parses the args of move name and
// returns their canonical JSON: compact, in the game's normal spelling,
// byte for byte what the game's own bots send for the same move. Args
// that do not parse exactly are refused with an error wrapping
// ErrInvalidMove (a *MoveError with a reason in both languages); an
// unknown move name with one wrapping ErrUnknownMove. It depends on the
// args alone, never on a state: a value that parses but that the
// position does not allow (a point off a 9x9 board, a card not in hand)
// is Apply's to refuse. Apply must refuse what CanonicalArgs refuses, and
// give the same state for the canonical args as for the original ones.
type ArgsParser interface {
	CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error)
}

// emptyArgs is the canonical args of a move that takes none.
var emptyArgs = json.RawMessage("[]")

// noArgs reports whether args is absent: empty, or JSON null.
func noArgs(args json.RawMessage) bool {
	return len(args) == 0 || string(bytes.TrimSpace(args)) == "null"
}

// canonicalArgs is Game.CanonicalArgs for a known move of rules r (a
// Rules value): the size bound, absent args as [], then the game's own
// parser, or json.Compact for rules that have none.
func canonicalArgs(r any, name string, args json.RawMessage) (json.RawMessage, error) {
	if len(args) > MaxArgsBytes {
		return nil, tooLong(name, len(args))
	}
	if noArgs(args) {
		args = emptyArgs
	}
	if p, ok := r.(ArgsParser); ok {
		return p.CanonicalArgs(name, args)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, args); err != nil {
		return nil, Invalid(
			fmt.Sprintf("the args of %s are not well-formed JSON", name),
			fmt.Sprintf("%s 的参数不是合法的 JSON", name))
	}
	return b.Bytes(), nil
}

func tooLong(name string, n int) error {
	return Invalid(
		fmt.Sprintf("the args of %s are %d bytes, more than the %d allowed", name, n, MaxArgsBytes),
		fmt.Sprintf("%s 的参数长 %d 字节，超过上限 %d 字节", name, n, MaxArgsBytes))
}

// DecodeArgs decodes args, the JSON args of move name whose shape the
// catalog documents as shape (e.g. `[x, y]`), into dst: one pointer per
// element of the JSON array args must be. It is strict, so that what it
// accepts has exactly one meaning and a canonical form:
//   - args is at most MaxArgsBytes, one JSON array and nothing after it;
//     empty args and JSON null count as [];
//   - the array has exactly len(dst) elements, none of them null;
//   - each element has the JSON type of its destination: a whole number
//     for an int (no fraction, no exponent), true or false for a bool, a
//     string for a string, an array for a slice;
//   - a struct destination is an object with exactly the struct's JSON
//     field names, spelt exactly (no unknown, missing, repeated or null
//     field, no other case);
//   - every string, at any depth, is 1 to MaxArgString bytes with no
//     space, control or invisible formatting character.
//
// A refusal is a *MoveError (wrapping ErrInvalidMove) that names the
// move, its shape and what is wrong, in English and Chinese. Whether a
// well-typed value is one the game allows (a real card, a point on the
// board) is the caller's to check.
func DecodeArgs(name, shape string, args json.RawMessage, dst ...any) error {
	if len(args) > MaxArgsBytes {
		return argsErr(name, shape,
			fmt.Sprintf("the args are %d bytes, more than the %d allowed", len(args), MaxArgsBytes),
			fmt.Sprintf("参数长 %d 字节，超过上限 %d 字节", len(args), MaxArgsBytes))
	}
	if noArgs(args) {
		args = emptyArgs
	}
	if b := bytes.TrimLeft(args, " \t\r\n"); len(b) == 0 || b[0] != '[' {
		return argsErr(name, shape, "the args must be a JSON array", "参数必须是 JSON 数组")
	}
	var elems []json.RawMessage
	if json.Unmarshal(args, &elems) != nil {
		return argsErr(name, shape, "the args are not one well-formed JSON array", "参数不是一个合法的 JSON 数组")
	}
	if len(elems) != len(dst) {
		return argsErr(name, shape,
			fmt.Sprintf("it takes %s, not %d", arguments(len(dst)), len(elems)),
			fmt.Sprintf("需要 %d 个参数，而不是 %d 个", len(dst), len(elems)))
	}
	for i, e := range elems {
		if en, zh := decodeOne(e, dst[i]); en != "" {
			return argsErr(name, shape,
				fmt.Sprintf("argument %d %s", i+1, en),
				fmt.Sprintf("第 %d 个参数%s", i+1, zh))
		}
	}
	return nil
}

// arguments is "no arguments", "1 argument" or "n arguments".
func arguments(n int) string {
	switch n {
	case 0:
		return "no arguments"
	case 1:
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", n)
}

func argsErr(name, shape, en, zh string) error {
	return Invalid(
		fmt.Sprintf("%s takes %s: %s", name, shape, en),
		fmt.Sprintf("%s 的参数应为 %s：%s", name, shape, zh))
}

// decodeOne decodes one array element into dst, a pointer; it returns
// what is wrong ("" when nothing is).
func decodeOne(e json.RawMessage, dst any) (en, zh string) {
	if string(e) == "null" {
		return "is null", "为 null"
	}
	rv := reflect.ValueOf(dst).Elem()
	if rv.Kind() == reflect.Struct {
		if en, zh := checkFields(e, rv.Type()); en != "" {
			return en, zh
		}
	}
	// checkFields has checked a struct's keys; every other type decodes
	// exactly or not at all.
	if json.Unmarshal(e, dst) != nil {
		en, zh := typeName(rv.Type())
		return "is not " + en, "不是" + zh
	}
	return checkStrings(rv)
}

// checkFields checks that e is an object whose keys are exactly t's JSON
// field names, each once, none null.
func checkFields(e json.RawMessage, t reflect.Type) (en, zh string) {
	want := map[string]bool{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if tag == "" {
			tag = f.Name
		}
		want[tag] = false
	}
	dec := json.NewDecoder(bytes.NewReader(e))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "is not an object", "不是对象"
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "is not a well-formed object", "不是合法的对象"
		}
		key, _ := tok.(string)
		seen, known := want[key]
		switch {
		case !known:
			return fmt.Sprintf("has an unknown field %s", quoteShort(key)), fmt.Sprintf("含未知字段 %s", quoteShort(key))
		case seen:
			return fmt.Sprintf("repeats the field %q", key), fmt.Sprintf("重复了字段 %q", key)
		}
		want[key] = true
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return "is not a well-formed object", "不是合法的对象"
		}
		if string(v) == "null" {
			return fmt.Sprintf("has a null %q", key), fmt.Sprintf("的字段 %q 为 null", key)
		}
	}
	for key, seen := range want {
		if !seen {
			return fmt.Sprintf("lacks the field %q", key), fmt.Sprintf("缺少字段 %q", key)
		}
	}
	return "", ""
}

// quoteShort quotes s, cut to a few characters: it was sent by a client.
func quoteShort(s string) string {
	const max = 20
	if utf8.RuneCountInString(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q…", string([]rune(s)[:max]))
}

// typeName says what JSON a value of type t is, in both languages.
func typeName(t reflect.Type) (en, zh string) {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number", "整数"
	case reflect.Bool:
		return "true or false", "true 或 false"
	case reflect.String:
		return "a string", "字符串"
	case reflect.Slice, reflect.Array:
		en, zh := typeName(t.Elem())
		return "a list of " + strings.TrimPrefix(strings.TrimPrefix(en, "a "), "an ") + "s", zh + "列表"
	case reflect.Struct:
		return "an object of the right fields", "字段正确的对象"
	}
	return "a value of the right type", "类型正确的值"
}

// checkStrings checks every string inside v.
func checkStrings(v reflect.Value) (en, zh string) {
	switch v.Kind() {
	case reflect.String:
		return checkString(v.String())
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if en, zh := checkStrings(v.Index(i)); en != "" {
				return en, zh
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				if en, zh := checkStrings(v.Field(i)); en != "" {
					return en, zh
				}
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			return checkStrings(v.Elem())
		}
	}
	return "", ""
}

// checkString refuses the empty string, one over MaxArgString bytes and
// one holding a space, a control or an invisible formatting character.
func checkString(s string) (en, zh string) {
	switch {
	case s == "":
		return "holds an empty string", "含空字符串"
	case len(s) > MaxArgString:
		return fmt.Sprintf("holds a string of %d bytes, more than %d", len(s), MaxArgString),
			fmt.Sprintf("含长 %d 字节的字符串，超过上限 %d", len(s), MaxArgString)
	}
	for _, r := range s {
		if unicode.IsSpace(r) || unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == utf8.RuneError {
			return fmt.Sprintf("holds %q, with a space or an invisible character", s),
				fmt.Sprintf("含 %q，其中有空白或不可见字符", s)
		}
	}
	return "", ""
}

// CanonicalJSON writes canonical args: the compact JSON array of vals
// (json.Marshal's bytes, as Args writes them). An unmarshalable value is
// a programming error, returned as an error rather than a panic.
func CanonicalJSON(vals ...any) (json.RawMessage, error) {
	if vals == nil {
		vals = []any{}
	}
	b, err := json.Marshal(vals)
	if err != nil {
		return nil, fmt.Errorf("games: canonical args: %w", err)
	}
	return b, nil
}
