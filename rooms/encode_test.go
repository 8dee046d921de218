package rooms

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// randomString returns strings a game might name phases and stages with,
// and some that need escaping, including invalid UTF-8.
func randomString(rng *rand.Rand) string {
	if rng.IntN(3) == 0 {
		return []string{"", "play", "main", "discard", "pass-3", "选择", "<b>", "a&b", "q\"q",
			"back\\slash", "tab\t", "\x00", "\x7f", "\xff", "a\u2028b", "\u2029", "é", "\xe2\x80"}[rng.IntN(18)]
	}
	b := make([]byte, rng.IntN(12))
	for i := range b {
		if rng.IntN(8) == 0 {
			b[i] = byte(rng.IntN(256))
		} else {
			b[i] = byte(0x20 + rng.IntN(0x60))
		}
	}
	return string(b)
}

func TestAppendString(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		s := randomString(rng)
		want, _ := json.Marshal(s)
		if got := appendString([]byte("x"), s); !bytes.Equal(got, append([]byte("x"), want...)) {
			t.Fatalf("appendString(%q) = %s, want x%s", s, got, want)
		}
	}
}

// TestWireCtxMatchesJSON compares appendWireCtx with json.Marshal of
// wireCtx over random records and statuses: any number of seats, taken or
// not, no current player, nil, empty and crowded activePlayers (seat 10
// sorts before seat 2), names needing escapes, gameover unset or set, in
// canonical form or not.
func TestWireCtxMatchesJSON(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	gameovers := []json.RawMessage{nil, json.RawMessage(`{"winner":"0","reason":"five"}`),
		json.RawMessage(`{"draw":true}`), json.RawMessage("{ \"winner\" : \"<1>\",\n \"detail\": [1, 2] }"),
		json.RawMessage(`null`)}
	for range 20000 {
		rec := &Record{NumPlayers: rng.IntN(13), Gameover: gameovers[rng.IntN(len(gameovers))]}
		for range rec.NumPlayers {
			var s Seat
			switch rng.IntN(3) {
			case 0:
				s.CredHash = "h"
			case 1:
				s.Bot = "easy"
			}
			rec.Seats = append(rec.Seats, s)
		}
		st := games.Status{Phase: randomString(rng), Turn: rng.IntN(200) - 5, Current: rng.IntN(rec.NumPlayers+2) - 1}
		switch rng.IntN(3) {
		case 0: // nil: only Current moves
		case 1:
			st.Active = map[int]string{}
		case 2:
			st.Active = map[int]string{}
			for range rng.IntN(14) {
				st.Active[rng.IntN(14)-1] = randomString(rng)
			}
		}
		want, err := json.Marshal(rec.wireCtx(st))
		if err != nil {
			t.Fatal(err)
		}
		if got := rec.appendWireCtx(nil, st); !bytes.Equal(got, want) {
			t.Fatalf("status %+v, %d seats:\n got %s\nwant %s", st, rec.NumPlayers, got, want)
		}
	}
}

