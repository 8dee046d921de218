package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
)

// TestLegendMatchesTheRules: the prompt's tile legend covers every type,
// and its edges, rotated as the prompt rotates them, match across every
// pair of neighbours on the boards of whole bot games: what the model is
// told agrees with the rules.
func TestLegendMatchesTheRules(t *testing.T) {
	for _, typ := range carcassonne.Types() {
		if len(tileLegend[typ].edges) != 4 || tileLegend[typ].what == "" {
			t.Errorf("no legend for tile %s", typ)
		}
	}
	r := carcassonne.Rules{}
	for seed := uint64(1); seed <= 5; seed++ {
		s, err := r.Setup(2, nil, games.NewRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 1))
		for s.Phase != carcassonne.PhaseOver {
			name, args, err := r.Bot(carcassonne.LevelEasy, r.View(s, s.Current), s.Current, rng)
			if err != nil {
				t.Fatal(err)
			}
			if s, err = r.Apply(s, s.Current, name, args); err != nil {
				t.Fatal(err)
			}
		}
		v := r.View(s, games.Spectator)
		edges := map[[2]int]string{}
		for _, p := range v.Board {
			edges[[2]int{p.X, p.Y}] = rotatedEdges(p.Type, p.Rotation)
		}
		// East and south neighbours: E of a tile meets W of the next, S meets N.
		for at, e := range edges {
			if east, ok := edges[[2]int{at[0] + 1, at[1]}]; ok && e[1] != east[3] {
				t.Errorf("seed %d: (%d,%d) E=%c but its east neighbour W=%c", seed, at[0], at[1], e[1], east[3])
			}
			if south, ok := edges[[2]int{at[0], at[1] + 1}]; ok && e[2] != south[0] {
				t.Errorf("seed %d: (%d,%d) S=%c but its south neighbour N=%c", seed, at[0], at[1], e[2], south[0])
			}
		}
	}
}

// TestPromptOptions: the tile phase numbers whole turns from 1 (each a
// placement with a meeple spot or none); the meeple phase offers 0 (no
// meeple) and each of the view's meeple options.
func TestPromptOptions(t *testing.T) {
	tileView, meepleView, _, _ := views(t)
	p, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	meeples := 0
	for _, o := range p.options {
		if o.name != carcassonne.MovePlaceTile {
			t.Errorf("tile option %s", o.name)
		}
		if o.meeple != "" {
			meeples++
		}
	}
	if p.first != 1 || len(p.options) < 2 || meeples == 0 || !strings.Contains(p.user, "\n 1 ") || !strings.Contains(p.user, "You drew tile ") {
		t.Errorf("tile prompt (first %d, %d options, %d with a meeple):\n%s", p.first, len(p.options), meeples, p.user)
	}
	t.Logf("tile prompt:\n%s", p.user)
	m, err := buildPrompt(meepleView, 0)
	if err != nil {
		t.Fatal(err)
	}
	var mv carcassonne.View
	_ = json.Unmarshal(meepleView, &mv)
	if m.first != 0 || len(m.options) != len(mv.MeepleOptions)+1 || m.options[0].name != carcassonne.MoveSkipMeeple || !strings.Contains(m.user, "\n0 no meeple est ") ||
		!strings.Contains(m.system, "You have placed your tile") || strings.Contains(m.system, "whole turn") {
		t.Errorf("meeple prompt (first %d):\n%s", m.first, m.user)
	}
	for i, o := range mv.MeepleOptions {
		if got := m.options[i+1]; got.name != carcassonne.MovePlaceMeeple || string(got.args) != `[{"feature":"`+o.Feature+`"}]` {
			t.Errorf("meeple option %d: %s %s, want %s", i+1, got.name, got.args, o.Feature)
		}
	}
	t.Logf("meeple prompt:\n%s", m.user)
}

