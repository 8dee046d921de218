package llm

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// gamePrompts plays one whole game of seats seats, normal and easy bots
// alternating, and calls fn with every prompt the Engine would send on
// the way: each seat's tile phase, and its meeple phase (sent only when
// the tile phase's choice is not remembered).
func gamePrompts(tb testing.TB, seats int, seed uint64, fn func(v carcassonne.View, pr prompt)) {
	tb.Helper()
	r := carcassonne.Rules{}
	s, err := r.Setup(seats, nil, games.NewRNG(seed))
	if err != nil {
		tb.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	for s.Phase != carcassonne.PhaseOver {
		seat := s.Current
		v := r.View(s, seat)
		b, err := json.Marshal(v)
		if err != nil {
			tb.Fatal(err)
		}
		pr, err := buildPrompt(b, seat)
		if err != nil {
			tb.Fatalf("seed %d turn %d %s: %v", seed, v.Turn, v.Phase, err)
		}
		fn(v, pr)
		level := carcassonne.LevelNormal
		if seat%2 == 1 {
			level = carcassonne.LevelEasy
		}
		name, args, err := r.Bot(level, v, seat, rng)
		if err != nil {
			tb.Fatal(err)
		}
		if s, err = r.Apply(s, seat, name, args); err != nil {
			tb.Fatal(err)
		}
	}
}

// requestTokens is the bound on a decision's request: its first request,
// and room for the second try's two messages.
func requestTokens(pr prompt) int { return estimateTokens(pr.system, pr.user) + retryTokens }

// TestPromptSize: at every decision of whole games of 2 to 5 seats, the
// request (with room for a second try) stays within promptTokens by the
// bytes bound, and lists at least one option.
func TestPromptSize(t *testing.T) {
	games := []struct {
		seats int
		seed  uint64
	}{{2, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}}
	if testing.Short() {
		games = games[:2]
	}
	for _, g := range games {
		worst, n := 0, 0
		gamePrompts(t, g.seats, g.seed, func(v carcassonne.View, pr prompt) {
			n++
			tok := requestTokens(pr)
			worst = max(worst, tok)
			if tok > promptTokens {
				t.Errorf("%d seats, seed %d, turn %d %s: %d tokens by the bound (%d bytes):\n%s\n%s", g.seats, g.seed, v.Turn, v.Phase, tok, len(pr.system)+len(pr.user), pr.system, pr.user)
			}
			if len(pr.options) == 0 || pr.shown == 0 {
				t.Errorf("turn %d: no option shown", v.Turn)
			}
		})
		t.Logf("%d seats, seed %d: %d prompts, at most %d tokens by the bound", g.seats, g.seed, n, worst)
	}
}

// BenchmarkPromptSize plays whole games (2 to 5 seats in turn, normal and
// easy bots) and reports the distribution of the requests' size in tokens
// by the bytes bound, over every prompt of every game: p50, p90 and max,
// with the time to build a prompt. LLM_PROMPT_DUMP=DIR writes every
// prompt there too, to count with a real tokenizer.
func BenchmarkPromptSize(b *testing.B) {
	dump := os.Getenv("LLM_PROMPT_DUMP")
	var sizes []int
	game := 0
	for b.Loop() {
		game++
		seats := 2 + (game-1)%4
		gamePrompts(b, seats, uint64(100+game), func(v carcassonne.View, pr prompt) {
			sizes = append(sizes, requestTokens(pr))
			if dump != "" {
				name := filepath.Join(dump, fmt.Sprintf("g%03d-s%d-t%02d-%s.txt", game, seats, v.Turn, v.Phase))
				if err := os.WriteFile(name, []byte(pr.system+"\n"+pr.user), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	slices.Sort(sizes)
	at := func(q float64) int { return sizes[min(len(sizes)-1, int(q*float64(len(sizes))))] }
	b.ReportMetric(float64(at(0.5)), "p50-tokens")
	b.ReportMetric(float64(at(0.9)), "p90-tokens")
	b.ReportMetric(float64(sizes[len(sizes)-1]), "max-tokens")
	b.ReportMetric(float64(len(sizes))/float64(game), "prompts/game")
	b.Logf("%d games, %d prompts: tokens by the bound p50 %d, p90 %d, max %d (limit %d)", game, len(sizes), at(0.5), at(0.9), sizes[len(sizes)-1], promptTokens)
}

// BenchmarkTilePrompt builds the tile prompt of one late decision (a
// two-seat game of normal bots, turn 60).
func BenchmarkTilePrompt(b *testing.B) {
	var view []byte
	seat := 0
	gamePrompts(b, 2, 1, func(v carcassonne.View, pr prompt) {
		if v.Turn == 60 && v.Phase == carcassonne.PhaseTile {
			view, _ = json.Marshal(v)
			seat = v.Current
		}
	})
	for b.Loop() {
		if _, err := buildPrompt(view, seat); err != nil {
			b.Fatal(err)
		}
	}
}
