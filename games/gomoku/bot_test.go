package gomoku

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
)

var levels = []string{"easy", "normal", "hard"}

// botPlace asks a bot for a move that must be a place, and returns it.
func botPlace(t *testing.T, st games.State, level string, seat int, seed uint64) [2]int {
	t.Helper()
	name, args, err := st.Bot(level, seat, rand.New(rand.NewPCG(seed, 1)))
	if err != nil {
		t.Fatalf("seed %d: bot %s: %v", seed, level, err)
	}
	var p [2]int
	if name != movePlace || json.Unmarshal(args, &p) != nil {
		t.Fatalf("seed %d: bot %s chose %s %s, want a place", seed, level, name, args)
	}
	return p
}

func TestBotOpensAtCentre(t *testing.T) {
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			for seed := uint64(0); seed < 5; seed++ {
				if p := botPlace(t, newMatch(t), level, 0, seed); p != [2]int{7, 7} {
					t.Fatalf("seed %d: opened at %v, want [7 7]", seed, p)
				}
			}
		})
	}
}

func TestEasyPlaysNextToAStone(t *testing.T) {
	st := playStones(t, [2]int{0, 0}, [2]int{14, 14}, [2]int{0, 14})
	for seed := uint64(0); seed < 50; seed++ {
		p := botPlace(t, st, "easy", 1, seed)
		near := false
		for _, s := range [][2]int{{0, 0}, {14, 14}, {0, 14}} {
			if dx, dy := p[0]-s[0], p[1]-s[1]; max(dx, -dx) <= 1 && max(dy, -dy) <= 1 {
				near = true
			}
		}
		if !near {
			t.Fatalf("seed %d: easy played %v, next to no stone", seed, p)
		}
		if _, err := st.Apply(1, movePlace, games.Args(p[0], p[1])); err != nil {
			t.Fatalf("seed %d: easy's move %v refused: %v", seed, p, err)
		}
	}
}

// tactic is a position with the bot to move and the points it must choose.
type tactic struct {
	name   string
	black  [][2]int
	white  [][2]int
	seat   int      // the bot's seat; the stone counts must make it its turn
	want   [][2]int // any of these
	winner bool     // the chosen point must win at once
}

var tactics = []tactic{
	{
		name:  "win with an open four",
		black: line(4, 6, 1, 0, 4), white: [][2]int{{4, 7}, {5, 7}, {6, 7}, {14, 0}},
		seat: 0, want: [][2]int{{3, 6}, {8, 6}}, winner: true,
	},
	{
		name:  "win in the gap of a broken four",
		black: [][2]int{{2, 2}, {3, 3}, {5, 5}, {6, 6}}, white: [][2]int{{1, 1}, {7, 7}, {10, 10}, {14, 0}},
		seat: 0, want: [][2]int{{4, 4}}, winner: true,
	},
	{
		name:  "win rather than block",
		black: [][2]int{{0, 0}, {2, 0}, {7, 7}, {7, 8}, {7, 9}, {7, 10}},
		white: [][2]int{{3, 3}, {4, 3}, {5, 3}, {6, 3}, {7, 11}},
		seat:  1, want: [][2]int{{2, 3}, {7, 3}}, winner: true,
	},
	{
		name:  "block a closed four",
		black: [][2]int{{5, 5}, {5, 6}, {5, 7}, {5, 8}, {12, 12}},
		white: [][2]int{{5, 4}, {0, 14}, {3, 12}, {9, 1}},
		seat:  1, want: [][2]int{{5, 9}},
	},
	{
		name:  "block a broken four",
		black: [][2]int{{3, 10}, {4, 9}, {6, 7}, {7, 6}, {12, 1}},
		white: [][2]int{{0, 0}, {0, 14}, {14, 14}, {2, 11}},
		seat:  1, want: [][2]int{{5, 8}},
	},
	{
		name:  "block an open four at one end",
		black: [][2]int{{0, 0}, {2, 0}, {4, 0}, {9, 14}},
		white: line(6, 9, 1, -1, 4),
		seat:  0, want: [][2]int{{5, 10}, {10, 5}},
	},
}

func TestBotTactics(t *testing.T) {
	for _, level := range []string{"normal", "hard"} {
		for _, tc := range tactics {
			t.Run(level+"/"+tc.name, func(t *testing.T) {
				st := placeColours(t, tc.black, tc.white)
				if got := st.Status().Current; got != tc.seat {
					t.Fatalf("bad fixture: seat %d to move, want %d", got, tc.seat)
				}
				for seed := uint64(0); seed < 5; seed++ {
					p := botPlace(t, st, level, tc.seat, seed)
					if !slices.Contains(tc.want, p) {
						t.Fatalf("seed %d: chose %v, want one of %v", seed, p, tc.want)
					}
					next := mustApply(t, st, tc.seat, movePlace, p[0], p[1])
					if o := next.Status().Outcome; tc.winner && (o == nil || o.Winner != games.PlayerID(tc.seat)) {
						t.Fatalf("seed %d: %v did not win: %+v", seed, p, o)
					}
				}
			})
		}
	}
}

// placeColours plays the given black and white stones, in order, and
// checks none of them ended the game.
func placeColours(t *testing.T, b, w [][2]int) games.State {
	t.Helper()
	if len(b) != len(w) && len(b) != len(w)+1 {
		t.Fatalf("bad fixture: %d black and %d white stones", len(b), len(w))
	}
	st := playStones(t, interleave(b, w)...)
	if o := st.Status().Outcome; o != nil {
		t.Fatalf("bad fixture: game over %+v", o)
	}
	return st
}

