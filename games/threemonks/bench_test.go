package threemonks_test

import (
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
)

// BenchmarkRoundApply measures the last choice of a 5-player round, which
// reveals and resolves the whole round.
func BenchmarkRoundApply(b *testing.B) {
	st, _ := threemonks.Game.Setup(5, nil, 1)
	cards := []string{"chant", "fetch", "exchange", "drink", "fetch"}
	for i := 0; i < 4; i++ {
		st, _ = st.Apply(i, "choose", games.Args(cards[i]))
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := st.Apply(4, "choose", games.Args(cards[4])); err != nil {
			b.Fatal(err)
		}
	}
}

func benchBot(b *testing.B, level string, n int) {
	st, _ := threemonks.Game.Setup(n, nil, 1)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := st.Bot(level, 0, rng); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBotEasy(b *testing.B)    { benchBot(b, "easy", 5) }
func BenchmarkBotNormal5(b *testing.B) { benchBot(b, "normal", 5) }
func BenchmarkBotNormal8(b *testing.B) { benchBot(b, "normal", 8) }

// BenchmarkGame plays a whole 5-player game of normal bots.
func BenchmarkGame(b *testing.B) {
	seed := uint64(0)
	for b.Loop() {
		seed++
		if _, err := playGame(5, seed, func(int) string { return "normal" }, nil); err != nil {
			b.Fatal(err)
		}
	}
}
