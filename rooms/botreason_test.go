package rooms_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// seenStates keeps every state message a viewer gets.
type seenStates struct{ ch chan []byte }

func newSeenStates() *seenStates { return &seenStates{ch: make(chan []byte, 256)} }

func (s *seenStates) Send(b []byte, _ rooms.Kind) bool {
	select {
	case s.ch <- b:
		return true
	default:
		return false
	}
}
func (s *seenStates) Close() {}

// next waits for a state message that ok accepts, skipping others; the
// deadline only guards against a hang.
func (s *seenStates) next(t *testing.T, what string, ok func(protocol.State) bool) protocol.State {
	t.Helper()
	guard := time.After(20 * time.Second)
	for {
		select {
		case b := <-s.ch:
			var st protocol.State
			if err := json.Unmarshal(b, &st); err != nil {
				t.Fatalf("%s: %v", err, b)
			}
			if st.Type == protocol.TypeState && ok(st) {
				return st
			}
		case <-guard:
			t.Fatalf("no state with %s", what)
		}
	}
}

// reasonPlayer is a ReasonEngine that answers what the test sends it.
type reasonPlayer struct {
	answers chan rooms.EngineMove
	mu      sync.Mutex
	asked   int
}

func (p *reasonPlayer) Move(context.Context, rooms.EngineRequest) (string, json.RawMessage, error) {
	return "", nil, errors.New("Move called: the room must call MoveReason")
}

func (p *reasonPlayer) MoveReason(ctx context.Context, _ rooms.EngineRequest) (rooms.EngineMove, error) {
	p.mu.Lock()
	p.asked++
	p.mu.Unlock()
	select {
	case mv := <-p.answers:
		return mv, nil
	case <-ctx.Done():
		return rooms.EngineMove{}, ctx.Err()
	}
}

func (p *reasonPlayer) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.asked
}

// playerMatch starts a gomoku match whose black seat is the Engine level
// "fake" and whose white seat is a person (who never moves), and
// connects a spectator.
func playerMatch(t *testing.T, pl rooms.Engine, timeout time.Duration) (m *rooms.Manager, id, creds string, spec *seenStates) {
	t.Helper()
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	m = rooms.New(rooms.Config{
		Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay,
		Engines: map[string]map[string]rooms.EngineLevel{
			"gomoku": {"fake": {Engine: pl, Fallback: "normal", Timeout: timeout}},
		},
	})
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "fake"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, creds, err = m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "White"}); err != nil {
		t.Fatal(err)
	}
	spec = newSeenStates()
	v, err := m.Connect(ctx, "gomoku", id, rooms.Hello{}, spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return m, id, creds, spec
}

// TestBotReasonAndThinking: while an Engine level decides, every viewer's
// state says which seat is thinking since when (a state with the same
// stateID); a presence change meanwhile keeps it (same since) and does
// not cost the decision; the move's log entry carries the Engine's
// reason, made one line, and the state after it no longer shows thinking.
func TestBotReasonAndThinking(t *testing.T) {
	pl := &reasonPlayer{answers: make(chan rooms.EngineMove, 1)}
	m, id, creds, spec := playerMatch(t, pl, time.Minute)

	th := spec.next(t, "thinking", func(s protocol.State) bool { return s.Thinking != nil })
	if th.StateID != 1 || th.Thinking.PlayerID != "0" || th.Thinking.Since <= 0 || th.Thinking.ServerTime < th.Thinking.Since || len(th.Log) != 0 {
		t.Fatalf("state %d thinking %+v log %v: want seat 0 thinking at state 1, no move yet", th.StateID, th.Thinking, th.Log)
	}

	// White connects while black thinks: the same decision goes on.
	white := "1"
	wv, err := m.Connect(context.Background(), "gomoku", id, rooms.Hello{PlayerID: &white, Credentials: creds}, newSeenStates())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(wv.Close)
	pres := spec.next(t, "white connected", func(s protocol.State) bool { return s.Players[1].IsConnected })
	if pres.StateID != 1 || pres.Thinking == nil || pres.Thinking.Since != th.Thinking.Since {
		t.Fatalf("presence state %d thinking %+v: want still thinking since %d", pres.StateID, pres.Thinking, th.Thinking.Since)
	}

	pl.answers <- rooms.EngineMove{Name: "place", Args: games.Args(7, 7), Reason: "  Take the centre.\nIt is\tstrongest. "}
	moved := spec.next(t, "black's move", func(s protocol.State) bool { return len(s.Log) > 0 })
	e := moved.Log[0]
	if moved.StateID != 2 || e.PlayerID != "0" || e.Move != "place" || string(e.Args) != "[7,7]" {
		t.Fatalf("state %d log %+v: want black's place [7,7]", moved.StateID, moved.Log)
	}
	if e.BotReason != "Take the centre. It is strongest." || e.Fallback != nil || e.Text != "" {
		t.Errorf("entry %+v: want the reason on one line and no fallback", e)
	}
	if moved.Thinking != nil {
		t.Errorf("thinking %+v after the move, want none", moved.Thinking)
	}
	if n := pl.count(); n != 1 {
		t.Errorf("the Player was asked %d times, want 1 (a presence change is no new position)", n)
	}
	// The replay tells the move as the live log did, reason included.
	if got := replayEntry(t, m, id); got.BotReason != e.BotReason || got.Fallback != nil {
		t.Errorf("replayed entry %+v: want the live entry's reason %q", got, e.BotReason)
	}
}