func TestBotAnswersUndo(t *testing.T) {
	st := playStones(t, [2]int{7, 7}, [2]int{8, 8})
	st = mustApply(t, st, 0, moveRequestUndo)
	for _, level := range levels {
		t.Run(level, func(t *testing.T) {
			name, args, err := st.Bot(level, 1, rand.New(rand.NewPCG(1, 1)))
			if err != nil || name != moveAnswerUndo || string(args) != "[true]" {
				t.Fatalf("bot chose %s %s %v, want answerUndo [true]", name, args, err)
			}
			if _, _, err := st.Bot(level, 0, rand.New(rand.NewPCG(1, 1))); err == nil {
				t.Fatalf("the asker's bot moved while its request waits")
			}
		})
	}
}

func TestBotRefusals(t *testing.T) {
	won := playStones(t, interleave(line(0, 0, 1, 0, 5), scattered[:4])...)
	mid := playStones(t, [2]int{7, 7})
	good := Rules{}.View(typed(t, mid), 1)
	short := good
	short.Board = append([]string(nil), good.Board[:14]...)
	badChar := good
	badChar.Board = append([]string(nil), good.Board...)
	badChar.Board[3] = "....X.........."
	rng := rand.New(rand.NewPCG(1, 1))
	tests := []struct {
		name  string
		level string
		view  View
		seat  int
		want  error
	}{
		{"unknown level", "grandmaster", good, 1, games.ErrNoBot},
		{"game over", "normal", Rules{}.View(typed(t, won), 1), 1, games.ErrGameOver},
		{"not its turn", "normal", good, 0, games.ErrNotYourTurn},
		{"short board", "hard", short, 1, errBadView},
		{"bad character", "easy", badChar, 1, errBadView},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, _, err := (Rules{}).Bot(tc.level, tc.view, tc.seat, rng); !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
		})
	}
}

// TestHardBeatsNormal plays hard against normal, each with black in half
// the games, and wants hard to win most of them.
func TestHardBeatsNormal(t *testing.T) {
	const n = 20
	wins, draws := 0, 0
	for g := 0; g < n; g++ {
		seed := uint64(g)
		hardSeat := g % 2
		bots := [2]string{"normal", "normal"}
		bots[hardSeat] = "hard"
		winner := playMatch(t, bots, seed)
		switch winner {
		case games.PlayerID(hardSeat):
			wins++
		case "":
			draws++
		default:
			t.Logf("seed %d: normal beat hard (hard as seat %d)", seed, hardSeat)
		}
	}
	t.Logf("hard won %d of %d against normal, %d draws", wins, n, draws)
	if wins <= n/2 {
		t.Fatalf("hard won only %d of %d games against normal", wins, n)
	}
}

// playMatch plays a whole game between two bot levels and returns the
// winner's seat ID ("" for a draw).
func playMatch(t *testing.T, bots [2]string, seed uint64) string {
	t.Helper()
	st := newMatch(t)
	rng := rand.New(rand.NewPCG(seed, 99))
	for st.Status().Outcome == nil {
		seat := st.Status().Current
		name, args, err := st.Bot(bots[seat], seat, rng)
		if err != nil {
			t.Fatalf("seed %d: %s bot: %v", seed, bots[seat], err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			t.Fatalf("seed %d: %s bot's move %s %s refused: %v", seed, bots[seat], name, args, err)
		}
	}
	return st.Status().Outcome.Winner
}

// TestHardBudget checks the node budget: however small, the search leaves
// the board as it found it and returns a legal point; the real budget does
// not cut a mid-game search short (it chooses what an unbounded one does).
func TestHardBudget(t *testing.T) {
	st := playStones(t, [2]int{7, 7}, [2]int{8, 8}, [2]int{7, 8}, [2]int{8, 7}, [2]int{6, 9}, [2]int{9, 6})
	v := Rules{}.View(typed(t, st), 0)
	chosen := map[int]pos{}
	for _, budget := range []int{0, 50, hardNodes, 1 << 40} {
		b, err := boardFromView(v)
		if err != nil {
			t.Fatal(err)
		}
		before := b.g
		p := b.search(black, rand.New(rand.NewPCG(3, 3)), budget)
		if b.g != before || len(b.stones) != len(v.Moves) {
			t.Fatalf("budget %d: the search left the board changed", budget)
		}
		if b.g[p] != empty {
			t.Fatalf("budget %d: chose occupied point %v", budget, p.point())
		}
		x, y := p.xy()
		if _, err := st.Apply(0, movePlace, games.Args(x, y)); err != nil {
			t.Fatalf("budget %d: %v refused: %v", budget, p.point(), err)
		}
		chosen[budget] = p
	}
	if chosen[hardNodes] != chosen[1<<40] {
		t.Fatalf("the budget changed the choice: %v, unbounded %v", chosen[hardNodes].point(), chosen[1<<40].point())
	}
}

// TestNormalBreaksTiesByRNG: after black opens at the centre, white's best
// points tie: the sixteen points on the centre's four lines at distance
// one or two (black there would make a two, 活二, plain or split), where
// every other candidate scores nothing. Different bot seeds must choose
// different ones among them, and never any other point.
func TestNormalBreaksTiesByRNG(t *testing.T) {
	st := playStones(t, [2]int{7, 7})
	seen := map[[2]int]bool{}
	for seed := uint64(0); seed < 40; seed++ {
		p := botPlace(t, st, "normal", 1, seed)
		dx, dy := p[0]-7, p[1]-7
		onLine := dx == 0 || dy == 0 || dx == dy || dx == -dy
		if !onLine || max(dx, -dx, dy, -dy) > 2 {
			t.Fatalf("seed %d: white answered the centre at %v, off the best points", seed, p)
		}
		seen[p] = true
	}
	if len(seen) < 4 {
		t.Fatalf("40 seeds chose only %v: ties are not broken at random", seen)
	}
}
