package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
)

// firstMeepleOption answers the first option of the tile prompt that puts
// a meeple (the second choice of the first placement line that has one).
func firstMeepleOption(user string) reply {
	for _, line := range strings.Split(user, "\n") {
		if m := regexp.MustCompile(`^ \d+ no meeple est [^|]*\| (\d+) `).FindStringSubmatch(line); m != nil {
			return reply{content: `{"option": ` + m[1] + `}`}
		}
	}
	return reply{content: "no meeple option?"}
}

// playTurn plays seat 0's whole turn of s through p, as a room would: the
// tile phase, then the meeple phase when the rules ask for one.
func playTurn(t *testing.T, p *Engine, match string, s carcassonne.State) (carcassonne.State, []string) {
	t.Helper()
	r := carcassonne.Rules{}
	var moves []string
	for first := true; first || (s.Phase == carcassonne.PhaseMeeple && s.Current == 0); first = false {
		b := marshal(t, r.View(s, 0))
		name, args, err := p.Move(context.Background(), rooms.EngineRequest{Game: Game, MatchID: match, Seat: 0, View: b})
		if err != nil {
			t.Fatalf("Move (%s phase): %v", s.Phase, err)
		}
		if s, err = r.Apply(s, 0, name, args); err != nil {
			t.Fatalf("%s %s refused: %v", name, args, err)
		}
		moves = append(moves, name+" "+string(args))
	}
	return s, moves
}

// TestOneRequestPerTurn: the tile phase asks once, with whole turns as
// options; the meeple phase of the same turn plays the chosen option's
// meeple (or none) from memory, without a request.
func TestOneRequestPerTurn(t *testing.T) {
	_, _, tileState, _ := views(t)
	for _, c := range []struct {
		name   string
		answer func(string) reply
		want   string // the meeple move
	}{
		{"a meeple", firstMeepleOption, carcassonne.MovePlaceMeeple},
		{"no meeple", always(reply{content: `{"option": 1}`}), carcassonne.MoveSkipMeeple},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.answer)
			p := f.player(t, 5*time.Second)
			pr, err := buildPrompt(marshal(t, carcassonne.Rules{}.View(tileState, 0)), 0)
			if err != nil {
				t.Fatal(err)
			}
			n, err := parseAnswer(c.answer(pr.user).content)
			if err != nil {
				t.Fatal(err)
			}
			chosen, _ := pr.option(n)
			if c.want == carcassonne.MovePlaceMeeple && chosen.meeple == "" || c.want == carcassonne.MoveSkipMeeple && chosen.meeple != "" {
				t.Fatalf("option %d (%s) is not a %s option", n, chosen.text, c.name)
			}
			_, moves := playTurn(t, p, "m1", tileState)
			if len(moves) != 2 || moves[0] != carcassonne.MovePlaceTile+" "+string(chosen.args) || !strings.HasPrefix(moves[1], c.want) ||
				(chosen.meeple != "" && !strings.Contains(moves[1], `"`+chosen.meeple+`"`)) {
				t.Errorf("moves %q, want option %d: %s", moves, n, chosen.text)
			}
			if got := f.requests(); got != 1 {
				t.Errorf("%d requests for one turn, want 1", got)
			}
			if p.memory.size() != 0 {
				t.Errorf("%d entries left in the memory after the turn", p.memory.size())
			}
		})
	}
}

// messages is a request body's messages as role: content.
func messages(body map[string]any) []string {
	var out []string
	ms, _ := body["messages"].([]any)
	for _, m := range ms {
		mm, _ := m.(map[string]any)
		out = append(out, fmt.Sprintf("%v: %v", mm["role"], mm["content"]))
	}
	return out
}