// randomRecord returns a record with every field a store keeps set at
// random, and every json.RawMessage in the form json.Marshal writes
// (compact, HTML-escaped), so that it equals its own JSON round trip.
func randomRecord(rng *rand.Rand) *Record {
	// JSON would replace invalid UTF-8: a record must not hold any.
	randomString := func(rng *rand.Rand) string { return strings.ToValidUTF8(randomString(rng), "?") }
	rec := &Record{
		ID: randomString(rng), Game: randomString(rng), NumPlayers: rng.IntN(6),
		Unlisted: rng.IntN(2) == 0, CreatedAt: rng.Int64N(1 << 42), UpdatedAt: rng.Int64N(1 << 42),
		Version: rng.Int64N(1000) + 1, StateID: rng.Int64N(1000) + 1,
		Options: Options{GraceMs: rng.Int64N(100_000), BotDelayMs: rng.Int64N(1000), Seed: rng.Uint64()},
	}
	if rng.IntN(2) == 0 {
		rec.SetupData = json.RawMessage(`{"size":15,"rule":"\u003crenju\u003e"}`)
	}
	if rng.IntN(3) == 0 {
		rec.Gameover = json.RawMessage(`{"winner":"1","detail":{"line":[[1,2],[2,3]]}}`)
	}
	if rng.IntN(2) == 0 {
		rec.NextMatchID = randomString(rng)
	}
	for range rec.NumPlayers {
		s := Seat{Name: randomString(rng), Processes: rng.IntN(3), AwaySince: rng.Int64N(3) * 1_764_000_000_000,
			Left: rng.IntN(4) == 0, Autoplay: rng.IntN(4) == 0}
		switch rng.IntN(3) {
		case 0:
			s.CredHash = strings.Repeat("0f", 32)
		case 1:
			s.Bot = "hard"
		}
		if rng.IntN(3) == 0 {
			s.Data = json.RawMessage(`{"team":2,"color":"#\u003cred\u003e"}`)
		}
		rec.Seats = append(rec.Seats, s)
	}
	rec.State = mustMarshal(map[string]any{"board": randomString(rng), "n": rng.IntN(100), "x": []string{randomString(rng)}})
	for range rng.IntN(maxLog + 1) {
		e := randomEntry(rng)
		e.Move, e.Text = strings.ToValidUTF8(e.Move, "?"), strings.ToValidUTF8(e.Text, "?")
		if len(e.Args) > 0 {
			e.Args = mustMarshal(e.Args)
		} else {
			e.Args = nil
		}
		rec.appendLog(e)
	}
	if rng.IntN(8) == 0 {
		rec.Log = []protocol.LogEntry{} // as omitted as nil
	}
	rec.Moves = randomMoves(rng, nil)
	// Some moves sealed in chunks (from what is random already: the
	// stream of rng stays as the tests' seeds expect it).
	rec.SealedChunks = int(rec.Version % 3)
	if rec.Version%2 == 0 { // a record from before Record.MovesChunk, or a new one
		rec.MovesChunk = MovesPerChunk
	}
	rec.SealedMoves = int64(rec.SealedChunks) * int64(rec.movesPerChunk())
	return rec
}

// randomMoves returns up to 40 random moves after prefix (a new array).
func randomMoves(rng *rand.Rand, prefix []MoveRecord) []MoveRecord {
	moves := append([]MoveRecord(nil), prefix...)
	for range rng.IntN(41) {
		mv := MoveRecord{Seat: rng.IntN(8), Move: strings.ToValidUTF8(randomString(rng), "?")}
		switch rng.IntN(3) {
		case 0:
			mv.Args = mustMarshal([]any{rng.IntN(19), strings.ToValidUTF8(randomString(rng), "?")})
		case 1:
			mv.Args = json.RawMessage(`[{"x":-1,"y":2,"rotation":90}]`)
		}
		switch rng.IntN(6) {
		case 0: // a bot's move with its reason
			mv.Reason = strings.ToValidUTF8(randomString(rng), "?")
		case 1: // a fallback's
			mv.Fallback = &protocol.LogFallback{Level: "normal", Reason: "timeout"}
		case 2:
			mv.Timeout = true
		}
		moves = append(moves, mv)
	}
	return moves
}

// TestMovesCache: the cached encoding of a move list is json.Marshal's
// whether the list grows, stays, shrinks or is another list altogether.
func TestMovesCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var c movesCache
	var moves []MoveRecord
	for i := range 2000 {
		switch rng.IntN(6) {
		case 0, 1, 2: // a move or a few
			old := len(moves)
			moves = randomMoves(rng, moves)
			for j := old; j < len(moves); j++ {
				if mv := &moves[j]; mv.Seat == 1 && len(mv.Args) > 0 {
					// Not in json.Marshal's form: spaces, a '<'.
					mv.Args = json.RawMessage(`[ {"x": -1}, "<b>" ]`)
				}
			}
		case 3: // another list
			moves = randomMoves(rng, nil)
		case 4: // an older, shorter list (a reload)
			moves = moves[:rng.IntN(len(moves)+1)]
		case 5: // the same move with another reason or fallback (a
			// successor whose write failed, then the bot's next answer)
			if len(moves) > 0 {
				moves = slices.Clone(moves)
				last := &moves[len(moves)-1]
				if rng.IntN(2) == 0 {
					last.Reason += "!"
				} else if last.Fallback == nil {
					last.Fallback = &protocol.LogFallback{Level: "normal", Reason: "error"}
				} else {
					last.Fallback = &protocol.LogFallback{Level: last.Fallback.Level, Reason: last.Fallback.Reason + "!"}
				}
			}
		}
		if len(moves) == 0 {
			continue
		}
		want := mustMarshal(moves)
		if got := c.encode(0, moves); !bytes.Equal(got, want) {
			t.Fatalf("step %d (%d moves):\n got %s\nwant %s", i, len(moves), got, want)
		}
	}
}

