package carcassonne

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
)

// Bot chooses seat's move from its view only: "easy" makes a random legal
// choice (placement and rotation uniformly, then a meeple option or none
// uniformly); "normal" scores every placement with its best meeple choice
// by the heuristic of evaluator.
func (Rules) Bot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	if level != LevelEasy && level != LevelNormal {
		return "", nil, fmt.Errorf("%w: %q", games.ErrNoBot, level)
	}
	if v.Phase == PhaseOver || v.Current != seat {
		return "", nil, fmt.Errorf("carcassonne bot: it is not seat %d's turn", seat)
	}
	switch v.Phase {
	case PhaseTile:
		if len(v.Placements) == 0 {
			return "", nil, fmt.Errorf("carcassonne bot: the view lists no placement")
		}
		var p Placement
		var rot int
		if level == LevelEasy {
			p = v.Placements[rng.IntN(len(v.Placements))]
			rot = p.Rotations[rng.IntN(len(p.Rotations))]
		} else {
			p, rot = newEvaluator(v, seat).bestPlacement(rng)
		}
		return MovePlaceTile, games.Args(TileArgs{X: p.X, Y: p.Y, Rotation: rot}), nil
	case PhaseMeeple:
		var choice string
		if level == LevelEasy {
			if k := rng.IntN(len(v.MeepleOptions) + 1); k < len(v.MeepleOptions) {
				choice = v.MeepleOptions[k].Feature
			}
		} else {
			choice = newEvaluator(v, seat).bestMeeple(rng)
		}
		if choice == "" {
			return MoveSkipMeeple, games.Args(), nil
		}
		return MovePlaceMeeple, games.Args(MeepleArgs{Feature: choice}), nil
	}
	return "", nil, fmt.Errorf("carcassonne bot: unknown phase %q", v.Phase)
}

// evaluator is the normal bot's model of the table, rebuilt from a view.
type evaluator struct {
	v         View
	me        int
	b         *board
	meeples   []Meeple
	tilesLeft int
	scratch   analysis // reused by every board the bot looks at
}

func newEvaluator(v View, seat int) *evaluator {
	tiles := make([]Placed, len(v.Board))
	for i, t := range v.Board {
		tiles[i] = Placed{X: t.X, Y: t.Y, Type: t.Type, Rot: t.Rotation / 90}
	}
	b := newBoard(tiles)
	ms := make([]Meeple, 0, len(v.Meeples))
	for _, m := range v.Meeples {
		i, ok := b.index(m.X, m.Y)
		if !ok {
			continue
		}
		if f := featureIndex(b.shape(i), m.Feature); f >= 0 {
			ms = append(ms, Meeple{Seat: m.Seat, X: m.X, Y: m.Y, Feature: f})
		}
	}
	return &evaluator{v: v, me: seat, b: b, meeples: ms, tilesLeft: v.TilesLeft}
}

// bestPlacement tries every legal placement, each with its best meeple
// choice, and keeps the best (random tie-break).
func (e *evaluator) bestPlacement(rng *rand.Rand) (Placement, int) {
	best, bestRot, bestVal := e.v.Placements[0], e.v.Placements[0].Rotations[0], math.Inf(-1)
	for _, p := range e.v.Placements {
		for _, rot := range p.Rotations {
			e.b.push(Placed{X: p.X, Y: p.Y, Type: e.v.Tile, Rot: rot / 90})
			_, val := e.bestOn(e.b, len(e.b.tiles)-1)
			e.b.pop()
			val += rng.Float64() * 1e-3
			if val > bestVal {
				best, bestRot, bestVal = p, rot, val
			}
		}
	}
	return best, bestRot
}

// bestMeeple chooses among the view's meeple options ("" to skip).
func (e *evaluator) bestMeeple(rng *rand.Rand) string {
	if len(e.v.MeepleOptions) == 0 {
		return ""
	}
	f, _ := e.bestOn(e.b, len(e.b.tiles)-1)
	return f
}

// bestOn evaluates board b, whose tile at index tile was just placed, with
// no meeple and with a meeple on each free feature of that tile; it returns
// the best feature id ("" for none) and its value.
func (e *evaluator) bestOn(b *board, tile int) (string, float64) {
	a := reanalyze(&e.scratch, b, e.meeples, e.v.NumPlayers)
	credit := e.credit(a, nil)
	bestVal := e.objective(credit)
	best := ""
	left := e.v.MeeplesLeft[e.me]
	if left == 0 {
		return best, bestVal
	}
	sh := b.shape(tile)
	for fi := range sh.feats {
		g := a.groupAt(tile, fi)
		if g.hasMeeple() {
			continue
		}
		c := e.credit(a, g)
		val := e.objective(c) - e.meepleCost(a, g, left)
		if val > bestVal {
			best, bestVal = sh.feats[fi].id, val
		}
	}
	return best, bestVal
}

// credit is what every seat may expect from the features it holds, with
// one more meeple of mine on extra (nil for none).
func (e *evaluator) credit(a *analysis, extra *group) []float64 {
	credit := make([]float64, e.v.NumPlayers)
	for gi := range a.groups {
		g := &a.groups[gi]
		if g != extra && !g.hasMeeple() {
			continue
		}
		m := g.meeples
		if g == extra {
			m[e.me]++
		}
		val := e.value(a, g)
		for _, seat := range owners(m[:e.v.NumPlayers]) {
			credit[seat] += val
		}
	}
	return credit
}

// objective is my credit less the best other seat's.
func (e *evaluator) objective(credit []float64) float64 {
	other := math.Inf(-1)
	for seat, c := range credit {
		if seat != e.me {
			other = max(other, c)
		}
	}
	return credit[e.me] - other
}

// value is the points a feature is expected to bring: in full when it is
// complete, else a mix of its complete and end values by the chance it is
// completed with the tiles left; a field counts completed cities in full
// and open ones by their chance.
func (e *evaluator) value(a *analysis, g *group) float64 {
	if g.complete() {
		return float64(a.points(g))
	}
	switch g.kind {
	case Road:
		return float64(g.tiles) * (1 + 0.3*e.chance(g.open, 4))
	case City:
		p := e.chance(g.open, 4)
		return p*float64(2*(g.tiles+g.shields)) + (1-p)*float64(g.tiles+g.shields)
	case Cloister:
		p := e.chance(g.open, 2)
		return p*9 + (1-p)*float64(g.tiles)
	case Field:
		v := 0.0
		for _, ci := range g.cities {
			c := &a.groups[ci]
			if c.complete() {
				v += 3
			} else {
				v += 3 * e.chance(c.open, 4)
			}
		}
		return v
	}
	return 0
}

// chance is a rough probability that a feature with open ends is finished:
// smaller with more open ends and fewer tiles left.
func (e *evaluator) chance(open int, tilesPerEnd float64) float64 {
	if e.tilesLeft == 0 {
		return 0
	}
	return math.Pow(0.8, float64(open)) * min(1, float64(e.tilesLeft)/(tilesPerEnd*float64(open)*float64(e.v.NumPlayers)/2))
}

// meepleCost is what putting a meeple on g gives up: nothing if it comes
// back at once (g is complete), more when few are left and early in the
// game, and a field's meeple never comes back, so early farms cost most.
func (e *evaluator) meepleCost(a *analysis, g *group, left int) float64 {
	if g.complete() {
		return 0
	}
	early := float64(e.tilesLeft) / float64(TileCount-1)
	scarce := float64(Meeples-left+1) / Meeples
	if g.kind == Field {
		return 2 + 10*early + 3*scarce
	}
	return 1 + 2*early*scarce + 2*scarce
}