// TestOptionsAgreeWithRules: through whole games of 2 to 4 seats (every
// third turn and the last), every
// placement and rotation the view lists is one of the prompt's placements
// (or a rotation of the same tile with the same edges and features), and
// for every placement and meeple choice the rules agree with what the
// prompt says: the meeple spots are exactly the rules' meeple options
// after the placement, and "now" is what each seat scores when the turn
// ends.
func TestOptionsAgreeWithRules(t *testing.T) {
	r := carcassonne.Rules{}
	games_, stride := []uint64{11, 12, 13}, 3 // every third turn, and the last
	if testing.Short() {
		games_, stride = games_[:1], 6
	}
	checked := 0
	for gi, seed := range games_ {
		s, err := r.Setup(2+gi, nil, games.NewRNG(seed))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 5))
		for s.Phase != carcassonne.PhaseOver {
			seat := s.Current
			v := r.View(s, seat)
			if v.Phase == carcassonne.PhaseTile && (v.Turn%stride == 0 || v.TilesLeft == 0) {
				tb, err := newTable(v, seat, v.Board)
				if err != nil {
					t.Fatal(err)
				}
				pls, err := tb.placements()
				if err != nil {
					t.Fatal(err)
				}
				for _, vp := range v.Placements {
					for _, rot := range vp.Rotations {
						key := shapeKey(tileFeats[v.Tile][rot/90])
						if !slices.ContainsFunc(pls, func(p *placement) bool {
							return p.x == vp.X && p.y == vp.Y && shapeKey(tileFeats[v.Tile][p.rot/90]) == key
						}) {
							t.Fatalf("turn %d: (%d,%d) turned %d is in no option", v.Turn, vp.X, vp.Y, rot)
						}
					}
				}
				for _, pl := range pls {
					placed, err := r.Apply(s, seat, carcassonne.MovePlaceTile, games.Args(carcassonne.TileArgs{X: pl.x, Y: pl.y, Rotation: pl.rot}))
					if err != nil {
						t.Fatalf("turn %d: option (%d,%d) %d refused: %v", v.Turn, pl.x, pl.y, pl.rot, err)
					}
					var want, got []string
					if placed.Phase == carcassonne.PhaseMeeple {
						for _, o := range r.View(placed, seat).MeepleOptions {
							want = append(want, o.Feature)
						}
					}
					for _, c := range pl.picks {
						end := placed
						if placed.Phase == carcassonne.PhaseMeeple {
							name, args := carcassonne.MoveSkipMeeple, games.Args()
							if c.feature != "" {
								got = append(got, c.feature)
								name, args = carcassonne.MovePlaceMeeple, games.Args(carcassonne.MeepleArgs{Feature: c.feature})
							}
							if end, err = r.Apply(placed, seat, name, args); err != nil {
								t.Fatalf("turn %d: %s %s refused: %v", v.Turn, name, args, err)
							}
						}
						// What the turn scored (the end scoring of the last
						// turn aside).
						scored := make([]int, s.Seats)
						for _, ev := range end.Events[len(s.Events):] {
							if ev.Kind == carcassonne.EvScore {
								for _, w := range ev.Seats {
									scored[w] += ev.Points
								}
							}
						}
						if !slices.Equal(scored, c.now) {
							t.Fatalf("turn %d: (%d,%d) %d %s: the seats score %v, the prompt says %v\n%s", v.Turn, pl.x, pl.y, pl.rot, c.label, scored, c.now, pl.effect)
						}
						checked++
					}
					if !slices.Equal(got, want) {
						t.Fatalf("turn %d: (%d,%d) %d: meeple choices %v, the rules offer %v", v.Turn, pl.x, pl.y, pl.rot, got, want)
					}
				}
			}
			level := carcassonne.LevelNormal
			if seat == 1 {
				level = carcassonne.LevelEasy
			}
			name, args, err := r.Bot(level, v, seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			if s, err = r.Apply(s, seat, name, args); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d whole-turn choices agree with the rules", checked)
}

// scenario is a tile-phase view of seat 0 on a board of its own, with
// meeples, the drawn tile and what is left to draw.
func scenario(t *testing.T, seats int, tiles []carcassonne.Placed, meeples []carcassonne.Meeple, drawn string, deck ...string) carcassonne.View {
	t.Helper()
	s := carcassonne.State{
		Seats: seats, Tiles: tiles, Meeples: meeples, Scores: make([]int, seats), MeeplesLeft: make([]int, seats),
		Phase: carcassonne.PhaseTile, Tile: drawn, Turn: 3, Removed: []string{}, Events: []carcassonne.Event{},
		Secret: carcassonne.Secret{Deck: deck},
	}
	for i := range s.MeeplesLeft {
		s.MeeplesLeft[i] = carcassonne.Meeples
	}
	for _, m := range meeples {
		s.MeeplesLeft[m.Seat]--
	}
	return carcassonne.Rules{}.View(s, 0)
}

// tilePromptOf builds the tile prompt of v for seat 0.
func tilePromptOf(t *testing.T, v carcassonne.View) prompt {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	pr, err := buildPrompt(b, 0)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestPromptSaysWhatAMoveDoes: the option that closes another player's
// city says so and whose points they are; the option that closes a city
// and takes it with the placing meeple says "now +4"; the features with
// meeples, the scores and the tiles left are listed.
func TestPromptSaysWhatAMoveDoes(t *testing.T) {
	start := carcassonne.Placed{X: 0, Y: 0, Type: "D"}
	// P1 holds the city of the start tile; E turned 180 closes it.
	v := scenario(t, 2, []carcassonne.Placed{start}, []carcassonne.Meeple{{Seat: 1, X: 0, Y: 0, Feature: 0}}, "E", "U", "V", "B")
	pr := tilePromptOf(t, v)
	for _, want := range []string{
		"You are P0 of 2 players",
		"you (P0) 0 points, 7 meeples left; P1 0 points, 6 meeples left;",
		"c1 city, 1 tile, open 1: (0,-1):",
		"; P1; worth 1, double if completed",
		"Tiles left (70; edges unrotated, * shield, k cloister, 2 separate cities): FFRR:9 RFRF:8 CFFF:4 ",
		"You drew tile CFFF (unrotated city N).",
		"(0,-1) FFCF: city S joins c1 (P1), completes it (2 tiles): 4 to P1",
	} {
		if !strings.Contains(pr.user, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, pr.user)
		}
	}
	for _, o := range pr.options {
		if strings.HasPrefix(o.text, "(0,-1) FFCF") && o.meeple == "city0" {
			t.Errorf("a meeple on P1's city is offered: %+v", o)
		}
	}
	// Nobody holds it: the closing tile takes it with a meeple, 4 at once.
	v = scenario(t, 2, []carcassonne.Placed{start}, nil, "E", "U")
	pr = tilePromptOf(t, v)
	found := false
	for i, o := range pr.options {
		if strings.HasPrefix(o.text, "(0,-1) FFCF") && o.meeple == "city0" {
			found = true
			if o.now != 4 || !strings.Contains(pr.user, fmt.Sprintf(" %d city S now +4 est ", pr.first+i)) {
				t.Errorf("closing the city with a meeple: now %d\n%s", o.now, pr.user)
			}
		}
	}
	if !found || !strings.Contains(pr.user, "No meeple is on the board.") {
		t.Errorf("no option closes the city with a meeple:\n%s", pr.user)
	}
}

// TestSymmetricRotationsOnce: rotations of a symmetric tile that land the
// same edges and features are one option: the cloister B south of the
// start tile fits in all four rotations and is one placement; so does the
// road U there, turned 90 and 270.
func TestSymmetricRotationsOnce(t *testing.T) {
	start := carcassonne.Placed{X: 0, Y: 0, Type: "D"}
	for _, c := range []struct {
		tile string
		x, y int
		rots int // rotations the rules list there
	}{{"B", 0, 1, 4}, {"U", 0, 1, 2}} {
		v := scenario(t, 2, []carcassonne.Placed{start}, nil, c.tile, "V")
		i := slices.IndexFunc(v.Placements, func(p carcassonne.Placement) bool { return p.X == c.x && p.Y == c.y })
		if i < 0 || len(v.Placements[i].Rotations) != c.rots {
			t.Fatalf("%s at (%d,%d): the rules list %+v", c.tile, c.x, c.y, v.Placements)
		}
		pr := tilePromptOf(t, v)
		rots := map[string]bool{}
		for _, o := range pr.options {
			var a []carcassonne.TileArgs
			_ = json.Unmarshal(o.args, &a)
			if a[0].X == c.x && a[0].Y == c.y {
				rots[fmt.Sprint(a[0].Rotation)] = true
			}
		}
		if len(rots) != 1 || strings.Count(pr.user, fmt.Sprintf("(%d,%d) ", c.x, c.y)) != 1 {
			t.Errorf("%s at (%d,%d): rotations %v in the options:\n%s", c.tile, c.x, c.y, rots, pr.user)
		}
	}
}

func TestParseSpec(t *testing.T) {
	for _, c := range []struct {
		spec string
		want Endpoint
		err  string
	}{
		{"deepseek=https://api.deepseek.com/v1,model=deepseek-chat,key_env=DEEPSEEK_API_KEY",
			Endpoint{Name: "deepseek", BaseURL: "https://api.deepseek.com/v1", Model: "deepseek-chat", KeyEnv: "DEEPSEEK_API_KEY"}, ""},
		{"local=http://127.0.0.1:11434/v1,model=qwen2.5:7b,timeout=45s",
			Endpoint{Name: "local", BaseURL: "http://127.0.0.1:11434/v1", Model: "qwen2.5:7b", Timeout: 45 * time.Second}, ""},
		{"llm=http://h/v1,model=m", Endpoint{Name: "llm", BaseURL: "http://h/v1", Model: "m"}, ""},
		{"http://h/v1,model=m", Endpoint{}, "NAME=BASE_URL"},
		{"x=http://h/v1", Endpoint{}, "model= is required"},
		{"x=ftp://h/v1,model=m", Endpoint{}, "http(s)"},
		{"x=https://user:sk-secret@h/v1,model=m", Endpoint{}, "credentials"},
		{"x=https://h/v1?key=sk-secret,model=m", Endpoint{}, "credentials"},
		{"x=http://h/v1,model=m,key_env=sk-secret-key", Endpoint{}, "name an environment variable"},
		{"x=http://h/v1,model=m,sk-secret", Endpoint{}, "unknown setting"},
		{"x=http://h/v1,model=m,timeout=soon", Endpoint{}, "bad timeout"},
		{"x=http://h/v1,model=m,max=2", Endpoint{Name: "x", BaseURL: "http://h/v1", Model: "m", Max: 2}, ""},
		{"x=http://h/v1,model=m,max=0", Endpoint{}, "max must be"},
		{"x=http://h/v1,model=m,max=many", Endpoint{}, "max must be"},
		{"x=http://h/v1,model=m,max=100000", Endpoint{}, "max must be"},
	} {
		got, err := ParseSpec(c.spec)
		switch {
		case c.err == "" && (err != nil || got != c.want):
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", c.spec, got, err, c.want)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("ParseSpec(%q) error %v, want one containing %q", c.spec, err, c.err)
		case err != nil && strings.Contains(err.Error(), "sk-secret"):
			t.Errorf("ParseSpec(%q) echoes the secret: %v", c.spec, err)
		}
	}
	if Level("") != "llm" || Level("llm") != "llm" || Level("deepseek") != "llm-deepseek" {
		t.Error("Level")
	}
}

func TestFromEnv(t *testing.T) {
	env := map[string]string{"LLM_BASE_URL": "https://api.example.com/v1", "LLM_MODEL": "m", "LLM_API_KEY": "sk-x"}
	ep, ok, err := FromEnv(func(k string) string { return env[k] })
	want := Endpoint{Name: "llm", BaseURL: "https://api.example.com/v1", Model: "m", KeyEnv: "LLM_API_KEY"}
	if !ok || err != nil || ep != want {
		t.Errorf("FromEnv = %+v, %v, %v; want %+v", ep, ok, err, want)
	}
	if _, ok, err := FromEnv(func(string) string { return "" }); ok || err != nil {
		t.Errorf("empty environment: %v, %v", ok, err)
	}
	env["LLM_MAX"] = "9"
	if ep, _, err := FromEnv(func(k string) string { return env[k] }); err != nil || ep.Max != 9 {
		t.Errorf("LLM_MAX=9: max %d, %v", ep.Max, err)
	}
	env["LLM_MAX"] = "-1"
	if _, _, err := FromEnv(func(k string) string { return env[k] }); err == nil {
		t.Error("LLM_MAX=-1 accepted")
	}
	delete(env, "LLM_MAX")
	delete(env, "LLM_MODEL")
	if _, ok, err := FromEnv(func(k string) string { return env[k] }); !ok || err == nil {
		t.Errorf("no model: %v, %v; want an error", ok, err)
	}
}

// TestPromptRefusesBadViews: a view that is not a well-formed Carcassonne
// view of the seat's turn is ErrView, never a panic.
func TestPromptRefusesBadViews(t *testing.T) {
	tileView, meepleView, _, _ := views(t)
	edit := func(view json.RawMessage, f func(v *carcassonne.View)) json.RawMessage {
		var v carcassonne.View
		if err := json.Unmarshal(view, &v); err != nil {
			t.Fatal(err)
		}
		f(&v)
		return marshal(t, v)
	}
	for name, view := range map[string]json.RawMessage{
		"not JSON":           json.RawMessage(`{"numPlayers":`),
		"no seats":           json.RawMessage(`{}`),
		"nine seats":         edit(tileView, func(v *carcassonne.View) { v.NumPlayers = 9 }),
		"scores missing":     edit(tileView, func(v *carcassonne.View) { v.Scores = nil }),
		"unknown board tile": edit(tileView, func(v *carcassonne.View) { v.Board[0].Type = "Z" }),
		"bad rotation":       edit(tileView, func(v *carcassonne.View) { v.Board[0].Rotation = 45 }),
		"two tiles one spot": edit(tileView, func(v *carcassonne.View) { v.Board = append(v.Board, v.Board[0]) }),
		"unknown drawn tile": edit(tileView, func(v *carcassonne.View) { v.Tile = "?" }),
		"bad placement":      edit(tileView, func(v *carcassonne.View) { v.Placements[0].Rotations = []int{45} }),
		"no placement":       edit(tileView, func(v *carcassonne.View) { v.Placements = nil }),
		"meeple nowhere":     edit(tileView, func(v *carcassonne.View) { v.Meeples = []carcassonne.MeepleView{{X: 40, Feature: "city0"}} }),
		"meeple seat":        edit(tileView, func(v *carcassonne.View) { v.Meeples = []carcassonne.MeepleView{{Seat: 7, Feature: "city0"}} }),
		"no meeple option":   edit(meepleView, func(v *carcassonne.View) { v.MeepleOptions = nil }),
		"no last placed":     edit(meepleView, func(v *carcassonne.View) { v.LastPlaced = nil }),
		"over":               edit(tileView, func(v *carcassonne.View) { v.Phase = carcassonne.PhaseOver }),
		"unknown phase":      edit(tileView, func(v *carcassonne.View) { v.Phase = "dance" }),
	} {
		if _, err := buildPrompt(view, 0); !errors.Is(err, ErrView) {
			t.Errorf("%s: %v, want ErrView", name, err)
		}
	}
}
