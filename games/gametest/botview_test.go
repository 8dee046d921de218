package gametest

import (
	"encoding/json"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// toyState is the state of toy, a one-seat game whose only move is "pick".
type toyState struct {
	Cells []int `json:"cells"`
}

// toy is a one-seat game with a pluggable view and bot, to show what the
// checks catch.
type toy[V any] struct {
	view func(toyState) V
	bot  func(V) int // the number the bot picks
}

func (toy[V]) Info() games.Info {
	return games.Info{Name: "toy", MinPlayers: 1, MaxPlayers: 1, Moves: []games.MoveSpec{{Name: "pick"}}, Bots: []string{"b"}}
}

func (toy[V]) Setup(int, json.RawMessage, *games.RNG) (toyState, error) {
	return toyState{Cells: []int{1, 2, 3}}, nil
}

func (toy[V]) Status(toyState) games.Status { return games.Status{Current: 0} }

func (toy[V]) Apply(s toyState, _ int, _ string, _ json.RawMessage) (toyState, error) {
	return toyState{Cells: slices.Clone(s.Cells)}, nil
}

func (g toy[V]) View(s toyState, _ int) V { return g.view(s) }

func (g toy[V]) Bot(_ string, v V, _ int, _ *rand.Rand) (string, json.RawMessage, error) {
	return "pick", games.Args(g.bot(v)), nil
}

// setupToy starts a match of toy.
func setupToy[V any](t *testing.T, g toy[V]) games.State {
	t.Helper()
	st, err := games.Erase[toyState, V](g).Setup(1, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

type cellsView struct {
	Cells []int `json:"cells"`
}

func TestViewIsolatedCatchesAViewSharingTheState(t *testing.T) {
	for _, c := range []struct {
		name  string
		view  func(toyState) cellsView
		share bool
	}{
		{"shared", func(s toyState) cellsView { return cellsView(s) }, true},
		{"fresh", func(s toyState) cellsView { return cellsView{Cells: slices.Clone(s.Cells)} }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := setupToy(t, toy[cellsView]{view: c.view, bot: func(cellsView) int { return 0 }})
			state, view := mustJSON(t, st), mustJSON(t, st.View(0))
			err := viewIsolated(st, 0, view)
			if (err != nil) != c.share {
				t.Fatalf("viewIsolated: %v", err)
			}
			if changed := string(mustJSON(t, st)) != string(state); changed != c.share {
				t.Fatalf("state changed: %v, want %v", changed, c.share)
			}
		})
	}
}

// lossy is a number whose JSON is always 0: a view holding one says more
// to a bot handed it directly than to a person.
type lossy int

func (lossy) MarshalJSON() ([]byte, error) { return []byte("0"), nil }

type lossyView struct {
	Pick lossy `json:"pick"`
}

type plainView struct {
	Pick int `json:"pick"`
}

func TestCheckBotDirectCatchesAViewItsJSONDoesNotCarry(t *testing.T) {
	st := setupToy(t, toy[lossyView]{
		view: func(s toyState) lossyView { return lossyView{Pick: lossy(s.Cells[2])} },
		bot:  func(v lossyView) int { return int(v.Pick) },
	})
	if err := CheckBotDirect(st, "b", 0, 1); err == nil || !strings.Contains(err.Error(), "pick [3]") {
		t.Fatalf("CheckBotDirect with a lossy view: %v", err)
	}
	st = setupToy(t, toy[plainView]{
		view: func(s toyState) plainView { return plainView{Pick: s.Cells[2]} },
		bot:  func(v plainView) int { return v.Pick },
	})
	if err := CheckBotDirect(st, "b", 0, 1); err != nil {
		t.Fatalf("CheckBotDirect with a plain view: %v", err)
	}
}

func TestCheckViewTypeRefusesFieldsJSONDrops(t *testing.T) {
	type hidden struct {
		Shown int `json:"shown"`
		extra int //lint:ignore U1000 the field JSON drops is the point of the test
	}
	type dashed struct {
		Shown int `json:"shown"`
		Extra int `json:"-"`
	}
	type nested struct {
		Rows []map[string]*hidden `json:"rows"`
	}
	for _, c := range []struct {
		v   any
		bad string
	}{
		{hidden{}, "extra"},
		{dashed{}, "Extra"},
		{nested{}, "extra"},
		{plainView{}, ""},
		{cellsView{}, ""},
		{lossyView{}, ""}, // a type with its own MarshalJSON is taken as it is
	} {
		err := checkViewType(reflect.TypeOf(c.v))
		if (err == nil) != (c.bad == "") || (err != nil && !strings.Contains(err.Error(), c.bad)) {
			t.Errorf("%T: %v, want an error naming %q", c.v, err, c.bad)
		}
	}
}

func TestMutateViewReachesEverything(t *testing.T) {
	type inner struct {
		N     int              `json:"n"`
		S     string           `json:"s"`
		B     bool             `json:"b"`
		F     float64          `json:"f"`
		Arr   [2]uint8         `json:"arr"`
		M     map[string][]int `json:"m"`
		Iface any              `json:"iface"`
	}
	shared := &inner{N: 1, S: "a", F: 1, Arr: [2]uint8{1, 2}, M: map[string][]int{"k": {5}}, Iface: []int{9}}
	v := struct {
		P    *inner  `json:"p"`
		List []inner `json:"list"`
	}{P: shared, List: []inner{{N: 7}}}
	list := v.List
	mutateView(v)
	if shared.N != 2 || shared.S != "a~" || !shared.B || shared.F != 2 || shared.Arr != [2]uint8{2, 3} ||
		shared.M["k"][0] != 6 || shared.Iface.([]int)[0] != 10 || list[0].N != 8 {
		t.Fatalf("mutateView missed something: %+v %+v", *shared, list[0])
	}
}
