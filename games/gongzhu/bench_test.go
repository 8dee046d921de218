package gongzhu

import (
	"testing"
)

func benchRound(b *testing.B, n int, level string) {
	levels := []string{level, level, level, level}[:n]
	rng := botRNG(1)
	s := newState(b, n, 1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s = playRound(b, s, levels, rng)
	}
}

// BenchmarkBotRound3 times one whole 3-seat round (51 cards) played by
// normal bots: view, decision and move for every card.
func BenchmarkBotRound3(b *testing.B) { benchRound(b, 3, LevelNormal) }

// BenchmarkBotRound4 is the same for 4 seats (52 cards).
func BenchmarkBotRound4(b *testing.B) { benchRound(b, 4, LevelNormal) }

// BenchmarkBotRound4Easy is a 4-seat round of easy bots, the floor set by
// views and moves alone.
func BenchmarkBotRound4Easy(b *testing.B) { benchRound(b, 4, LevelEasy) }

// BenchmarkNormalDecision times one normal-bot decision from a view taken
// halfway through a 4-seat round, JSON round trip excluded.
func BenchmarkNormalDecision(b *testing.B) {
	s := newState(b, 4, 3)
	rng := botRNG(3)
	r := Rules{}
	for len(s.Tricks) < 6 || len(s.Trick.Plays) != 2 {
		seat := s.Current()
		name, args, err := r.Bot(LevelNormal, r.View(s, seat), seat, rng)
		if err != nil {
			b.Fatal(err)
		}
		if s, err = r.Apply(s, seat, name, args); err != nil {
			b.Fatal(err)
		}
	}
	seat := s.Current()
	v := r.View(s, seat)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := r.Bot(LevelNormal, v, seat, rng); err != nil {
			b.Fatal(err)
		}
	}
}
