package gomoku

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
)

// midGame is a 30-stone position with black to move, reached by normal
// against normal from the first seed from 42 on whose game lasts that long.
func midGame(b *testing.B) games.State {
	b.Helper()
	for seed := uint64(42); seed < 142; seed++ {
		if st, ok := playNormal(b, seed, 30); ok {
			return st
		}
	}
	b.Fatal("no normal-vs-normal game of seeds 42-141 lasted 30 stones")
	return nil
}

// playNormal plays n stones of normal against normal; ok is false if the
// game ended sooner.
func playNormal(b *testing.B, seed uint64, n int) (st games.State, ok bool) {
	st = newMatch(b)
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := 0; i < n; i++ {
		seat := st.Status().Current
		name, args, err := st.Bot("normal", seat, rng)
		if err != nil {
			b.Fatalf("seed %d: %v", seed, err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			b.Fatalf("seed %d: %v", seed, err)
		}
		if st.Status().Outcome != nil {
			return nil, false
		}
	}
	return st, true
}

// freePoint is an empty point of the position's board, as move args.
func freePoint(b *testing.B, st games.State) json.RawMessage {
	b.Helper()
	v := Rules{}.View(typed(b, st), 0)
	for y, row := range v.Board {
		for x := range row {
			if row[x] == '.' {
				return games.Args(x, y)
			}
		}
	}
	b.Fatal("no free point")
	return nil
}

// BenchmarkApply is one stone placed on a mid-game position through the
// erased Game, as a room applies it.
func BenchmarkApply(b *testing.B) {
	st := midGame(b)
	args := freePoint(b, st)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.Apply(0, movePlace, args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStateJSON is the store's round trip of a mid-game state.
func BenchmarkStateJSON(b *testing.B) {
	st := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		data, err := st.MarshalJSON()
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Game.Load(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkView is one view built and encoded, as sent after every move.
func BenchmarkView(b *testing.B) {
	st := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := json.Marshal(st.View(0)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendView is the same through games.State.AppendView, the
// room's path (View.AppendJSON).
func BenchmarkAppendView(b *testing.B) {
	st := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.AppendView(nil, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func benchBot(b *testing.B, level string) {
	st := midGame(b)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := st.Bot(level, 0, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBotNormal is one decision of the normal bot, view round trip
// included.
func BenchmarkBotNormal(b *testing.B) { benchBot(b, "normal") }

// BenchmarkBotHard is one decision of the hard bot (target: well under
// 200 ms on the 2-core build machine).
func BenchmarkBotHard(b *testing.B) { benchBot(b, "hard") }

// BenchmarkBotHardGame plays whole games, hard against normal, from random
// 4-stone openings (easy plays them), and reports the hard bot's mean and
// worst wall time per decision over all of them, and how often it won and
// lost (the rest are draws).
func BenchmarkBotHardGame(b *testing.B) {
	var total, worst time.Duration
	moves, wins, losses, played := 0, 0, 0, 0
	for b.Loop() {
		seed := uint64(played)
		hardSeat := played % 2
		st := newMatch(b)
		rng := rand.New(rand.NewPCG(seed, 5))
		for st.Status().Outcome == nil {
			seat := st.Status().Current
			level := "normal"
			switch {
			case st.Status().Turn <= 4:
				level = "easy"
			case seat == hardSeat:
				level = "hard"
			}
			start := time.Now()
			name, args, err := st.Bot(level, seat, rng)
			if level == "hard" {
				d := time.Since(start)
				total += d
				worst = max(worst, d)
				moves++
			}
			if err != nil {
				b.Fatalf("seed %d: %v", seed, err)
			}
			if st, err = st.Apply(seat, name, args); err != nil {
				b.Fatalf("seed %d: %v", seed, err)
			}
		}
		if w := st.Status().Outcome.Winner; w == games.PlayerID(hardSeat) {
			wins++
		} else if w == games.PlayerID(1-hardSeat) {
			losses++
		}
		played++
	}
	if moves > 0 {
		b.ReportMetric(float64(total.Milliseconds())/float64(moves), "ms/decision")
		b.ReportMetric(float64(worst.Milliseconds()), "worst-ms/decision")
		b.ReportMetric(float64(wins)/float64(played), "hard-win-rate")
		b.ReportMetric(float64(losses)/float64(played), "hard-loss-rate")
	}
}
