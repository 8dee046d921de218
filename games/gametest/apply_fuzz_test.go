package gametest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/games/gametest"
)

// Bounds of the reachable states the fuzzer plays from: per game and seat
// count, fuzzSeeds bot playouts of at most fuzzPlayout moves each.
const (
	fuzzSeeds   = 8
	fuzzPlayout = 400
	// pickOwnName is the first move selector that sends the fuzzed name
	// instead of one of the game's own move names.
	pickOwnName = 200
)

// contractErrors are the errors a refused move may wrap.
var contractErrors = []error{games.ErrInvalidMove, games.ErrNotYourTurn, games.ErrGameOver, games.ErrUnknownMove}

// FuzzApply sends a fuzzed move (one of the game's move names or a fuzzed
// one, fuzzed args, any seat or a spectator or one past the last seat) to
// a random reachable state of every registered game: a state some moves
// into a bot playout from a fuzzed seed. When the game accepts it, a
// second fuzzed move follows, so that states only a person's move reaches
// (an undo or a scoring request pending) are fuzzed too. Apply must never
// panic; a refusal wraps a contract error and leaves the state as it was;
// an accepted move leaves its input as it was, gives the same state when
// repeated, and gives a state that round-trips through JSON and whose
// views build and show no secret. CanonicalArgs agrees with Apply: what it
// refuses Apply refuses, what it accepts has a canonical form that is its
// own canonical form and that Apply plays as it plays the original args.
func FuzzApply(f *testing.F) {
	addApplySeeds(f)
	pool := newStatePool(all.Registry())
	f.Fuzz(func(t *testing.T, game, seats, seed uint8, depth uint16, seat, pick uint8, name string, args []byte, seat2, pick2 uint8, args2 []byte) {
		g, n, st := pool.state(t, game, seats, seed, depth)
		next := checkApply(t, g, st, n, fuzzSeat(seat, n), moveName(g, pick, name), json.RawMessage(args))
		if next != nil {
			checkApply(t, g, next, n, fuzzSeat(seat2, n), moveName(g, pick2, name), json.RawMessage(args2))
		}
	})
}

// fuzzSeat maps a fuzzed byte to a viewer from the spectator to one past
// the last of n seats.
func fuzzSeat(b uint8, n int) int { return int(b)%(n+2) - 1 }

// moveName is one of g's moves when pick is below pickOwnName, else the
// fuzzed name.
func moveName(g games.Game, pick uint8, name string) string {
	if int(pick) >= pickOwnName {
		return name
	}
	moves := g.Info().Moves
	return moves[int(pick)%len(moves)].Name
}

// addApplySeeds adds, for every game, its moves with well-formed and
// malformed args at a few depths. The game and move indexes follow the
// registry's lobby order (gongzhu, gomoku, threemonks, weiqi, carcassonne).
func addApplySeeds(f *testing.F) {
	type seed struct {
		game, pick uint8
		args       string
	}
	for _, s := range []seed{
		{0, 0, `["QS"]`}, {0, 0, `["10C"]`}, {0, 0, `[]`},
		{1, 0, `[7,7]`}, {1, 0, `[15,0]`}, {1, 1, `[]`}, {1, 2, `[true]`}, {1, 3, `[]`},
		{2, 0, `["rest"]`}, {2, 1, `[2]`}, {2, 2, `["left"]`}, {2, 3, `[true]`},
		{3, 0, `["D4"]`}, {3, 0, `["Z99"]`}, {3, 1, `[]`}, {3, 3, `[]`}, {3, 4, `[true]`}, {3, 6, `[false]`},
		{4, 0, `[{"x":1,"y":0,"rotation":90}]`}, {4, 1, `[{"feature":"city0"}]`}, {4, 2, `[]`},
		// Hostile and non-canonical spellings: padded strings, a spoofed
		// tile, full-width and lower-case points, spaced numbers, null.
		{0, 0, `["5C   "]`}, {0, 0, `["qs"]`}, {1, 0, `[ 7 , 7 ]`}, {1, 0, `[7.0,7]`}, {1, 3, `null`},
		{3, 0, `["D4      "]`}, {3, 0, `["ｄ４"]`}, {3, 0, `["d4"]`}, {2, 0, `["Rest"]`}, {2, 1, `[2.5]`},
		{4, 0, `[{"x":1,"y":0,"rotation":90,"tile":"A"}]`}, {4, 0, `[{"rotation":90,"x":1,"y":0}]`}, {4, 2, `[null]`},
	} {
		for _, depth := range []uint16{0, 7, 60, 399} {
			f.Add(s.game, uint8(0), uint8(depth), depth, uint8(1+depth%3), s.pick, "", []byte(s.args), uint8(2), s.pick, []byte(s.args))
		}
	}
	// Undo and scoring requests answered by the other player (gomoku's
	// moves are place, requestUndo, answerUndo, resign; weiqi's begin
	// play, pass, resign, requestUndo, answerUndo, requestScoring,
	// answerScoring).
	f.Add(uint8(1), uint8(0), uint8(0), uint16(9), uint8(1), uint8(1), "", []byte(`[]`), uint8(2), uint8(2), []byte(`[true]`))
	f.Add(uint8(3), uint8(0), uint8(1), uint16(30), uint8(1), uint8(3), "", []byte(`[]`), uint8(2), uint8(4), []byte(`[false]`))
	f.Add(uint8(3), uint8(0), uint8(2), uint16(200), uint8(1), uint8(5), "", []byte(`[]`), uint8(2), uint8(6), []byte(`[true]`))
	f.Add(uint8(1), uint8(0), uint8(0), uint16(3), uint8(1), uint8(pickOwnName), "noSuchMove", []byte(`[]`), uint8(0), uint8(0), []byte(`[]`))
	f.Add(uint8(3), uint8(1), uint8(2), uint16(9), uint8(0), uint8(0), "", []byte(`{"x":1}`), uint8(0), uint8(0), []byte(`[]`))
	f.Add(uint8(4), uint8(2), uint8(3), uint16(1), uint8(9), uint8(1), "", []byte(`[null]`), uint8(0), uint8(0), []byte(`[]`))
}

