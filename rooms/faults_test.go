package rooms_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// fragile is a one-seat counting game with bugs, as game code may have:
// its "crash" move panics in Apply, its View panics once the count reaches
// viewLimit, and its Status panics while broken is set (a new release's
// bug meeting a match stored by the old one).
type fragile struct {
	viewLimit int
	broken    *atomic.Bool
}

// fragileState is fragile's state: the count.
type fragileState struct{ N int }

// newFragile is a fragile game whose View panics from viewLimit on; set
// the returned flag to make its Status panic.
func newFragile(viewLimit int) (games.Game, *atomic.Bool) {
	broken := &atomic.Bool{}
	return games.Erase[fragileState, fragileState](fragile{viewLimit: viewLimit, broken: broken}), broken
}

func (fragile) Info() games.Info {
	return games.Info{Name: "fragile", MinPlayers: 1, MaxPlayers: 1, Bots: []string{"easy"},
		Moves: []games.MoveSpec{{Name: "crash"}, {Name: "count"}}}
}

func (fragile) Setup(int, json.RawMessage, *games.RNG) (fragileState, error) {
	return fragileState{}, nil
}

func (f fragile) Status(s fragileState) games.Status {
	if f.broken.Load() {
		panic("fragile: a bug in Status")
	}
	return games.Status{Phase: "play", Turn: s.N + 1}
}

func (fragile) Apply(s fragileState, _ int, name string, _ json.RawMessage) (fragileState, error) {
	if name == "crash" {
		panic("fragile: a bug in Apply")
	}
	return fragileState{N: s.N + 1}, nil
}

func (f fragile) View(s fragileState, _ int) fragileState {
	if s.N >= f.viewLimit {
		panic("fragile: a bug in View")
	}
	return s
}

func (fragile) Bot(string, fragileState, int, *rand.Rand) (string, json.RawMessage, error) {
	return "count", games.Args(), nil
}

// fragileViewLimit is the count from which TestFaultPanickingRoom's game
// panics in View.
const fragileViewLimit = 3

// TestFaultPanickingRoom: processes C and D (two managers on one store)
// serve a fragile match, its player on C and a spectator on D, and a
// Gomoku match across both. A panic in the fragile game's Apply refuses
// that move with internal and changes nothing; the room plays on. A panic
// in its View, on C while answering the move and on D while showing C's
// change, reaches the viewers of that room as an internal error; neither
// process goes down, and the Gomoku room plays on on both.
func TestFaultPanickingRoom(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	game, broken := newFragile(fragileViewLimit)
	reg := games.NewRegistry(gomoku.Game, game)
	newManager := func() *rooms.Manager {
		m := rooms.New(rooms.Config{Store: mem, Games: reg, BotDelay: time.Hour})
		t.Cleanup(m.Close)
		return m
	}
	c, d, e := newManager(), newManager(), newManager()
	ctx := context.Background()
	id, err := c.Create(ctx, "fragile", rooms.CreateParams{NumPlayers: 1})
	if err != nil {
		t.Fatal(err)
	}
	pid, creds, err := c.Join(ctx, "fragile", id, rooms.JoinParams{Name: "P"})
	if err != nil {
		t.Fatal(err)
	}
	ps, ss := &recordingSink{}, &recordingSink{}
	player, err := c.Connect(ctx, "fragile", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, ps)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := d.Connect(ctx, "fragile", id, rooms.Hello{Name: "S"}, ss)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(player.Close)
	t.Cleanup(spec.Close)
	gid, seats, sinks := acrossTwo(t, c, d)

	answer := func(ref int64, name string) []byte {
		t.Helper()
		from := ps.sent()
		if err := player.Move(&ref, name, games.Args(), nil); err != nil {
			t.Fatal(err)
		}
		return ps.at(awaitFrom(t, ps, from, 5*time.Second, name+"'s answer", refersTo(ref)))
	}
	if m := answer(1, "crash"); !has(`"code":"internal"`)(m) {
		t.Fatalf("a move whose Apply panics: %s, want an internal error", m)
	}
	for ref := int64(2); ref <= fragileViewLimit; ref++ {
		if m := answer(ref, "count"); !has(`"ack"`)(m) {
			t.Fatalf("count %d after the panic: %s", ref-1, m)
		}
	}
	from := ss.sent()
	if m := answer(fragileViewLimit+1, "count"); !has(`"code":"internal"`)(m) {
		t.Fatalf("a move whose View panics: %s, want an internal error", m)
	}
	told := ss.at(awaitFrom(t, ss, from, 5*time.Second, "an error for D's spectator", has(`"type":"error"`)))
	if !has(`"code":"internal"`)(told) || has("fragile")(told) {
		t.Fatalf("D's spectator was told %s, want an internal error that shows no game internals", told)
	}
	play(t, seats[0], sinks[0], 1, 7, 7)

	// A process loading the match meets a Status that panics: the
	// connection is refused with internal, and the process goes on.
	broken.Store(true)
	_, err = e.Connect(ctx, "fragile", id, rooms.Hello{Name: "Late"}, &recordingSink{})
	if ae := rooms.AsError(err); err == nil || ae.Code != "internal" || strings.Contains(ae.Message, "fragile") {
		t.Fatalf("connecting where the game's Status panics on load: %v, want an internal error", err)
	}
	if _, err := e.Connect(ctx, "gomoku", gid, rooms.Hello{Name: "S"}, &recordingSink{}); err != nil {
		t.Fatalf("process E after the panic: %v", err)
	}
	play(t, seats[1], sinks[1], 1, 8, 8)
	awaitFrom(t, sinks[0], 0, 5*time.Second, "white's move on C", has(`"moves":[[7,7],[8,8]]`))
	t.Logf("FIGURE panicking room: Apply panic refused as internal; View panic reported to the viewers on both processes; Status panic on load refused the connection; the other room played on")
}