// TestRefusedAnswerAskedAgain: an answer that does not parse, or names an
// unlisted option, is asked once more in the same conversation (the
// answer as the assistant's message, then why it was refused), and the
// second answer is used; a second refusal is the error the room falls
// back on, after two requests.
func TestRefusedAnswerAskedAgain(t *testing.T) {
	tileView, _, _, _ := views(t)
	pr, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := pr.option(2)
	for _, c := range []struct {
		name    string
		answers []string
		err     error  // nil: option 2 is played
		why     string // in the second request's last message, and the error
	}{
		{"malformed, then good", []string{"I would place it north.", `{"option": 2}`}, nil, `no {"option": N} and no bare number: "I would place it north."`},
		{"unlisted, then good", []string{`{"option": 999}`, "2"}, nil, "option 999 is not listed (1 to"},
		{"two malformed", []string{"north", "south"}, ErrMalformed, `no {"option": N} and no bare number: "south"`},
		{"malformed, then unlisted", []string{"north", `{"option": 0}`}, ErrNoOption, "option 0 is not listed"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, nil)
			n := 0
			f.byBody = func(map[string]any) reply {
				n++
				return reply{content: c.answers[min(n, len(c.answers))-1]}
			}
			name, args, err := f.player(t, 5*time.Second).Move(context.Background(), rooms.EngineRequest{Game: Game, MatchID: "m", View: tileView})
			bodies := f.requestBodies()
			if len(bodies) != 2 {
				t.Fatalf("%d requests, want 2", len(bodies))
			}
			first, second := messages(bodies[0]), messages(bodies[1])
			if len(first) != 2 || len(second) != 4 || second[0] != first[0] || second[1] != first[1] ||
				second[2] != "assistant: "+c.answers[0] || !strings.HasPrefix(second[3], "user: Your answer was refused: ") ||
				!strings.Contains(second[3], `Reply again with exactly {"option": N}, N from 1 to`) {
				t.Fatalf("the second request's messages:\n%s", strings.Join(second, "\n---\n"))
			}
			if c.err == nil {
				if !strings.Contains(second[3], c.why) {
					t.Errorf("the refusal says %q, want %q", second[3], c.why)
				}
				if err != nil || name != good.name || string(args) != string(good.args) {
					t.Errorf("Move = %s %s, %v; want option 2: %s %s", name, args, err, good.name, good.args)
				}
				return
			}
			if !errors.Is(err, c.err) || !strings.Contains(err.Error(), c.why) || !strings.Contains(err.Error(), "asked twice") {
				t.Errorf("Move = %s %s, %v; want an error wrapping %v saying %q", name, args, err, c.err, c.why)
			}
		})
	}
	// An endpoint error is not asked again.
	f := newFake(t, always(reply{status: 500, content: `{"error": {"message": "down"}}`}))
	if _, _, err := f.player(t, 5*time.Second).Move(context.Background(), rooms.EngineRequest{Game: Game, View: tileView}); !errors.Is(err, ErrEndpoint) || f.requests() != 1 {
		t.Errorf("HTTP 500: %v after %d requests; want ErrEndpoint after 1", err, f.requests())
	}
}

// TestRetryWithinBudget: the second try's request, with the longest
// refused answer echoed, stays within the prompt's token bound.
func TestRetryWithinBudget(t *testing.T) {
	worst := 0
	gamePrompts(t, 2, 9, func(v carcassonne.View, pr prompt) {
		echo := "…" + strings.Repeat("é", maxEcho/2)
		why := fmt.Errorf("%w: %s", ErrMalformed, strings.Repeat(`"\u0000`, 200))
		retry := retryText(why, pr)
		if len(retry) > maxRetryText {
			t.Fatalf("retry text of %d bytes: %s", len(retry), retry)
		}
		tok := estimateTokens(pr.system, pr.user, echo, retry)
		worst = max(worst, tok)
		if tok > promptTokens {
			t.Fatalf("turn %d: the second try is %d tokens by the bound", v.Turn, tok)
		}
	})
	t.Logf("second tries: at most %d tokens by the bound", worst)
}

