package weiqi

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// errBadView is returned for a view no weiqi state could have produced.
var errBadView = errors.New("weiqi: malformed view")

// normalPlayouts is the normal bot's budget per move, on every size: a
// fixed playout count (the rules have no clock). BenchmarkNormal9/19 give
// the time per move.
const normalPlayouts = 3000

// chooseBot is Rules.Bot. Both levels agree to every undo and scoring
// request of the opponent and, in scoring, answer with ScoringReply on
// their own Monte-Carlo dead-stone judgement (judgeDead). In play, "easy"
// places a uniformly random legal stone that does not fill its own eye
// (and passes when there is none); "normal" searches normalPlayouts
// playouts (UCT with RAVE and shape priors, mctree.go), switches to the
// evolution-aware endgame (botendgame.go) once the area count is decided,
// and passes when the game is decided. Every stone either chooses is
// checked with Rules.Apply on FromView's state, superko included; a
// refused one gives way to the next best.
//
// It returns an error wrapping games.ErrNoBot for an unknown level,
// games.ErrGameOver after the end, games.ErrNotYourTurn when seat has
// nothing to do, and an error for a malformed view.
func chooseBot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	if level != "easy" && level != "normal" {
		return "", nil, fmt.Errorf("%w: %q", games.ErrNoBot, level)
	}
	if seat != 0 && seat != 1 {
		return "", nil, fmt.Errorf("weiqi: bot for seat %d", seat)
	}
	me := games.PlayerID(seat)
	switch {
	case v.Result != nil || v.Phase == "over":
		return "", nil, games.ErrGameOver
	case v.UndoRequest != nil && *v.UndoRequest != me:
		return moveAnswerUndo, games.Args(true), nil
	case v.ScoringRequest != nil && *v.ScoringRequest != me:
		return moveAnswerScoring, games.Args(true), nil
	case v.UndoRequest != nil || v.ScoringRequest != nil:
		return "", nil, games.ErrNotYourTurn
	case v.Phase == "scoring":
		if v.Approved[seat] {
			return "", nil, games.ErrNotYourTurn
		}
		dead, err := judgeDead(v, rng)
		if err != nil {
			return "", nil, err
		}
		name, args := ScoringReply(v, seat, dead)
		return name, args, nil
	case v.ToMove != me:
		return "", nil, games.ErrNotYourTurn
	}
	b, err := boardFromView(v)
	if err != nil {
		return "", nil, err
	}
	st, err := FromView(v)
	if err != nil {
		return "", nil, fmt.Errorf("%w: %w", errBadView, err)
	}
	var order []int32
	if level == "easy" {
		order = easyOrder(b, rng)
	} else {
		var pass bool
		if order, pass = normalOrder(v, st, b, seat, rng); pass {
			return movePass, games.Args(), nil
		}
	}
	for _, p := range order {
		x, y := b.xy(p)
		args := games.Args(FormatCoord(x, y, v.Size))
		if _, err := (Rules{}).Apply(st, seat, movePlay, args); err == nil {
			return movePlay, args, nil
		}
	}
	return movePass, games.Args(), nil
}

// easyOrder is every point where the mover may play without filling its
// own eye, in random order.
func easyOrder(b *pboard, rng *rand.Rand) []int32 {
	var out []int32
	for _, p := range b.empty {
		if b.legal(p, b.toMove) && !b.isEye(p, b.toMove) {
			out = append(out, p)
		}
	}
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// normalOrder searches and returns the root moves best first, or pass
// when the game is decided: the opponent has just passed and ending the
// game now wins under the real scoring, or the endgame policy (see
// endgameMove) passes. Once the area count is decided, the endgame
// policy's move comes first.
func normalOrder(v View, st State, b *pboard, seat int, rng *rand.Rand) ([]int32, bool) {
	if v.Passes == 1 && winsIfEnded(v, st, seat, rng) {
		return nil, true
	}
	r := newXrand(rng.Uint64())
	res := mcSearch(b, v.Komi, normalPlayouts, r)
	if len(res.cands) == 0 {
		return nil, true
	}
	order := make([]int32, 0, len(res.cands)+1)
	if res.winrate(0) >= endgameWinrate {
		p, ok := endgameMove(b, res, v.Komi, deadByOwner(b, res.own), r)
		switch {
		case ok && p == 0:
			return nil, true
		case ok:
			order = append(order, p)
		}
	}
	for _, c := range res.cands {
		order = append(order, c.p)
	}
	return order, false
}

// boardFromView builds the playout board of a view: its stones, the side
// to move, the last move and the simple-ko point it left.
func boardFromView(v View) (*pboard, error) {
	if v.Size != 9 && v.Size != 13 && v.Size != 19 || len(v.Board) != v.Size {
		return nil, fmt.Errorf("%w: size %d with %d rows", errBadView, v.Size, len(v.Board))
	}
	b := newPboard(v.Size)
	for y, row := range v.Board {
		if len(row) != v.Size {
			return nil, fmt.Errorf("%w: row %d has %d points", errBadView, y, len(row))
		}
		for x := 0; x < v.Size; x++ {
			switch row[x] {
			case '.':
			case 'B':
				b.play(b.pt(x, y), pBlack)
			case 'W':
				b.play(b.pt(x, y), pWhite)
			default:
				return nil, fmt.Errorf("%w: row %d has %q", errBadView, y, row[x])
			}
		}
	}
	seat, ok := games.ParseSeat(v.ToMove, 2)
	if !ok {
		return nil, fmt.Errorf("%w: toMove %q", errBadView, v.ToMove)
	}
	b.toMove, b.ko, b.last, b.passes = pcolOf(seat), 0, 0, 0
	if v.Last != nil && *v.Last != "pass" {
		if x, y, err := ParseCoord(*v.Last, v.Size); err == nil && b.col[b.pt(x, y)] != pEmpty {
			b.last = b.pt(x, y)
		}
	}
	// A single stone that has just captured one stone and has one liberty
	// left is a ko: its taker may not be retaken at once.
	if n := len(v.Recent); n > 0 && v.Recent[n-1].Captured == 1 && b.last != 0 {
		if h := b.head[b.last]; b.stones[h] == 1 && b.libs[h] == 1 {
			b.ko = b.atariLib(h)
		}
	}
	return b, nil
}
