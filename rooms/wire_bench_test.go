package rooms

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
)

// midGame returns a room holding a realistic Gomoku match: two people
// seated and connected, then n moves of the load generator's game (each
// seat plays the first empty point, row by row), each made the way onMove
// makes it, so the log holds the newest min(n, maxLog) entries.
func midGame(tb testing.TB, n int) *room {
	tb.Helper()
	st, err := gomoku.Game.Setup(2, nil, 1)
	if err != nil {
		tb.Fatal(err)
	}
	state, _ := st.MarshalJSON()
	rec := &Record{
		ID: "5f0c7b8e-3d2a-4c1b-9e8f-7a6b5c4d3e2f", Game: "gomoku", NumPlayers: 2,
		CreatedAt: 1_764_450_000_000, UpdatedAt: 1_764_450_000_000, Version: 5, StateID: 1,
		Seats: []Seat{
			{Name: "Player 0", CredHash: strings.Repeat("3f", 32), Processes: 1},
			{Name: "Player 1", CredHash: strings.Repeat("a7", 32), Processes: 1},
		},
		State:   state,
		Options: Options{GraceMs: 60_000, BotDelayMs: 300, Seed: 0x9e3779b97f4a7c15},
	}
	r := &room{id: rec.ID, game: gomoku.Game, rec: rec, st: st}
	for range n {
		if !r.playFirstEmpty() {
			tb.Fatalf("no legal move after %d", r.rec.StateID-1)
		}
	}
	return r
}

// playFirstEmpty makes the next move of midGame's game without a store:
// the successor becomes current at once. It reports false if there is no
// legal move.
func (r *room) playFirstEmpty() bool {
	before := r.st.Status()
	seat := before.Current
	for p := 0; p < 15*15; p++ {
		args := games.Args(p/15, p%15)
		next, err := r.st.Apply(seat, "place", args)
		if err != nil {
			continue
		}
		nr, err := r.successor(seat, "place", args, before, next, false)
		if err != nil {
			panic(err)
		}
		nr.Version++
		nr.UpdatedAt += 700
		r.rec, r.st = nr, next
		return true
	}
	return false
}

// BenchmarkWireLog is the encoded log of one move's state messages, the
// log full: each op is the next of moves 21-60 (and, once in 40, a jump
// back from move 60 to 21).
func BenchmarkWireLog(b *testing.B) {
	r := midGame(b, 20)
	recs := make([]*Record, 40)
	for i := range recs {
		r.playFirstEmpty()
		recs[i] = r.rec
	}
	var c wireCache
	c.log(recs[len(recs)-1])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c.log(recs[i%len(recs)])
	}
}

// BenchmarkWireLogJSON is BenchmarkWireLog's work done as before the cache
// kept entries: json.Marshal of the whole log on every move.
func BenchmarkWireLogJSON(b *testing.B) {
	r := midGame(b, 20)
	recs := make([]*Record, 40)
	for i := range recs {
		r.playFirstEmpty()
		recs[i] = r.rec
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustMarshal(recs[i%len(recs)].Log)
	}
}

// BenchmarkWireCtx is ctx as a state message carries it, mid-game.
func BenchmarkWireCtx(b *testing.B) {
	r := midGame(b, 40)
	b.ReportAllocs()
	b.ResetTimer()
	var buf []byte
	for i := 0; i < b.N; i++ {
		buf = r.rec.appendWireCtx(buf[:0], r.st.Status())
	}
}

// BenchmarkWireCtxJSON is the same with json.Marshal of the Ctx, as frame
// wrote it before appendWireCtx.
func BenchmarkWireCtxJSON(b *testing.B) {
	r := midGame(b, 40)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		mustMarshal(r.rec.wireCtx(r.st.Status()))
	}
}

// BenchmarkEncodeRecord is what the room encodes for the store: a Gomoku record
// after 61 moves (20 log entries, 2 seats), with the pieces the room
// passes (its cached log, its state).
func BenchmarkEncodeRecord(b *testing.B) {
	r := midGame(b, 61)
	var c wireCache
	p := &recordPieces{log: c.log(r.rec), logOf: r.rec.Log, state: r.rec.State}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := encodeRecord(r.rec, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEncodeRecordJSON is json.Marshal of the same record, what the
// stores used before EncodeRecord.
func BenchmarkEncodeRecordJSON(b *testing.B) {
	r := midGame(b, 61)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := json.Marshal(r.rec); err != nil {
			b.Fatal(err)
		}
	}
}
