package rooms

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// botLevel says whether the bot plays seat now and at which level: a bot's
// seat, a seat whose person left or asked for autoplay, or (once its grace
// has run out) a seat whose person is away. at is the earliest Unix ms at
// which the bot may move. st is the room's current status.
func (r *room) botLevel(st games.Status, seat int) (level string, at int64, ok bool) {
	s := r.rec.Seats[seat]
	delay := r.changed + r.rec.Options.BotDelayMs
	switch {
	case s.Bot != "":
		return s.Bot, delay, true
	case s.CredHash == "":
		return "", 0, false // a free seat: the match has not started
	case s.Autoplay:
		return r.m.defaultBot(r.game.Info()), delay, true
	}
	// A person's seat: the bot covers when the grace of an away player or
	// the seat's clock runs out, whichever comes first.
	deadline, clocked := r.rec.Clocks.deadline(st, seat)
	if s.Processes == 0 && s.AwaySince > 0 {
		at := s.AwaySince + r.rec.Options.GraceMs
		if clocked {
			at = min(at, deadline)
		}
		return r.m.defaultBot(r.game.Info()), max(delay, at), true
	}
	if clocked {
		return r.m.defaultBot(r.game.Info()), max(delay, deadline), true
	}
	return "", 0, false
}

// timedOut reports whether a bot move for seat now is a timeout: the seat
// is a person's (not on autoplay) and its clock has run out in status st.
func (r *room) timedOut(st games.Status, seat int) bool {
	s := r.rec.Seats[seat]
	deadline, clocked := r.rec.Clocks.deadline(st, seat)
	return clocked && s.CredHash != "" && !s.Autoplay && deadline <= r.m.now()
}

// schedule arms the bot timer for the earliest seat a bot must move for.
// It is called after every change; a bot already thinking reschedules when
// it answers.
func (r *room) schedule() {
	if r.bot != nil {
		r.bot.Stop()
		r.bot, r.botC = nil, nil
	}
	if len(r.rec.Gameover) > 0 {
		r.ownKeeps() // an own LLM's key goes with the match's end
	}
	if r.botBusy || !r.rec.started() || len(r.rec.Gameover) > 0 || r.botFailed == r.rec.Version {
		return
	}
	st := r.st.Status()
	if st.Outcome != nil {
		return
	}
	unwatched := r.abandoned()
	var first int64
	found := false
	for _, seat := range st.Movers(r.rec.NumPlayers) {
		if _, at, ok := r.ownBotMay(st, seat, unwatched); ok && (!found || at < first) {
			first, found = at, true
		}
	}
	if !found {
		return
	}
	wait := time.Duration(first-r.m.now()) * time.Millisecond
	if unwatched && wait > clockSoon && r.m.watchesClocks() {
		// Only a clock can run out here, and not soon: the room may
		// unload, and the manager's poller brings it back in time.
		return
	}
	r.bot = time.NewTimer(max(wait, 0))
	r.botC = r.bot.C
}

// botMay is botLevel for a room that nobody may be watching: while the
// match is unwatched (abandoned), the bot moves only for a person whose
// turn clock has run out, so that a timeout lands with nobody there; bots'
// own seats, autoplay and the grace of an away player wait for somebody
// to come back.
func (r *room) botMay(st games.Status, seat int, unwatched bool) (level string, at int64, ok bool) {
	level, at, ok = r.botLevel(st, seat)
	if !ok || !unwatched {
		return level, at, ok
	}
	s := r.rec.Seats[seat]
	deadline, clocked := r.rec.Clocks.deadline(st, seat)
	if !clocked || s.Bot != "" || s.CredHash == "" || s.Autoplay {
		return "", 0, false
	}
	return level, max(r.changed+r.rec.Options.BotDelayMs, deadline), true
}