// decodeRecord decodes b as a store's Get does.
func decodeRecord(t *testing.T, b []byte) *Record {
	t.Helper()
	var rec Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return &rec
}

// sameRecord compares records as the store suite does, ignoring what
// JSON cannot tell apart (an empty log and none).
func sameRecord(t *testing.T, what string, got, want *Record) {
	t.Helper()
	w := *want
	if len(w.Log) == 0 {
		w.Log = nil
	}
	if !reflect.DeepEqual(got, &w) {
		t.Fatalf("%s: records differ\n got %+v\nwant %+v", what, got, &w)
	}
}

// TestEncodeRecord: encodeRecord gives exactly json.Marshal's bytes for
// records whose state is in json.Marshal's form, with or without the
// room's pieces, and with pieces that belong to another log or state (a
// copy of a record whose Log or State was replaced).
func TestEncodeRecord(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var c wireCache
	for i := range 3000 {
		rec := randomRecord(rng)
		want, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		var p *recordPieces
		switch i % 3 {
		case 1: // the room's pieces, as write makes them
			p = &recordPieces{log: c.log(rec), logOf: rec.Log, state: rec.State, moves: c.movesJSON(rec), movesOf: rec.Moves}
		case 2: // stale pieces: another record's
			other := randomRecord(rng)
			p = &recordPieces{log: c.log(other), logOf: other.Log, state: other.State, moves: c.movesJSON(other), movesOf: other.Moves}
		}
		got, err := encodeRecord(rec, p)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("record %d:\n got %s\nwant %s", i, got, want)
		}
		sameRecord(t, "decoded", decodeRecord(t, got), rec)
	}
}

// TestEncodeRecordState: with the room's pieces, a state that is valid
// JSON in another form than json.Marshal's is kept as it is, so the record
// decodes to one equal to rec, state bytes and all. Without them, a state
// that is not JSON is refused, and no state is null, as json.Marshal has
// it.
func TestEncodeRecordState(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var c wireCache
	for _, state := range []string{"{ \"board\" : [1, 2],\n\t\"note\": \"<b>&\" }", `7`, `"\u00e9"`, `[ ]`, `null`} {
		rec := randomRecord(rng)
		rec.State = json.RawMessage(state)
		got, err := encodeRecord(rec, &recordPieces{log: c.log(rec), logOf: rec.Log, state: rec.State, moves: c.movesJSON(rec), movesOf: rec.Moves})
		if err != nil {
			t.Fatalf("state %q: %v", state, err)
		}
		sameRecord(t, "state "+state, decodeRecord(t, got), rec)
	}
	for _, state := range []string{"", "{", `{"a":}`, "nul", "[1,]", "\xff", `{"a":1} x`} {
		rec := randomRecord(rng)
		rec.State = json.RawMessage(state)
		if got, err := EncodeRecord(rec); err == nil {
			t.Fatalf("state %q accepted: %s", state, got)
		}
	}
	rec := randomRecord(rng)
	rec.State = nil
	want, _ := json.Marshal(rec)
	if got, err := encodeRecord(rec, &recordPieces{log: c.log(rec), logOf: rec.Log, moves: c.movesJSON(rec), movesOf: rec.Moves}); err != nil || !bytes.Equal(got, want) {
		t.Fatalf("no state: %s, %v; want %s", got, err, want)
	}
}

// TestRecordMirrors: recordHead, State, Log, Moves and recordTail are Record's
// fields in order, with the same types and tags, and no other.
func TestRecordMirrors(t *testing.T) {
	type field struct {
		name string
		typ  reflect.Type
		tag  reflect.StructTag
	}
	fields := func(v any) []field {
		var out []field
		for f := range reflect.TypeOf(v).Fields() {
			out = append(out, field{f.Name, f.Type, f.Tag})
		}
		return out
	}
	rec := fields(Record{})
	var mirror []field
	mirror = append(mirror, fields(recordHead{})...)
	for _, name := range []string{"State", "Log", "Moves"} {
		f, _ := reflect.TypeFor[Record]().FieldByName(name)
		mirror = append(mirror, field{f.Name, f.Type, f.Tag})
	}
	mirror = append(mirror, fields(recordTail{})...)
	if !reflect.DeepEqual(rec, mirror) {
		t.Fatalf("Record's fields\n%v\nare not recordHead, State, Log, Moves, recordTail:\n%v", rec, mirror)
	}
}

