package redisstore

import (
	"context"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// maxBatch caps how many commands one pipeline carries.
const maxBatch = 256

// batchTimeout bounds one pipeline's round trip when no caller's context
// sets a shorter one; go-redis's read and write timeouts apply as well.
const batchTimeout = 10 * time.Second

// batcher sends the commands that many goroutines issue at the same time
// together, in one pipeline: each command is still exactly one round trip
// for its caller, but under load the commands of many matches share one
// write and one read on each side, which is most of what a small command
// costs Redis and the server. A few workers take turns, so an idle store
// adds no wait: a command sent while a worker is free goes out at once, and
// the commands queued while every worker waits for Redis leave together
// with the next free worker.
type batcher struct {
	c     redis.UniversalClient
	wait  *waiter // sends the batches when waiting is on (wait.go)
	queue chan *call
	quit  chan struct{}
	wg    sync.WaitGroup
	once  sync.Once
}

// call is one command waiting for its pipeline.
type call struct {
	ctx  context.Context
	cmd  redis.Cmder
	done chan struct{}
}

var callPool = sync.Pool{New: func() any { return &call{done: make(chan struct{}, 1)} }}

// release returns a call no worker holds to the pool.
func (c *call) release() {
	c.ctx, c.cmd = nil, nil
	callPool.Put(c)
}

func newBatcher(c redis.UniversalClient, workers int, wait *waiter) *batcher {
	b := &batcher{c: c, wait: wait, queue: make(chan *call, maxBatch), quit: make(chan struct{})}
	for range workers {
		b.wg.Add(1)
		go b.work()
	}
	return b
}

// do sends cmd in the next pipeline and waits for its reply. It returns
// nil once cmd holds its reply (or its own error), and otherwise why it
// stopped waiting (ctx ended, the store closed): then cmd may still run and
// must not be read, and the caller cannot know whether it ran.
func (b *batcher) do(ctx context.Context, cmd redis.Cmder) error {
	c := callPool.Get().(*call)
	c.ctx, c.cmd = ctx, cmd
	select {
	case b.queue <- c:
	case <-ctx.Done():
		c.release()
		return ctx.Err()
	case <-b.quit:
		c.release()
		return errClosed
	}
	select {
	case <-c.done:
		c.release() // the worker is done with it
		return nil
	case <-ctx.Done():
		// A worker may still hold c and signal done: leave c to the
		// garbage collector rather than the pool.
		return ctx.Err()
	case <-b.quit:
		return errClosed
	}
}

func (b *batcher) work() {
	defer b.wg.Done()
	batch := make([]*call, 0, maxBatch)
	cmds := make([]redis.Cmder, 0, maxBatch)
	for {
		select {
		case c := <-b.queue:
			batch = append(batch[:0], c)
		case <-b.quit:
			return
		}
	fill:
		for len(batch) < maxBatch {
			select {
			case c := <-b.queue:
				batch = append(batch, c)
			default:
				break fill
			}
		}
		b.exec(batch, cmds[:0])
	}
}

// exec sends one batch: a single command as it is, more as a pipeline. The
// pipeline's deadline is the earliest of its callers' (batchTimeout at
// most), so no caller waits past its own.
func (b *batcher) exec(batch []*call, cmds []redis.Cmder) {
	deadline := time.Now().Add(batchTimeout)
	for _, c := range batch {
		if d, ok := c.ctx.Deadline(); ok && d.Before(deadline) {
			deadline = d
		}
		cmds = append(cmds, c.cmd)
	}
	var ctx context.Context
	cancel := context.CancelFunc(func() {})
	if d, ok := batch[0].ctx.Deadline(); ok && len(batch) == 1 && !d.After(deadline) {
		// One caller, whose own deadline is the pipeline's: its context
		// serves as it is, without a second timer (most writes of a
		// lightly loaded store go alone).
		ctx = batch[0].ctx
	} else {
		ctx, cancel = context.WithDeadline(context.Background(), deadline)
	}
	if b.wait != nil {
		b.wait.send(ctx, cmds) // with a wait behind them
	} else if len(cmds) == 1 {
		b.c.Process(ctx, cmds[0])
	} else {
		p := b.c.Pipeline()
		for _, cmd := range cmds {
			p.Process(ctx, cmd)
		}
		p.Exec(ctx) // each command carries its own error
	}
	cancel()
	for _, c := range batch {
		c.done <- struct{}{}
	}
	clear(cmds)
}

// close stops the workers once their current batch is answered; later
// calls fail with errClosed.
func (b *batcher) close() {
	b.once.Do(func() { close(b.quit) })
	b.wg.Wait()
}