// abandoned reports whether nobody is connected to the match: neither a
// viewer here nor a seated person through any process (Seat.Processes).
// Bots then stop: they would otherwise play such a match to its end (or
// forever) for nobody, burning CPU and growing the record; stopped, the
// room unloads and the record expires. Only a person's turn clock running
// out still plays (botMay). A viewer connecting resumes it (connect calls
// schedule), and so does a person connecting through another process (its
// presence write reaches here).
func (r *room) abandoned() bool {
	return len(r.viewers) == 0 && !personConnected(r.rec)
}

// personConnected reports whether a person holding a seat of rec is
// connected through some process.
func personConnected(rec *Record) bool {
	for _, s := range rec.Seats {
		if s.CredHash != "" && s.Bot == "" && s.Processes > 0 {
			return true
		}
	}
	return false
}

// fireBot starts thinking for the first seat whose bot may move now. The
// bot runs on its own goroutine with an immutable state and answers with
// the stateID it thought about; a stale answer is dropped.
func (r *room) fireBot() {
	r.bot = nil
	now := r.m.now()
	st := r.st.Status()
	unwatched := r.abandoned()
	for _, seat := range st.Movers(r.rec.NumPlayers) {
		level, at, ok := r.ownBotMay(st, seat, unwatched)
		if !ok || at > now {
			continue
		}
		if wait := r.waitForBudget(); wait > 0 {
			r.bot = time.NewTimer(wait)
			r.botC = r.bot.C
			return
		}
		r.botBusy = true
		info := r.game.Info()
		player := r.playerFor(info.Name, level, seat)
		if player != nil {
			r.startThinking(seat)
		}
		go botJob{
			ctx: r.m.ctx, st: r.st, version: r.rec.Version, stateID: r.rec.StateID, game: info.Name, matchID: r.id, seat: seat, level: level,
			player: player, log: r.log, metrics: r.m.cfg.Metrics,
		}.think(r.results)
		return
	}
	r.schedule()
}

// thinking is an Engine level's decision in progress, as the room shows
// it (protocol.Thinking): once the Engine has taken thinkingAfter, every
// viewer's state says which seat is thinking since when, until its move
// (or the fallback's) is played.
type thinking struct {
	seat  int
	seq   int64 // the Record.StateID the decision is for
	since int64 // Unix ms: when the seat began deciding at seq
	shown bool  // the viewers have been told
}

// startThinking notes that an Engine decision for seat starts now. The
// same decision asked again (the seat's move at the same Seq: its
// answer was not played) keeps its start, so the seconds shown count on.
func (r *room) startThinking(seat int) {
	since := r.m.now()
	if t := r.think; t.seat == seat && t.seq == r.rec.StateID && t.since > 0 {
		since = t.since
	}
	r.think = thinking{seat: seat, seq: r.rec.StateID, since: since}
}

// thinkingNow is the wire Thinking of the current state, or nil: shown
// only while the decision is for the state on show.
func (r *room) thinkingNow() *protocol.Thinking {
	t := r.think
	if !t.shown || !r.botBusy || t.seq != r.rec.StateID {
		return nil
	}
	return &protocol.Thinking{PlayerID: games.PlayerID(t.seat), Since: t.since, ServerTime: r.m.now()}
}

// botNote is what the log entry of a bot's move says beyond the move:
// the Engine's reason, or that the fallback level played it and why.
type botNote struct {
	seat     int
	reason   string
	fallback *protocol.LogFallback
}

// think decides the job's move and sends it, with the stateID it is for,
// on out. An Engine level that fails plays its fallback built-in level.
func (j botJob) think(out chan<- botResult) {
	res := botResult{version: j.version, stateID: j.stateID, seat: j.seat}
	defer func() {
		if p := recover(); p != nil {
			res.err = fmt.Errorf("bot panic: %v\n%s", p, debug.Stack())
		}
		out <- res
	}()
	defer j.timeDecision(time.Now())
	level := j.level
	if j.player != nil {
		// An Engine that takes a while: tell the room, which tells the
		// viewers. The channel is empty (the room reads each job's
		// answer before it starts the next), so this never waits.
		slow := func() {
			select {
			case out <- botResult{version: j.version, stateID: j.stateID, seat: j.seat, thinking: true}:
			default:
			}
		}
		mv, reason, err := j.ask(slow)
		switch {
		case err == nil:
			res.name, res.args, res.reason = mv.Name, mv.Args, mv.Reason
			return
		case j.ctx.Err() != nil: // the manager is stopping: nobody waits
			res.err = err
			return
		case errors.Is(err, errOwnElsewhere): // the key's process plays it (ownllm.go)
			res.err = errOwnElsewhere
			return
		}
		reason = ownFallbackReason(reason, err)
		j.fallBack(reason, err)
		level = j.player.Fallback
		res.fallback = &protocol.LogFallback{Level: level, Reason: reason}
	}
	rng := rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	res.name, res.args, res.err = j.st.Bot(level, j.seat, rng)
}

// onBotResult plays a bot's answer. The answer stands while the game state
// it was decided from is current (the same Seq: a presence change or a
// rename in the meantime leaves the position as it was, and an Engine's
// decision can take many seconds); the seat is checked again.
func (r *room) onBotResult(res botResult) {
	if res.thinking {
		// An Engine is taking a while: every viewer learns it.
		if t := r.think; r.botBusy && !t.shown && t.seat == res.seat && t.seq == res.stateID && res.stateID == r.rec.StateID {
			r.think.shown = true
			r.broadcast(nil, nil)
		}
		return
	}
	r.botBusy = false
	// Thinking ends with the answer; a state that showed it is followed
	// by one that does not (the move's, or untold below).
	told := r.think.shown && r.think.seq == r.rec.StateID
	r.think.shown = false
	untell := func() {
		if told {
			r.broadcast(nil, nil)
		}
	}
	if errors.Is(res.err, errOwnElsewhere) {
		untell()
		r.ownElsewhere(res)
		return
	}
	if res.stateID != r.rec.StateID {
		r.schedule()
		return
	}
	// The seat may have been reclaimed (a person reconnected) while the bot
	// thought: check again before playing for it.
	st := r.st.Status()
	level, at, ok := r.botMay(st, res.seat, r.abandoned())
	if !ok || at > r.m.now() {
		if !ok { // the seat is no longer the bot's: its next decision starts afresh
			r.think.since = 0
		}
		untell()
		r.schedule()
		return
	}
	if res.err != nil {
		r.log.Error("bot failed", "seat", res.seat, "version", res.version, "err", res.err)
		r.botFailed = r.rec.Version
		untell()
		return
	}
	if res.reason != "" || res.fallback != nil {
		r.note = &botNote{seat: res.seat, reason: res.reason, fallback: res.fallback}
	}
	err := r.playAs(res.seat, res.name, res.args, &r.rec.StateID, r.timedOut(st, res.seat))
	r.note = nil
	if err != nil {
		if err.Code != protocol.CodeStaleState {
			r.log.Error("bot move refused", "seat", res.seat, "version", res.version, "move", res.name, "code", err.Code)
			r.botFailed = r.rec.Version
		}
		untell()
		r.schedule()
		return
	}
	r.m.cfg.Metrics.BotMove(r.rec.Game, level)
	r.broadcast(nil, nil)
	r.schedule()
}

// waitForBudget takes this room's next bot move from the process's bot
// budget (Config.BotRate): 0 when the move may go now, else how long to
// wait for its turn. The token is reserved at once, in the order rooms
// ask, so a room whose bots move without pause cannot starve the others:
// each room waits for its own turn, and the turn it waited for is kept
// (botTicket) when its timer fires.
func (r *room) waitForBudget() time.Duration {
	if r.m.bots == nil || r.botTicket {
		r.botTicket = false
		return 0
	}
	if d := r.m.bots.Reserve().Delay(); d > 0 {
		r.botTicket = true
		return d
	}
	return 0
}
