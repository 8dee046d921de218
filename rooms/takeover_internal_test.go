package rooms

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

// TestWirePlayersAfterTakeover: the cached players list follows a move that
// hands a seat to the bot. Such a move bumps StateID and Seq alike, as
// every move does, so a cache keyed on their difference kept showing the
// person.
func TestWirePlayersAfterTakeover(t *testing.T) {
	rec := &Record{Version: 9, StateID: 7, Seats: []Seat{{Name: "Ann", CredHash: "h", Processes: 1}, {Name: "Bot (easy)", Bot: "easy"}}}
	var c wireCache
	if got := string(c.players(rec)); got != string(mustMarshal(rec.players())) {
		t.Fatalf("players %s", got)
	}
	nr := *rec
	nr.Version, nr.StateID = 10, 8
	nr.Seats = append([]Seat(nil), rec.Seats...)
	s := &nr.Seats[0]
	s.CredHash, s.Left, s.Bot = "", true, "normal"
	var ps []struct {
		IsBot    bool   `json:"isBot"`
		BotLevel string `json:"botLevel"`
	}
	if err := json.Unmarshal(c.players(&nr), &ps); err != nil {
		t.Fatal(err)
	}
	if !ps[0].IsBot || ps[0].BotLevel != "normal" {
		t.Fatalf("after the takeover seat 0 shows %+v, want the bot", ps[0])
	}
}

// TestSeatShownFields: a change to any field of Seat that changes the
// players list (Record.players) changes the cached one too: seatShown and
// sameShown keep every field players shows. A field added to Seat and to
// players but not to seatShown fails here.
func TestSeatShownFields(t *testing.T) {
	base := Record{Seats: []Seat{{Name: "Ann", CredHash: "h", Data: json.RawMessage(`{"a":1}`), Processes: 1}}}
	typ := reflect.TypeFor[Seat]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		rec := base
		rec.Seats = []Seat{base.Seats[0]}
		v := reflect.ValueOf(&rec.Seats[0]).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int64:
			// Connected shows only as > 0: try going to 0.
			if v.Int() > 0 {
				v.SetInt(0)
			} else {
				v.SetInt(3)
			}
		case reflect.Slice:
			if f.Type == reflect.TypeFor[json.RawMessage]() {
				v.SetBytes([]byte(`{"a":2}`))
			} else {
				v.Set(reflect.Append(v, reflect.New(f.Type.Elem()).Elem()))
			}
		default:
			t.Fatalf("Seat.%s: kind %s not handled by this test", f.Name, v.Kind())
		}
		var c wireCache
		c.players(&base)
		want := mustMarshal(rec.players())
		if got := c.players(&rec); !bytes.Equal(got, want) {
			t.Errorf("Seat.%s changed: cached players %s, want %s", f.Name, got, want)
		}
	}
}

// BenchmarkWirePlayersHit is the players cache's cost on a change that
// leaves the seats as they were (most moves): four seats compared by
// value, nothing encoded or allocated.
func BenchmarkWirePlayersHit(b *testing.B) {
	rec := &Record{Seats: []Seat{
		{Name: "Ann", CredHash: "h", Processes: 1, Data: json.RawMessage(`{"avatar":"cat"}`)},
		{Name: "Bob", CredHash: "k", Processes: 1},
		{Name: "Bot (normal)", Bot: "normal"},
		{Name: "Cy", CredHash: "c", AwaySince: 5},
	}}
	next := *rec
	next.Seats = append([]Seat(nil), rec.Seats...) // as successor copies them
	var c wireCache
	c.players(rec)
	b.ReportAllocs()
	for b.Loop() {
		c.players(&next)
	}
}
