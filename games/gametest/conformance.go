// Package gametest is the conformance suite every game runs: random bot
// playouts that check the contract of games.Rules (no panic, input never
// mutated, state round-trips through JSON, deterministic replay, the game
// ends or hits a cap, bad input is refused without change, no view shows a
// secret or another seat's private entry, a view shares no memory with the
// state and JSON writes all of it, and a bot handed the view directly
// chooses what it chooses from the view's JSON, and a bot's move args are
// canonical while hostile variants of them are refused).
package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// Options tunes the suite for one game.
type Options struct {
	Seats     []int           // seat counts to try; default {MinPlayers, MaxPlayers}
	SetupData json.RawMessage // passed to Setup
	Games     int             // playouts per seat count; default 20
	MaxMoves  int             // cap per playout; default 2000
	// ShortGames, when set, replaces Games under -short (CI's race
	// stage): the same code paths in less time, for a game whose
	// playouts are slow under the race detector.
	ShortGames int
	// MayNotEnd is true for games that never end by themselves (Gong Zhu):
	// hitting MaxMoves is then not a failure.
	MayNotEnd bool
	// Level is the bot level that drives the playouts; default the first.
	Level string
	// SecretWords are JSON keys that must never appear in any view.
	// "secret" is always checked.
	SecretWords []string
}

// Run runs the conformance suite on g.
func Run(t *testing.T, g games.Game, o Options) {
	t.Helper()
	info := g.Info()
	if len(o.Seats) == 0 {
		o.Seats = []int{info.MinPlayers, info.MaxPlayers}
	}
	if o.Games == 0 {
		o.Games = 20
	}
	if o.ShortGames > 0 && testing.Short() {
		o.Games = o.ShortGames
	}
	if o.MaxMoves == 0 {
		o.MaxMoves = 2000
	}
	if o.Level == "" {
		if len(info.Bots) == 0 {
			t.Fatalf("%s has no bots to drive playouts", info.Name)
		}
		o.Level = info.Bots[0]
	}
	for _, n := range o.Seats {
		for i := 0; i < o.Games; i++ {
			seed := uint64(n*1000 + i)
			t.Run(fmt.Sprintf("seats=%d/seed=%d", n, seed), func(t *testing.T) {
				playout(t, g, o, n, seed)
			})
		}
	}
}

type step struct {
	seat int
	name string
	args json.RawMessage
}

func playout(t *testing.T, g games.Game, o Options, n int, seed uint64) {
	st, err := g.Setup(n, o.SetupData, seed)
	if err != nil {
		t.Fatalf("setup(%d, seed %d): %v", n, seed, err)
	}
	botRNG := rand.New(rand.NewPCG(seed, 7))
	if err := checkViewType(reflect.TypeOf(st.View(games.Spectator))); err != nil {
		t.Fatal(err)
	}
	var steps []step
	var history []games.State // the states before st
	ended := false
	for len(steps) < o.MaxMoves {
		// The bot-view checks (a choice from the direct view and from its
		// JSON, a mutated view) cost the most: -short (CI's race run) makes
		// them on every fifth state; the full suite on every state.
		thorough := !testing.Short() || len(steps)%5 == 0
		checkViews(t, st, n, o.SecretWords, g.Info().PublicView, thorough)
		checkRoundTrip(t, g, st)
		status := st.Status()
		if status.Outcome != nil {
			ended = true
			break
		}
		movers := status.Movers(n)
		if len(movers) == 0 {
			t.Fatalf("seed %d: nobody may move but the game is not over", seed)
		}
		for _, m := range movers {
			if !thorough {
				break
			}
			if err := CheckBotDirect(st, o.Level, m, seed<<16+uint64(len(steps))); err != nil {
				t.Fatalf("seed %d move %d: %v", seed, len(steps), err)
			}
		}
		seat := movers[botRNG.IntN(len(movers))]
		checkRefusals(t, st, seat, g.Info().Moves)
		name, args, err := st.Bot(o.Level, seat, botRNG)
		if err != nil {
			t.Fatalf("seed %d: bot %s for seat %d: %v", seed, o.Level, seat, err)
		}
		if err := checkBotArgs(st, g, seat, name, args); err != nil {
			t.Fatalf("seed %d move %d: %v", seed, len(steps), err)
		}
		before := mustJSON(t, st)
		next, err := st.Apply(seat, name, args)
		if err != nil {
			t.Fatalf("seed %d move %d: bot move %s %s for seat %d refused: %v", seed, len(steps), name, args, seat, err)
		}
		if after := mustJSON(t, st); !bytes.Equal(before, after) {
			t.Fatalf("seed %d: Apply mutated its input state", seed)
		}
		for viewer := games.Spectator; viewer < n && thorough; viewer++ {
			if err := CheckViewOps(st, next, viewer); err != nil {
				t.Fatalf("seed %d move %d: %v", seed, len(steps), err)
			}
			if len(history) >= 3 { // a viewer some states behind
				if err := CheckViewOps(history[len(history)-3], next, viewer); err != nil {
					t.Fatalf("seed %d move %d, from 3 states back: %v", seed, len(steps), err)
				}
			}
		}
		steps = append(steps, step{seat, name, args})
		history = append(history, st)
		st = next
	}
	if !ended && !o.MayNotEnd {
		t.Fatalf("seed %d: no outcome after %d moves", seed, o.MaxMoves)
	}
	replay(t, g, o, n, seed, steps, st)
}

