package server_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// startedGomoku creates a gomoku match with two seated people.
func startedGomoku(t *testing.T, base string) (id string, black, white seat) {
	id = create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	return id, join(t, base, "gomoku", id, "Black"), join(t, base, "gomoku", id, "White")
}

func TestWebSocketErrorCodes(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL

	t.Run("unauthorized hello and spectator move", func(t *testing.T) {
		id, black, _ := startedGomoku(t, base)
		w := dial(t, base, "gomoku", id)
		w.send(map[string]any{"type": "hello", "playerID": black.id, "credentials": "0000"})
		w.expectError(protocol.CodeUnauthorized)
		w.send(map[string]any{"type": "move", "id": 1, "move": "place", "args": []int{7, 7}})
		if e := w.expectError(protocol.CodeUnauthorized); e.Ref == nil || *e.Ref != 1 {
			t.Fatalf("ref not echoed: %+v", e)
		}
		s := w.hello(nil) // the connection stayed open: spectate
		if s.You != "" || s.Ctx.Turn != 1 {
			t.Fatalf("spectator state: you=%q turn=%d", s.You, s.Ctx.Turn)
		}
		w.move("place", 7, 7)
		w.expectError(protocol.CodeUnauthorized)
	})

	t.Run("not_started", func(t *testing.T) {
		id := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
		ann := join(t, base, "gomoku", id, "Ann")
		w := dial(t, base, "gomoku", id)
		if s := w.hello(&ann); s.Ctx.Started {
			t.Fatal("started with a free seat")
		}
		w.move("place", 7, 7)
		w.expectError(protocol.CodeNotStarted)
	})

	t.Run("turn, rules, unknown, stale, bad request, game over", func(t *testing.T) {
		id, black, white := startedGomoku(t, base)
		b, w := dial(t, base, "gomoku", id), dial(t, base, "gomoku", id)
		b.hello(&black)
		first := w.hello(&white)
		w.move("place", 7, 7)
		w.expectError(protocol.CodeNotYourTurn)
		b.acked(b.move("place", 7, 7))
		w.state()
		w.move("place", 7, 7)
		if e := w.expectError(protocol.CodeInvalidMove); e.Message == "" || e.MessageZh == "" {
			t.Fatalf("invalid move without reasons: %+v", e)
		}
		w.move("fly")
		w.expectError(protocol.CodeUnknownMove)
		w.send(map[string]any{"type": "move", "id": 99, "move": "place", "args": []int{1, 1}, "stateID": first.StateID})
		w.expectError(protocol.CodeStaleState)
		w.send(`{"type":"move"`)
		w.expectError(protocol.CodeBadRequest)
		w.send(`{"type":"move","id":5}`)
		w.expectError(protocol.CodeBadRequest)
		w.send(`{"type":"teleport"}`)
		w.expectError(protocol.CodeBadRequest)
		w.send(map[string]any{"type": "chat", "text": strings.Repeat("长", 501)})
		w.expectError(protocol.CodeBadRequest)
		w.send(`{"type":"hello"}`)
		w.expectError(protocol.CodeBadRequest)
		w.send(`{"type":"chat","text":"` + strings.Repeat("x", 70<<10) + `"}`)
		w.expectError(protocol.CodeBadRequest)
		// After all that the state is unchanged and the connection alive.
		w.send(`{"type":"sync"}`)
		s := w.state()
		if s.StateID != first.StateID+1 || strings.Count(strings.Join(gview(t, s).Board, ""), "B") != 1 {
			t.Fatalf("refused messages changed the state: %d vs %d", s.StateID, first.StateID)
		}
		w.acked(w.move("resign"))
		b.move("place", 0, 0)
		b.expectError(protocol.CodeGameOver)
	})

	t.Run("rate_limited flood", func(t *testing.T) {
		id, black, _ := startedGomoku(t, base)
		w := dial(t, base, "gomoku", id)
		w.hello(&black)
		for i := 0; i < 120; i++ {
			w.send(`{"type":"sync"}`)
		}
		w.expectError(protocol.CodeRateLimited)
		time.Sleep(1100 * time.Millisecond) // tokens refill at 20/s
		drain(w)
		w.send(`{"type":"sync"}`)
		w.state()
	})
}

// drain discards queued messages.
func drain(w *wsClient) {
	for {
		select {
		case <-w.msgs:
		case <-time.After(200 * time.Millisecond):
			return
		}
	}
}

// flakyStore fails every Update while down is set.
type flakyStore struct {
	rooms.Store
	down atomic.Bool
}

func (f *flakyStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if f.down.Load() {
		return rooms.ErrUnavailable
	}
	return f.Store.Update(ctx, rec, prev)
}

func TestUnavailableStoreChangesNothing(t *testing.T) {
	st := &flakyStore{Store: memstore.New(memstore.Options{})}
	srv := servertest.Start(t, servertest.Options{Store: st})
	id, black, _ := startedGomoku(t, srv.URL)
	w := dial(t, srv.URL, "gomoku", id)
	before := w.hello(&black)
	st.down.Store(true)
	w.move("place", 7, 7)
	w.expectError(protocol.CodeUnavailable)
	w.send(`{"type":"sync"}`)
	if s := w.state(); s.StateID != before.StateID || strings.Contains(strings.Join(gview(t, s).Board, ""), "B") {
		t.Fatalf("a move that was not stored became visible")
	}
	st.down.Store(false)
	w.acked(w.move("place", 7, 7))
}