// TestFaultPanickingBot: a bot's turn comes due in a room whose game
// panics in Status by then. The room's viewer is told internal, the bot
// stops (no panic loop), and the process serves other rooms.
func TestFaultPanickingBot(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	game, broken := newFragile(1 << 30)
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game, game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	ctx := context.Background()
	delay := 300 * time.Millisecond
	id, err := m.Create(ctx, "fragile", rooms.CreateParams{NumPlayers: 1, Bots: map[string]string{"0": "easy"}, BotDelay: &delay})
	if err != nil {
		t.Fatal(err)
	}
	sink := &recordingSink{}
	v, err := m.Connect(ctx, "fragile", id, rooms.Hello{Name: "S"}, sink)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	broken.Store(true) // before the bot's timer fires
	e := sink.at(awaitFrom(t, sink, 0, 5*time.Second, "an error for the spectator", has(`"type":"error"`)))
	if !has(`"code":"internal"`)(e) {
		t.Fatalf("the spectator was told %s, want internal", e)
	}
	other := newBenchMatch(t, m, nil)
	defer other.close()
	ref := int64(1)
	if err := other.seats[0].Move(&ref, "place", games.Args(7, 7), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-other.sinks[0].answers:
		if !has(`"ack":1`)(msg) {
			t.Fatalf("a move in another room after the bot's panic: %s", msg)
		}
	case <-time.After(time.Minute):
		t.Fatal("no answer from another room after the bot's panic")
	}
}

// refersTo matches the acknowledgement of move ref or the error refusing it.
func refersTo(ref int64) func([]byte) bool {
	n := strconv.FormatInt(ref, 10)
	ack, refused := has(`"ack":`+n), has(`"ref":`+n)
	return func(m []byte) bool { return ack(m) || refused(m) }
}

// echoStore stores the next move's write and then reports a conflict, as
// Redis does when it applied a write, lost the connection before
// answering, and the client's retry of the same write found it in place.
type echoStore struct {
	rooms.Store
	echoes atomic.Int32 // move writes still to answer with a conflict
}

func (s *echoStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if err := s.Store.Update(ctx, rec, prev); err != nil {
		return err
	}
	if rec.StateID > 1 && s.echoes.Add(-1) >= 0 {
		return rooms.ErrConflict
	}
	return nil
}

// TestFaultWriteLandedAnswerLost: a move whose write landed but was
// answered with a conflict (the retry of a write whose answer was lost)
// is acknowledged once, not refused as "not your turn", and is stored
// once.
func TestFaultWriteLandedAnswerLost(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	st := &echoStore{Store: mem}
	m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	match := newBenchMatch(t, m, nil)
	defer match.close()
	st.echoes.Store(1)
	ref := int64(1)
	if err := match.seats[0].Move(&ref, "place", games.Args(7, 7), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case msg := <-match.sinks[0].answers:
		if !has(`"ack":1`)(msg) {
			t.Fatalf("a move that landed, answered with a conflict: %s, want its acknowledgement", msg)
		}
	case <-time.After(time.Minute):
		t.Fatal("no answer to the move")
	}
	rec, err := mem.Get(context.Background(), match.id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != 1 || rec.StateID != 2 {
		t.Fatalf("stored: seq %d, %d moves; want the move once", rec.StateID, len(rec.Moves))
	}
}
