package storetest

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/chaguan/chaguan/rooms"
)

// BenchRecordSize is the size of the record BenchUpdate writes: about what a
// mid-game match of the bigger games stores.
const BenchRecordSize = 3 << 10

// BenchUpdate measures Update of one ~3 KB record with one subscriber
// draining the match's events, as a room in another process would. Each
// iteration is one successful compare-and-set from the previous stateID.
func BenchUpdate(b *testing.B, s rooms.Store) {
	ctx := context.Background()
	rec := NewRecord("bench", "gomoku", BenchRecordSize)
	if err := s.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	events, cancel, err := s.Subscribe(ctx, rec.ID)
	if err != nil {
		b.Fatal(err)
	}
	defer cancel()
	go func() {
		for range events {
		}
	}()
	// The records are prepared outside the timer: only the store is measured.
	next := *rec
	b.SetBytes(BenchRecordSize)
	b.ResetTimer()
	for b.Loop() {
		prev := next.Version
		next.Version++
		next.UpdatedAt++
		if err := s.Update(ctx, &next, prev); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchUpdateParallel measures Update throughput over many matches at once:
// each goroutine updates a match of its own (no subscribers), as the rooms
// of a busy server do.
func BenchUpdateParallel(b *testing.B, s rooms.Store) {
	ctx := context.Background()
	var n atomic.Int64
	b.SetBytes(BenchRecordSize)
	b.RunParallel(func(pb *testing.PB) {
		rec := NewRecord("bench-"+strconv.FormatInt(n.Add(1), 10), "gomoku", BenchRecordSize)
		if err := s.Create(ctx, rec); err != nil {
			b.Error(err)
			return
		}
		for pb.Next() {
			prev := rec.Version
			rec.Version++
			if err := s.Update(ctx, rec, prev); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchUpdateDelivered measures an Update through writer until its event
// arrives at a subscriber on reader (the same store, or another instance on
// the same backend, as a second server process would be), with many matches
// in flight at once: each goroutine updates a match of its own and waits
// for its event before the next Update.
func BenchUpdateDelivered(b *testing.B, writer, reader rooms.Store) {
	ctx := context.Background()
	var n atomic.Int64
	b.SetBytes(BenchRecordSize)
	b.RunParallel(func(pb *testing.PB) {
		rec := NewRecord("delivered-"+strconv.FormatInt(n.Add(1), 10), "gomoku", BenchRecordSize)
		if err := writer.Create(ctx, rec); err != nil {
			b.Error(err)
			return
		}
		events, cancel, err := reader.Subscribe(ctx, rec.ID)
		if err != nil {
			b.Error(err)
			return
		}
		defer cancel()
		for pb.Next() {
			prev := rec.Version
			rec.Version++
			if err := writer.Update(ctx, rec, prev); err != nil {
				b.Error(err)
				return
			}
			for ev := range events {
				if ev.RecordVersion() == rec.Version {
					break
				}
			}
		}
	})
}