// TestMemoryScope: a remembered meeple is played only in the meeple phase
// of the same match, seat, turn and placement, once; otherwise the meeple
// phase asks the model with the meeple options alone.
func TestMemoryScope(t *testing.T) {
	_, _, tileState, _ := views(t)
	r := carcassonne.Rules{}
	tileView := marshal(t, r.View(tileState, 0))
	placed := func(t *testing.T, p *Engine, match string) (carcassonne.State, json.RawMessage) {
		name, args, err := p.Move(context.Background(), rooms.EngineRequest{Game: Game, MatchID: match, Seat: 0, View: tileView})
		if err != nil {
			t.Fatal(err)
		}
		s, err := r.Apply(tileState, 0, name, args)
		if err != nil || s.Phase != carcassonne.PhaseMeeple {
			t.Fatalf("%s %s: %v, phase %s", name, args, err, s.Phase)
		}
		return s, marshal(t, r.View(s, 0))
	}
	meeple := func(t *testing.T, p *Engine, match string, view json.RawMessage) {
		if _, _, err := p.Move(context.Background(), rooms.EngineRequest{Game: Game, MatchID: match, Seat: 0, View: view}); err != nil {
			t.Fatal(err)
		}
	}
	// The tile prompt: the first option with a meeple; the meeple prompt
	// (asked when nothing is remembered): 0, no meeple.
	answer := func(user string) reply {
		if strings.Contains(user, "You placed tile") {
			return reply{content: "0"}
		}
		return firstMeepleOption(user)
	}
	asked := func(t *testing.T, f *fakeLLM, want int) {
		t.Helper()
		if n := f.requests(); n != want || (want == 2 && !strings.Contains(f.lastPrompt(), "You placed tile")) {
			t.Errorf("%d requests, want %d (the second with the meeple options)", n, want)
		}
	}
	t.Run("same match", func(t *testing.T) {
		f := newFake(t, answer)
		p := f.player(t, 5*time.Second)
		_, mv := placed(t, p, "a")
		meeple(t, p, "a", mv)
		asked(t, f, 1)
	})
	t.Run("another match", func(t *testing.T) {
		f := newFake(t, answer)
		p := f.player(t, 5*time.Second)
		_, mv := placed(t, p, "a")
		meeple(t, p, "b", mv)
		asked(t, f, 2)
	})
	t.Run("used once", func(t *testing.T) {
		f := newFake(t, answer)
		p := f.player(t, 5*time.Second)
		_, mv := placed(t, p, "a")
		meeple(t, p, "a", mv)
		meeple(t, p, "a", mv) // the room asks again (a retried job, say)
		asked(t, f, 2)
	})
	t.Run("another placement", func(t *testing.T) {
		f := newFake(t, answer)
		p := f.player(t, 5*time.Second)
		mine, _ := placed(t, p, "a")
		// The room played another placement (its fallback, say).
		var other carcassonne.State
		for _, pl := range r.View(tileState, 0).Placements {
			for _, rot := range pl.Rotations {
				s, err := r.Apply(tileState, 0, carcassonne.MovePlaceTile, games.Args(carcassonne.TileArgs{X: pl.X, Y: pl.Y, Rotation: rot}))
				if err == nil && s.Phase == carcassonne.PhaseMeeple && s.Tiles[len(s.Tiles)-1] != mine.Tiles[len(mine.Tiles)-1] {
					other = s
				}
			}
		}
		if other.Phase != carcassonne.PhaseMeeple {
			t.Fatal("no other placement takes a meeple")
		}
		meeple(t, p, "a", marshal(t, r.View(other, 0)))
		asked(t, f, 2)
	})
	t.Run("another seat", func(t *testing.T) {
		p := &turnMemory{m: map[memoryKey]remembered{}, now: time.Now}
		p.put(memoryKey{"a", 0}, remembered{turn: 3, board: 9, x: 1, meeple: "city0"})
		if _, ok := p.take(memoryKey{"a", 1}, 3, 9, 1, 0, 0); ok {
			t.Error("seat 1 took seat 0's meeple")
		}
		if _, ok := p.take(memoryKey{"a", 0}, 4, 9, 1, 0, 0); ok {
			t.Error("turn 4 took turn 3's meeple")
		}
		if _, ok := p.take(memoryKey{"a", 0}, 3, 9, 1, 0, 0); ok {
			t.Error("a stale entry was kept after a mismatch")
		}
	})
}

