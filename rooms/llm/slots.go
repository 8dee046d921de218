package llm

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/chaguan/chaguan/rooms"
)

// DefaultMax bounds the requests in flight to one endpoint when its
// Endpoint sets no Max: every room seating the level shares them.
const DefaultMax = 4

// MaxMax is the largest Max a -llm flag may set.
const MaxMax = 256

// ErrBusy: every request slot of the endpoint stayed taken until the
// decision's deadline. It wraps rooms.ErrEngineBusy, so the room counts
// the fallback with the reason "busy".
var ErrBusy = fmt.Errorf("llm: endpoint busy (%w)", rooms.ErrEngineBusy)

// slotReserve is how much of a decision's remaining time a wait for a slot
// leaves unused: a fifth of it, at most a second. Giving up before the
// deadline lets the room hear "busy" rather than "timeout" even on a busy
// machine, and a slot won in the last instant could not finish a request
// anyway.
func slotReserve(left time.Duration) time.Duration {
	return min(left/5, time.Second)
}

// slots is a counting semaphore: at most cap(ch) requests at a time.
type slots struct {
	ch      chan struct{}
	waiting atomic.Int64 // decisions waiting for a slot
}

func newSlots(n int) *slots { return &slots{ch: make(chan struct{}, n)} }

// acquire takes a slot, waiting while all are taken until shortly before
// ctx's deadline (see slotReserve). It returns ErrBusy when that comes
// first, or ctx's error when ctx is cancelled. Each successful acquire
// must be followed by one release.
func (s *slots) acquire(ctx context.Context) error {
	select {
	case s.ch <- struct{}{}:
		return nil
	default:
	}
	wait := ctx
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, dl.Add(-slotReserve(time.Until(dl))))
		defer cancel()
	}
	s.waiting.Add(1)
	defer s.waiting.Add(-1)
	select {
	case s.ch <- struct{}{}:
		return nil
	case <-wait.Done():
	}
	if err := ctx.Err(); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("%w: all %d request slots stayed taken", ErrBusy, cap(s.ch))
}

// release gives back a slot taken by acquire.
func (s *slots) release() { <-s.ch }

// inFlight reports how many slots are taken.
func (s *slots) inFlight() int { return len(s.ch) }

// queued reports how many decisions wait for a slot.
func (s *slots) queued() int { return int(s.waiting.Load()) }
