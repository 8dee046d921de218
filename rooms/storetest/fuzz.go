package storetest

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
)

// Fuzz drives one store with arbitrary match IDs, game names, prevs and chat
// texts. Nothing may panic; a record the store accepted must read back, be
// listed under its game, and refuse a stale Update; a refused Create must
// leave no record behind.
func Fuzz(f *testing.F, s rooms.Store) {
	for _, seed := range []struct {
		id, game string
		prev     int64
	}{
		{"m1", "gomoku", 1}, {"", "gomoku", 0}, {"m2", "", 1}, {"{", "weiqi", 1},
		{"a{b}c", "weiqi", 2}, {"}", "x", -1}, {"\x00", "\x00", 1}, {"茶馆", "三个和尚", 1},
		{"a:b", "g:*", 1}, {strings.Repeat("long", 250), "gongzhu", 1 << 62},
	} {
		f.Add(seed.id, seed.game, seed.prev, "hi")
	}
	f.Fuzz(func(t *testing.T, id, game string, prev int64, text string) {
		ctx := context.Background()
		rec := NewRecord(id, game, 300)
		_, getErr := s.Get(ctx, id)
		existed := getErr == nil
		if getErr != nil && !errors.Is(getErr, rooms.ErrNotFound) {
			t.Fatalf("Get(%q): %v", id, getErr)
		}
		err := s.Create(ctx, rec)
		switch {
		case err == nil:
			if existed {
				t.Fatalf("Create(%q) succeeded over an existing record", id)
			}
			mustGet(t, s, rec)
			recs, err := s.List(ctx, game)
			if err != nil || !slices.ContainsFunc(recs, func(r *rooms.Record) bool { return r.ID == id }) {
				t.Fatalf("List(%q) = %d records, %v; want %q among them", game, len(recs), err, id)
			}
		case errors.Is(err, rooms.ErrExists):
			if !existed {
				t.Fatalf("Create(%q): ErrExists, but Get found nothing", id)
			}
		case !existed:
			if _, err := s.Get(ctx, id); !errors.Is(err, rooms.ErrNotFound) {
				t.Fatalf("refused Create(%q) left a record: %v", id, err)
			}
		}
		next := Next(rec)
		next.Version = max(prev, 0) + 2
		if err := s.Update(ctx, next, prev); err == nil && prev != rec.Version && !existed {
			t.Fatalf("Update(%q) from prev %d succeeded; the stored stateID is %d", id, prev, rec.Version)
		}
		ev := rooms.Event{Chat: &protocol.Chat{Type: protocol.TypeChat, Text: text}}
		if err := s.Publish(ctx, id, ev); err != nil && !errors.Is(err, rooms.ErrNotFound) {
			t.Fatalf("Publish(%q): %v", id, err)
		}
		if _, cancel, err := s.Subscribe(ctx, id); err == nil {
			cancel()
		}
	})
}
