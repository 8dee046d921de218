package memstore

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// fill sets every field reachable from v to a non-zero value, with two
// elements in every slice and one entry in every map.
func fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(7)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(7)
	case reflect.Float32, reflect.Float64:
		v.SetFloat(7)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), depth+1)
			}
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), depth+1)
		}
	case reflect.Map:
		m := reflect.MakeMap(v.Type())
		k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
		fill(k, depth+1)
		fill(e, depth+1)
		m.SetMapIndex(k, e)
		v.Set(m)
	case reflect.Pointer:
		if depth < 8 {
			v.Set(reflect.New(v.Type().Elem()))
			fill(v.Elem(), depth+1)
		}
	}
}

// shared reports the path of the first memory a and b share.
func shared(a, b reflect.Value, path string) string {
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if p := shared(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name); p != "" {
				return p
			}
		}
	case reflect.Slice:
		if a.Len() > 0 && a.Pointer() == b.Pointer() {
			return path
		}
		for i := range a.Len() {
			if p := shared(a.Index(i), b.Index(i), path+"[i]"); p != "" {
				return p
			}
		}
	case reflect.Map, reflect.Pointer:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			return path
		}
		if a.Kind() == reflect.Pointer && !a.IsNil() {
			return shared(a.Elem(), b.Elem(), path+"*")
		}
	}
	return ""
}

func TestCloneSharesNothing(t *testing.T) {
	var full rooms.Record
	fill(reflect.ValueOf(&full).Elem(), 0)
	for _, tc := range []struct {
		name string
		rec  *rooms.Record
	}{
		{"EveryFieldSet", &full},
		{"Sample", storetest.NewRecord("m1", "gomoku", 500)},
		{"Empty", &rooms.Record{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cloneRecord(tc.rec)
			if !reflect.DeepEqual(c, tc.rec) {
				a, _ := json.Marshal(c)
				b, _ := json.Marshal(tc.rec)
				t.Fatalf("clone differs:\n%s\n%s", a, b)
			}
			if p := shared(reflect.ValueOf(c).Elem(), reflect.ValueOf(tc.rec).Elem(), "Record"); p != "" {
				t.Fatalf("clone shares %s with the original: cloneRecord must copy it", p)
			}
		})
	}
}