// checkApply plays one move on st and fails t when Apply breaks its
// contract; it returns the next state, nil when the move was refused.
func checkApply(t *testing.T, g games.Game, st games.State, n, seat int, name string, args json.RawMessage) games.State {
	t.Helper()
	next, err := applyChecked(g, st, n, seat, name, args)
	if err != nil {
		t.Fatalf("%s: Apply(%d, %q, %s): %v", g.Info().Name, seat, name, args, err)
	}
	return next
}

// applyChecked plays one move on st and checks the contract of Apply: the
// input state never changes; a refusal wraps a contract error and says
// something; an accepted move is deterministic and gives a sound state
// (checkNext). It returns the next state (nil when the move was refused)
// and what broke the contract, if anything.
func applyChecked(g games.Game, st games.State, n, seat int, name string, args json.RawMessage) (games.State, error) {
	before, err := st.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal the input state: %v", err)
	}
	canon, cerr := g.CanonicalArgs(name, args)
	next, err := st.Apply(seat, name, args)
	if after, _ := st.MarshalJSON(); !bytes.Equal(before, after) {
		return nil, errors.New("changed its input state")
	}
	if err != nil {
		if e := checkCanonicalArgs(g, st, seat, name, canon, cerr, nil, err); e != nil {
			return nil, e
		}
		return nil, checkRefusal(err)
	}
	again, err := st.Apply(seat, name, args)
	if err != nil {
		return nil, fmt.Errorf("accepted once, refused the second time: %v", err)
	}
	data, err := next.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("marshal the next state: %v", err)
	}
	if b, _ := again.MarshalJSON(); !bytes.Equal(b, data) {
		return nil, errors.New("not deterministic: the same move gave another state")
	}
	if err := checkCanonicalArgs(g, st, seat, name, canon, cerr, next, nil); err != nil {
		return nil, err
	}
	return next, checkNext(g, next, n, data)
}

// checkCanonicalArgs checks CanonicalArgs against Apply for one move:
// refused args (canon, cerr) are an invalid move or an unknown move, and
// Apply refuses them too; accepted ones have a canonical form that is its
// own canonical form, and applying it gives what applying the original
// args gave (next, err): the same state, or the same refusal.
func checkCanonicalArgs(g games.Game, st games.State, seat int, name string, canon json.RawMessage, cerr error, next games.State, err error) error {
	if cerr != nil {
		if !errors.Is(cerr, games.ErrInvalidMove) && !errors.Is(cerr, games.ErrUnknownMove) {
			return fmt.Errorf("CanonicalArgs refused with %v, which is neither an invalid nor an unknown move", cerr)
		}
		if err == nil {
			return fmt.Errorf("CanonicalArgs refused the args (%v) but Apply accepted them", cerr)
		}
		return nil
	}
	if len(canon) > games.MaxArgsBytes {
		return fmt.Errorf("canonical args of %d bytes, over the bound", len(canon))
	}
	if again, err := g.CanonicalArgs(name, canon); err != nil || !bytes.Equal(again, canon) {
		return fmt.Errorf("canonical args %s are not canonical: %s, %v", canon, again, err)
	}
	cnext, cerr := st.Apply(seat, name, canon)
	switch {
	case (err == nil) != (cerr == nil):
		return fmt.Errorf("applying the args gave %v but their canonical form %s gave %v", err, canon, cerr)
	case err != nil:
		if err.Error() != cerr.Error() {
			return fmt.Errorf("the args were refused with %q but their canonical form %s with %q", err, canon, cerr)
		}
		return nil
	}
	a, _ := next.MarshalJSON()
	b, _ := cnext.MarshalJSON()
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the canonical form %s gave another state than the args", canon)
	}
	return nil
}

