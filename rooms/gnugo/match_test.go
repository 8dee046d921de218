package gnugo

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/roomtest"
)

// fixture is a rooms.Manager serving weiqi on the memory store, bots
// moving at once, with the level "gnugo" (GNU Go at level 1).
type fixture struct {
	m       *rooms.Manager
	store   rooms.Store
	metrics *roomtest.Fallbacks
	log     *roomtest.Buffer
}

func newFixture(t *testing.T) *fixture {
	p := fastPlayer(t)
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { _ = mem.Close() })
	f := &fixture{store: mem, metrics: &roomtest.Fallbacks{}, log: &roomtest.Buffer{}}
	f.m = rooms.New(rooms.Config{
		Store: mem, Games: games.NewRegistry(weiqi.Game), BotDelay: rooms.ZeroBotDelay,
		Logger: slog.New(slog.NewTextHandler(f.log, nil)), Metrics: f.metrics,
		Engines: map[string]map[string]rooms.EngineLevel{
			"weiqi": {"gnugo": {Engine: p, Fallback: "normal", Timeout: 20 * time.Second}},
		},
	})
	t.Cleanup(f.m.Close) // before the Engine's Close: cleanups run last first
	return f
}

// watch connects a spectator to the match until the test ends: bots play
// only while somebody is connected.
func (f *fixture) watch(t *testing.T, id string) {
	t.Helper()
	v, err := f.m.Connect(context.Background(), "weiqi", id, rooms.Hello{}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
}

// await polls the match until done accepts its view, or fails after d.
func (f *fixture) await(t *testing.T, id string, d time.Duration, what string, done func(*rooms.Record, weiqi.View) bool) weiqi.View {
	t.Helper()
	var v weiqi.View
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		rec, err := f.store.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		st, err := weiqi.Game.Load(rec.State)
		if err != nil {
			t.Fatal(err)
		}
		b, err := st.AppendView(nil, games.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		v = weiqi.View{}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if done(rec, v) {
			return v
		}
	}
	t.Fatalf("no %s within %v; last view: phase %s, %d moves, dead %v\nlog:\n%s", what, d, v.Phase, len(v.Moves), v.Dead, f.log.String())
	return v
}

// TestWholeGame: a whole 9x9 game, GNU Go (black) against the
// built-in normal bot (GNU Go itself under the race detector), through a
// real Manager, until ctx.gameover. Every GNU Go answer was legal (no
// fallback) and the recorded moves replay under the rules.
func TestWholeGame(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	white := "normal"
	if raceEnabled {
		white = "gnugo"
	}
	id, err := f.m.Create(ctx, "weiqi", rooms.CreateParams{
		NumPlayers: 2, SetupData: json.RawMessage(`{"size":9}`),
		Bots: map[string]string{"0": "gnugo", "1": white},
	})
	if err != nil {
		t.Fatal(err)
	}
	f.watch(t, id)
	t0 := time.Now()
	var gameover json.RawMessage
	v := f.await(t, id, 60*time.Second, "game over", func(rec *rooms.Record, _ weiqi.View) bool {
		gameover = rec.Gameover
		return len(rec.Gameover) > 0 && string(rec.Gameover) != "null"
	})
	t.Logf("gnugo against %s: %d moves in %v: %s, gameover %s", white, len(v.Moves), time.Since(t0).Round(time.Millisecond), deref(v.Result), gameover)
	if v.Result == nil || v.Phase != "over" {
		t.Errorf("ended without a result: phase %s, result %v", v.Phase, v.Result)
	}
	var o games.Outcome
	if err := json.Unmarshal(gameover, &o); err != nil || (o.Winner == "" && !o.Draw) {
		t.Errorf("gameover %s: want a winner or a draw (%v)", gameover, err)
	}
	if fb := f.metrics.List(); len(fb) > 0 {
		t.Errorf("GNU Go's answers fell back %d times: %v\nlog:\n%s", len(fb), fb, f.log.String())
	}
	if _, err := weiqi.FromView(v); err != nil {
		t.Errorf("the recorded moves do not replay: %v", err)
	}
}

// TestScoringWithDeadStones: in a 9x9 game that ended with white's block
// A5 B5 A6 B6 dead inside black's area, GNU Go (black) marks exactly that
// group from final_status_list dead; once white approves, GNU Go
// approves and the score counts the group dead.
func TestScoringWithDeadStones(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	id, err := f.m.Create(ctx, "weiqi", rooms.CreateParams{
		NumPlayers: 2, SetupData: json.RawMessage(`{"size":9}`), Bots: map[string]string{"0": "gnugo"},
	})
	if err != nil {
		t.Fatal(err)
	}
	// Before anyone joins (no bot moves), store the position in scoring.
	scoring := position(t, deadGroup()...)
	rec, err := f.store.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.State, err = scoring.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	prev := rec.Version
	rec.Version, rec.StateID = prev+1, rec.StateID+int64(len(deadGroup()))
	if err := f.store.Update(ctx, rec, prev); err != nil {
		t.Fatal(err)
	}
	pid, creds, err := f.m.Join(ctx, "weiqi", id, rooms.JoinParams{Name: "White"})
	if err != nil {
		t.Fatal(err)
	}
	white, err := f.m.Connect(ctx, "weiqi", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, discard{})
	if err != nil {
		t.Fatal(err)
	}
	marked := f.await(t, id, 30*time.Second, "dead marks", func(_ *rooms.Record, v weiqi.View) bool { return len(v.Dead) > 0 })
	if got := slices.Sorted(slices.Values(marked.Dead)); !slices.Equal(got, []string{"A5", "A6", "B5", "B6"}) || marked.Phase != "scoring" {
		t.Fatalf("GNU Go marked %v in phase %s, want exactly [A5 A6 B5 B6] in scoring", marked.Dead, marked.Phase)
	}
	if err := white.Move(nil, "approve", games.Args(), nil); err != nil {
		t.Fatal(err)
	}
	v := f.await(t, id, 30*time.Second, "game over", func(rec *rooms.Record, _ weiqi.View) bool { return len(rec.Gameover) > 0 })

	// The same marks and approvals applied directly give the expected end;
	// without the marks the result would differ.
	want := finish(t, scoring, []string{"A5"})
	unmarked := finish(t, scoring, []string{})
	if got := slices.Sorted(slices.Values(v.Dead)); !slices.Equal(got, []string{"A5", "A6", "B5", "B6"}) {
		t.Errorf("final dead %v, want [A5 A6 B5 B6]", v.Dead)
	}
	if deref(v.Result) != deref(want.Result) || v.Score == nil || want.Score == nil || *v.Score != *want.Score {
		t.Errorf("result %s score %+v, want %s %+v", deref(v.Result), v.Score, deref(want.Result), want.Score)
	}
	if deref(want.Result) == deref(unmarked.Result) {
		t.Errorf("the dead group does not change the result (%s): the test position proves nothing", deref(want.Result))
	}
	t.Logf("with the block dead: %s %+v; without: %s", deref(v.Result), *v.Score, deref(unmarked.Result))
	if fb := f.metrics.List(); len(fb) > 0 {
		t.Errorf("GNU Go fell back: %v\nlog:\n%s", fb, f.log.String())
	}
}

// finish marks dead in st (in scoring), has both approve and returns the
// final view.
func finish(t *testing.T, st games.State, dead []string) weiqi.View {
	t.Helper()
	var err error
	if st, err = st.Apply(0, "setDead", games.Args(dead)); err != nil {
		t.Fatal(err)
	}
	for _, seat := range []int{1, 0} {
		if st, err = st.Apply(seat, "approve", games.Args()); err != nil {
			t.Fatal(err)
		}
	}
	return viewOf(t, st)
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

// discard is a Sink that drops every message.
type discard struct{}

func (discard) Send([]byte, rooms.Kind) bool { return true }
func (discard) Close()                       {}
