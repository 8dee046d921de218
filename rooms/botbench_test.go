package rooms_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// moveCounter is a Store that counts the moves written through it (a
// record whose StateID grew) and says when a match ended or the count reached
// want.
type moveCounter struct {
	rooms.Store
	mu    sync.Mutex
	seq   map[string]int64
	moves int
	want  int
	done  chan struct{} // closed when moves reaches want
	over  chan string   // the IDs of ended matches
}

func (c *moveCounter) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if err := c.Store.Update(ctx, rec, prev); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if rec.StateID > c.seq[rec.ID] {
		c.seq[rec.ID] = rec.StateID
		c.moves++
		if c.moves == c.want {
			close(c.done)
		}
	}
	if len(rec.Gameover) > 0 {
		select {
		case c.over <- rec.ID:
		default:
		}
	}
	return nil
}

// botBenchCase is one game of BenchmarkBotMatchRoom.
type botBenchCase struct {
	game, level string
	seats       int
}

// BenchmarkBotMatchRoom is one move of a bot-only match with nobody
// watching, through a real room on the memory store with no bot delay:
// the bot's decision, the rules, the store's Update and the room's
// bookkeeping, one move after another. A new match starts when one ends.
// It reports the CPU time of the whole process per move (cpu-ns/op) and
// the moves a second (moves/s).
func BenchmarkBotMatchRoom(b *testing.B) {
	for _, c := range []botBenchCase{
		{"gongzhu", "normal", 4}, {"gomoku", "normal", 2}, {"threemonks", "normal", 3},
		{"weiqi", "easy", 2}, {"carcassonne", "normal", 2},
	} {
		b.Run(c.game, func(b *testing.B) { benchBotRoom(b, c) })
	}
}

func benchBotRoom(b *testing.B, c botBenchCase) {
	mem := memstore.New(memstore.Options{})
	defer mem.Close()
	store := &moveCounter{Store: mem, seq: map[string]int64{}, want: b.N, done: make(chan struct{}), over: make(chan string, 1)}
	// IdleUnload: a room nobody watches stops its bots after it, and this
	// match has nobody watching.
	m := rooms.New(rooms.Config{Store: store, Games: all.Registry(), BotDelay: rooms.ZeroBotDelay, IdleUnload: time.Hour})
	defer m.Close()
	bots := map[string]string{}
	for seat := range c.seats {
		bots[games.PlayerID(seat)] = c.level
	}
	b.ReportAllocs()
	b.ResetTimer()
	start, t0 := cpuTime(b), time.Now()
	for {
		id, err := m.Create(context.Background(), c.game, rooms.CreateParams{NumPlayers: c.seats, Bots: bots})
		if err != nil {
			b.Fatal(err)
		}
		if !waitMatch(b, store, id) {
			break
		}
	}
	cpu, wall := cpuTime(b)-start, time.Since(t0)
	b.StopTimer()
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(b.N)/wall.Seconds(), "moves/s")
}

// waitMatch waits until the benchmark has its moves (false) or match id
// ended (true: start another).
func waitMatch(b *testing.B, store *moveCounter, id string) bool {
	for {
		select {
		case <-store.done:
			return false
		case ended := <-store.over:
			if ended == id {
				return true
			}
		case <-time.After(time.Minute):
			b.Fatalf("match %s: no move for a minute", id)
		}
	}
}
