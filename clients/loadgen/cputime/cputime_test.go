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

// TestSelfAndProcess: burning CPU shows in both readings of this process.
func TestSelfAndProcess(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc is Linux's")
	}
	s0, p0 := Self(), Process(os.Getpid())
	for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
	}
	s1, p1 := Self(), Process(os.Getpid())
	if s1-s0 < 0.1 || p1-p0 < 0.1 {
		t.Fatalf("300 ms of spinning read as %.3f s (rusage) and %.3f s (/proc)", s1-s0, p1-p0)
	}
	if Process(-1) != 0 {
		t.Fatal("Process(-1) != 0")
	}
}
