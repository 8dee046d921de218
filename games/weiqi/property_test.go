package weiqi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// randomGame plays up to n random legal moves (passes included, never
// into scoring) from an empty board of size, seeded by seed.
func randomGame(t testing.TB, size, n int, seed uint64) State {
	rng := rand.New(rand.NewPCG(seed, 3))
	s := newState(size, 7.5)
	for len(s.moves) < n {
		if s.passes == 0 && rng.IntN(40) == 0 {
			_ = s.play(passMove)
			continue
		}
		played := false
		for _, p := range rng.Perm(size * size) {
			if s.board.pts[p] != Empty {
				continue
			}
			next := s.owned()
			if next.play(p) == nil {
				s, played = next, true
				break
			}
		}
		if !played {
			break
		}
	}
	return s
}

// TestStonesAccountFor: on every position of random games, the stones on
// the board plus the stones captured equal the stones played, per colour,
// and the stored form replays to the same position.
func TestStonesAccountFor(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	for g := 0; g < games; g++ {
		size := []int{9, 13, 19}[g%3]
		s := randomGame(t, size, 3*size*size/2, uint64(g))
		var played [2]int
		for i, m := range s.moves {
			if m != passMove {
				played[i%2]++
			}
		}
		// captured[c] counts stones colour c took from the other colour.
		for c := 0; c < 2; c++ {
			onBoard := s.board.count(Stone(c + 1))
			if onBoard+s.captured[1-c] != played[c] {
				t.Fatalf("game %d (seed %d): colour %d: %d on board + %d captured != %d played", g, g, c, onBoard, s.captured[1-c], played[c])
			}
		}
		b, _ := json.Marshal(s)
		var back State
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("seed %d: reload: %v", g, err)
		}
		if vb, vs := mustJSON(t, view(back)), mustJSON(t, view(s)); !bytes.Equal(vb, vs) {
			t.Fatalf("seed %d: reloaded view differs", g)
		}
	}
}

func mustJSON(t testing.TB, v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// BenchmarkPlay19 is one stone played on 19x19 with the superko check,
// on positions from a random game (ns per move).
func BenchmarkPlay19(b *testing.B) {
	s := randomGame(b, 19, 250, 1)
	empties := []int{}
	for p, c := range s.board.pts {
		if c == Empty {
			empties = append(empties, p)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, _ = rules.Apply(s, s.toMove(), movePlay, []byte(`["`+pointName(empties[i%len(empties)], 19)+`"]`))
	}
}

// BenchmarkRandomGame19 is a whole random 19x19 game of 400 moves through
// the immutable rules.
func BenchmarkRandomGame19(b *testing.B) {
	for i := 0; i < b.N; i++ {
		randomGame(b, 19, 400, uint64(i))
	}
}
