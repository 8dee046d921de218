package gametest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"unsafe"

	"github.com/chaguan/chaguan/games"
)

// CheckBotDirect checks that level decides the same for seat from the
// view handed to it directly (State.Bot) as from that view after a JSON
// round trip (games.BotViaJSON), each with an rng of the same seed. Run
// checks it for its playouts' level; a game may check its slower levels
// on a few states of its own.
func CheckBotDirect(st games.State, level string, seat int, seed uint64) error {
	name, args, err := st.Bot(level, seat, rand.New(rand.NewPCG(seed, 11)))
	jname, jargs, jerr := games.BotViaJSON(st, level, seat, rand.New(rand.NewPCG(seed, 11)))
	if (err == nil) != (jerr == nil) || name != jname || !sameJSON(args, jargs) {
		return fmt.Errorf("bot %s for seat %d: from the view %s %s (err %v), from its JSON %s %s (err %v)",
			level, seat, name, args, err, jname, jargs, jerr)
	}
	return nil
}

// sameJSON reports whether a and b are the same JSON up to spacing.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// viewIsolated checks that viewer's view shares no memory with later
// views: it changes every slice element, map entry and pointer target of a
// view, then compares a fresh view's JSON with view, the JSON before. The
// caller compares the state's JSON before and after too.
func viewIsolated(st games.State, viewer int, view []byte) error {
	mutateView(st.View(viewer))
	again, err := json.Marshal(st.View(viewer))
	if err != nil {
		return fmt.Errorf("view %d after changing one: %v", viewer, err)
	}
	if !bytes.Equal(view, again) {
		return fmt.Errorf("changing view %d changed the next view: %s", viewer, firstDiff(view, again))
	}
	return nil
}

// firstDiff shows where JSON a and b first differ, with some context.
func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-80)
	return fmt.Sprintf("at byte %d\nwas ...%s\nnow ...%s", i, a[from:min(len(a), i+40)], b[from:min(len(b), i+40)])
}

// mutateView changes, in place, everything v reaches through slices, maps,
// pointers and interfaces: each number grows by one, each string gets a
// suffix, each bool flips. The top-level value itself is a copy, so its
// own fields stay; what it shares with other values does not.
func mutateView(v any) {
	if v == nil {
		return
	}
	top := reflect.New(reflect.TypeOf(v)).Elem()
	top.Set(reflect.ValueOf(v))
	mutate(top, map[uintptr]bool{})
}

// mutate changes v (addressable) and what it reaches; seen holds the
// pointers already followed, so a cycle ends.
func mutate(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		mutate(v.Elem(), seen)
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			mutate(v.Index(i), seen)
		}
	case reflect.Map:
		mutateMap(v, seen)
	case reflect.Interface:
		if !v.IsNil() {
			e := reflect.New(v.Elem().Type()).Elem()
			e.Set(v.Elem())
			mutate(e, seen)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			mutate(settable(v.Field(i)), seen)
		}
	default:
		mutateLeaf(v)
	}
}

// mutateMap changes every entry of map m in place.
func mutateMap(m reflect.Value, seen map[uintptr]bool) {
	if m.IsNil() {
		return
	}
	for _, k := range m.MapKeys() {
		e := reflect.New(m.Type().Elem()).Elem()
		e.Set(m.MapIndex(k))
		mutate(e, seen)
		m.SetMapIndex(k, e)
	}
}

// settable makes an addressable field settable even when it is
// unexported, so that what it reaches is changed too.
func settable(f reflect.Value) reflect.Value {
	if f.CanSet() || !f.CanAddr() {
		return f
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// mutateLeaf changes a number, string or bool that can be set.
func mutateLeaf(v reflect.Value) {
	if !v.CanSet() {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() + 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(v.Uint() + 1)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(v.Float() + 1)
	case reflect.String:
		v.SetString(v.String() + "~")
	}
}

// checkViewType checks that JSON writes every field of view type t, at any
// depth, so that a bot handed the view directly sees no more than a person
// gets: no unexported field and no field tagged `json:"-"`. A type with
// its own MarshalJSON or MarshalText is taken as it is.
func checkViewType(t reflect.Type) error {
	return checkType(t, map[reflect.Type]bool{})
}

var (
	jsonMarshaler = reflect.TypeFor[json.Marshaler]()
	textMarshaler = reflect.TypeFor[interface{ MarshalText() ([]byte, error) }]()
)

func checkType(t reflect.Type, seen map[reflect.Type]bool) error {
	if seen[t] || t.Implements(jsonMarshaler) || t.Implements(textMarshaler) {
		return nil
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return checkType(t.Elem(), seen)
	case reflect.Map:
		if err := checkType(t.Key(), seen); err != nil {
			return err
		}
		return checkType(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if err := checkField(t, t.Field(i), seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkField checks one field of struct type t.
func checkField(t reflect.Type, f reflect.StructField, seen map[reflect.Type]bool) error {
	switch {
	case !f.IsExported() && !f.Anonymous:
		return fmt.Errorf("view type %s has unexported field %s, which JSON does not write", t, f.Name)
	case f.Tag.Get("json") == "-":
		return fmt.Errorf("view type %s has field %s tagged json:\"-\"", t, f.Name)
	}
	return checkType(f.Type, seen)
}