// checkRefusal checks that a refused move's error is one of the contract's
// and says something.
func checkRefusal(err error) error {
	for _, want := range contractErrors {
		if errors.Is(err, want) {
			if err.Error() == "" {
				return errors.New("refused with an empty error")
			}
			return nil
		}
	}
	return fmt.Errorf("refused with %v, which wraps no contract error", err)
}

// checkNext checks the state data (next's JSON) an accepted move gave: it
// loads back to the same JSON, and its status and every viewer's view
// build, the views with no secret in them.
func checkNext(g games.Game, next games.State, n int, data []byte) error {
	back, err := g.Load(data)
	if err != nil {
		return fmt.Errorf("gave a state that does not load: %v\n%s", err, data)
	}
	if b, _ := back.MarshalJSON(); !bytes.Equal(b, data) {
		return fmt.Errorf("gave a state that does not round-trip through JSON:\n%s\n%s", data, b)
	}
	_ = next.Status()
	for viewer := games.Spectator; viewer < n; viewer++ {
		view, err := json.Marshal(next.View(viewer))
		if err != nil {
			return fmt.Errorf("view %d: %v", viewer, err)
		}
		if err := gametest.CheckView(view, viewer, []string{"secret"}); err != nil {
			return fmt.Errorf("view for %d: %v\n%s", viewer, err, view)
		}
	}
	return nil
}

// statePool caches bot playouts, so that each fuzz input costs one Apply,
// not a playout. A playout is played only as deep as an input has asked.
type statePool struct {
	games []games.Game
	mu    sync.Mutex
	cache map[poolKey]*playout
}

type poolKey struct{ game, seats, seed int }

func newStatePool(reg *games.Registry) *statePool {
	p := &statePool{cache: map[poolKey]*playout{}}
	for _, name := range reg.Names() {
		g, _ := reg.Get(name)
		p.games = append(p.games, g)
	}
	return p
}

// state picks a game, a seat count it allows, a seed and a depth from the
// fuzzed bytes, and returns the game, the seat count and the state of that
// seed's bot playout after depth moves (at most fuzzPlayout; a game that
// ends sooner wraps around to its earlier states).
func (p *statePool) state(t *testing.T, game, seats, seed uint8, depth uint16) (games.Game, int, games.State) {
	t.Helper()
	g := p.games[int(game)%len(p.games)]
	info := g.Info()
	k := poolKey{int(game) % len(p.games), info.MinPlayers + int(seats)%(info.MaxPlayers-info.MinPlayers+1), int(seed) % fuzzSeeds}
	p.mu.Lock()
	defer p.mu.Unlock()
	pl, ok := p.cache[k]
	if !ok {
		var err error
		if pl, err = newPlayout(g, k.seats, uint64(k.seed)); err != nil {
			t.Fatal(err)
		}
		p.cache[k] = pl
	}
	st, err := pl.at(int(depth) % (fuzzPlayout + 1))
	if err != nil {
		t.Fatal(err)
	}
	return g, k.seats, st
}

// playout is one bot playout of a game, played as far as asked: g's
// easiest bot moves for every seat.
type playout struct {
	g      games.Game
	n      int
	rng    *rand.Rand
	states []games.State // states[i] is the state after i moves
	over   bool          // the last state ends the game
}

// newPlayout sets up n seats of g from seed.
func newPlayout(g games.Game, n int, seed uint64) (*playout, error) {
	st, err := g.Setup(n, nil, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: setup(%d, %d): %v", g.Info().Name, n, seed, err)
	}
	return &playout{g: g, n: n, rng: rand.New(rand.NewPCG(seed, 11)), states: []games.State{st}}, nil
}

// at returns the state after depth moves, playing on as needed; when the
// game ends before depth, depth wraps around the moves it took.
func (p *playout) at(depth int) (games.State, error) {
	for len(p.states) <= depth && !p.over {
		if err := p.step(); err != nil {
			return nil, err
		}
	}
	return p.states[depth%len(p.states)], nil
}

// step plays one bot move, or marks the playout over when nobody may move.
func (p *playout) step() error {
	st := p.states[len(p.states)-1]
	status := st.Status()
	movers := status.Movers(p.n)
	if status.Outcome != nil || len(movers) == 0 {
		p.over = true
		return nil
	}
	seat := movers[p.rng.IntN(len(movers))]
	name, args, err := st.Bot(p.g.Info().Bots[0], seat, p.rng)
	if err != nil {
		return fmt.Errorf("%s: bot for seat %d: %v", p.g.Info().Name, seat, err)
	}
	next, err := st.Apply(seat, name, args)
	if err != nil {
		return fmt.Errorf("%s: bot move %s %s refused: %v", p.g.Info().Name, name, args, err)
	}
	p.states = append(p.states, next)
	return nil
}
