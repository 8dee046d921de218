package llm

import (
	"context"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
)

// A turn is one decision. The room asks the Engine twice per turn: in the
// tile phase and, when the placed tile may take a meeple, in the meeple
// phase. The Engine asks the model once, in the tile phase, with options
// that are whole turns (a placement and a meeple spot or none), plays the
// placement and remembers the meeple part; the meeple phase of the same
// turn of the same match and seat is answered from that memory without a
// request. Only when nothing is remembered (the tile phase was played by
// the fallback, or the process restarted in between) does the meeple
// phase ask the model, with the meeple options alone.

// Bounds of the turn memory: an entry waits for its meeple phase at most
// memoryTTL, and at most memoryMax entries are kept (one per match and
// seat; the oldest goes first).
const (
	memoryTTL = 10 * time.Minute
	memoryMax = 4096
)

// memoryKey is the match and seat a remembered turn belongs to.
type memoryKey struct {
	match string
	seat  int
}

// remembered is the meeple part of a turn's choice and what identifies
// the turn: its number, the board and meeples before the placement, and
// the placement.
type remembered struct {
	turn      int
	board     uint64
	x, y, rot int
	meeple    string // feature id, "" for no meeple
	at        time.Time
}

// turnMemory holds, per match and seat, the meeple part of the latest
// tile-phase choice until its meeple phase takes it. Safe for concurrent
// use.
type turnMemory struct {
	mu  sync.Mutex
	m   map[memoryKey]remembered
	now func() time.Time
}

func newTurnMemory() *turnMemory {
	return &turnMemory{m: map[memoryKey]remembered{}, now: time.Now}
}

// put remembers e for k, replacing whatever k held (an earlier turn whose
// meeple phase never came). When full it drops the expired entries, then
// the oldest.
func (tm *turnMemory) put(k memoryKey, e remembered) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	now := tm.now()
	e.at = now
	if _, ok := tm.m[k]; !ok && len(tm.m) >= memoryMax {
		var oldest memoryKey
		first := true
		for k2, e2 := range tm.m {
			if now.Sub(e2.at) > memoryTTL {
				delete(tm.m, k2)
				continue
			}
			if first || e2.at.Before(tm.m[oldest].at) {
				oldest, first = k2, false
			}
		}
		if len(tm.m) >= memoryMax {
			delete(tm.m, oldest)
		}
	}
	tm.m[k] = e
}

// take returns the meeple part remembered for k if it is for this turn,
// board and placement and not expired. Whatever k held is dropped either
// way: it is used, or stale.
func (tm *turnMemory) take(k memoryKey, turn int, board uint64, x, y, rot int) (string, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	e, ok := tm.m[k]
	if !ok {
		return "", false
	}
	delete(tm.m, k)
	if e.turn != turn || e.board != board || e.x != x || e.y != y || e.rot != rot || tm.now().Sub(e.at) > memoryTTL {
		return "", false
	}
	return e.meeple, true
}

// size is the number of entries held.
func (tm *turnMemory) size() int {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	return len(tm.m)
}

// fingerprint identifies a board and its meeples (and the scores and
// turn): the same in the tile phase (the whole board) and the meeple
// phase (the board less the tile placed this turn) of one turn.
func fingerprint(v carcassonne.View, board []carcassonne.PlacedView) uint64 {
	h := fnv.New64a()
	var buf []byte
	put := func(xs ...int) {
		for _, x := range xs {
			buf = binary.AppendVarint(buf, int64(x))
		}
	}
	put(v.Turn, v.NumPlayers, len(board))
	for _, t := range board {
		put(t.X, t.Y, t.Rotation)
		buf = append(buf, t.Type...)
	}
	put(len(v.Meeples))
	for _, m := range v.Meeples {
		put(m.Seat, m.X, m.Y)
		buf = append(buf, m.Feature...)
	}
	put(v.Scores...)
	_, _ = h.Write(buf)
	return h.Sum64()
}