// panicky is a one-seat game whose "boom" move panics.
type panicky struct{}
type pState struct{ N int }

func (panicky) Info() games.Info {
	return games.Info{Name: "panicky", MinPlayers: 1, MaxPlayers: 1, Bots: []string{"easy"},
		Moves: []games.MoveSpec{{Name: "boom"}, {Name: "inc"}}}
}
func (panicky) Setup(int, json.RawMessage, *games.RNG) (pState, error) { return pState{}, nil }
func (panicky) Status(s pState) games.Status                           { return games.Status{Phase: "p", Turn: s.N + 1} }
func (panicky) Apply(s pState, _ int, name string, _ json.RawMessage) (pState, error) {
	if name == "boom" {
		panic("boom")
	}
	return pState{N: s.N + 1}, nil
}
func (panicky) View(s pState, _ int) pState { return s }
func (panicky) Bot(string, pState, int, *rand.Rand) (string, json.RawMessage, error) {
	return "inc", games.Args(), nil
}

func TestPanicInGameIsInternalNotFatal(t *testing.T) {
	reg := games.NewRegistry(gomoku.Game, games.Erase[pState, pState](panicky{}))
	srv := servertest.Start(t, servertest.Options{Games: reg})
	id := create(t, srv.URL, "panicky", map[string]any{"numPlayers": 1})
	me := join(t, srv.URL, "panicky", id, "Me")
	w := dial(t, srv.URL, "panicky", id)
	w.hello(&me)
	w.move("boom")
	w.expectError(protocol.CodeInternal)
	s := w.acked(w.move("inc"))
	if s.Ctx.Turn != 2 {
		t.Fatalf("room did not survive the panic: turn %d", s.Ctx.Turn)
	}
}

func TestChatAndSpectators(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id, black, _ := startedGomoku(t, srv.URL)
	p, s := dial(t, srv.URL, "gomoku", id), dial(t, srv.URL, "gomoku", id)
	p.hello(&black)
	s.send(map[string]any{"type": "hello", "name": "Watcher"})
	s.state()
	p.send(map[string]any{"type": "chat", "text": "你好"})
	s.send(map[string]any{"type": "chat", "text": "hi from the stands"})
	for _, w := range []*wsClient{p, s} {
		var got []protocol.Chat
		for len(got) < 2 {
			typ, b := w.read()
			if typ == "chat" {
				var c protocol.Chat
				_ = json.Unmarshal(b, &c)
				got = append(got, c)
			}
		}
		if got[0].From == "" {
			got[0], got[1] = got[1], got[0]
		}
		if got[0].From != "0" || got[0].Name != "Black" || got[0].Text != "你好" || got[1].From != "" || got[1].Name != "Watcher" || got[1].At == 0 {
			t.Fatalf("chat: %+v", got)
		}
	}
}

func TestAutoplayAndGracePeriod(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{Grace: 150 * time.Millisecond})
	t.Run("autoplay", func(t *testing.T) {
		id, black, white := startedGomoku(t, srv.URL)
		b, w := dial(t, srv.URL, "gomoku", id), dial(t, srv.URL, "gomoku", id)
		b.hello(&black)
		w.hello(&white)
		w.send(`{"type":"autoplay","on":true}`)
		b.acked(b.move("place", 7, 7))
		s := b.stateWhere(func(s *protocol.State) bool { return s.Ctx.Turn == 3 })
		if !s.Players[1].Autoplay {
			t.Fatalf("autoplay flag not shown")
		}
	})
	t.Run("grace", func(t *testing.T) {
		id, black, white := startedGomoku(t, srv.URL)
		b := dial(t, srv.URL, "gomoku", id)
		b.hello(&black)
		w := dial(t, srv.URL, "gomoku", id)
		w.hello(&white)
		w.c.Close() // white goes away
		b.stateWhere(func(s *protocol.State) bool { return !s.Players[1].IsConnected })
		start := time.Now()
		b.acked(b.move("place", 7, 7))
		b.stateWhere(func(s *protocol.State) bool { return s.Ctx.Turn == 3 })
		if waited := time.Since(start); waited < 100*time.Millisecond {
			t.Fatalf("bot covered after %v, before the grace period", waited)
		}
	})
}

func TestHelloDeadline(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{HelloWait: 200 * time.Millisecond}})
	id, _, _ := startedGomoku(t, srv.URL)
	w := dial(t, srv.URL, "gomoku", id)
	if !w.closedWithin(3 * time.Second) {
		t.Fatal("connection without hello was not closed")
	}
}

func TestUnknownMatchWebSocket(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	w := dial(t, srv.URL, "gomoku", "no-such-match")
	w.send(`{"type":"hello"}`)
	w.expectError(protocol.CodeNotFound)
}
