package llm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// tileLegend describes the tile types unrotated, for the model: edges in
// the order N, E, S, W (C city, R road, F field) and the features
// (docs/carcassonne.md, "Coordinates and tiles").
var tileLegend = map[string]struct{ edges, what string }{
	"A": {"FFRF", "cloister with a road going south"},
	"B": {"FFFF", "cloister"},
	"C": {"CCCC", "city on all four sides, shield"},
	"D": {"CRFR", "city north; straight road east-west"},
	"E": {"CFFF", "city north"},
	"F": {"FCFC", "one city east-west through the tile, shield"},
	"G": {"CFCF", "one city north-south through the tile"},
	"H": {"CFCF", "two separate cities, north and south"},
	"I": {"CFFC", "two separate cities, north and west"},
	"J": {"CRRF", "city north; road curving east-south"},
	"K": {"CFRR", "city north; road curving south-west"},
	"L": {"CRRR", "city north; three roads ending at a junction"},
	"M": {"CFFC", "corner city north-west, shield"},
	"N": {"CFFC", "corner city north-west"},
	"O": {"CRRC", "corner city north-west, shield; road curving east-south"},
	"P": {"CRRC", "corner city north-west; road curving east-south"},
	"Q": {"CCFC", "city on three sides (N, E, W), shield"},
	"R": {"CCFC", "city on three sides (N, E, W)"},
	"S": {"CCRC", "city on three sides, shield; road ending south"},
	"T": {"CCRC", "city on three sides; road ending south"},
	"U": {"RFRF", "straight road north-south"},
	"V": {"FFRR", "road curving south-west"},
	"W": {"FRRR", "three roads ending at a junction (E, S, W)"},
	"X": {"RRRR", "four roads ending at a crossing"},
}

// rotatedEdges gives the edges N, E, S, W of typ turned rot degrees
// clockwise: a quarter turn moves the north edge to the east.
func rotatedEdges(typ string, rot int) string {
	e := tileLegend[typ].edges
	if len(e) != 4 {
		return "????"
	}
	q := ((rot/90)%4 + 4) % 4
	var b [4]byte
	for d := range 4 {
		b[d] = e[(d-q+4)%4]
	}
	return string(b[:])
}

// choice is one numbered option and the move it stands for.
type choice struct {
	text string
	name string
	args json.RawMessage
}

// prompt is the conversation for one decision and its options, numbered
// from first.
type prompt struct {
	system, user string
	options      []choice
	first        int
}

func (p prompt) option(n int) (choice, bool) {
	i := n - p.first
	if i < 0 || i >= len(p.options) {
		return choice{}, false
	}
	return p.options[i], true
}

const systemPrompt = `You play the board game Carcassonne (base game, current-edition scoring) in a room with other players.
Coordinates: x grows east, y grows south; north of (x,y) is (x,y-1). A tile's edges are listed N,E,S,W with C = city, R = road, F = field; a placed tile's edges must match every neighbour's touching edge.
Scoring: a completed road 1 per tile; a completed city 2 per tile + 2 per shield; a cloister surrounded by 8 tiles 9; at the end unfinished features score less and each field scores 3 per completed city it touches. The seats with the most meeples on a feature score it. Each seat has 7 meeples; a meeple on a completed road, city or cloister comes back.
You are given the numbered legal options. Reply with exactly one JSON object and nothing else: {"option": N} where N is the number of your choice.`

// buildPrompt reads seat's Carcassonne view and lists its options: the
// placements (each rotation one option, from 1) in the tile phase, "no
// meeple" (0) and the meeple options (from 1) in the meeple phase.
func buildPrompt(view json.RawMessage, seat int) (prompt, error) {
	var v carcassonne.View
	if err := json.Unmarshal(view, &v); err != nil || v.NumPlayers == 0 {
		return prompt{}, fmt.Errorf("%w: not a carcassonne view", ErrView)
	}
	if v.Phase == carcassonne.PhaseOver || v.Current != seat {
		return prompt{}, fmt.Errorf("%w: not seat %d's turn", ErrView, seat)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "You are player %d of %d. Turn %d; %d tiles left to draw after this one.\n", seat, v.NumPlayers, v.Turn, v.TilesLeft)
	for s := range v.NumPlayers {
		fmt.Fprintf(&b, "Player %d: %d points, %d meeples left.\n", s, at(v.Scores, s), at(v.MeeplesLeft, s))
	}
	b.WriteString("\nBoard (x,y type: edges N,E,S,W after rotation; description of the unrotated type, rotated clockwise):\n")
	for _, t := range v.Board {
		fmt.Fprintf(&b, "(%d,%d) %s: %s; %s, rotated %d\n", t.X, t.Y, t.Type, rotatedEdges(t.Type, t.Rotation), tileLegend[t.Type].what, t.Rotation)
	}
	if len(v.Meeples) > 0 {
		b.WriteString("\nMeeples on the board:\n")
		for _, m := range v.Meeples {
			fmt.Fprintf(&b, "player %d on the %s %s of the tile at (%d,%d)\n", m.Seat, m.Kind, m.Feature, m.X, m.Y)
		}
	}
	p := prompt{system: systemPrompt}
	switch v.Phase {
	case carcassonne.PhaseTile:
		fmt.Fprintf(&b, "\nYou drew tile %s (unrotated edges N,E,S,W %s; %s). Where do you place it?\n", v.Tile, tileLegend[v.Tile].edges, tileLegend[v.Tile].what)
		p.first = 1
		for _, pl := range v.Placements {
			for _, rot := range pl.Rotations {
				p.options = append(p.options, choice{
					text: fmt.Sprintf("at (%d,%d) rotated %d, edges N,E,S,W %s", pl.X, pl.Y, rot, rotatedEdges(v.Tile, rot)),
					name: carcassonne.MovePlaceTile,
					args: games.Args(map[string]int{"x": pl.X, "y": pl.Y, "rotation": rot}),
				})
			}
		}
	case carcassonne.PhaseMeeple:
		if v.LastPlaced != nil {
			fmt.Fprintf(&b, "\nYou placed tile %s at (%d,%d) rotated %d. Do you put a meeple on one of its features?\n", v.LastPlaced.Type, v.LastPlaced.X, v.LastPlaced.Y, v.LastPlaced.Rotation)
		}
		p.options = append(p.options, choice{text: "no meeple", name: carcassonne.MoveSkipMeeple, args: games.Args()})
		for _, o := range v.MeepleOptions {
			p.options = append(p.options, choice{
				text: fmt.Sprintf("meeple on the %s (%s)", o.Label.En, o.Feature),
				name: carcassonne.MovePlaceMeeple,
				args: games.Args(map[string]string{"feature": o.Feature}),
			})
		}
	default:
		return prompt{}, fmt.Errorf("%w: phase %q", ErrView, v.Phase)
	}
	if len(p.options) == 0 || (v.Phase == carcassonne.PhaseMeeple && len(p.options) == 1) {
		return prompt{}, fmt.Errorf("%w: no option to choose from", ErrView)
	}
	b.WriteString("\nOptions:\n")
	for i, o := range p.options {
		fmt.Fprintf(&b, "%d. %s\n", p.first+i, o.text)
	}
	fmt.Fprintf(&b, "\nReply with exactly {\"option\": N}, N from %d to %d.", p.first, p.first+len(p.options)-1)
	p.user = b.String()
	return p, nil
}

func at(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}
