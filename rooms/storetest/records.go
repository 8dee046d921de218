// Package storetest is the one test suite every rooms.Store runs: memstore
// and redisstore call Run (and RunShared, RunExpiry where they apply) from
// their own tests. It also holds the helpers those tests share: sample
// records, a fake clock and the Update benchmark.
package storetest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// NewRecord returns a plausible record of a started 4-seat match whose JSON
// is about size bytes (at least ~1 KB), with Version 1. Every field that a
// store must keep is set, and every json.RawMessage is compact, so the
// record equals its own JSON round trip.
func NewRecord(id, game string, size int) *rooms.Record {
	rec := &rooms.Record{
		ID:         id,
		Game:       game,
		NumPlayers: 4,
		SetupData:  json.RawMessage(`{"size":19,"komi":7.5}`),
		Unlisted:   true,
		CreatedAt:  1_700_000_000_000,
		UpdatedAt:  1_700_000_000_000,
		Version:    1,
		Seats: []rooms.Seat{
			{Name: "张三", CredHash: strings.Repeat("ab", 32), Processes: 1},
			{Name: "Li Si", CredHash: strings.Repeat("cd", 32), AwaySince: 1_700_000_000_500},
			{Bot: "normal", Data: json.RawMessage(`{"team":1}`)},
			{Name: "Wang", CredHash: strings.Repeat("ef", 32), Left: true, Autoplay: true},
		},
		Log: []protocol.LogEntry{
			{Turn: 1, PlayerID: "0", Move: "play", Args: json.RawMessage(`[3,4]`)},
			{Turn: 1, PlayerID: "1", Move: "pass", Text: "过"},
		},
		Gameover:    json.RawMessage(`{"winner":"0"}`),
		NextMatchID: "next-" + id,
		Options:     rooms.Options{GraceMs: 60000, BotDelayMs: 300, Seed: 1<<63 + 12345},
	}
	rec.State = json.RawMessage(`{"board":""}`)
	if base, err := json.Marshal(rec); err == nil && len(base) < size {
		rec.State = json.RawMessage(`{"board":"` + strings.Repeat("x.o", (size-len(base))/3+1) + `"}`)
	}
	return rec
}

// maxLog caps the log of the records Next makes.
const maxLog = 50

// Next returns a copy of rec (sharing no slice it may change) as the room would write it after one more
// change: Version and UpdatedAt bumped, the state and log changed.
func Next(rec *rooms.Record) *rooms.Record {
	cp := *rec
	cp.Seats = slices.Clone(rec.Seats)
	cp.Version++
	cp.UpdatedAt++
	cp.State = json.RawMessage(fmt.Sprintf(`{"board":"","move":%d}`, cp.Version))
	log := append(append([]protocol.LogEntry(nil), rec.Log...),
		protocol.LogEntry{Turn: int(cp.Version), PlayerID: "0", Move: "play", Args: json.RawMessage(fmt.Sprintf("[%d]", cp.Version))})
	cp.Log = log[max(0, len(log)-maxLog):] // capped, as rooms caps it
	return &cp
}

// sameRecord fails t unless got deep-equals want, showing both as JSON.
func sameRecord(t testing.TB, what string, got, want *rooms.Record) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		t.Fatalf("%s: records differ\n got: %.600s\nwant: %.600s", what, g, w)
	}
}

// Clock is a fake clock for stores that take a Now function. It starts at a
// fixed instant and moves only through Advance. Safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock at 2026-01-01T00:00:00Z.
func NewClock() *Clock {
	return &Clock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}
