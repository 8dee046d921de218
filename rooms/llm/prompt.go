package llm

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// tileLegend describes the tile types unrotated, for the model: edges in
// the order N, E, S, W (C city, R road, F field) and the features
// (docs/carcassonne.md, "Coordinates and tiles").
var tileLegend = map[string]struct{ edges, what string }{
	"A": {"FFRF", "cloister, road S"},
	"B": {"FFFF", "cloister"},
	"C": {"CCCC", "city all round, shield"},
	"D": {"CRFR", "city N, road E-W"},
	"E": {"CFFF", "city N"},
	"F": {"FCFC", "city E-W, shield"},
	"G": {"CFCF", "city N-S"},
	"H": {"CFCF", "two cities N and S"},
	"I": {"CFFC", "two cities N and W"},
	"J": {"CRRF", "city N, road E-S"},
	"K": {"CFRR", "city N, road S-W"},
	"L": {"CRRR", "city N, roads E, S, W end"},
	"M": {"CFFC", "city N-W, shield"},
	"N": {"CFFC", "city N-W"},
	"O": {"CRRC", "city N-W, shield, road E-S"},
	"P": {"CRRC", "city N-W, road E-S"},
	"Q": {"CCFC", "city N-E-W, shield"},
	"R": {"CCFC", "city N-E-W"},
	"S": {"CCRC", "city N-E-W, shield, road S ends"},
	"T": {"CCRC", "city N-E-W, road S ends"},
	"U": {"RFRF", "road N-S"},
	"V": {"FFRR", "road S-W"},
	"W": {"FRRR", "roads E, S, W end"},
	"X": {"RRRR", "roads N, E, S, W end"},
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

// choice is one numbered option and the move it stands for. In the tile
// phase an option is a whole turn: the placement (name, args) and the
// meeple part kept for the meeple phase (meeple: a feature id, "" for
// none).
type choice struct {
	text      string
	name      string
	args      json.RawMessage
	x, y, rot int // the placement of a tile-phase option
	meeple    string
	now       int     // points the seat scores at once
	est       float64 // the estimate the prompt states
	// reason is the answer's own reason for choosing it (parseReply),
	// set on the copy an answer returns.
	reason string
}

// prompt is the conversation for one decision and its options, numbered
// from first.
type prompt struct {
	system, user string
	options      []choice
	first        int
	// shown and total count the placements listed and the distinct legal
	// ones (tile phase).
	shown, total int
}

func (p prompt) option(n int) (choice, bool) {
	i := n - p.first
	if i < 0 || i >= len(p.options) {
		return choice{}, false
	}
	return p.options[i], true
}

// numbers lists the option numbers, for the answer's JSON schema.
func (p prompt) numbers() []int {
	out := make([]int, len(p.options))
	for i := range out {
		out[i] = p.first + i
	}
	return out
}

// last is the highest option number.
func (p prompt) last() int { return p.first + len(p.options) - 1 }

// systemPrompt is the system message of a tile-phase decision: the rules
// in brief, the prompt's notation and the answer format.
const systemPrompt = `You play Carcassonne (base game with fields). Win: end with the most points.
x grows east, y south. Tile edges are listed N,E,S,W: C city, R road, F field; a tile must match each neighbour's touching edge.
Scoring: a completed road 1 per tile; city 2 per tile and 2 per shield; cloister with all 8 neighbours 9. It scores at once for whoever has the most meeples on it (ties all score); those meeples come back. At the end: unfinished road or city 1 per tile (+1 per shield), cloister 1 per tile; a field 3 per completed city it touches. Field meeples never come back.
7 meeples each. After placing, you may put one on a feature of your tile whose connected whole has no meeple.
Names: c city, r road, k cloister, f field. "open" = edges to empty spots; "(3,-1):12" = an empty spot that 12 of the tiles left fit (0: never completed). A tile's features go by the edges they reach ("road EW"), fields by edges and half-edges (Nw Ne En Es Se Sw Ws Wn).
Each option is a whole turn: the tile's spot, its edges after rotation and effect, then numbered choices: your meeple's place or none. now = points you score at once; est = rough net gain (yours less the best opponent's; a meeple placed costs, one coming back gains).
Answer only {"option": N} or {"option": N, "reason": "…"}: reason says why in one short sentence (at most 120 characters) that every player sees.`

// meepleSystemPrompt is the system message of a meeple-phase decision
// (asked only when the turn's tile-phase choice is not remembered).
var meepleSystemPrompt = strings.Replace(systemPrompt,
	"Each option is a whole turn: the tile's spot, its edges after rotation and effect, then numbered choices: your meeple's place or none.",
	"You have placed your tile; each option is your meeple's place or none.", 1)

// The prompt's size. No tokenizer runs here: a prompt is kept under
// promptTokens by its bytes, at bytesPerToken, below the rate of every
// tokenizer measured on these prompts (docs/llm.md, "Prompt size": the
// lowest was Llama 2's, 2.26 bytes per token; Qwen3 2.42, cl100k and
// o200k 2.48).
const (
	promptTokens  = 2500
	bytesPerToken = 2
	// msgTokens is the chat template's cost per message, generously.
	msgTokens = 8
	// retryTokens is kept free for a second try's two extra messages:
	// the refused answer (at most maxEcho bytes) and why.
	retryTokens = (maxEcho+len("…")+maxRetryText+bytesPerToken-1)/bytesPerToken + 2*msgTokens
)

// promptBudget is the bytes the system and user text of a first request
// may take together.
const promptBudget = (promptTokens - retryTokens - 2*msgTokens) * bytesPerToken

// estimateTokens is the bound the prompt is kept under: bytes /
// bytesPerToken, rounded up, plus the template's cost per message.
func estimateTokens(messages ...string) int {
	n := 0
	for _, m := range messages {
		n += (len(m)+bytesPerToken-1)/bytesPerToken + msgTokens
	}
	return n
}

// buildPrompt reads seat's Carcassonne view and lists its options: in the
// tile phase every distinct placement with each of its meeple choices (a
// whole turn per option, from 1); in the meeple phase "no meeple" (0) and
// the meeple options (from 1).
func buildPrompt(view json.RawMessage, seat int) (prompt, error) {
	v, err := readView(view, seat)
	if err != nil {
		return prompt{}, err
	}
	switch v.Phase {
	case carcassonne.PhaseTile:
		return tilePrompt(v, seat)
	case carcassonne.PhaseMeeple:
		return meeplePrompt(v, seat)
	}
	return prompt{}, fmt.Errorf("%w: phase %q", ErrView, v.Phase)
}

// readView decodes a view and checks it is seat's turn.
func readView(view json.RawMessage, seat int) (carcassonne.View, error) {
	var v carcassonne.View
	if err := json.Unmarshal(view, &v); err != nil || v.NumPlayers == 0 {
		return v, fmt.Errorf("%w: not a carcassonne view", ErrView)
	}
	if v.Phase == carcassonne.PhaseOver || v.Current != seat {
		return v, fmt.Errorf("%w: not seat %d's turn", ErrView, seat)
	}
	return v, nil
}

// who names a seat for the prompt: "you" or "P1".
func (t *table) who(seat int) string {
	if seat == t.seat {
		return "you"
	}
	return fmt.Sprintf("P%d", seat)
}

// holders says whose meeples are on a feature: "you", "P1 x2, you".
func (t *table) holders(m []int) string {
	var parts []string
	for seat, c := range m {
		switch {
		case c == 1:
			parts = append(parts, t.who(seat))
		case c > 1:
			parts = append(parts, fmt.Sprintf("%s x%d", t.who(seat), c))
		}
	}
	return strings.Join(parts, ", ")
}

// spotsText lists up to max of a feature's spots with the tiles that fit.
func (t *table) spotsText(l *layout, g, most int) string {
	var parts []string
	for i, s := range l.spots[g] {
		if i == most {
			parts = append(parts, fmt.Sprintf("+%d more", len(l.spots[g])-most))
			break
		}
		parts = append(parts, fmt.Sprintf("(%d,%d):%d", s.x, s.y, t.fit(l, s)))
	}
	return strings.Join(parts, " ")
}

// sizeText is a feature's size: "3 tiles, 1 shield".
func sizeText(f carcassonne.BoardFeature) string {
	s := fmt.Sprintf("%d tile", f.Tiles)
	if f.Tiles != 1 {
		s += "s"
	}
	if f.Kind == "cloister" {
		return fmt.Sprintf("%d/9 tiles", f.Tiles)
	}
	if f.Shields == 1 {
		s += ", 1 shield"
	} else if f.Shields > 1 {
		s += fmt.Sprintf(", %d shields", f.Shields)
	}
	return s
}

// featureLine describes feature g of the board as it is, for the list of
// features with meeples.
func (t *table) featureLine(g int) string {
	l := t.cur
	f := l.feats[g]
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", t.names[g], f.Kind)
	switch f.Kind {
	case "field":
		var open []string
		done := 0
		for _, c := range f.Cities {
			if l.feats[c].Complete {
				done++
			} else {
				open = append(open, t.names[c])
			}
		}
		fmt.Fprintf(&b, ", touches %d completed cit%s", done, map[bool]string{true: "y", false: "ies"}[done == 1])
		if len(open) > 0 {
			b.WriteString(" and open " + strings.Join(open, ", "))
		}
	case "cloister":
		for i := range l.tiles {
			if slices.Contains(l.at[i], g) {
				fmt.Fprintf(&b, " at (%d,%d)", l.tiles[i].X, l.tiles[i].Y)
				break
			}
		}
		fmt.Fprintf(&b, ", %s, empty around: %s", sizeText(f), t.spotsText(l, g, 8))
	default:
		fmt.Fprintf(&b, ", %s, open %d: %s", sizeText(f), f.Open, t.spotsText(l, g, 3))
	}
	fmt.Fprintf(&b, "; %s; worth %d", t.holders(f.Meeples), f.Points)
	if f.Kind == "city" || f.Kind == "cloister" {
		switch {
		case t.dead(l, g):
			b.WriteString(", cannot be completed")
		case f.Kind == "city":
			b.WriteString(", double if completed")
		default:
			b.WriteString(", 9 if completed")
		}
	} else if f.Kind == "road" && t.dead(l, g) {
		b.WriteString(", cannot be completed")
	}
	return b.String()
}

// oldOf lists the features of the board as it is that feature g of the
// placement's layout l joins (the tile's own nodes aside), each once.
func (t *table) oldOf(l *layout, g int) []int {
	var out []int
	for i := range t.cur.tiles {
		for f, h := range l.at[i] {
			if h == g && !slices.Contains(out, t.cur.at[i][f]) {
				out = append(out, t.cur.at[i][f])
			}
		}
	}
	return out
}

// namesOf names old features with their holders: "c2 (P1)", "r3".
func (t *table) namesOf(olds []int) string {
	var parts []string
	for _, o := range olds {
		s := t.names[o]
		if h := t.holders(t.cur.feats[o].Meeples); h != "" {
			s += " (" + h + ")"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " and ")
}

// effect says what the tile at index last of l does: each road, city and
// cloister of it (new, or which features it joins, and the result), the
// cloisters around it it adds to, and the held fields it joins.
func (t *table) effect(l *layout, last int) string {
	fs := l.features(last)
	var parts []string
	done := map[int]bool{}
	for f, o := range fs {
		g := l.at[last][f]
		if done[g] {
			continue
		}
		done[g] = true
		nf := l.feats[g]
		var labels []string
		for f2, o2 := range fs {
			if l.at[last][f2] == g {
				labels = append(labels, shortLabel(o2))
			}
		}
		label := strings.Join(labels, " + ")
		olds := t.oldOf(l, g)
		switch o.Kind {
		case "field":
			var held []int
			for _, h := range olds {
				if t.holders(t.cur.feats[h].Meeples) != "" {
					held = append(held, h)
				}
			}
			if len(held) > 0 {
				parts = append(parts, fmt.Sprintf("%s joins %s", label, t.namesOf(held)))
			}
			continue
		case "cloister":
			parts = append(parts, fmt.Sprintf("cloister %s", sizeText(nf)))
			continue
		}
		s := label + " "
		if len(olds) == 0 {
			s += "new"
		} else {
			s += "joins " + t.namesOf(olds)
		}
		if nf.Complete {
			s += fmt.Sprintf(", completes it (%s): %d", sizeText(nf), nf.Points)
			if who := owners(nf.Meeples); len(who) > 0 {
				var ws []string
				for _, seat := range who {
					ws = append(ws, t.who(seat))
				}
				s += " to " + strings.Join(ws, " and ")
			}
		} else {
			s += fmt.Sprintf(" -> %s, open %d", sizeText(nf), nf.Open)
			if t.dead(l, g) {
				s += ", cannot be completed"
			}
		}
		parts = append(parts, s)
	}
	// Cloisters around the tile.
	for _, g := range touched(l, last) {
		if done[g] || l.feats[g].Kind != "cloister" {
			continue
		}
		olds := t.oldOf(l, g)
		nf := l.feats[g]
		s := fmt.Sprintf("%s -> %s", t.namesOf(olds), sizeText(nf))
		if nf.Complete {
			s = "completes " + t.namesOf(olds) + ": 9"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "; ")
}

// pickText is one choice of a placement: "3 road EW now +2 est +1.5".
func pickText(n int, c pick, seat int) string {
	s := fmt.Sprintf("%d %s", n, c.label)
	if c.now[seat] > 0 {
		s += fmt.Sprintf(" now +%d", c.now[seat])
	}
	return s + fmt.Sprintf(" est %+.1f", c.est)
}

// header is the lines before the options: the seat, scores, the features
// with meeples, the tiles left.
func (t *table) header(b *strings.Builder) {
	v := t.v
	fmt.Fprintf(b, "Turn %d. You are P%d of %d players; %d tile%s left to draw after this one.\n", v.Turn, t.seat, v.NumPlayers, v.TilesLeft, plural(v.TilesLeft))
	b.WriteString("Scores:")
	for s := range v.NumPlayers {
		name := fmt.Sprintf("P%d", s)
		if s == t.seat {
			name = fmt.Sprintf("you (P%d)", s)
		}
		fmt.Fprintf(b, " %s %d points, %d meeple%s left;", name, v.Scores[s], v.MeeplesLeft[s], plural(v.MeeplesLeft[s]))
	}
	b.WriteString("\n")
	var held []int
	for g, f := range t.cur.feats {
		if owners(f.Meeples) != nil {
			held = append(held, g)
		}
	}
	if len(held) == 0 {
		b.WriteString("No meeple is on the board.\n")
	} else {
		// Most valuable first, as many as featuresBudget holds.
		sort.SliceStable(held, func(i, j int) bool { return t.cur.feats[held[i]].Points > t.cur.feats[held[j]].Points })
		b.WriteString("Features with meeples (worth = what it scores if the game ended now):\n")
		size := 0
		for i, g := range held {
			line := t.featureLine(g) + "\n"
			if size+len(line) > featuresBudget {
				fmt.Fprintf(b, "(%d more, worth %d or less)\n", len(held)-i, t.cur.feats[g].Points)
				break
			}
			size += len(line)
			b.WriteString(line)
		}
	}
	b.WriteString(tilesLeft(v.Unseen) + "\n")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// tileKind is how the prompt names a tile type among the tiles left: its
// edges unrotated, "*" for a shield, "k" for a cloister, "2" where its two
// cities are separate (H, I).
func tileKind(typ string) string {
	k := tileLegend[typ].edges
	w := tileLegend[typ].what
	if strings.Contains(w, "shield") {
		k += "*"
	}
	if strings.Contains(w, "cloister") {
		k += "k"
	}
	if strings.HasPrefix(w, "two cities") {
		k += "2"
	}
	return k
}

// tilesLeft counts the tiles still to draw by kind (types of the same kind
// together), most first.
func tilesLeft(unseen map[string]int) string {
	count := map[string]int{}
	total := 0
	for typ, c := range unseen {
		if c > 0 {
			count[tileKind(typ)] += c
			total += c
		}
	}
	kinds := make([]string, 0, len(count))
	for k := range count {
		kinds = append(kinds, k)
	}
	sort.Slice(kinds, func(i, j int) bool {
		if count[kinds[i]] != count[kinds[j]] {
			return count[kinds[i]] > count[kinds[j]]
		}
		return kinds[i] < kinds[j]
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Tiles left (%d; edges unrotated, * shield, k cloister, 2 separate cities):", total)
	for _, k := range kinds {
		fmt.Fprintf(&b, " %s:%d", k, count[k])
	}
	return b.String()
}

// tilePrompt lists the whole turns the seat may play: the distinct
// placements of the drawn tile, each with its meeple choices. When they do
// not all fit the budget, the choices with the best estimates are listed,
// grouped by placement, and the prompt says how many are left out.
func tilePrompt(v carcassonne.View, seat int) (prompt, error) {
	if len(v.Placements) == 0 {
		return prompt{}, fmt.Errorf("%w: no option to choose from", ErrView)
	}
	t, err := newTable(v, seat, v.Board)
	if err != nil {
		return prompt{}, err
	}
	all, err := t.placements()
	if err != nil {
		return prompt{}, err
	}
	// The same effect and choices at another spot read the same: listed
	// once.
	var pls []*placement
	seen := map[string]bool{}
	for _, pl := range all {
		var same strings.Builder
		same.WriteString(pl.edges + ": " + pl.effect)
		for _, c := range pl.picks {
			fmt.Fprintf(&same, "|%s %d %.1f", c.label, c.now[seat], c.est)
		}
		if !seen[same.String()] {
			seen[same.String()] = true
			pls = append(pls, pl)
		}
	}
	type ref struct{ pl, pick int }
	var refs []ref
	for i, pl := range pls {
		for j := range pl.picks {
			refs = append(refs, ref{i, j})
		}
	}
	sort.SliceStable(refs, func(a, b int) bool {
		return pls[refs[a].pl].picks[refs[a].pick].est > pls[refs[b].pl].picks[refs[b].pick].est
	})

	var head strings.Builder
	t.header(&head)
	fmt.Fprintf(&head, "You drew tile %s (unrotated %s).\n", tileKind(v.Tile), tileLegend[v.Tile].what)
	// Take the best choices while the prompt stays within the budget.
	size := len(systemPrompt) + head.Len() + tailLen
	picked := make([][]int, len(pls)) // per placement, its choices listed
	var order []int                   // placements in the order first listed
	shown := 0
	for _, r := range refs {
		add := len(pickText(999, pls[r.pl].picks[r.pick], seat)) + 3
		if picked[r.pl] == nil {
			add += len(placementLine(pls[r.pl])) + 2
		}
		if shown > 0 && size+add > promptBudget {
			break
		}
		size += add
		if picked[r.pl] == nil {
			order = append(order, r.pl)
		}
		picked[r.pl] = append(picked[r.pl], r.pick)
		shown++
	}
	p := prompt{system: systemPrompt, first: 1, shown: len(order), total: len(pls)}
	var body strings.Builder
	for _, i := range order {
		pl := pls[i]
		body.WriteString(placementLine(pl) + "\n ")
		slices.Sort(picked[i]) // the placement's choices, best first
		for k, j := range picked[i] {
			c := pl.picks[j]
			if k > 0 {
				body.WriteString(" | ")
			}
			body.WriteString(pickText(p.first+len(p.options), c, seat))
			p.options = append(p.options, choice{
				text: fmt.Sprintf("(%d,%d) %s, %s", pl.x, pl.y, pl.edges, c.label),
				name: carcassonne.MovePlaceTile,
				args: games.Args(carcassonne.TileArgs{X: pl.x, Y: pl.y, Rotation: pl.rot}),
				x:    pl.x, y: pl.y, rot: pl.rot,
				meeple: c.feature, now: c.now[seat], est: c.est,
			})
		}
		body.WriteString("\n")
	}
	var b strings.Builder
	b.WriteString(head.String())
	b.WriteString("Options, best est first:")
	if left := len(refs) - shown; left > 0 {
		fmt.Fprintf(&b, " (%d choices with lower est not shown)", left)
	}
	b.WriteString("\n")
	b.WriteString(body.String())
	fmt.Fprintf(&b, replyLine, p.first, p.last())
	p.user = b.String()
	return p, nil
}

// replyLine ends the user message: the answer asked for, with the range
// of option numbers.
const replyLine = `Reply with exactly {"option": N} or {"option": N, "reason": "…"}, N from %d to %d.`

// placementLine is a placement's spot, edges and effect.
func placementLine(pl *placement) string {
	s := fmt.Sprintf("(%d,%d) %s", pl.x, pl.y, pl.edges)
	if pl.effect != "" {
		s += ": " + pl.effect
	}
	return s
}

// featuresBudget bounds the bytes of the list of features with meeples,
// so that options always have room (five seats hold up to 35 meeples).
const featuresBudget = 1400

// tailLen is room for the lines around the options.
const tailLen = 200

// meeplePrompt offers the meeple options of the tile placed this turn:
// "no meeple" (0) and each option (from 1), with what it scores.
func meeplePrompt(v carcassonne.View, seat int) (prompt, error) {
	if len(v.MeepleOptions) == 0 || v.LastPlaced == nil || len(v.Board) < 2 {
		return prompt{}, fmt.Errorf("%w: no option to choose from", ErrView)
	}
	t, err := newTable(v, seat, v.Board[:len(v.Board)-1])
	if err != nil {
		return prompt{}, err
	}
	pl, err := t.place(*v.LastPlaced, v.MeepleOptions)
	if err != nil {
		return prompt{}, err
	}
	var b strings.Builder
	t.header(&b)
	lp := v.LastPlaced
	fmt.Fprintf(&b, "You placed tile %s at (%d,%d), edges %s", lp.Type, lp.X, lp.Y, pl.edges)
	if pl.effect != "" {
		b.WriteString(": " + pl.effect)
	}
	b.WriteString(".\nOptions:\n")
	p := prompt{system: meepleSystemPrompt, first: 0, shown: 1, total: 1}
	for i, c := range pl.picks {
		fmt.Fprintf(&b, "%s\n", pickText(i, c, seat))
		o := choice{text: c.label, name: carcassonne.MoveSkipMeeple, args: games.Args(), meeple: c.feature, now: c.now[seat], est: c.est}
		if c.feature != "" {
			o.name, o.args = carcassonne.MovePlaceMeeple, games.Args(carcassonne.MeepleArgs{Feature: c.feature})
		}
		p.options = append(p.options, o)
	}
	fmt.Fprintf(&b, replyLine, p.first, p.last())
	p.user = b.String()
	if len(p.options) < 2 {
		return prompt{}, fmt.Errorf("%w: no option to choose from", ErrView)
	}
	return p, nil
}
