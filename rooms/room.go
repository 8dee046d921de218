package rooms

import (
	"context"
	"fmt"
	"log/slog"
	"runtime/debug"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// room is the one goroutine that owns a live match in this process. All of
// its fields are owned by that goroutine, except inbox and done.
type room struct {
	m     *Manager
	id    string
	game  games.Game
	inbox chan command
	done  chan struct{} // closed when the goroutine has exited
	log   *slog.Logger

	rec      *Record
	st       games.State
	changed  int64 // Unix ms when the current state was taken
	viewers  map[*Viewer]struct{}
	wire     wireCache   // encoded players and log, reused between changes
	last     *frame      // the latest frame sent (its views are reused while the state stays)
	diffs    differ      // the patches' scratch buffers, kept from one broadcast to the next
	presence map[int]int // live local connections per seat

	events    <-chan Event
	unsub     func()
	subName   string // the subscription's name for QuietUpdater; "" without one
	recBuf    []byte // the memory of the last record UpdateQuiet took, for the next
	bot       *time.Timer
	botC      <-chan time.Time
	botBusy   bool
	botFailed int64 // stateID at which a bot failed; no retry at it
	// botTicket is set while the room waits for a bot move it reserved
	// from the process's budget (waitForBudget).
	botTicket bool
	// think is the Engine decision in progress and note the log note of
	// the bot move being played (bots.go).
	think thinking
	note  *botNote
	// due is when the record's next clock runs out as this room last told
	// the store's DueIndex (dueclocks.go); -1 when unknown.
	due     int64
	results chan botResult
	idle    *time.Timer
	idleC   <-chan time.Time
	live    *time.Timer // the next check of the other processes (liveness.go)
	liveC   <-chan time.Time
	ownWait ownWait // an own LLM seat left to the process holding its key (ownllm.go)
}

// startRoom creates and starts the room for id; m.mu must be held.
func (m *Manager) startRoom(id string, g games.Game) *room {
	r := &room{
		m: m, id: id, game: g,
		inbox:    make(chan command, m.cfg.InboxSize),
		done:     make(chan struct{}),
		log:      m.cfg.Logger.With("match", id),
		viewers:  map[*Viewer]struct{}{},
		presence: map[int]int{},
		results:  make(chan botResult, 1),
		due:      -1,
	}
	m.rooms[id] = r
	m.cfg.Metrics.RoomsLoaded(1)
	m.wg.Add(1)
	go r.run()
	return r
}

func (r *room) run() {
	defer r.m.wg.Done()
	defer r.m.cfg.Metrics.RoomsLoaded(-1)
	if err := r.load(); err != nil {
		r.fail(err)
		return
	}
	defer r.unsub()
	for {
		select {
		case <-r.m.ctx.Done():
			r.exit()
			return
		case <-r.m.drain:
			r.drainAndExit()
			return
		case cmd := <-r.inbox:
			r.dispatch(cmd)
		case ev := <-r.events:
			r.dispatch(ev)
		case <-r.botC:
			r.botC = nil
			r.dispatch(botTimer{})
		case res := <-r.results:
			r.dispatch(res)
		case <-r.liveC:
			r.liveC = nil
			r.dispatch(liveTimer{})
		case <-r.idleC:
			r.idleC = nil
			if r.idleNow() && !r.ownKeeps() && r.tryExit() {
				return
			}
		}
		r.armIdle()
	}
}

// Timer-driven work of run, handled through dispatch like commands.
type (
	botTimer  struct{} // the bot's timer fired: fireBot
	liveTimer struct{} // the liveness check's timer fired: checkHolders
)

// load subscribes first, then reads, so no update falls between the two.
// A panic in the game's code (loading the state, its status) fails the
// load with an internal error instead of killing the process.
func (r *room) load() (err error) {
	ctx, cancel := context.WithTimeout(r.m.ctx, r.m.cfg.OpTimeout)
	defer cancel()
	var (
		events <-chan Event
		unsub  func()
		name   string
	)
	if qu, ok := r.m.cfg.Store.(QuietUpdater); ok {
		events, unsub, name, err = qu.SubscribeNamed(r.m.ctx, r.id)
	} else {
		events, unsub, err = r.m.cfg.Store.Subscribe(r.m.ctx, r.id)
	}
	if err != nil {
		return AsError(err)
	}
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("panic loading room", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = newError(protocol.CodeInternal, "internal error")
		}
		if err != nil {
			unsub()
		}
	}()
	rec, err := r.m.cfg.Store.Get(ctx, r.id)
	if err == nil {
		err = r.takeRecord(rec)
	}
	if err != nil {
		return AsError(err)
	}
	r.events, r.unsub, r.subName = events, unsub, name
	r.noteDue(r.rec, r.st.Status())
	r.schedule()
	r.armLiveCheck(true)
	return nil
}

// fail answers every queued command with err and removes the room.
func (r *room) fail(err error) {
	r.m.mu.Lock()
	r.unregisterLocked()
	r.m.mu.Unlock()
	for {
		select {
		case cmd := <-r.inbox:
			if c, ok := cmd.(cmdConnect); ok {
				c.reply <- err
			}
		default:
			return
		}
	}
}

