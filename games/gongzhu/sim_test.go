package gongzhu

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

var report = flag.Bool("report", false, "print how the normal bot scores against easy bots (TestReport)")

// playRound plays the round in progress to its end with the given bot level
// per seat (typed views, no JSON round trip: fast) and returns the state
// right after the next deal.
func playRound(tb testing.TB, s State, levels []string, rng *rand.Rand) State {
	tb.Helper()
	r := Rules{}
	round := s.Round
	for s.Round == round {
		seat := s.Current()
		name, args, err := r.Bot(levels[seat], r.View(s, seat), seat, rng)
		if err != nil {
			tb.Fatalf("round %d: bot %s seat %d: %v", round, levels[seat], seat, err)
		}
		next, err := r.Apply(s, seat, name, args)
		if err != nil {
			tb.Fatalf("round %d: bot %s seat %d move %s refused: %v", round, levels[seat], seat, args, err)
		}
		s = next
	}
	return s
}

func newState(tb testing.TB, n int, seed uint64) State {
	tb.Helper()
	s, err := Rules{}.Setup(n, nil, games.NewRNG(seed))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// TestReport measures the normal bot against easy bots: run with
// go test ./games/gongzhu -run TestReport -report -v
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("pass -report to run")
	}
	const rounds = 2000
	for _, n := range []int{3, 4} {
		for normals := 1; normals <= 2; normals++ {
			levels := make([]string, n)
			for i := range levels {
				levels[i] = LevelEasy
			}
			// Spread the normal seats: 4 seats with two normals sit them as partners.
			for k := 0; k < normals; k++ {
				levels[(k*2)%n] = LevelNormal
			}
			sum := map[string]float64{}
			sq := map[string]float64{}
			cnt := map[string]int{}
			rng := rand.New(rand.NewPCG(uint64(n), uint64(normals)))
			s := newState(t, n, uint64(100*n+normals))
			for i := 0; i < rounds; i++ {
				// Rotate the levels each round so seat position does not bias the result.
				rot := make([]string, n)
				for j := range rot {
					rot[j] = levels[(j+i)%n]
				}
				s = playRound(t, s, rot, rng)
				for seat, sc := range s.LastRound.Scores {
					sum[rot[seat]] += float64(sc)
					sq[rot[seat]] += float64(sc) * float64(sc)
					cnt[rot[seat]]++
				}
			}
			stat := func(l string) (mean, se float64) {
				k := float64(cnt[l])
				mean = sum[l] / k
				return mean, math.Sqrt((sq[l]/k - mean*mean) / k)
			}
			nm, nse := stat(LevelNormal)
			em, ese := stat(LevelEasy)
			fmt.Printf("%d seats, %d normal vs %d easy, %d rounds: mean round score normal %.1f (±%.1f), easy %.1f (±%.1f)\n",
				n, normals, n-normals, rounds, nm, nse, em, ese)
		}
	}
}

func botRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }
