package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// A player's own LLM endpoint (docs/llm.md, "Your own endpoint"): a create
// request may seat the bot level OwnLevel with an OpenAI-compatible
// endpoint of the player's choosing, key included. The key stays in the
// memory of the process that took the create request (Config.Own, which
// rooms/llm implements) and nowhere else: the record keeps only the seat's
// label (its name) and that process's ID (Seat.OwnHolder).
//
// Only that process decides the seat's moves. Another process that has
// the room loaded (a player connected through it) leaves the seat alone
// while the holder is alive (Liveness), checking again every
// liveCheckEvery; once the holder is gone (it restarted, so the key is
// lost) it plays the seat's fallback level, and the log entry says why
// (FallbackKeyGone). The holder keeps the room loaded while it holds the
// key (ownKeeps), so it hears every change and plays the seat's turns
// whichever process the people are connected through.

// OwnLevel is the bot level of a seat played by the creator's own LLM
// endpoint.
const OwnLevel = "llm-own"

// FallbackKeyGone is the fallback reason of an OwnLevel seat whose key
// no process holds any more: the process holding it restarted (or forgot
// it when the match sat unchanged as long as the store keeps it).
const FallbackKeyGone = "key_gone"

// ErrOwnKeyGone is the error behind FallbackKeyGone.
var ErrOwnKeyGone = errors.New("the player's LLM key is gone: the server that held it restarted")

// errOwnElsewhere: another live process holds the seat's key and plays
// it; this one waits.
var errOwnElsewhere = errors.New("the seat's own LLM is played by the process holding its key")

// OwnEngines holds, in this process's memory only, the Players of the
// seats played by players' own endpoints (rooms/llm.Own).
type OwnEngines interface {
	// Plays reports whether own endpoints may play game.
	Plays(game string) bool
	// Engine returns the level for the seat of the match whose key this
	// process holds; false when it holds none.
	Player(matchID string, seat int) (EngineLevel, bool)
	// Keep reports whether this process still holds the match's key. It
	// forgets the key (and answers false) when the match is over, or has
	// not changed since updatedAt (Unix ms) for as long as the store
	// keeps a match.
	Keep(matchID string, updatedAt int64, over bool) bool
}

// OwnBinding is a create request's own endpoint, ready to hold its key
// for the match once the match is stored.
type OwnBinding interface {
	// Label names the seat: the configuration's name, not secret.
	Label() string
	// Bind makes the endpoint the Engine of the match's OwnLevel seats.
	Bind(matchID string, seats []int)
}

// ownSeat is the seat a create asks for at OwnLevel.
func (m *Manager) ownSeat(info games.Info, p CreateParams) (Seat, error) {
	if m.cfg.Own == nil || !m.cfg.Own.Plays(info.Name) {
		return Seat{}, newError(protocol.CodeBadRequest, "bots: this server does not let players bring their own LLM (%s)", OwnLevel)
	}
	if p.Own == nil {
		if p.again { // play again: the key is not carried over
			level := builtinDefault(info)
			return Seat{Name: botName(level), Bot: level}, nil
		}
		return Seat{}, newError(protocol.CodeBadRequest, "bots: the level %s needs the endpoint in the create request's llm field", OwnLevel)
	}
	return Seat{Name: p.Own.Label(), Bot: OwnLevel, OwnHolder: m.processID()}, nil
}

// checkOwn refuses an own endpoint that no seat uses.
func checkOwn(p CreateParams) error {
	if p.Own == nil {
		return nil
	}
	for _, level := range p.Bots {
		if level == OwnLevel {
			return nil
		}
	}
	return newError(protocol.CodeBadRequest, "llm: no seat is given the level %s in bots", OwnLevel)
}

// bindOwn hands the stored match's OwnLevel seats to the create's
// endpoint.
func bindOwn(rec *Record, p CreateParams) {
	if p.Own == nil {
		return
	}
	var seats []int
	for i, s := range rec.Seats {
		if s.Bot == OwnLevel {
			seats = append(seats, i)
		}
	}
	p.Own.Bind(rec.ID, seats)
}

// playerFor is the Engine level deciding for seat at level: for OwnLevel
// the holder's Engine, or one that waits for the holder or reports the
// key gone; else the configured level's, or nil for a built-in level.
func (r *room) playerFor(game, level string, seat int) *EngineLevel {
	if level != OwnLevel {
		return r.m.player(game, level)
	}
	holder := r.rec.Seats[seat].OwnHolder
	me := r.m.processID()
	if holder == me && r.m.cfg.Own != nil {
		if pl, ok := r.m.cfg.Own.Player(r.id, seat); ok {
			return &pl
		}
	}
	return &EngineLevel{
		Engine:   ownAbsent{live: r.m.cfg.Liveness, holder: holder, local: holder == me},
		Fallback: builtinDefault(r.game.Info()),
		Timeout:  r.m.cfg.OpTimeout,
	}
}

// ownAbsent decides for an OwnLevel seat whose key this process does not
// hold: errOwnElsewhere while the holder is alive, ErrOwnKeyGone once it
// is not (or when this process was the holder and lost the key).
type ownAbsent struct {
	live   Liveness
	holder string
	local  bool
}

func (o ownAbsent) Move(ctx context.Context, _ EngineRequest) (string, json.RawMessage, error) {
	if o.local || o.live == nil || o.holder == "" {
		return "", nil, ErrOwnKeyGone
	}
	alive, err := o.live.Alive(ctx, []string{o.holder})
	if err != nil || alive[o.holder] {
		return "", nil, errOwnElsewhere // alive, or cannot tell yet: ask again later
	}
	return "", nil, ErrOwnKeyGone
}

// ownWait is an OwnLevel seat this room leaves to the process holding
// its key, at one StateID, until the next check.
type ownWait struct {
	stateID int64
	seat    int
	until   int64 // Unix ms
}

// ownBotMay is botMay, with an OwnLevel seat held by another live process
// put off until the next check of that process.
func (r *room) ownBotMay(st games.Status, seat int, unwatched bool) (string, int64, bool) {
	level, at, ok := r.botMay(st, seat, unwatched)
	if w := r.ownWait; ok && level == OwnLevel && w.stateID == r.rec.StateID && w.seat == seat {
		at = max(at, w.until)
	}
	return level, at, ok
}

// ownElsewhere notes that the holder of the seat's key is alive, and
// checks again after liveCheckEvery.
func (r *room) ownElsewhere(res botResult) {
	every := liveCheckEvery(time.Duration(r.rec.Options.GraceMs) * time.Millisecond)
	r.ownWait = ownWait{stateID: res.stateID, seat: res.seat, until: r.m.now() + every.Milliseconds()}
	r.schedule()
}

// ownKeeps reports whether this room must stay loaded because this
// process holds the key of one of its seats; it lets the key go once
// the match is over or expired.
func (r *room) ownKeeps() bool {
	if r.m.cfg.Own == nil || r.rec == nil {
		return false
	}
	return r.m.cfg.Own.Keep(r.id, r.rec.UpdatedAt, len(r.rec.Gameover) > 0)
}

// ownFallbackReason is the fallback reason of a failed decision: the key
// gone, or what ask said.
func ownFallbackReason(reason string, err error) string {
	if errors.Is(err, ErrOwnKeyGone) {
		return FallbackKeyGone
	}
	return reason
}
