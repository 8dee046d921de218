package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// benchSink is a connection that takes every message at once. It hands
// the mover's answer (its state message with ack, or an error) to the
// benchmark and drops the rest, as a socket's queue would take them.
type benchSink struct {
	answers chan []byte
}

func (s *benchSink) Send(msg []byte, _ rooms.Kind) bool {
	head := msg[:min(len(msg), 160)]
	if bytes.Contains(head, []byte(`"ack":`)) || bytes.HasPrefix(msg, []byte(`{"type":"error"`)) {
		s.answers <- msg
	}
	return true
}

func (s *benchSink) Close() {}

// benchMove is one move of the benchmark's game.
type benchMove struct {
	seat int
	args json.RawMessage
}

// gomokuGame is the load generator's Gomoku game: each seat plays the
// first empty point, row by row, until black wins (61 moves).
func gomokuGame(tb testing.TB) []benchMove {
	st, err := gomoku.Game.Setup(2, nil, 1)
	if err != nil {
		tb.Fatal(err)
	}
	var out []benchMove
	for st.Status().Outcome == nil {
		seat := st.Status().Current
		played := false
		for p := 0; p < 15*15 && !played; p++ {
			args := games.Args(p/15, p%15)
			if next, err := st.Apply(seat, "place", args); err == nil {
				st, played = next, true
				out = append(out, benchMove{seat, args})
			}
		}
		if !played {
			tb.Fatal("no legal move")
		}
	}
	return out
}

// watchSink is a spectator's connection: it hands on the stateID of
// every state message.
type watchSink struct {
	seen chan int64
}

func (s *watchSink) Send(msg []byte, _ rooms.Kind) bool {
	const key = `"stateID":`
	if i := bytes.Index(msg, []byte(key)); i >= 0 {
		rest := msg[i+len(key):]
		n := bytes.IndexAny(rest, ",}")
		if sid, err := strconv.ParseInt(string(rest[:n]), 10, 64); err == nil {
			s.seen <- sid
		}
	}
	return true
}

func (s *watchSink) Close() {}

// benchMatch is a started Gomoku match with both seats connected and,
// optionally, a spectator on another manager (another process).
type benchMatch struct {
	id    string
	sinks [2]*benchSink
	seats [2]*rooms.Viewer
	watch *watchSink
	spec  *rooms.Viewer
}

func newBenchMatch(b testing.TB, m, watcher *rooms.Manager) *benchMatch {
	return newBenchMatchWith(b, m, watcher, false)
}

// newBenchMatchWith is newBenchMatch whose seats ask for patches when
// patches is set.
func newBenchMatchWith(b testing.TB, m, watcher *rooms.Manager, patches bool) *benchMatch {
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		b.Fatal(err)
	}
	bm := &benchMatch{id: id}
	for seat := range 2 {
		pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "P" + games.PlayerID(seat)})
		if err != nil {
			b.Fatal(err)
		}
		bm.sinks[seat] = &benchSink{answers: make(chan []byte, 4)}
		v, err := m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds, Patches: patches}, bm.sinks[seat])
		if err != nil {
			b.Fatal(err)
		}
		bm.seats[seat] = v
	}
	if watcher != nil {
		bm.watch = &watchSink{seen: make(chan int64, 256)}
		if bm.spec, err = watcher.Connect(ctx, "gomoku", id, rooms.Hello{}, bm.watch); err != nil {
			b.Fatal(err)
		}
	}
	return bm
}

func (bm *benchMatch) close() {
	bm.seats[0].Close()
	bm.seats[1].Close()
	if bm.spec != nil {
		bm.spec.Close()
	}
}

