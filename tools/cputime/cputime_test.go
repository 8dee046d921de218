package cputime

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	line := "4242 (a (weird) name) S 1 4242 4242 0 -1 4194560 1234 0 0 0 250 75 0 0 20 0 9 0 100 0 0"
	if got := parseStat(line); got != 3.25 {
		t.Fatalf("parseStat = %v, want 3.25 (250 + 75 ticks)", got)
	}
	for _, bad := range []string{"", "4242 no parens", "1 (x) S 1 2", "1 (x) S 1 2 3 4 5 6 7 8 9 10 x 0"} {
		if got := parseStat(bad); got != 0 {
			t.Errorf("parseStat(%q) = %v, want 0", bad, got)
		}
	}
}

// TestSelfAndProcess: CPU this process burns shows in both readings. It
// spins until rusage has counted 200 ms (or 20 s have passed on a machine
// too busy to give it that), then wants /proc to agree within its 10 ms
// ticks.
func TestSelfAndProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	s0, p0 := Self(), Process(os.Getpid())
	for end := time.Now().Add(20 * time.Second); Self()-s0 < 0.2 && time.Now().Before(end); {
	}
	s1, p1 := Self(), Process(os.Getpid())
	if s1-s0 < 0.2 {
		t.Skipf("the machine gave this test only %.3f s of CPU in 20 s", s1-s0)
	}
	if d := p1 - p0; d < 0.15 || d > s1-s0+0.05 {
		t.Fatalf("rusage counted %.3f s, /proc %.3f s", s1-s0, d)
	}
	if Process(-1) != 0 {
		t.Fatal("Process(-1) != 0")
	}
}
