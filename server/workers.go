package server

import (
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync/atomic"
)

// maxIdleWorkers is how many idle goroutines workers keeps for reuse. A
// Gong Zhu move wakes five writers and a reader per match, and 100 busy
// matches kept more than 64 tasks running at once: with 64 kept, the
// goroutines started beyond them grew their stacks anew, 3 % of the
// server's CPU in that profile, 1 % with 256. Idle, each costs its stack
// (2-8 KB): at most 2 MB for the process, nothing per connection.
const maxIdleWorkers = 256

// workers runs the short tasks of the WebSocket edge (writing a
// connection's queued frames, reading and handling one message) on reused
// goroutines. A fresh goroutine starts on the smallest stack and grows it,
// copying, on the deep write and read paths: once per task, a cost that
// showed as 8 % of the server's CPU. A reused goroutine keeps its grown
// stack. A task never waits for a worker: when none is idle it gets a new
// goroutine, so a task blocked on a slow peer holds up no other; at most
// maxIdleWorkers wait for work, the others exit.
type workers struct {
	tasks chan func() // unbuffered: a send succeeds only if a worker waits
	idle  atomic.Int32
	quit  <-chan struct{} // closed: idle workers exit
	log   *slog.Logger
}

func newWorkers(quit <-chan struct{}, log *slog.Logger) *workers {
	return &workers{tasks: make(chan func()), quit: quit, log: log}
}

// Go runs f on an idle worker, or on a new one.
func (w *workers) Go(f func()) {
	select {
	case w.tasks <- f:
	default:
		go w.work(f)
	}
}

func (w *workers) work(f func()) {
	for {
		w.run(f)
		if w.idle.Add(1) > maxIdleWorkers {
			w.idle.Add(-1)
			return
		}
		select {
		case f = <-w.tasks:
			w.idle.Add(-1)
		case <-w.quit:
			w.idle.Add(-1)
			return
		}
	}
}

// run runs one task; a panic is logged and ends only the task.
func (w *workers) run(f func()) {
	defer func() {
		if p := recover(); p != nil {
			w.log.Error("panic in a websocket task", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	f()
}
