package rooms_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/roomtest"
)

// fakePlayer answers with its function and remembers the requests.
type fakePlayer struct {
	mu   sync.Mutex
	reqs []rooms.EngineRequest
	move func(ctx context.Context) (string, json.RawMessage, error)
}

func (f *fakePlayer) Move(ctx context.Context, req rooms.EngineRequest) (string, json.RawMessage, error) {
	f.mu.Lock()
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	return f.move(ctx)
}

func (f *fakePlayer) requests() []rooms.EngineRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]rooms.EngineRequest(nil), f.reqs...)
}

// fallbackMetrics records BotFallback; the other counters are ignored.
type fallbackMetrics struct {
	mu        sync.Mutex
	fallbacks []string // "game/level/reason"
}

func (*fallbackMetrics) RoomsLoaded(int)                           {}
func (*fallbackMetrics) MoveAccepted(string, time.Duration)        {}
func (*fallbackMetrics) MoveRefused(string)                        {}
func (*fallbackMetrics) MatchCreated(string)                       {}
func (*fallbackMetrics) BotDecision(string, string, time.Duration) {}
func (*fallbackMetrics) BotMove(string, string)                    {}
func (m *fallbackMetrics) BotFallback(game, level, reason string) {
	m.mu.Lock()
	m.fallbacks = append(m.fallbacks, game+"/"+level+"/"+reason)
	m.mu.Unlock()
}

func (m *fallbackMetrics) list() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.fallbacks...)
}

// TestPlayerLevel: a gomoku match whose black seat is the Engine level
// "fake" and whose white seat is a person who never moves. The Engine's
// legal answer is played; an error, a timeout (one that honours its
// context and one that ignores it), a panic and an illegal answer each
// make the room play the "normal" level instead, logged and counted.
func TestPlayerLevel(t *testing.T) {
	release := make(chan struct{}) // unblocks the deaf Engine at the end
	t.Cleanup(func() { close(release) })
	cases := []struct {
		name   string
		move   func(ctx context.Context) (string, json.RawMessage, error)
		reason string // "" for a played answer
	}{
		{"good answer", func(context.Context) (string, json.RawMessage, error) {
			return "place", games.Args(0, 0), nil
		}, ""},
		{"error", func(context.Context) (string, json.RawMessage, error) {
			return "", nil, errors.New("engine unavailable")
		}, rooms.FallbackError},
		{"timeout", func(ctx context.Context) (string, json.RawMessage, error) {
			<-ctx.Done()
			return "", nil, ctx.Err()
		}, rooms.FallbackTimeout},
		{"timeout ignoring its context", func(context.Context) (string, json.RawMessage, error) {
			<-release
			return "place", games.Args(0, 0), nil
		}, rooms.FallbackTimeout},
		{"panic", func(context.Context) (string, json.RawMessage, error) {
			panic("engine exploded")
		}, rooms.FallbackPanic},
		{"illegal move", func(context.Context) (string, json.RawMessage, error) {
			return "place", games.Args(20, 20), nil
		}, rooms.FallbackIllegal},
		{"unknown move", func(context.Context) (string, json.RawMessage, error) {
			return "fly", games.Args(), nil
		}, rooms.FallbackIllegal},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fake := &fakePlayer{move: c.move}
			metrics := &fallbackMetrics{}
			logs := &roomtest.Buffer{}
			mem := memstore.New(memstore.Options{})
			t.Cleanup(func() { mem.Close() })
			m := rooms.New(rooms.Config{
				Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay,
				Logger: slog.New(slog.NewTextHandler(logs, nil)), Metrics: metrics,
				Engines: map[string]map[string]rooms.EngineLevel{
					"gomoku": {"fake": {Engine: fake, Fallback: "normal", Timeout: 50 * time.Millisecond}},
				},
			})
			t.Cleanup(m.Close)
			ctx := context.Background()
			id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "fake"}})
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "White"}); err != nil {
				t.Fatal(err)
			}
			watch(t, m, "gomoku", id)
			moves := firstMoves(t, mem, id)
			reqs := fake.requests()
			if len(reqs) != 1 {
				t.Fatalf("the Player was asked %d times, want 1", len(reqs))
			}
			if r := reqs[0]; r.Game != "gomoku" || r.Seat != 0 || r.Version < 2 || !json.Valid(r.View) || !bytes.Contains(r.View, []byte(`"moves":[]`)) {
				t.Errorf("request %+v (view %s): want gomoku seat 0, a started state, the empty board's view", r, r.View)
			}
			if c.reason == "" {
				if moves != "[[0,0]]" || len(metrics.list()) != 0 {
					t.Errorf("moves %s, fallbacks %v: want the Player's [[0,0]] and no fallback", moves, metrics.list())
				}
				return
			}
			if moves == "" || moves == "[[0,0]]" {
				t.Errorf("moves %s: want one move of the fallback level", moves)
			}
			if got, want := metrics.list(), []string{"gomoku/fake/" + c.reason}; !equal(got, want) {
				t.Errorf("fallbacks counted %v, want %v", got, want)
			}
			log := logs.String()
			for _, want := range []string{"match=" + id, "seat=0", "version=", "level=fake", "reason=" + c.reason, "fallback=normal"} {
				if !strings.Contains(log, want) {
					t.Errorf("log lacks %q:\n%s", want, log)
				}
			}
		})
	}
}

// firstMoves waits for black's first stone and returns the view's moves.
func firstMoves(t *testing.T, st rooms.Store, id string) string {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		rec, err := st.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		s, err := gomoku.Game.Load(rec.State)
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Moves json.RawMessage }
		b, _ := s.AppendView(nil, games.Spectator)
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if string(v.Moves) != "[]" {
			return string(v.Moves)
		}
	}
	t.Fatal("black never moved")
	return ""
}

func equal(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") }

// TestPlayerLevelsOffered: a configured Engine level is accepted by create
// and AddBot for its game only, listed after the built-in levels; a level
// repeating a built-in name or for an unknown game is ignored.
func TestPlayerLevelsOffered(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	fake := &fakePlayer{move: func(context.Context) (string, json.RawMessage, error) { return "", nil, errors.New("unused") }}
	m := rooms.New(rooms.Config{
		Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour,
		Engines: map[string]map[string]rooms.EngineLevel{
			"gomoku": {"zeta": {Engine: fake}, "alpha": {Engine: fake}, "hard": {Engine: fake}},
			"chess":  {"stockfish": {Engine: fake}},
		},
	})
	t.Cleanup(m.Close)
	if got, want := m.BotLevels(gomoku.Game.Info()), []string{"easy", "normal", "hard", "alpha", "zeta"}; !equal(got, want) {
		t.Errorf("BotLevels = %v, want %v", got, want)
	}
	ctx := context.Background()
	if _, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"1": "stockfish"}}); err == nil {
		t.Error("create accepted another game's Player level")
	}
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.AddBot(ctx, "gomoku", id, rooms.AddBotParams{PlayerID: pid, Credentials: creds, Seat: "1", Level: "alpha"}); err != nil {
		t.Fatalf("AddBot(alpha): %v", err)
	}
	rec, err := mem.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Seats[1].Bot != "alpha" {
		t.Errorf("seat 1 bot %q, want alpha", rec.Seats[1].Bot)
	}

	plain := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(plain.Close)
	if got := plain.BotLevels(gomoku.Game.Info()); !equal(got, []string{"easy", "normal", "hard"}) {
		t.Errorf("BotLevels without Players = %v", got)
	}
	if _, err := plain.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"1": "alpha"}}); err == nil {
		t.Error("create accepted a level nobody configured")
	}
}