// cpuTime is the CPU time this process has used so far.
func cpuTime(tb testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchMoves measures one accepted move through a room, from the mover's
// Move to its ack: the rules, the store's Update and both seats' state
// messages. With a watchStore, a second manager on it (a second process
// sharing the backend) has a spectator, and each move is done only once
// that spectator has seen it too. Each match plays the 61 moves of
// gomokuGame; the matches' setup is not timed. Besides the wall time
// (ns/op) it reports the CPU time of the whole process per move
// (cpu-ns/op, all goroutines, the store's included), which other work on a
// shared machine disturbs less.
func benchMoves(b *testing.B, store, watchStore rooms.Store) {
	benchMovesWith(b, store, watchStore, false)
}

// benchMovesWith is benchMoves whose seats ask for patches when patches
// is set, as the web, Go and terminal clients and the load generator do.
func benchMovesWith(b *testing.B, store, watchStore rooms.Store, patches bool) {
	newManager := func(s rooms.Store) *rooms.Manager {
		m := rooms.New(rooms.Config{Store: s, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
		b.Cleanup(m.Close)
		return m
	}
	m := newManager(store)
	var watcher *rooms.Manager
	if watchStore != nil {
		watcher = newManager(watchStore)
	}
	game := gomokuGame(b)
	var match *benchMatch
	k := len(game)
	var cpu time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for i := 0; i < b.N; i++ {
		if k == len(game) {
			b.StopTimer()
			cpu += cpuTime(b) - start
			if match != nil {
				match.close()
			}
			match, k = newBenchMatchWith(b, m, watcher, patches), 0
			start = cpuTime(b)
			b.StartTimer()
		}
		mv := game[k]
		k++
		ref := int64(i)
		if err := match.seats[mv.seat].Move(&ref, "place", mv.args, nil); err != nil {
			b.Fatal(err)
		}
		if msg := <-match.sinks[mv.seat].answers; bytes.HasPrefix(msg, []byte(`{"type":"error"`)) {
			b.Fatalf("move %d refused: %s", k, msg)
		}
		if match.watch != nil {
			for sid := int64(0); sid < int64(k)+1; { // StateID is 1 before the first move
				sid = <-match.watch.seen
			}
		}
	}
	cpu += cpuTime(b) - start
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// BenchmarkMoveMem is one Gomoku move through a room on the memory store,
// with both seats connected.
func BenchmarkMoveMem(b *testing.B) {
	s := memstore.New(memstore.Options{})
	b.Cleanup(func() { s.Close() })
	benchMoves(b, s, nil)
}

// BenchmarkMovePatchesMem is BenchmarkMoveMem with seats that ask for
// patches.
func BenchmarkMovePatchesMem(b *testing.B) {
	s := memstore.New(memstore.Options{})
	b.Cleanup(func() { s.Close() })
	benchMovesWith(b, s, nil, true)
}

// openRedis opens a Redis store for b under prefix.
func openRedis(b *testing.B, url, prefix string) rooms.Store {
	s, err := redisstore.New(context.Background(), redisstore.Options{URL: url, Prefix: prefix})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// BenchmarkMoveRedis is the same on the Redis store: one EVALSHA per move;
// the room's subscription, the match's only one, is not told of its own
// write (rooms.QuietUpdater). It also reports the
// Redis server's CPU time per move (redis-cpu-ns/op, setup included), only
// meaningful when nothing else uses that server: run it without REDIS_URL.
func BenchmarkMoveRedis(b *testing.B) {
	url := redistest.URL(b)
	c := redisClient(b, url)
	s := openRedis(b, url, redistest.Prefix(b, url))
	before := redisCPU(b, c)
	benchMoves(b, s, nil)
	b.ReportMetric(float64((redisCPU(b, c)-before).Nanoseconds())/float64(b.N), "redis-cpu-ns/op")
}

// BenchmarkMoveRedisWatched is BenchmarkMoveRedis with a spectator in a
// second process (a second store and manager) that must see each move.
func BenchmarkMoveRedisWatched(b *testing.B) {
	url := redistest.URL(b)
	c := redisClient(b, url)
	prefix := redistest.Prefix(b, url)
	s, w := openRedis(b, url, prefix), openRedis(b, url, prefix)
	before := redisCPU(b, c)
	benchMoves(b, s, w)
	b.ReportMetric(float64((redisCPU(b, c)-before).Nanoseconds())/float64(b.N), "redis-cpu-ns/op")
}

// redisClient is a plain client on url, closed at the end of b.
func redisClient(b *testing.B, url string) *redis.Client {
	opt, err := redis.ParseURL(url)
	if err != nil {
		b.Fatal(err)
	}
	c := redis.NewClient(opt)
	b.Cleanup(func() { c.Close() })
	return c
}

// redisCPU is the CPU time the Redis server has used (INFO cpu).
func redisCPU(tb testing.TB, c *redis.Client) time.Duration {
	info, err := c.Info(context.Background(), "cpu").Result()
	if err != nil {
		tb.Fatal(err)
	}
	var total float64
	for _, line := range strings.Split(info, "\n") {
		k, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		if k == "used_cpu_user" || k == "used_cpu_sys" {
			f, err := strconv.ParseFloat(v, 64)
			if err != nil {
				tb.Fatal(err)
			}
			total += f
		}
	}
	return time.Duration(total * float64(time.Second))
}
