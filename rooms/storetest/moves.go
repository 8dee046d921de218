package storetest

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/rooms"
)

// chunks returns s as a rooms.MoveChunks, failing t when it is not one:
// both stores keep moves in chunks.
func chunks(t *testing.T, s rooms.Store) rooms.MoveChunks {
	t.Helper()
	mc, ok := s.(rooms.MoveChunks)
	if !ok {
		t.Fatalf("%T does not implement rooms.MoveChunks", s)
	}
	return mc
}

// chunkData is a plausible chunk: the JSON array of n moves, distinct per
// chunk k.
func chunkData(k, n int) []byte {
	var b bytes.Buffer
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"s":%d,"m":"play","a":[%d,%d]}`, i%4, k, i)
	}
	b.WriteByte(']')
	return b.Bytes()
}

// wantChunks fails t unless GetMoves(from, to) gives want (nil for a
// missing chunk).
func wantChunks(t *testing.T, mc rooms.MoveChunks, id string, from, to int, want ...[]byte) {
	t.Helper()
	got, err := mc.GetMoves(context.Background(), id, from, to)
	if err != nil {
		t.Fatalf("GetMoves(%s, %d, %d): %v", id, from, to, err)
	}
	if len(got) != len(want) {
		t.Fatalf("GetMoves(%s, %d, %d): %d chunks, want %d", id, from, to, len(got), len(want))
	}
	for i := range want {
		if (got[i] == nil) != (want[i] == nil) || !bytes.Equal(got[i], want[i]) {
			t.Fatalf("GetMoves(%s, %d, %d): chunk %d is %.80q, want %.80q", id, from, to, from+i, got[i], want[i])
		}
	}
}

// testMoveChunks: chunks are stored apart from the record (Get and List
// do not carry them, Update keeps them), read back in ranges, missing
// ones are nil, writing one again with the same bytes changes nothing,
// a match that does not exist takes none, and bad ranges are refused.
func testMoveChunks(t *testing.T, s rooms.Store) {
	ctx := context.Background()
	mc := chunks(t, s)
	rec := create(t, s, "m1")
	c0, c1, c2 := chunkData(0, 1024), chunkData(1, 1024), chunkData(2, 3)
	for k, data := range [][]byte{c0, c1, c2} {
		if err := mc.PutMoves(ctx, "m1", k, data); err != nil {
			t.Fatalf("PutMoves(m1, %d): %v", k, err)
		}
	}
	wantChunks(t, mc, "m1", 0, 3, c0, c1, c2)
	wantChunks(t, mc, "m1", 1, 2, c1)
	wantChunks(t, mc, "m1", 2, 5, c2, nil, nil)
	wantChunks(t, mc, "m1", 3, 3)
	// The same chunk again (a retried seal) changes nothing.
	if err := mc.PutMoves(ctx, "m1", 1, c1); err != nil {
		t.Fatalf("PutMoves(m1, 1) again: %v", err)
	}
	wantChunks(t, mc, "m1", 0, 3, c0, c1, c2)
	// The record is untouched, and an Update keeps the chunks.
	mustGet(t, s, rec)
	next := update(t, s, rec)
	mustGet(t, s, next)
	wantChunks(t, mc, "m1", 0, 3, c0, c1, c2)
	recs, err := s.List(ctx, "gomoku")
	if err != nil || len(recs) != 1 {
		t.Fatalf("List: %d records, %v", len(recs), err)
	}
	sameRecord(t, "List", recs[0], next)
	// Chunks are the match's own.
	create(t, s, "m2")
	wantChunks(t, mc, "m2", 0, 2, nil, nil)
	wantChunks(t, mc, "missing", 0, 2, nil, nil)
	wantErr(t, "PutMoves on a missing match", mc.PutMoves(ctx, "missing", 0, c0), rooms.ErrNotFound)
	wantChunks(t, mc, "missing", 0, 1, nil)
	// Bad input is refused and changes nothing.
	if err := mc.PutMoves(ctx, "m1", -1, c0); err == nil {
		t.Error("PutMoves of chunk -1 succeeded")
	}
	for _, r := range [][2]int{{-1, 2}, {2, 1}, {0, rooms.MaxGetMoves + 1}} {
		if _, err := mc.GetMoves(ctx, "m1", r[0], r[1]); err == nil {
			t.Errorf("GetMoves(m1, %d, %d) succeeded", r[0], r[1])
		}
	}
	wantChunks(t, mc, "m1", 0, 3, c0, c1, c2)
}

// movesExpire checks, with RunExpiry's store, that a match's chunks go
// with its record and that the ID created again has none.
func movesExpire(t *testing.T, e Expiring) {
	ctx := context.Background()
	mc := chunks(t, e.Store)
	rec := create(t, e.Store, "m1")
	c0 := chunkData(0, 100)
	if err := mc.PutMoves(ctx, "m1", 0, c0); err != nil {
		t.Fatal(err)
	}
	if e.Exact {
		// An Update renews the chunks' TTL with the record's.
		e.Advance(e.TTL * 2 / 3)
		rec = update(t, e.Store, rec)
		e.Advance(e.TTL * 2 / 3)
		wantChunks(t, mc, "m1", 0, 1, c0)
	}
	e.Advance(e.TTL + e.TTL/2)
	gone(t, e.Store, rec)
	wantChunks(t, mc, "m1", 0, 1, nil)
}