// replayEntry is the log entry of the first move in the match's replay.
func replayEntry(t *testing.T, m *rooms.Manager, id string) protocol.LogEntry {
	t.Helper()
	rp, err := m.Replay(context.Background(), "gomoku", id, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(rp.Steps) != 1 || rp.Steps[0].Log == nil {
		t.Fatalf("replay from 2: %+v, want the first move's step", rp.Steps)
	}
	return *rp.Steps[0].Log
}

// TestBotFallbackMarked: a move the fallback level played for a failed
// Engine says so in its log entry, with the level and the reason; a
// reason given with an answer that is not played is not shown.
func TestBotFallbackMarked(t *testing.T) {
	cases := []struct {
		name   string
		move   func(ctx context.Context) (string, json.RawMessage, error)
		reason string
	}{
		{"timeout", func(ctx context.Context) (string, json.RawMessage, error) {
			<-ctx.Done()
			return "", nil, ctx.Err()
		}, rooms.FallbackTimeout},
		{"error", func(context.Context) (string, json.RawMessage, error) {
			return "", nil, errors.New("the endpoint answered 500")
		}, rooms.FallbackError},
		{"busy", func(context.Context) (string, json.RawMessage, error) {
			return "", nil, fmt.Errorf("no request slot: %w", rooms.ErrEngineBusy)
		}, rooms.FallbackBusy},
		{"illegal", func(context.Context) (string, json.RawMessage, error) {
			return "place", games.Args(40, 40), nil
		}, rooms.FallbackIllegal},
		{"panic", func(context.Context) (string, json.RawMessage, error) {
			panic("engine exploded")
		}, rooms.FallbackPanic},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, id, _, spec := playerMatch(t, &fakeReasoner{move: c.move, reason: "Trust me."}, 50*time.Millisecond)
			moved := spec.next(t, "black's move", func(s protocol.State) bool { return len(s.Log) > 0 })
			e := moved.Log[0]
			want := protocol.LogFallback{Level: "normal", Reason: c.reason}
			if e.PlayerID != "0" || e.Fallback == nil || *e.Fallback != want {
				t.Fatalf("entry %+v (fallback %+v): want black's move marked %+v", e, e.Fallback, want)
			}
			if e.BotReason != "" {
				t.Errorf("reason %q shown for a move the Player did not make", e.BotReason)
			}
			if moved.Thinking != nil {
				t.Errorf("thinking %+v after the move, want none", moved.Thinking)
			}
			if got := replayEntry(t, m, id); got.Fallback == nil || *got.Fallback != want || got.BotReason != "" {
				t.Errorf("replayed entry %+v (fallback %+v): want it marked %+v as live", got, got.Fallback, want)
			}
		})
	}
}

// fakeReasoner is a ReasonEngine whose answers come from move, with
// reason beside them.
type fakeReasoner struct {
	move   func(ctx context.Context) (string, json.RawMessage, error)
	reason string
}

func (f *fakeReasoner) Move(ctx context.Context, _ rooms.EngineRequest) (string, json.RawMessage, error) {
	return f.move(ctx)
}

func (f *fakeReasoner) MoveReason(ctx context.Context, req rooms.EngineRequest) (rooms.EngineMove, error) {
	name, args, err := f.move(ctx)
	return rooms.EngineMove{Name: name, Args: args, Reason: f.reason}, err
}

// TestCleanReason: a bot's reason is kept as one line of at most
// protocol.MaxBotReason characters, with nothing invisible in it.
func TestCleanReason(t *testing.T) {
	long := strings.Repeat("长城", 100)
	for _, c := range []struct{ in, want string }{
		{"Extends my city.", "Extends my city."},
		{"  two\nlines\r\n\tand  tabs ", "two lines and tabs"},
		{"bell\a and \x00nul\x1b[31m", "bell and nul [31m"},
		{"rtl \u202eevil\u202c and zero\u200bwidth\ufeff", "rtl evil and zerowidth"},
		{"line\u2028separator", "line separator"},
		{"bad \xff\xfe bytes", "bad bytes"},
		{long, string([]rune(long)[:protocol.MaxBotReason-1]) + "…"},
		{"x" + strings.Repeat("a ", 60) + "yz", "x" + strings.Repeat("a ", 58) + "a…"}, // no space before the cut
		{"", ""},
	} {
		got := rooms.CleanReason(c.in)
		if got != c.want {
			t.Errorf("CleanReason(%q) = %q, want %q", c.in, got, c.want)
		}
		if n := len([]rune(got)); n > protocol.MaxBotReason {
			t.Errorf("CleanReason(%q) has %d characters", c.in, n)
		}
	}
}
