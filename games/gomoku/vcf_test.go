package gomoku

import (
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// TestVCFWins plays normal against normal from many seeds and, at every
// position where the side to move has neither a five nor a five to block,
// asks for a VCF. Every VCF found must win when played out through the
// rules against every forced reply; and some must be found, or the test
// proves nothing.
func TestVCFWins(t *testing.T) {
	found := 0
	for seed := uint64(0); seed < 30; seed++ {
		st := newMatch(t)
		rng := rand.New(rand.NewPCG(seed, 11))
		for st.Status().Outcome == nil {
			seat := st.Status().Current
			b, err := boardFromView(viewOf(t, st, seat))
			if err != nil {
				t.Fatal(err)
			}
			c := colour(seat)
			if quiet(b, c) {
				if p, ok := b.vcf(c); ok {
					found++
					playOutVCF(t, st, seat, p, seed)
				}
			}
			name, args, err := st.Bot("normal", seat, rng)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if st, err = st.Apply(seat, name, args); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
		}
	}
	t.Logf("%d VCFs found and checked", found)
	if found == 0 {
		t.Fatal("no VCF found in 30 games")
	}
}

// quiet reports whether neither side can make five at once.
func quiet(b *botBoard, c cell) bool {
	for _, k := range b.candidates(c, nil) {
		if k.wins() || k.blocks() {
			return false
		}
	}
	return true
}

// playOutVCF plays the VCF that starts at first for seat, asking vcf for
// each next four, while the opponent tries every block in turn (depth
// first); every branch must end in seat's five.
func playOutVCF(t *testing.T, st games.State, seat int, first pos, seed uint64) {
	t.Helper()
	x, y := first.xy()
	st = mustApply(t, st, seat, movePlace, x, y)
	if o := st.Status().Outcome; o != nil {
		if o.Winner != games.PlayerID(seat) {
			t.Fatalf("seed %d: VCF stone lost: %+v", seed, o)
		}
		return
	}
	b, err := boardFromView(viewOf(t, st, 1-seat))
	if err != nil {
		t.Fatal(err)
	}
	c := colour(seat)
	blocks := b.fivePoints(first, c)
	if len(blocks) == 0 {
		t.Fatalf("seed %d: VCF stone %v made no four", seed, first.point())
	}
	for _, q := range blocks {
		bx, by := q.xy()
		next := mustApply(t, st, 1-seat, movePlace, bx, by)
		if o := next.Status().Outcome; o != nil {
			t.Fatalf("seed %d: the forced block won for the opponent: %+v", seed, o)
		}
		nb, err := boardFromView(viewOf(t, next, seat))
		if err != nil {
			t.Fatal(err)
		}
		// Seat wins at once if the block left a five open; else the VCF goes on.
		if win := fiveFor(nb, c); win >= 0 {
			wx, wy := win.xy()
			if o := mustApply(t, next, seat, movePlace, wx, wy).Status().Outcome; o == nil || o.Winner != games.PlayerID(seat) {
				t.Fatalf("seed %d: five at %v did not win", seed, win.point())
			}
			continue
		}
		p, ok := nb.vcf(c)
		if !ok {
			t.Fatalf("seed %d: the VCF broke after the block at %v", seed, q.point())
		}
		playOutVCF(t, next, seat, p, seed)
	}
}

// fiveFor returns a point where c makes five, or -1.
func fiveFor(b *botBoard, c cell) pos {
	for _, k := range b.candidates(c, nil) {
		if k.wins() {
			return k.p
		}
	}
	return -1
}
