// Package gnugo plays weiqi as GNU Go: a rooms.Engine that drives one
// `gnugo --mode gtp` subprocess, the only place Chaguan runs it.
//
// The Engine decides from the seat's view alone (docs/weiqi.md): it sets
// up the engine's board by replaying the view's moves, then asks for a
// move (genmove) or, in scoring, for the dead stones (final_status_list
// dead). Requests from the opponent (undo, scoring) are always granted.
package gnugo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/rooms"
)

// DefaultLevel is GNU Go's --level when Config sets none (its strongest).
const DefaultLevel = 10

// debianPath is where Debian's gnugo package installs the binary, outside
// an ordinary user's $PATH.
const debianPath = "/usr/games/gnugo"

// ErrClosed is returned by Move after Close.
var ErrClosed = errors.New("gnugo: player closed")

// Find returns the gnugo binary: "gnugo" on $PATH, else /usr/games/gnugo;
// "" when there is none.
func Find() string {
	if p, err := exec.LookPath("gnugo"); err == nil {
		return p
	}
	if st, err := os.Stat(debianPath); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
		return debianPath
	}
	return ""
}

// Config says which binary to run and how strong it plays.
type Config struct {
	Path  string // the gnugo binary, e.g. Find()
	Level int    // --level, 1 (fast) to 10; default DefaultLevel
}

// Engine is GNU Go as a rooms.Engine for the game "weiqi". One process
// serves every room: decisions are taken one at a time, each waiting its
// turn within its own deadline. The process starts on the first decision,
// is killed when a decision's deadline passes, and restarted on the next.
// Its methods are safe for concurrent use.
type Engine struct {
	cfg Config
	// token holds one value; whoever takes it owns eng and closed.
	token  chan struct{}
	eng    *engine
	closed bool
}

var _ rooms.Engine = (*Engine)(nil)

// New returns an Engine; no process runs until the first Move.
func New(cfg Config) *Engine {
	if cfg.Level <= 0 {
		cfg.Level = DefaultLevel
	}
	p := &Engine{cfg: cfg, token: make(chan struct{}, 1)}
	p.token <- struct{}{}
	return p
}

// Close kills the process. It waits for a decision in progress, which
// its deadline bounds. Move fails with ErrClosed afterwards.
func (p *Engine) Close() error {
	<-p.token
	defer func() { p.token <- struct{}{} }()
	p.closed = true
	if p.eng != nil {
		p.eng.close()
		p.eng = nil
	}
	return nil
}

// Move implements rooms.Engine: in play, GNU Go's genmove ("play",
// "pass" or "resign"); in scoring, weiqi.ScoringReply on GNU Go's dead
// stones; the opponent's undo or scoring request is granted. It returns
// an error (and the room plays the fallback level) for a view that is not
// weiqi's, games.ErrGameOver or games.ErrNotYourTurn when seat has nothing
// to do, and the engine's failure or ctx's error when it misses the
// deadline.
func (p *Engine) Move(ctx context.Context, req rooms.EngineRequest) (string, json.RawMessage, error) {
	var v weiqi.View
	if err := json.Unmarshal(req.View, &v); err != nil || v.Size == 0 {
		return "", nil, fmt.Errorf("gnugo: not a weiqi view (game %q): %v", req.Game, err)
	}
	me := games.PlayerID(req.Seat)
	switch {
	case req.Seat != 0 && req.Seat != 1:
		return "", nil, fmt.Errorf("gnugo: no seat %d in weiqi", req.Seat)
	case v.Result != nil || v.Phase == "over":
		return "", nil, games.ErrGameOver
	case v.UndoRequest != nil && *v.UndoRequest != me:
		return "answerUndo", games.Args(true), nil
	case v.ScoringRequest != nil && *v.ScoringRequest != me:
		return "answerScoring", games.Args(true), nil
	case v.UndoRequest != nil || v.ScoringRequest != nil:
		return "", nil, games.ErrNotYourTurn // our own request waits
	case v.Phase == "scoring" && !v.Approved[req.Seat]:
		var dead []string
		err := p.with(ctx, func(e *engine) (err error) {
			dead, err = e.deadStones(ctx, v)
			return err
		})
		if err != nil {
			return "", nil, err
		}
		name, args := weiqi.ScoringReply(v, req.Seat, dead)
		return name, args, nil
	case v.Phase == "play" && v.ToMove == me:
		return p.play(ctx, v, req.Seat)
	}
	return "", nil, games.ErrNotYourTurn
}