// decide makes the decision of req: the whole turn in the tile phase (one
// request, or two when the first answer is refused), the remembered
// meeple part in the meeple phase. The model's reason goes with the move
// it asked the model for: the tile's placement (it speaks of the whole
// turn), or the meeple step's own question; a remembered meeple part
// gives none.
func (p *Engine) decide(ctx context.Context, req rooms.EngineRequest) (rooms.EngineMove, error) {
	v, err := readView(req.View, req.Seat)
	if err != nil {
		return rooms.EngineMove{}, err
	}
	key := memoryKey{match: req.MatchID, seat: req.Seat}
	switch v.Phase {
	case carcassonne.PhaseTile:
		pr, err := tilePrompt(v, req.Seat)
		if err != nil {
			return rooms.EngineMove{}, err
		}
		o, err := p.ask(ctx, pr)
		if err != nil {
			return rooms.EngineMove{}, err
		}
		p.memory.put(key, remembered{turn: v.Turn, board: fingerprint(v, v.Board), x: o.x, y: o.y, rot: o.rot, meeple: o.meeple})
		return rooms.EngineMove{Name: o.name, Args: o.args, Reason: o.reason}, nil
	case carcassonne.PhaseMeeple:
		if v.LastPlaced == nil || len(v.Board) < 2 {
			return rooms.EngineMove{}, fmt.Errorf("%w: no placed tile", ErrView)
		}
		lp := v.LastPlaced
		if m, ok := p.memory.take(key, v.Turn, fingerprint(v, v.Board[:len(v.Board)-1]), lp.X, lp.Y, lp.Rotation); ok {
			if m == "" {
				return rooms.EngineMove{Name: carcassonne.MoveSkipMeeple, Args: games.Args()}, nil
			}
			for _, o := range v.MeepleOptions {
				if o.Feature == m {
					return rooms.EngineMove{Name: carcassonne.MovePlaceMeeple, Args: games.Args(carcassonne.MeepleArgs{Feature: m})}, nil
				}
			}
			// Not an option now (it always is: the tile phase computed
			// the same options): ask.
		}
		pr, err := meeplePrompt(v, req.Seat)
		if err != nil {
			return rooms.EngineMove{}, err
		}
		o, err := p.ask(ctx, pr)
		if err != nil {
			return rooms.EngineMove{}, err
		}
		return rooms.EngineMove{Name: o.name, Args: o.args, Reason: o.reason}, nil
	}
	return rooms.EngineMove{}, fmt.Errorf("%w: phase %q", ErrView, v.Phase)
}

// maxEcho bounds the refused answer sent back to the model with the
// second try (its end, where a choice would be), and maxRetryText the
// message that says why it was refused.
const (
	maxEcho      = 120
	maxRetryText = 300
)

// ask puts pr to the model. An answer that names no listed option is
// refused and asked once more, in the same conversation: the answer as
// the assistant's message, then why it was refused; a second refusal is
// the error (wrapping ErrMalformed or ErrNoOption, with the reason). An
// endpoint error is returned at once.
func (p *Engine) ask(ctx context.Context, pr prompt) (choice, error) {
	numbers := pr.numbers()
	a, err := p.complete(ctx, pr.system, pr.user, numbers)
	if err != nil {
		return choice{}, err
	}
	o, why := pr.read(a)
	if why == nil {
		return p.withReason(o), nil
	}
	why = p.safe(why)
	said := a.content
	if strings.TrimSpace(said) == "" {
		said = "(no answer)"
	} else if len(said) > maxEcho {
		said = "…" + strings.ToValidUTF8(said[len(said)-maxEcho:], "")
	}
	a2, err := p.complete(ctx, pr.system, pr.user, numbers, said, retryText(why, pr))
	if err != nil {
		return choice{}, err
	}
	o, why2 := pr.read(a2)
	if why2 == nil {
		return p.withReason(o), nil
	}
	return choice{}, p.safe(fmt.Errorf("%w (asked twice; the first answer was refused too)", why2))
}

// retryText is the user's reply to a refused answer, at most
// maxRetryText bytes.
func retryText(why error, pr prompt) string {
	ask := fmt.Sprintf(". Reply again with exactly {\"option\": N}, N from %d to %d, and nothing else.", pr.first, pr.last())
	const intro = "Your answer was refused: "
	reason := strings.TrimPrefix(why.Error(), "llm: ")
	if room := maxRetryText - len(intro) - len(ask); len(reason) > room {
		reason = strings.ToValidUTF8(reason[:max(room-len("…"), 0)], "") + "…"
	}
	return intro + reason + ask
}

// withReason is o with its reason made safe to show: the key's text
// replaced once more (cleaning may have joined a key split by invisible
// characters), one line, capped.
func (p *Engine) withReason(o choice) choice {
	o.reason = rooms.CleanReason(p.key.scrub(o.reason))
	return o
}

// read is the listed option an answer names, with the answer's reason,
// or why there is none (ErrMalformed or ErrNoOption).
func (pr prompt) read(a answer) (choice, error) {
	n, reason, err := a.choiceReason()
	if err != nil {
		return choice{}, err
	}
	o, ok := pr.option(n)
	if !ok {
		return choice{}, fmt.Errorf("%w: option %d is not listed (%d to %d)", ErrNoOption, n, pr.first, pr.last())
	}
	o.reason = reason
	return o, nil
}

// conversation is the messages of a request: the system message, the
// user's, then more, alternately the assistant's and the user's.
func conversation(system, user string, more []string) []openai.ChatCompletionMessageParamUnion {
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(system), openai.UserMessage(user)}
	for i, m := range more {
		if i%2 == 0 {
			msgs = append(msgs, openai.AssistantMessage(m))
		} else {
			msgs = append(msgs, openai.UserMessage(m))
		}
	}
	return msgs
}
