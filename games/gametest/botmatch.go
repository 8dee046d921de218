package gametest

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
)

// BotMatch benchmarks whole bot-only matches of g through the erased Game,
// one op per move: every seat is played by o.Level (default the first
// level), on o.Seats[0] seats (default MinPlayers) with o.SetupData. A new
// match starts, untimed, when one ends or reaches o.MaxMoves (default
// 2000). Besides ns/op (the bot's decision and Apply) it reports the
// decision alone as bot-ns/op, and the process's CPU time per move as
// cpu-ns/op (garbage collection included), which other work on a shared
// machine disturbs less than the wall time.
func BotMatch(b *testing.B, g games.Game, o Options) {
	info := g.Info()
	seats, level, maxMoves := info.MinPlayers, o.Level, o.MaxMoves
	if len(o.Seats) > 0 {
		seats = o.Seats[0]
	}
	if level == "" && len(info.Bots) > 0 {
		level = info.Bots[0]
	}
	if maxMoves == 0 {
		maxMoves = 2000
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var st games.State
	var decide, cpu time.Duration
	played := maxMoves
	b.ReportAllocs()
	b.ResetTimer()
	start := processCPU()
	for i := 0; i < b.N; i++ {
		if played == maxMoves || st.Status().Outcome != nil {
			b.StopTimer()
			cpu += processCPU() - start
			st, played = benchSetup(b, g, seats, o, uint64(i)), 0
			start = processCPU()
			b.StartTimer()
		}
		movers := st.Status().Movers(seats)
		seat := movers[rng.IntN(len(movers))]
		t0 := time.Now()
		name, args, err := st.Bot(level, seat, rng)
		decide += time.Since(t0)
		if err != nil {
			b.Fatalf("bot %s for seat %d: %v", level, seat, err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			b.Fatalf("bot move %s %s refused: %v", name, args, err)
		}
		played++
	}
	cpu += processCPU() - start
	b.ReportMetric(float64(decide.Nanoseconds())/float64(b.N), "bot-ns/op")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(b.N), "cpu-ns/op")
}

// benchSetup starts one benchmark match.
func benchSetup(b *testing.B, g games.Game, seats int, o Options, seed uint64) games.State {
	st, err := g.Setup(seats, o.SetupData, seed)
	if err != nil {
		b.Fatalf("setup %d seats: %v", seats, err)
	}
	return st
}