// TestMemoryBounded: the memory keeps at most memoryMax entries (the
// oldest goes), one per match and seat (a later turn replaces an earlier
// one), and drops an entry older than memoryTTL.
func TestMemoryBounded(t *testing.T) {
	now := time.Unix(1_000_000, 0)
	tm := &turnMemory{m: map[memoryKey]remembered{}, now: func() time.Time { return now }}
	for i := range memoryMax + 50 {
		now = now.Add(time.Millisecond)
		tm.put(memoryKey{fmt.Sprint("match", i), 0}, remembered{turn: 1, meeple: "road1"})
	}
	if tm.size() != memoryMax {
		t.Errorf("%d entries, want %d", tm.size(), memoryMax)
	}
	if _, ok := tm.take(memoryKey{"match0", 0}, 1, 0, 0, 0, 0); ok {
		t.Error("the oldest entry was kept")
	}
	if m, ok := tm.take(memoryKey{fmt.Sprint("match", memoryMax+49), 0}, 1, 0, 0, 0, 0); !ok || m != "road1" {
		t.Error("the newest entry was dropped")
	}
	tm.put(memoryKey{"x", 0}, remembered{turn: 1, meeple: "a"})
	tm.put(memoryKey{"x", 0}, remembered{turn: 2, meeple: "b"})
	if m, ok := tm.take(memoryKey{"x", 0}, 2, 0, 0, 0, 0); !ok || m != "b" {
		t.Errorf("took %q, %v; want the later turn's", m, ok)
	}
	tm.put(memoryKey{"y", 0}, remembered{turn: 1, meeple: "c"})
	now = now.Add(memoryTTL + time.Second)
	if _, ok := tm.take(memoryKey{"y", 0}, 1, 0, 0, 0, 0); ok {
		t.Error("an expired entry was used")
	}
}

// TestThroughRoomsOneRequestPerTurn: a whole match of the LLM level
// against normal through a real rooms.Manager sends one request per turn
// of its seat, meeples included, and never falls back.
func TestThroughRoomsOneRequestPerTurn(t *testing.T) {
	f := newFake(t, answerBy(func(c promptChoice) float64 { return c.est }, nil))
	r := newRoom(t, f.player(t, 10*time.Second))
	rec, v := await(t, r.store, r.id, 120*time.Second, func(v carcassonne.View) bool { return v.Phase == carcassonne.PhaseOver })
	var st carcassonne.State
	if err := json.Unmarshal(rec.State, &st); err != nil {
		t.Fatal(err)
	}
	// Seat 0's turns and meeples, from the whole public record.
	turns, meeples := 0, 0
	for _, ev := range st.Events {
		switch {
		case ev.Seat != 0:
		case ev.Kind == carcassonne.EvPlace:
			turns++
		case ev.Kind == carcassonne.EvMeeple:
			meeples++
		}
	}
	if fb := r.metrics.List(); len(fb) > 0 {
		t.Errorf("fallbacks %v\n%s", fb, r.log.String())
	}
	if turns == 0 || meeples == 0 || f.requests() != turns {
		t.Errorf("%d requests for %d turns (%d meeples placed), want one per turn", f.requests(), turns, meeples)
	}
	t.Logf("%d turns, %d meeples, %d requests; final scores %v", turns, meeples, f.requests(), v.Scores)
}