// TestMovesCacheBase: a list of the same length with the same last move
// but another base (the match's moves after a chunk was sealed, whose
// window ends on the same move by chance) is encoded anew, not taken for
// the cached one.
func TestMovesCacheBase(t *testing.T) {
	last := MoveRecord{Seat: 1, Move: "play", Args: json.RawMessage(`["QS"]`)}
	a := []MoveRecord{{Seat: 0, Move: "play", Args: json.RawMessage(`["2H"]`)}, last}
	b := []MoveRecord{{Seat: 3, Move: "play", Args: json.RawMessage(`["AH"]`)}, last}
	var c movesCache
	c.encode(0, a)
	if got, want := c.encode(MovesPerChunk, b), mustMarshal(b); !bytes.Equal(got, want) {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// TestAppendMoveInPlace: a move's record appends its entry to the moves'
// array where it has room, without copying it, and the record it
// follows still sees exactly its own moves, however many successors of
// it are built (a dropped write, then another).
func TestAppendMoveInPlace(t *testing.T) {
	moves := make([]MoveRecord, 3, 8)
	for i := range moves {
		moves[i] = MoveRecord{Seat: i % 2, Move: "place", Args: json.RawMessage(fmt.Sprintf("[%d,0]", i))}
	}
	rec := &Record{StateID: 4, Moves: moves}
	before := slices.Clone(rec.Moves)
	a := appendMove(rec, MoveRecord{Seat: 1, Move: "place", Args: json.RawMessage(`[7,7]`)})
	b := appendMove(rec, MoveRecord{Seat: 1, Move: "place", Args: json.RawMessage(`[8,8]`), Reason: "the centre"})
	if !reflect.DeepEqual(rec.Moves, before) {
		t.Fatalf("the record's moves changed: %+v, were %+v", rec.Moves, before)
	}
	if &a[0] != &rec.Moves[0] || &b[0] != &rec.Moves[0] {
		t.Fatal("the successors' moves were copied, not appended in place")
	}
	want := append(slices.Clone(before), MoveRecord{Seat: 1, Move: "place", Args: json.RawMessage(`[8,8]`), Reason: "the centre"})
	if !reflect.DeepEqual(b, want) {
		t.Fatalf("the last successor's moves are %+v, want %+v", b, want)
	}
	// A full array is copied, as append does; incomplete moves are dropped.
	full := &Record{StateID: 4, Moves: slices.Clip(before)}
	if c := appendMove(full, MoveRecord{Move: "x"}); len(c) != 4 || &c[0] == &full.Moves[0] {
		t.Fatalf("appending to a full array gave %d moves, shared %v", len(c), &c[0] == &full.Moves[0])
	}
	if c := appendMove(&Record{StateID: 9, Moves: before}, MoveRecord{Move: "x"}); c != nil {
		t.Fatalf("a record missing moves got %d of them", len(c))
	}
}

// TestRecordCacheEveryField: after a write primes the room's record
// cache, a change to any one field of the record's head or tail (a seat's
// field, an option, a clock), made in place in the very record written,
// shows in the next write's bytes, which stay json.Marshal's. A field the
// cache's comparison leaves out fails here.
func TestRecordCacheEveryField(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	base := randomRecord(rng)
	base.NumPlayers = 2
	base.Seats = []Seat{{Name: "Ann", CredHash: "h", Data: json.RawMessage(`{"a":1}`), Processes: 1, Holders: []string{"p1"}},
		{Bot: "easy"}}
	base.SetupData = json.RawMessage(`{"size":15}`)
	base.Gameover = json.RawMessage(`{"winner":"0"}`)
	base.Clocks = &Clocks{Left: []int64{1000, 2000}, Since: 5, Timeouts: []int{0, 1}}
	base.Options.Clock = &ClockOptions{PerMoveMs: 1000, BankMs: 60000}
	baseJS := mustMarshal(base)

	var paths [][]int
	var leaves func(t reflect.Type, prefix []int)
	leaves = func(typ reflect.Type, prefix []int) {
		for i := range typ.NumField() {
			f := typ.Field(i)
			if len(prefix) == 0 && (f.Name == "State" || f.Name == "Log" || f.Name == "Moves") {
				continue // the room's pieces, not the cache's
			}
			p := append(slices.Clone(prefix), i)
			ft := f.Type
			switch {
			case ft.Kind() == reflect.Struct:
				leaves(ft, p)
			case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
				leaves(ft.Elem(), p)
			case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
				leaves(ft.Elem(), p) // the first element's fields
			default:
				paths = append(paths, p)
			}
		}
	}
	leaves(reflect.TypeFor[Record](), nil)
	if len(paths) < 30 {
		t.Fatalf("only %d fields found", len(paths))
	}
	for _, p := range paths {
		var rec Record
		if err := json.Unmarshal(baseJS, &rec); err != nil {
			t.Fatal(err)
		}
		var c wireCache
		pieces := func() *recordPieces {
			return &recordPieces{log: c.log(&rec), logOf: rec.Log, state: rec.State, moves: c.movesJSON(&rec), movesOf: rec.Moves, cache: &c.rec}
		}
		if _, err := encodeRecord(&rec, pieces()); err != nil {
			t.Fatal(err)
		}
		v := reflect.ValueOf(&rec).Elem()
		name := ""
		for _, i := range p {
			switch v.Kind() {
			case reflect.Pointer:
				v = v.Elem()
			case reflect.Slice:
				v = v.Index(0)
			}
			name += "." + v.Type().Field(i).Name
			v = v.Field(i)
		}
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Int, reflect.Int64:
			v.SetInt(v.Int() + 7)
		case reflect.Uint64:
			v.SetUint(v.Uint() + 7)
		case reflect.Slice:
			switch {
			case v.Type() == reflect.TypeFor[json.RawMessage]():
				v.SetBytes([]byte(`{"changed":true}`))
			case v.Len() > 0: // in place, in the array the last write saw
				e := v.Index(0)
				switch e.Kind() {
				case reflect.String:
					e.SetString(e.String() + "x")
				case reflect.Int, reflect.Int64:
					e.SetInt(e.Int() + 7)
				default:
					t.Fatalf("%s: element kind %s not handled by this test", name, e.Kind())
				}
			default:
				v.Set(reflect.Append(v, reflect.New(v.Type().Elem()).Elem()))
			}
		default:
			t.Fatalf("%s: kind %s not handled by this test", name, v.Kind())
		}
		got, err := encodeRecord(&rec, pieces())
		if err != nil {
			t.Fatal(err)
		}
		if want := mustMarshal(&rec); !bytes.Equal(got, want) {
			t.Errorf("record%s changed: the cached encoding kept the old value:\n got %s\nwant %s", name, got, want)
		}
		if bytes.Equal(got, baseJS) {
			t.Errorf("record%s changed but encodes as before", name)
		}
	}
}

// TestRecordCacheSequence: a match's writes one after another (the stamps
// of every move, now and then a seat, a clock or the end changed) through
// one record cache encode as json.Marshal does.
func TestRecordCacheSequence(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	rec := randomRecord(rng)
	var c wireCache
	for i := range 2000 {
		rec.UpdatedAt += rng.Int64N(1000)
		rec.Version++
		rec.StateID++
		switch rng.IntN(12) {
		case 0:
			if len(rec.Seats) > 0 {
				s := &rec.Seats[rng.IntN(len(rec.Seats))]
				s.Processes = rng.IntN(3)
				s.Holders = append(s.Holders[:0], []string{"a", "b", "c"}[:s.Processes]...)
			}
		case 1:
			if rec.Clocks == nil {
				rec.Clocks = &Clocks{Left: make([]int64, rec.NumPlayers)}
			}
			rec.Clocks.Since = rec.UpdatedAt
			if len(rec.Clocks.Left) > 0 {
				rec.Clocks.Left[0] -= 10
			}
		case 2:
			rec.Clocks = nil
		case 3:
			rec.Gameover = mustMarshal(map[string]any{"winner": fmt.Sprint(rng.IntN(4))})
		case 4:
			rec.NextMatchID = randomString(rng)
		case 5:
			rec.SealedChunks++
			rec.SealedMoves += int64(rec.movesPerChunk())
		case 6:
			rec.Seats = slices.Clone(rec.Seats)
		}
		got, err := encodeRecord(rec, &recordPieces{log: c.log(rec), logOf: rec.Log, state: rec.State,
			moves: c.movesJSON(rec), movesOf: rec.Moves, cache: &c.rec})
		if err != nil {
			t.Fatal(err)
		}
		if want := mustMarshal(rec); !bytes.Equal(got, want) {
			t.Fatalf("write %d:\n got %s\nwant %s", i, got, want)
		}
	}
}
