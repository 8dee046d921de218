package rooms

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/chaguan/chaguan/protocol"
)

// randomEntry is a log entry with fields a game might produce, some of
// them needing escapes or compaction.
func randomEntry(rng *rand.Rand) protocol.LogEntry {
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	e := protocol.LogEntry{
		Turn:     rng.IntN(4) - 1 + rng.IntN(3)*rng.IntN(1000),
		PlayerID: pick("0", "1", "2", "-1", ""),
		Move:     pick("place", "pass", "play", "<b>&\"quoted\"", "出牌", "a\u2028b", "\x01"),
	}
	switch rng.IntN(5) {
	case 0: // no args
	case 1:
		e.Args = json.RawMessage(`[` + strconv.Itoa(rng.IntN(15)) + `,` + strconv.Itoa(rng.IntN(15)) + `]`)
	case 2:
		e.Args = json.RawMessage("[ 1 ,\n\t{\"card\" : \"<Q>\"} ]") // compacted and escaped by json.Marshal
	case 3:
		e.Args = json.RawMessage{} // as omitted as nil
	case 4:
		e.Args = json.RawMessage(`"x"`)
	}
	if rng.IntN(4) == 0 {
		e.Text = pick("过", "a \"b\" <c>", "\\", "ok")
	}
	return e
}

// TestWireLogMatchesJSON drives one cache through many sequences of logs,
// as a room meets them (moves appending and trimming at maxLog, presence
// changes keeping the log, records adopted from elsewhere, logs emptied)
// and checks every result against json.Marshal, and that no result
// changes afterwards.
func TestWireLogMatchesJSON(t *testing.T) {
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 7))
		var c wireCache
		rec := &Record{}
		type result struct{ got, want []byte }
		var results []result
		for step := range 400 {
			op := rng.IntN(20)
			nr := *rec
			switch {
			case op < 10: // a move, as successor makes it
				nr.Log = appendMoveLog(rec.Log, randomEntry(rng))
			case op < 12: // a move whose record was not committed (its
				// write failed), then another from the same record: both
				// logs are the same slice of the same array, and differ in
				// the entry the second wrote over the first's
				dropped := *rec
				dropped.Log = appendMoveLog(rec.Log, randomEntry(rng))
				want, _ := json.Marshal(append([]protocol.LogEntry{}, dropped.Log...))
				if got := c.log(&dropped); !bytes.Equal(got, want) {
					t.Fatalf("seed %d step %d: the record not committed:\n got %s\nwant %s", seed, step, got, want)
				}
				nr.Log = appendMoveLog(rec.Log, randomEntry(rng))
			case op < 14: // a presence change: the same log, maybe a copy
				if rng.IntN(2) == 0 {
					nr.Log = slices.Clone(rec.Log)
				}
			case op < 16: // another process's record: its log decoded anew,
				// several moves ahead or behind
				nr.Log = slices.Clone(rec.Log)
				nr.Log = nr.Log[min(rng.IntN(5), len(nr.Log)):]
				for range rng.IntN(5) {
					nr.appendLog(randomEntry(rng))
				}
				nr.Log = jsonRoundTrip(nr.Log)
			case op < 17: // an unrelated log
				nr.Log = nil
				for range rng.IntN(maxLog + 1) {
					nr.appendLog(randomEntry(rng))
				}
			case op < 18: // the same entry over and over
				e := randomEntry(rng)
				nr.Log = nil
				for range rng.IntN(maxLog + 1) {
					nr.appendLog(e)
				}
			case op < 19: // reset: no log
				nr.Log = nil
			default: // an empty, non-nil log
				nr.Log = []protocol.LogEntry{}
			}
			rec = &nr
			want, err := json.Marshal(append([]protocol.LogEntry{}, rec.Log...))
			if err != nil {
				t.Fatal(err)
			}
			got := c.log(rec)
			if !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d (op %d), %d entries:\n got %s\nwant %s", seed, step, op, len(rec.Log), got, want)
			}
			results = append(results, result{got, want})
		}
		for i, r := range results {
			if !bytes.Equal(r.got, r.want) {
				t.Fatalf("seed %d: result %d changed afterwards:\n got %s\nwant %s", seed, i, r.got, r.want)
			}
		}
	}
}

// jsonRoundTrip returns log through a JSON round trip, as a record read
// from the store carries it: no memory shared with log.
func jsonRoundTrip(log []protocol.LogEntry) []protocol.LogEntry {
	if log == nil {
		return nil
	}
	b, err := json.Marshal(log)
	if err != nil {
		panic(err)
	}
	var out []protocol.LogEntry
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}

// TestSameEntriesFields pins the fields sameEntries compares: a field added
// to protocol.LogEntry must be compared there too, or the cached log would
// keep an entry's old encoding.
func TestSameEntriesFields(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[protocol.LogEntry]().Fields() {
		names = append(names, f.Name)
	}
	if want := []string{"Turn", "PlayerID", "Move", "Args", "Text", "BotReason", "Fallback"}; !slices.Equal(names, want) {
		t.Fatalf("protocol.LogEntry has fields %v; sameEntries compares %v: update it", names, want)
	}
}

// TestAppendLogEntry: a log entry written by hand is json.Marshal's bytes,
// whatever its args (canonical, spaced, escaped), strings, reason and
// fallback.
func TestAppendLogEntry(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for i := range 5000 {
		e := randomEntry(rng)
		switch rng.IntN(6) {
		case 0:
			e.BotReason = []string{"takes the centre", "<b>", "\u2028", "安全"}[rng.IntN(4)]
		case 1:
			e.Fallback = &protocol.LogFallback{Level: "normal", Reason: "timeout"}
		case 2:
			e.Args = json.RawMessage([]string{`["QS"]`, `[7,7]`, `["a\u2028"]`, `["<x>"]`, `[1.5e3,true,null]`, `{"a":[1]}`, "[\"\xff\"]"}[rng.IntN(7)])
		}
		want := mustMarshal(&e)
		if got := appendLogEntry([]byte("x"), &e); !bytes.Equal(got[1:], want) || got[0] != 'x' {
			t.Fatalf("entry %d: wrote\n%s\njson.Marshal gives\n%s", i, got, want)
		}
	}
}
