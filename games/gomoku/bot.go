package gomoku

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// errBadView is returned for a view no gomoku state could have produced.
var errBadView = errors.New("gomoku: malformed view")

// centre is the point a bot opens with: 天元 (7,7).
var centre = at(Size/2, Size/2)

// Bot chooses seat's move from its view alone. A bot always agrees to an
// undo request; otherwise it places a stone: "easy" next to a random stone,
// "normal" by the pattern-scoring table, "hard" by alpha-beta search. It
// returns an error wrapping games.ErrNoBot for an unknown level, and an
// error when the view is malformed or seat has nothing to do.
func (Rules) Bot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	if level != "easy" && level != "normal" && level != "hard" {
		return "", nil, fmt.Errorf("%w: %q", games.ErrNoBot, level)
	}
	if seat != 0 && seat != 1 {
		return "", nil, fmt.Errorf("gomoku: bot for seat %d", seat)
	}
	me := games.PlayerID(seat)
	switch {
	case v.Result != nil:
		return "", nil, games.ErrGameOver
	case v.UndoRequest != nil && *v.UndoRequest != me:
		return moveAnswerUndo, games.Args(true), nil
	case v.UndoRequest != nil || v.ToMove != me:
		return "", nil, games.ErrNotYourTurn
	}
	b, err := boardFromView(v)
	if err != nil {
		return "", nil, err
	}
	c := colour(seat)
	var p pos
	switch level {
	case "easy":
		p = b.easyMove(rng)
	case "normal":
		p = b.normalMove(c, rng)
	default:
		p = b.hardMove(c, rng)
	}
	x, y := p.xy()
	return movePlace, games.Args(x, y), nil
}

// botBoard is a bot's working board: the grid, the stones on it in the
// order they were put (search takes them back in reverse), and for every
// point the number of stones within two points in each direction (the
// normal bot's candidate zone).
type botBoard struct {
	g      grid
	near   [cells]uint8
	stones []pos
}

// zone[p] lists the on-board points within two of p (p excluded).
var zone = func() (z [cells][]pos) {
	for y := 0; y < Size; y++ {
		for x := 0; x < Size; x++ {
			for dy := -2; dy <= 2; dy++ {
				for dx := -2; dx <= 2; dx++ {
					if (dx != 0 || dy != 0) && onBoard(x+dx, y+dy) {
						z[at(x, y)] = append(z[at(x, y)], at(x+dx, y+dy))
					}
				}
			}
		}
	}
	return z
}()

// boardFromView reads View.Board, checking its shape.
func boardFromView(v View) (*botBoard, error) {
	if v.Size != Size || len(v.Board) != Size {
		return nil, fmt.Errorf("%w: want a %dx%d board", errBadView, Size, Size)
	}
	b := &botBoard{g: emptyGrid, stones: make([]pos, 0, Size*Size)}
	for y, row := range v.Board {
		if len(row) != Size {
			return nil, fmt.Errorf("%w: row %d has %d points", errBadView, y, len(row))
		}
		for x := 0; x < Size; x++ {
			switch row[x] {
			case '.':
			case 'B':
				b.put(at(x, y), black)
			case 'W':
				b.put(at(x, y), white)
			default:
				return nil, fmt.Errorf("%w: row %d has %q", errBadView, y, row[x])
			}
		}
	}
	if len(b.stones) == Size*Size {
		return nil, fmt.Errorf("%w: the board is full", errBadView)
	}
	return b, nil
}

// put places a stone of colour c on the empty point p.
func (b *botBoard) put(p pos, c cell) {
	b.g[p] = c
	b.stones = append(b.stones, p)
	for _, q := range zone[p] {
		b.near[q]++
	}
}

// take removes the last stone put, which must be at p.
func (b *botBoard) take(p pos) {
	b.g[p] = empty
	b.stones = b.stones[:len(b.stones)-1]
	for _, q := range zone[p] {
		b.near[q]--
	}
}

// easyMove is a random empty point next to a stone (the eight neighbours),
// or the centre on an empty board. The board must not be full.
func (b *botBoard) easyMove(rng *rand.Rand) pos {
	if len(b.stones) == 0 {
		return centre
	}
	var next []pos
	for _, s := range b.stones {
		for _, d := range dirs {
			for _, q := range [2]pos{s + d, s - d} {
				if b.g[q] == empty {
					next = append(next, q) // duplicates weigh busy points, fine
				}
			}
		}
	}
	return next[rng.IntN(len(next))] // not empty, as for candidates
}

// candidates appends to buf every empty point within two of a stone with
// its pattern scores for colour c to move (the centre on an empty board). It
// appends at least one point unless the board is full: walking from any
// empty point towards a stone, the last empty point passed is next to it.
func (b *botBoard) candidates(c cell, buf []candidate) []candidate {
	if len(b.stones) == 0 {
		return append(buf, candidate{p: centre})
	}
	for i := range b.g {
		p := pos(i)
		if b.near[p] == 0 || b.g[p] != empty {
			continue
		}
		buf = append(buf, b.g.scorePoint(p, c))
	}
	return buf
}

// normalMove is the pattern-scoring bot: the candidate with the best
// attack + 0.9 × defence, ties broken by rng.
func (b *botBoard) normalMove(c cell, rng *rand.Rand) pos {
	cands := b.candidates(c, nil)
	best, n := cands[0], 1
	for _, k := range cands[1:] {
		switch t := k.total(); {
		case t > best.total():
			best, n = k, 1
		case t == best.total():
			n++ // reservoir sampling: each tied point wins with chance 1/n
			if rng.IntN(n) == 0 {
				best = k
			}
		}
	}
	return best.p
}