// replay checks that the same seed and moves give the same state.
func replay(t *testing.T, g games.Game, o Options, n int, seed uint64, steps []step, want games.State) {
	st, err := g.Setup(n, o.SetupData, seed)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range steps {
		if st, err = st.Apply(s.seat, s.name, s.args); err != nil {
			t.Fatalf("seed %d: replay move %d refused: %v", seed, i, err)
		}
	}
	if !bytes.Equal(mustJSON(t, st), mustJSON(t, want)) {
		t.Fatalf("seed %d: replay of %d moves gave a different state", seed, len(steps))
	}
}

func checkRoundTrip(t *testing.T, g games.Game, st games.State) {
	b := mustJSON(t, st)
	back, err := g.Load(b)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if b2 := mustJSON(t, back); !bytes.Equal(b, b2) {
		t.Fatalf("state does not round-trip through JSON:\n%s\n%s", b, b2)
	}
}

// checkRefusals sends moves that must be refused and checks nothing changed.
func checkRefusals(t *testing.T, st games.State, seat int, moves []games.MoveSpec) {
	before := mustJSON(t, st)
	bad := []step{
		{seat, "noSuchMove", json.RawMessage(`[]`)},
		{games.Spectator, "noSuchMove", json.RawMessage(`[]`)},
	}
	for _, b := range bad {
		if _, err := st.Apply(b.seat, b.name, b.args); err == nil {
			t.Fatalf("move %q by seat %d was accepted", b.name, b.seat)
		}
	}
	// Garbage args to every move must be refused, never panic: every move
	// parses its args strictly, even one that takes none.
	for _, args := range []string{`{"x":1}`, `[null]`, `"zz"`, `[1e99, -1, "?"]`, `[] []`, `[] x`, `[{}]`,
		`["` + strings.Repeat(" ", games.MaxArgsBytes) + `"]`} {
		for _, m := range moves {
			_, err := st.Apply(seat, m.Name, json.RawMessage(args))
			if err == nil {
				t.Fatalf("move %s with args %.40s was accepted", m.Name, args)
			}
			if !errors.Is(err, games.ErrInvalidMove) && !errors.Is(err, games.ErrNotYourTurn) {
				t.Fatalf("move %s with args %s: error %v does not wrap ErrInvalidMove", m.Name, args, err)
			}
		}
	}
	if after := mustJSON(t, st); !bytes.Equal(before, after) {
		t.Fatalf("a refused move changed the state")
	}
}

func checkViews(t *testing.T, st games.State, n int, secretWords []string, public, isolation bool) {
	words := append([]string{"secret"}, secretWords...)
	state := mustJSON(t, st)
	var first []byte
	for viewer := games.Spectator; viewer < n; viewer++ {
		b, err := json.Marshal(st.View(viewer))
		if err != nil {
			t.Fatalf("view %d: %v", viewer, err)
		}
		if err := CheckView(b, viewer, words); err != nil {
			t.Fatalf("view for %d: %v\n%s", viewer, err, b)
		}
		if err := CheckAppendView(st, viewer); err != nil {
			t.Fatal(err)
		}
		if err := CheckSeatEntry(st, viewer); err != nil {
			t.Fatal(err)
		}
		if isolation {
			if err := viewIsolated(st, viewer, b); err != nil {
				t.Fatal(err)
			}
		}
		if first == nil {
			first = b
		} else if public && !bytes.Equal(b, first) {
			t.Fatalf("Info.PublicView is set, but seat %d's view differs from the spectator's:\n%s\n%s", viewer, b, first)
		}
	}
	if after := mustJSON(t, st); !bytes.Equal(state, after) {
		t.Fatalf("changing the views changed the state: %s", firstDiff(state, after))
	}
}