// play asks the engine for seat's move in the view's position.
func (p *Engine) play(ctx context.Context, v weiqi.View, seat int) (string, json.RawMessage, error) {
	var vertex string
	err := p.with(ctx, func(e *engine) (err error) {
		vertex, err = e.genmove(ctx, v, seat)
		return err
	})
	switch {
	case err != nil:
		return "", nil, err
	case strings.EqualFold(vertex, "pass"):
		return "pass", games.Args(), nil
	case strings.EqualFold(vertex, "resign"):
		return "resign", games.Args(), nil
	}
	return "play", games.Args(strings.ToUpper(vertex)), nil
}

// with runs fn with the engine, starting one when none is alive, and
// reaps the process when fn left it dead.
func (p *Engine) with(ctx context.Context, fn func(*engine) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("gnugo: %w", err) // a healthy engine is not killed for it
	}
	select {
	case <-p.token:
	case <-ctx.Done():
		return fmt.Errorf("gnugo: waiting for the engine: %w", ctx.Err())
	}
	defer func() { p.token <- struct{}{} }()
	if p.closed {
		return ErrClosed
	}
	if p.eng == nil {
		e, err := start(p.cfg.Path, p.cfg.Level)
		if err != nil {
			return err
		}
		p.eng = e
	}
	err := fn(p.eng)
	if p.eng.dead {
		p.eng.close()
		p.eng = nil
	}
	return err
}

// colour is the GTP colour of a seat: seat 0 plays black.
func colour(seat int) string { return [...]string{"black", "white"}[seat%2] }

// genmove sets up v's position and asks for seat's move; the engine plays
// it on its own board (unless it resigns).
func (e *engine) genmove(ctx context.Context, v weiqi.View, seat int) (string, error) {
	if err := e.setPosition(ctx, v); err != nil {
		return "", err
	}
	vertex, err := e.do(ctx, "genmove "+colour(seat))
	if err != nil {
		e.size = 0 // unsure what the board holds: set it up afresh next time
		return "", err
	}
	if !strings.EqualFold(vertex, "resign") {
		e.moves = append(e.moves, vertex)
	}
	return vertex, nil
}

// deadStones sets up v's position and returns the stones GNU Go judges
// dead, sorted, in the view's coordinates.
func (e *engine) deadStones(ctx context.Context, v weiqi.View) ([]string, error) {
	if err := e.setPosition(ctx, v); err != nil {
		return nil, err
	}
	list, err := e.do(ctx, "final_status_list dead")
	if err != nil {
		return nil, err
	}
	dead := strings.Fields(strings.ToUpper(list))
	sort.Strings(dead)
	return dead, nil
}

// setPosition makes the engine's board v's: when the engine holds the
// same game up to an earlier move, only the moves since are played;
// otherwise the board is cleared and every move replayed, black first.
func (e *engine) setPosition(ctx context.Context, v weiqi.View) error {
	same := e.size == v.Size && e.komi == v.Komi && len(e.moves) <= len(v.Moves)
	for i := 0; same && i < len(e.moves); i++ {
		same = strings.EqualFold(e.moves[i], v.Moves[i])
	}
	if !same {
		e.size, e.moves = 0, nil
		for _, c := range []string{"boardsize " + strconv.Itoa(v.Size), "clear_board", "komi " + strconv.FormatFloat(v.Komi, 'f', -1, 64)} {
			if _, err := e.do(ctx, c); err != nil {
				return err
			}
		}
		e.size, e.komi = v.Size, v.Komi
	}
	for i := len(e.moves); i < len(v.Moves); i++ {
		if _, err := e.do(ctx, "play "+colour(i)+" "+v.Moves[i]); err != nil {
			e.size = 0
			return fmt.Errorf("gnugo: replaying move %d: %w", i+1, err)
		}
		e.moves = append(e.moves, v.Moves[i])
	}
	return nil
}
