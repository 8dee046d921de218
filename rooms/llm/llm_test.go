package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
)

// TestMoveGoodAnswer: a well-formed answer becomes the option's move, the
// Rules accept it, and the request carries the model, the key as a bearer
// token and the numbered options.
func TestMoveGoodAnswer(t *testing.T) {
	tileView, meepleView, tileState, meepleState := views(t)
	r := carcassonne.Rules{}
	// Option 2 of the tile phase: a placement (and the meeple part kept
	// for the meeple phase).
	pr, err := buildPrompt(tileView, 0)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := pr.option(2)
	wantTile := string(two.args)
	var mv carcassonne.View
	_ = json.Unmarshal(meepleView, &mv)
	for _, c := range []struct {
		name     string
		view     json.RawMessage
		st       carcassonne.State
		answer   string
		wantName string
		wantArgs string
	}{
		{"tile phase, option 2", tileView, tileState, `{"option": 2}`, carcassonne.MovePlaceTile, wantTile},
		{"meeple phase, option 1", meepleView, meepleState, " {\"option\":1}\n", carcassonne.MovePlaceMeeple, fmt.Sprintf(`[{"feature":%q}]`, mv.MeepleOptions[0].Feature)},
		{"meeple phase, no meeple", meepleView, meepleState, `{"option": 0}`, carcassonne.MoveSkipMeeple, `[]`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, always(reply{content: c.answer}))
			p := f.player(t, 5*time.Second)
			name, args, err := p.Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", Seat: 0, Version: 3, View: c.view})
			if err != nil {
				t.Fatalf("Move: %v", err)
			}
			if name != c.wantName || string(args) != c.wantArgs {
				t.Errorf("move %s %s, want %s %s", name, args, c.wantName, c.wantArgs)
			}
			if _, err := r.Apply(c.st, 0, name, args); err != nil {
				t.Errorf("the rules refuse %s %s: %v", name, args, err)
			}
			if got := f.auth[0]; got != "Bearer "+string(testKey) {
				t.Errorf("Authorization %q, want the bearer key", got)
			}
			if f.models[0] != "test-model" {
				t.Errorf("model %q", f.models[0])
			}
			if pr := f.lastPrompt(); !strings.Contains(pr, "\nOptions") || !strings.Contains(pr, `{"option": N}`) {
				t.Errorf("prompt without numbered options:\n%s", pr)
			}
		})
	}
}

// TestMoveSlow: an endpoint slower than the deadline makes Move return
// ctx's error at the deadline, not when the endpoint answers.
func TestMoveSlow(t *testing.T) {
	tileView, _, _, _ := views(t)
	f := newFake(t, always(reply{content: `{"option": 1}`, delay: 10 * time.Second}))
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	_, _, err := f.player(t, 5*time.Second).Move(ctx, rooms.EngineRequest{Game: "carcassonne", View: tileView})
	if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrEndpoint) {
		t.Fatalf("err %v, want ErrEndpoint and context.DeadlineExceeded", err)
	}
	if d := time.Since(t0); d > 2*time.Second {
		t.Errorf("Move returned after %v, want about the deadline", d)
	}
}

// TestMoveHTTPErrors: an error status is an error wrapping ErrEndpoint
// that names the status, once (no retries).
func TestMoveHTTPErrors(t *testing.T) {
	tileView, _, _, _ := views(t)
	for _, status := range []int{500, 401, 429} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			f := newFake(t, always(reply{status: status, content: `{"error": {"message": "boom", "type": "server_error"}}`}))
			_, _, err := f.player(t, 5*time.Second).Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView})
			if !errors.Is(err, ErrEndpoint) || !strings.Contains(err.Error(), fmt.Sprint(status)) {
				t.Fatalf("err %v, want ErrEndpoint naming %d", err, status)
			}
			if n := f.requests(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
}