// CheckAppendView checks that st.AppendView writes json.Marshal's bytes
// for viewer's view, appending to what b already holds; for a view that is
// a games.JSONAppender this tests its AppendJSON.
func CheckAppendView(st games.State, viewer int) error {
	want, err := json.Marshal(st.View(viewer))
	if err != nil {
		return err
	}
	prefix := []byte("prefix:")
	got, err := st.AppendView(append(make([]byte, 0, 8), prefix...), viewer)
	if err != nil {
		return fmt.Errorf("AppendView(%d): %v", viewer, err)
	}
	if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want) {
		return fmt.Errorf("AppendView(%d) wrote\n%s\nbut json.Marshal gives\n%s%s", viewer, got, prefix, want)
	}
	return nil
}

// CheckSeatEntry checks games.SeatEntry: where it says viewer's view is
// the spectators' with viewer's entry spliced into "players", it is, to
// the byte (the room's patches build a seat's from the spectators' so).
func CheckSeatEntry(st games.State, viewer int) error {
	entry, ok := games.SeatEntry(st, nil, viewer)
	if !ok {
		return nil
	}
	spec, err := json.Marshal(st.View(games.Spectator))
	if err != nil {
		return err
	}
	want, err := json.Marshal(st.View(viewer))
	if err != nil {
		return err
	}
	at := bytes.Index(spec, []byte(`"players":{}`))
	if at < 0 {
		return fmt.Errorf("SeatEntry(%d) is there, but the spectators' view has no \"players\":{}:\n%s", viewer, spec)
	}
	at += len(`"players":{`)
	got := append(append(append([]byte(nil), spec[:at]...), entry...), spec[at:]...)
	if !bytes.Equal(got, want) {
		return fmt.Errorf("the spectators' view with SeatEntry(%d) spliced in is\n%s\nbut the seat's view is\n%s", viewer, got, want)
	}
	return nil
}

// CheckViewOps checks games.ViewOps: where the rules say what turns
// viewer's view of prev into its view of next, the client's patch applier
// (clients/client.View, which keeps a view's bytes and member order as
// they are) makes of the first view's JSON exactly the second's.
func CheckViewOps(prev, next games.State, viewer int) error {
	ops, ok := games.ViewOps(nil, prev, next, viewer, "/G")
	if !ok {
		return nil
	}
	from, err := prev.AppendView(nil, viewer)
	if err != nil {
		return err
	}
	want, err := next.AppendView(nil, viewer)
	if err != nil {
		return err
	}
	var p protocol.Patch
	if err := json.Unmarshal(append(append([]byte(`{"type":"patch","stateID":2,"base":1,"ops":[`), ops...), "]}"...), &p); err != nil {
		return fmt.Errorf("ViewOps(%d) wrote operations that are not JSON: %v\n%s", viewer, err, ops)
	}
	var v client.View
	if err := v.SetState(append(append([]byte(`{"type":"state","stateID":1,"G":`), from...), '}')); err != nil {
		return err
	}
	if err := v.Apply(&p); err != nil {
		return fmt.Errorf("ViewOps(%d): %v\nfrom %s\nops %s", viewer, err, from, ops)
	}
	if got := v.Member("G"); !bytes.Equal(got, want) {
		return fmt.Errorf("ViewOps(%d) applied to\n%s\ngive\n%s\nbut the view is\n%s\nops %s", viewer, from, got, want, ops)
	}
	return nil
}

// CheckView checks one view's JSON: no key named like a secret word at any
// depth, and a top-level "players" map holding at most the viewer's entry.
func CheckView(view []byte, viewer int, secretWords []string) error {
	var v any
	if err := json.Unmarshal(view, &v); err != nil {
		return err
	}
	if k := findKey(v, secretWords); k != "" {
		return fmt.Errorf("view has secret key %q", k)
	}
	if m, ok := v.(map[string]any); ok {
		if p, ok := m["players"].(map[string]any); ok {
			for id := range p {
				if id != games.PlayerID(viewer) {
					return fmt.Errorf("view holds players[%s]", id)
				}
			}
		}
	}
	return nil
}

func findKey(v any, words []string) string {
	switch x := v.(type) {
	case map[string]any:
		for k, child := range x {
			for _, w := range words {
				if k == w {
					return k
				}
			}
			if f := findKey(child, words); f != "" {
				return f
			}
		}
	case []any:
		for _, child := range x {
			if f := findKey(child, words); f != "" {
				return f
			}
		}
	}
	return ""
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}
