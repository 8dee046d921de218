package weiqi

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// midGameView is the view after n random moves of easy against easy on a
// size board (seed 7), black or white to move.
func midGameView(tb testing.TB, size, n int) View {
	tb.Helper()
	r := Rules{}
	s, err := r.Setup(2, json.RawMessage(fmt.Sprintf(`{"size":%d}`, size)), nil)
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < n; i++ {
		seat := r.Status(s).Current
		name, args, err := r.Bot("easy", r.View(s, seat), seat, rng)
		if err != nil {
			tb.Fatal(err)
		}
		if s, err = r.Apply(s, seat, name, args); err != nil {
			tb.Fatal(err)
		}
	}
	return r.View(s, r.Status(s).Current)
}

func benchNormal(b *testing.B, size, moves int) {
	v := midGameView(b, size, moves)
	seat, _ := games.ParseSeat(v.ToMove, 2)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := chooseBot("normal", v, seat, rng); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNormal9 and BenchmarkNormal19 time one normal move from a
// mid-game position (ns/op is the time per move).
func BenchmarkNormal9(b *testing.B)  { benchNormal(b, 9, 20) }
func BenchmarkNormal19(b *testing.B) { benchNormal(b, 19, 80) }

func benchPlayout(b *testing.B, size int) {
	root := newPboard(size)
	sc := newPboard(size)
	r := newXrand(1)
	var rec []int32
	moves := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sc.copyFrom(root)
		rec = sc.playout(r, rec[:0])
		moves += len(rec)
	}
	b.ReportMetric(float64(moves)/float64(b.N), "moves/playout")
}

// BenchmarkPlayout9 and BenchmarkPlayout19 time one playout from the empty
// board.
func BenchmarkPlayout9(b *testing.B)  { benchPlayout(b, 9) }
func BenchmarkPlayout19(b *testing.B) { benchPlayout(b, 19) }
