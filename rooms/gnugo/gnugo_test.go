package gnugo

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/rooms"
)

// binary returns gnugo's path or skips the test.
func binary(t *testing.T) string {
	t.Helper()
	p := Find()
	if p == "" {
		t.Skip("gnugo is not installed (Debian: apt-get install gnugo); skipping the GNU Go tests")
	}
	return p
}

// fastPlayer is GNU Go at level 1, closed when the test ends.
func fastPlayer(t *testing.T) *Engine {
	p := New(Config{Path: binary(t), Level: 1})
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// position plays moves ("D4", "pass") alternately from black on a 9x9
// board with komi 7.5.
func position(t *testing.T, moves ...string) games.State {
	t.Helper()
	st, err := weiqi.Game.Setup(2, json.RawMessage(`{"size":9,"komi":7.5}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range moves {
		name, args := "play", games.Args(m)
		if m == "pass" {
			name, args = "pass", games.Args()
		}
		if st, err = st.Apply(i%2, name, args); err != nil {
			t.Fatalf("move %d %s: %v", i+1, m, err)
		}
	}
	return st
}

// request is seat's EngineRequest for st.
func request(t *testing.T, st games.State, seat int) rooms.EngineRequest {
	t.Helper()
	view, err := st.AppendView(nil, seat)
	if err != nil {
		t.Fatal(err)
	}
	return rooms.EngineRequest{Game: "weiqi", Seat: seat, Version: 7, View: view}
}

// ask calls Move with a generous deadline and checks the answer is legal
// in st.
func ask(t *testing.T, p *Engine, st games.State, seat int) (string, json.RawMessage) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	name, args, err := p.Move(ctx, request(t, st, seat))
	if err != nil {
		t.Fatalf("Move: %v", err)
	}
	if _, err := st.Apply(seat, name, args); err != nil {
		t.Fatalf("Move answered %s %s, illegal: %v", name, args, err)
	}
	return name, args
}

func TestGenmoveEmptyBoard(t *testing.T) {
	p := fastPlayer(t)
	name, args := ask(t, p, position(t), 0)
	if name != "play" {
		t.Errorf("black's first move on an empty 9x9 board: %s %s, want a stone", name, args)
	}
}

// TestReplayThenGenmove: the view's moves (a capture included) are
// replayed; the next call extends the engine's game instead of replaying
// it, and a view of another game replays from scratch.
func TestReplayThenGenmove(t *testing.T) {
	p := fastPlayer(t)
	// White's stone at E5 is captured by black's fourth stone (E6 F5 E4 D5).
	moves := []string{"E6", "E5", "F5", "A1", "E4", "A2", "D5"}
	st := position(t, moves...)
	name, args := ask(t, p, st, 1)
	var got []string
	if name == "play" {
		_ = json.Unmarshal(args, &got)
		if got[0] == "E5" {
			t.Errorf("white played into the captured point's suicide E5")
		}
	}
	if p.eng == nil || len(p.eng.moves) != len(moves)+1 {
		t.Fatalf("the engine holds %v, want the %d moves and its own", p.eng, len(moves))
	}
	pid := p.eng.cmd.Process.Pid
	next, err := st.Apply(1, name, args)
	if err != nil {
		t.Fatal(err)
	}
	ask(t, p, next, 0)
	if p.eng.cmd.Process.Pid != pid || len(p.eng.moves) != len(moves)+2 {
		t.Errorf("a continued game restarted the engine or lost moves: %v", p.eng.moves)
	}
	ask(t, p, position(t, "C3"), 1)
	if !slices.Equal(p.eng.moves[:1], []string{"C3"}) || len(p.eng.moves) != 2 {
		t.Errorf("another game was not replayed from scratch: %v", p.eng.moves)
	}
}

// deadGroup is a 9x9 game where black holds columns C-D and white F-G,
// and white's block A5 B5 A6 B6 lies dead in black's area; it ends with
// two passes, in scoring. Walls two stones thick and a 2x2 block are what
// the scoring's evolution (a stone lives with 2 or 3 friendly neighbours)
// keeps: the block, unless marked dead, survives it and spoils black's
// area.
func deadGroup() []string {
	var m []string
	for row := 1; row <= 9; row++ {
		r := string(rune('0' + row))
		m = append(m, "C"+r, "F"+r, "D"+r, "G"+r)
	}
	return append(m, "pass", "A5", "pass", "B5", "pass", "A6", "pass", "B6", "pass", "pass")
}

func TestFinalStatusDead(t *testing.T) {
	p := fastPlayer(t)
	st := position(t, deadGroup()...)
	var dead []string
	err := p.with(context.Background(), func(e *engine) (err error) {
		dead, err = e.deadStones(context.Background(), viewOf(t, st))
		return err
	})
	if err != nil || !slices.Equal(dead, []string{"A5", "A6", "B5", "B6"}) {
		t.Fatalf("final_status_list dead = %v, %v; want [A5 A6 B5 B6]", dead, err)
	}
	// In scoring, black marks them; once marked, black approves.
	name, args := ask(t, p, st, 0)
	if name != "setDead" || string(args) != `[["A6","B6","A5","B5"]]` {
		t.Fatalf("black in scoring: %s %s, want setDead [[A6 B6 A5 B5]] (board order, top row first)", name, args)
	}
	marked, err := st.Apply(0, name, args)
	if err != nil {
		t.Fatal(err)
	}
	if name, args := ask(t, p, marked, 0); name != "approve" {
		t.Errorf("black with the right marks: %s %s, want approve", name, args)
	}
}

func viewOf(t *testing.T, st games.State) weiqi.View {
	t.Helper()
	var v weiqi.View
	if err := json.Unmarshal(request(t, st, 0).View, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRequestsGranted: the opponent's undo and scoring requests are
// granted without asking the engine.
func TestRequestsGranted(t *testing.T) {
	p := New(Config{Path: "/nonexistent/gnugo"}) // never started
	st := position(t, "E5", "C3")
	for _, c := range []struct{ ask, answer string }{{"requestUndo", "answerUndo"}, {"requestScoring", "answerScoring"}} {
		asked, err := st.Apply(1, c.ask, games.Args())
		if err != nil {
			t.Fatal(err)
		}
		name, args, err := p.Move(context.Background(), request(t, asked, 0))
		if err != nil || name != c.answer || string(args) != "[true]" {
			t.Errorf("after %s: %s %s %v, want %s [true]", c.ask, name, args, err, c.answer)
		}
	}
	if _, _, err := p.Move(context.Background(), request(t, st, 1)); !errors.Is(err, games.ErrNotYourTurn) {
		t.Errorf("white asked on black's turn: %v, want ErrNotYourTurn", err)
	}
	if _, _, err := p.Move(context.Background(), request(t, st, 0)); err == nil || !strings.Contains(err.Error(), "nonexistent") {
		t.Errorf("a missing binary: %v, want the start error", err)
	}
}

// TestDeadline: an expired context fails at once without touching the
// engine; a deadline passing while GNU Go thinks (level 10 on a 19x19
// middle game, about a second) kills the process, and the next call
// starts a fresh one.
func TestDeadline(t *testing.T) {
	p := New(Config{Path: binary(t), Level: 10})
	t.Cleanup(func() { _ = p.Close() })
	empty := position(t)
	ask(t, p, empty, 0) // from GNU Go's opening book: at once
	first := p.eng.cmd.Process.Pid

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	t0 := time.Now()
	if _, _, err := p.Move(ctx, request(t, empty, 0)); !errors.Is(err, context.Canceled) {
		t.Fatalf("Move with a cancelled context: %v, want context.Canceled", err)
	}
	if d := time.Since(t0); d > 100*time.Millisecond {
		t.Errorf("a cancelled Move took %v", d)
	}

	big, err := weiqi.Game.Setup(2, json.RawMessage(`{"size":19}`), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range strings.Fields("D4 Q16 Q4 D16 C14 R14 F17 O17 R6 P3 C6 F3 K10 K16 E10 O10 J4 H16 P8 M4") {
		if big, err = big.Apply(i%2, "play", games.Args(m)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	t0 = time.Now()
	_, _, err = p.Move(ctx, request(t, big, 0))
	if d := time.Since(t0); d > time.Second {
		t.Errorf("genmove past its 50 ms deadline returned after %v", d)
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("genmove past its deadline: %v, want DeadlineExceeded", err)
	}
	if p.eng != nil {
		t.Fatalf("the engine survived its deadline")
	}
	ask(t, p, empty, 0)
	if p.eng.cmd.Process.Pid == first {
		t.Errorf("the engine was not restarted after its deadline")
	}
}
