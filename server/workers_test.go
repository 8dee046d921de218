package server

import (
	"log/slog"
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestWorkers: tasks run, each exactly once; a panicking task ends only
// itself; goroutines are reused (sequential tasks run on one goroutine);
// at most maxIdleWorkers stay, and they exit when quit closes.
func TestWorkers(t *testing.T) {
	quit := make(chan struct{})
	w := newWorkers(quit, slog.New(slog.DiscardHandler))
	base := runtime.NumGoroutine()

	w.Go(func() { panic("boom") })
	var wg sync.WaitGroup
	for range 50 { // one at a time: each should find the same idle worker
		wg.Add(1)
		w.Go(wg.Done)
		wg.Wait()
		waitFor(t, func() bool { return w.idle.Load() >= 1 })
	}
	// A worker counts itself idle just before it waits, so a task sent in
	// that instant gets a new goroutine; that, and any other goroutine of
	// the process starting meanwhile, costs a few, not one per task.
	if n := runtime.NumGoroutine() - base; n > 10 {
		t.Fatalf("%d goroutines for 51 sequential tasks, want them reused", n)
	}

	// Many at once: each gets a goroutine, none waits for another.
	const burst = 200
	release := make(chan struct{})
	var started sync.WaitGroup
	for range burst {
		started.Add(1)
		wg.Add(1)
		w.Go(func() {
			defer wg.Done()
			started.Done()
			<-release
		})
	}
	started.Wait() // would hang if a task waited for a free worker
	close(release)
	wg.Wait()
	waitFor(t, func() bool { return runtime.NumGoroutine()-base <= maxIdleWorkers })
	close(quit)
	waitFor(t, func() bool { return runtime.NumGoroutine() <= base })
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5 s")
		}
		time.Sleep(time.Millisecond)
	}
}
