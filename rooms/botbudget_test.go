package rooms_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// gongzhuBotsAndAbsentee creates a Gong Zhu table whose three other
// seats are bots moving without pause, and seats a person there who never
// connects: the match a handful of lobby calls can make.
func gongzhuBotsAndAbsentee(t *testing.T, m *rooms.Manager) string {
	t.Helper()
	ctx := context.Background()
	zero := time.Duration(0)
	id, err := m.Create(ctx, "gongzhu", rooms.CreateParams{NumPlayers: 4, BotDelay: &zero,
		Bots: map[string]string{"1": "easy", "2": "easy", "3": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Join(ctx, "gongzhu", id, rooms.JoinParams{Name: "Absent"}); err != nil {
		t.Fatal(err)
	}
	return id
}

func seqOf(t *testing.T, st rooms.Store, id string) int64 {
	t.Helper()
	rec, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rec.StateID
}

// processCPU is the process's CPU time so far (user and system).
func processCPU(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestUnwatchedBotsStop: ten Gong Zhu tables of three bots at no delay
// and one seated person who never connects stop once nobody has been
// connected for the idle period (here 300 ms, after a grace of 100 ms) and unload: no move after
// that, so no CPU. Before, a seated person kept such a table playing
// forever (two cores burnt, the record growing without bound). A
// spectator watching a bot-only table meanwhile sees it play on.
func TestUnwatchedBotsStop(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gongzhu.Game), IdleUnload: 300 * time.Millisecond,
		Grace: 100 * time.Millisecond}) // the bot covers the absentee soon, as after the grace period
	t.Cleanup(m.Close)

	ids := make([]string, 10)
	for i := range ids {
		ids[i] = gongzhuBotsAndAbsentee(t, m)
	}
	// They play while the idle period lasts, then stop and unload.
	awaitUnloaded(t, m)
	stopped := make([]int64, len(ids))
	for i, id := range ids {
		stopped[i] = seqOf(t, mem, id)
	}

	// Stopped, they cost nothing: measure a second of the idle process.
	idle0, idleWall0 := processCPU(t), time.Now()
	time.Sleep(time.Second)
	idle := (processCPU(t) - idle0).Seconds() / time.Since(idleWall0).Seconds()

	// A watched bot-only table plays on at its delay meanwhile.
	delay := 20 * time.Millisecond
	watched, err := m.Create(context.Background(), "gongzhu", rooms.CreateParams{NumPlayers: 4, BotDelay: &delay,
		Bots: map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}})
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Connect(context.Background(), "gongzhu", watched, rooms.Hello{}, discardSink{})
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	cpu0, wall0 := processCPU(t), time.Now()
	start := seqOf(t, mem, watched)
	for deadline := time.Now().Add(30 * time.Second); seqOf(t, mem, watched) < start+40; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the watched bot-only table made %d moves in 30 s at a 20 ms delay", seqOf(t, mem, watched)-start)
		}
	}
	cpu, wall := processCPU(t)-cpu0, time.Since(wall0)
	for i, id := range ids {
		if got := seqOf(t, mem, id); got != stopped[i] {
			t.Fatalf("table %d moved on with nobody connected: stateID %d, then %d", i, stopped[i], got)
		}
	}
	if n := m.LiveRooms(); n != 1 {
		t.Fatalf("%d rooms loaded, want only the watched one", n)
	}
	t.Logf("10 unwatched tables stopped after %d moves in all; the idle process then used %.2f%% of a core; "+
		"the watched table made 40 moves at a 20 ms delay in %v, the process using %.1f%% of a core meanwhile",
		sum(stopped)-int64(len(ids)), 100*idle, wall.Round(time.Millisecond), 100*cpu.Seconds()/wall.Seconds())
}

func sum(xs []int64) int64 {
	var n int64
	for _, x := range xs {
		n += x
	}
	return n
}

// TestBotBudgetShared: the process's bot budget is shared in turn. Two
// watched bot-only tables whose bots move without pause, under a budget
// of 40 moves a second, each get a fair share of the moves: one cannot
// starve the other.
func TestBotBudgetShared(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gongzhu.Game), BotRate: 40, BotBurst: 1})
	t.Cleanup(m.Close)
	zero := time.Duration(0)
	bots := map[string]string{"0": "easy", "1": "easy", "2": "easy", "3": "easy"}
	var ids [2]string
	for i := range ids {
		id, err := m.Create(context.Background(), "gongzhu", rooms.CreateParams{NumPlayers: 4, BotDelay: &zero, Bots: bots})
		if err != nil {
			t.Fatal(err)
		}
		v, err := m.Connect(context.Background(), "gongzhu", id, rooms.Hello{}, discardSink{})
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		ids[i] = id
	}
	var a, b int64
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		a, b = seqOf(t, mem, ids[0])-1, seqOf(t, mem, ids[1])-1
		if a+b >= 80 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("only %d and %d bot moves in 60 s under a budget of 40 a second", a, b)
		}
	}
	if a < 20 || b < 20 {
		t.Fatalf("moves shared %d to %d: one table starved the other", a, b)
	}
	t.Logf("two tables at no delay under a 40/s budget: %d and %d moves", a, b)
}
