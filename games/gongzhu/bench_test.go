package gongzhu

import (
	"testing"

	"github.com/chaguan/chaguan/games"
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

// benchRoundStates is every state of a 4-seat round played by easy bots
// after rounds finished rounds.
func benchRoundStates(b *testing.B, rounds int) []State {
	s := newState(b, 4, 1)
	rng := botRNG(1)
	levels := []string{LevelEasy, LevelEasy, LevelEasy, LevelEasy}
	for range rounds {
		s = playRound(b, s, levels, rng)
	}
	var out []State
	for round := s.Round; s.Round == round; {
		out = append(out, s)
		seat := s.Current()
		name, args, err := Rules{}.Bot(LevelEasy, Rules{}.View(s, seat), seat, rng)
		if err != nil {
			b.Fatal(err)
		}
		if s, err = (Rules{}).Apply(s, seat, name, args); err != nil {
			b.Fatal(err)
		}
	}
	return out
}

// BenchmarkPublicView writes the spectators' view of each state of the
// 11th round, as the room does once per move: with the round's cached
// JSON (AppendPublicView, what the room uses) and built whole (View and
// its AppendJSON).
func BenchmarkPublicView(b *testing.B) {
	states := benchRoundStates(b, 10)
	b.Run("cached", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Rules{}.AppendPublicView(nil, states[i%len(states)])
		}
	})
	b.Run("whole", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			Rules{}.View(states[i%len(states)], games.Spectator).AppendJSON(nil)
		}
	})
}

// BenchmarkStateJSON writes each state of the 11th round's JSON, as the
// record does on every move.
func BenchmarkStateJSON(b *testing.B) {
	states := benchRoundStates(b, 10)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := states[i%len(states)].AppendJSON(nil); err != nil {
			b.Fatal(err)
		}
	}
}