// TestMoveNotMyTurn: a view where the seat has nothing to decide, or not
// Carcassonne's, is ErrView and sends nothing.
func TestMoveNotMyTurn(t *testing.T) {
	tileView, _, _, _ := views(t)
	f := newFake(t, always(reply{content: `{"option": 1}`}))
	p := f.player(t, time.Second)
	for _, req := range []rooms.EngineRequest{
		{Game: "carcassonne", Seat: 1, View: tileView},
		{Game: "weiqi", View: tileView},
		{Game: "carcassonne", View: json.RawMessage(`{"size":19}`)},
	} {
		if _, _, err := p.Move(context.Background(), req); !errors.Is(err, ErrView) {
			t.Errorf("seat %d game %s: err %v, want ErrView", req.Seat, req.Game, err)
		}
	}
	if n := f.requests(); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// TestKeyNeverLeaks: an endpoint that echoes the Authorization header
// into its answer and its error bodies does not get the key into an
// error; the Key and the Engine print without it, in text and in slog.
func TestKeyNeverLeaks(t *testing.T) {
	tileView, _, _, _ := views(t)
	echo := func(status int) func(string) reply {
		return func(string) reply {
			return reply{status: status, content: `{"error": {"message": "bad key Bearer ` + string(testKey) + `", "type": "x"}}`}
		}
	}
	for _, c := range []struct {
		name   string
		answer func(string) reply
	}{
		{"answer echoes the key", always(reply{content: "your key is " + string(testKey)})},
		{"answer echoes the key in JSON", always(reply{content: `{"option": "` + string(testKey) + `"}`})},
		{"401 body echoes the key", echo(401)},
		{"500 body echoes the key", echo(500)},
		{"answer cut in the key", always(reply{content: strings.Repeat("x", maxAnswer-14) + " " + string(testKey)})},
		{"refusal cut in the key", always(reply{null: true, refusal: strings.Repeat("x", maxAnswer-14) + " " + string(testKey)})},
		{"error message cut in the key", always(reply{status: 400, content: `{"error": {"message": "` + strings.Repeat("x", maxAnswer-14) + " " + string(testKey) + `"}}`})},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.answer)
			p := f.player(t, 5*time.Second)
			_, _, err := p.Move(context.Background(), rooms.EngineRequest{Game: "carcassonne", View: tileView})
			if err == nil {
				t.Fatal("no error")
			}
			var buf bytes.Buffer
			log := slog.New(slog.NewTextHandler(&buf, nil))
			log.Warn("failed", "err", err, "key", testKey, "player", p, "endpoint", p.Endpoint())
			slog.New(slog.NewJSONHandler(&buf, nil)).Warn("failed", "err", err, "key", testKey)
			for _, s := range []string{err.Error(), fmt.Sprintf("%v %+v %#v %s %q", err, err, err, testKey, testKey), fmt.Sprintf("%+v %#v", p, *p), buf.String()} {
				mustNotLeak(t, "output", s)
			}
			if b, _ := json.Marshal(map[string]any{"key": testKey}); strings.Contains(string(b), string(testKey)) {
				t.Errorf("JSON: %s", b)
			}
		})
	}
}

// TestCheck: the decision POST /llm/test makes reports success with a
// latency, and an HTTP error as ErrEndpoint (breaker_test.go has the rest).
func TestCheck(t *testing.T) {
	ok := newFake(t, always(reply{content: `{"option": 1}`}))
	if r, err := ok.player(t, time.Second).Check(context.Background()); err != nil || r.Latency <= 0 {
		t.Errorf("Check = %+v, %v; want a latency and no error", r, err)
	}
	bad := newFake(t, always(reply{status: 503, content: `{}`}))
	if _, err := bad.player(t, time.Second).Check(context.Background()); !errors.Is(err, ErrEndpoint) {
		t.Errorf("Check on 503: %v, want ErrEndpoint", err)
	}
	slow := newFake(t, always(reply{delay: 10 * time.Second}))
	t0 := time.Now()
	if _, err := slow.player(t, 100*time.Millisecond).Check(context.Background()); !errors.Is(err, context.DeadlineExceeded) || time.Since(t0) > 2*time.Second {
		t.Errorf("Check on a slow endpoint: %v after %v, want the endpoint's timeout", err, time.Since(t0))
	}
}