// tryExit unloads an idle room unless a command arrived meanwhile.
func (r *room) tryExit() bool {
	r.m.mu.Lock()
	defer r.m.mu.Unlock()
	if len(r.inbox) > 0 {
		return false
	}
	r.unregisterLocked()
	return true
}

// unregisterLocked removes the room from the manager and marks it done, so
// new commands start a fresh room; r.m.mu must be held.
func (r *room) unregisterLocked() {
	delete(r.m.rooms, r.id)
	close(r.done)
}

// offer queues cmd without blocking: a full inbox is an error to the caller.
func (r *room) offer(cmd command) error {
	select {
	case r.inbox <- cmd:
		return nil
	default:
		return newError(protocol.CodeRateLimited, "the room is busy; slow down")
	}
}

// drainAndExit handles the commands already queued, stores that this
// process's players left, and stops the room (Manager.Close).
func (r *room) drainAndExit() {
	for more := true; more; {
		select {
		case cmd := <-r.inbox:
			r.dispatch(cmd)
		default:
			more = false
		}
	}
	r.dispatch(cmdDepart{})
	r.exit()
}

func (r *room) exit() {
	r.m.mu.Lock()
	r.unregisterLocked()
	r.m.mu.Unlock()
	for v := range r.viewers {
		v.sink.Close()
	}
}

func (r *room) idleNow() bool {
	return len(r.viewers) == 0 && r.botC == nil && !r.botBusy
}

func (r *room) armIdle() {
	if !r.idleNow() {
		if r.idle != nil {
			r.idle.Stop()
			r.idle, r.idleC = nil, nil
		}
		return
	}
	if r.idleC == nil {
		r.idle = time.NewTimer(r.m.cfg.IdleUnload)
		r.idleC = r.idle.C
	}
}

// dispatch handles one command, store event or timer; a panic (in game code,
// most likely) is logged and answered with an internal error (to every
// viewer when no one viewer asked) instead of killing the process. The
// state is unchanged because games never mutate their input.
func (r *room) dispatch(cmd any) {
	defer func() {
		if p := recover(); p != nil {
			r.log.Error("panic in room", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			internal := newError(protocol.CodeInternal, "internal error")
			switch c := cmd.(type) {
			case cmdMove:
				r.sendError(c.v, internal, c.id)
			case cmdConnect:
				c.reply <- internal
			case botResult:
				r.botBusy, r.botFailed = false, r.rec.Version
			case botTimer:
				r.botBusy, r.botFailed = false, r.rec.Version
				r.tellViewers(internal)
			case Event, liveTimer: // a change this room cannot show
				r.tellViewers(internal)
			}
		}
	}()
	switch c := cmd.(type) {
	case Event:
		r.onEvent(c)
	case botTimer:
		r.fireBot()
	case liveTimer:
		r.checkHolders()
		r.armLiveCheck(false)
	case cmdRecord:
		if c.rec.Version > r.rec.Version {
			r.takeAndShow(c.rec)
		} else {
			r.schedule()
		}
	case cmdConnect:
		r.refreshIfStale() // resync.go
		c.reply <- r.connect(c)
	case cmdDisconnect:
		r.disconnect(c.v)
	case cmdMove:
		r.onMove(c)
	case cmdSync:
		if _, ok := r.viewers[c.v]; ok {
			r.refreshIfStale() // resync.go
			r.sendState(c.v, nil)
			// Re-arm the bot's timer from the stored times: a turn clock
			// whose timer a suspended machine missed catches up.
			r.schedule()
		}
	case cmdChat:
		r.onChat(c)
	case cmdAutoplay:
		r.onAutoplay(c)
	case botResult:
		r.onBotResult(c)
	case cmdDepart:
		r.depart()
	case cmdClockDue:
		r.onClockDue()
	}
}

// tellViewers sends every viewer the error e.
func (r *room) tellViewers(e *Error) {
	for v := range r.viewers {
		r.sendError(v, e, nil)
	}
}

// onEvent takes a record newer than the room's, from the event or, for a
// notice, from the store; the echo of the room's own write is skipped
// before anything is decoded or read.
func (r *room) onEvent(ev Event) {
	switch {
	case ev.RecordVersion() > r.rec.Version:
		rec, err := ev.Load()
		if err != nil {
			r.log.Error("bad event from the store", "err", err)
			return
		}
		if rec == nil { // a notice: the record is in the store
			if _, err := r.refresh(); err != nil {
				r.log.Warn("cannot read the record an event announced", "version", ev.RecordVersion(), "err", err)
			}
			return
		}
		r.takeAndShow(rec)
	case ev.Resync: // resync.go
		r.resync()
	case ev.Chat != nil:
		b := mustMarshal(ev.Chat)
		for v := range r.viewers {
			// A viewer whose queue a burst of chat fills misses that line
			// but stays: only a state or an answer that finds no room
			// marks a viewer as too slow (send).
			v.sink.Send(b, KindOther)
		}
	}
}
