package server_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// TestWeiqiOverTheWire plays a short 9x9 game through the WebSocket
// (a capture, a refused suicide and superko with their reasons, passes
// into scoring, a dead mark, both approvals) and fetches the SGF, which
// replays to the position the players saw.
func TestWeiqiOverTheWire(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	base := srv.URL
	id := create(t, base, "weiqi", map[string]any{"numPlayers": 2, "setupData": map[string]any{"size": 9, "komi": 6.5}})
	ann, bo := join(t, base, "weiqi", id, "Ann"), join(t, base, "weiqi", id, "Bo [白]")
	b, w := dial(t, base, "weiqi", id), dial(t, base, "weiqi", id)
	b.hello(&ann)
	w.hello(&bo)
	play := func(c *wsClient, name string, args ...any) *protocol.State {
		t.Helper()
		return c.acked(c.move(name, args...))
	}
	// The ko shape, then white takes and black may not retake at once.
	for i, mv := range []string{"C5", "F5", "D6", "E6", "D4", "E4", "E5"} {
		play([]*wsClient{b, w}[i%2], "play", mv)
	}
	play(w, "play", "Ｄ５")
	b.move("play", "E5")
	if e := b.expectError(protocol.CodeInvalidMove); e.Message != "superko (the position repeats)" {
		t.Fatalf("retake refused with %q", e.Message)
	}
	play(b, "pass")
	play(w, "play", "A9")
	play(b, "play", "B1")
	play(w, "play", "J9")
	play(b, "play", "A2")
	w.move("play", "A1")
	if e := w.expectError(protocol.CodeInvalidMove); e.Message != "suicide is not allowed" {
		t.Fatalf("suicide refused with %q", e.Message)
	}
	play(w, "pass")
	s := play(b, "pass")
	if s.Ctx.Phase != "scoring" {
		t.Fatalf("phase %q after two passes", s.Ctx.Phase)
	}
	play(w, "toggleDead", "A9")
	play(b, "approve")
	s = play(w, "approve")
	if s.Ctx.Gameover == nil {
		t.Fatal("no gameover after both approved")
	}
	var view weiqi.View
	gjson(t, s, &view)
	if view.Result == nil || len(view.Evolution) != 6 || view.Score == nil || view.Score.White.Komi != 6.5 {
		t.Fatalf("final view: %+v", view)
	}

	resp, err := http.Get(base + "/games/weiqi/" + id + "/sgf")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body bytes.Buffer
	_, _ = body.ReadFrom(resp.Body)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-go-sgf; charset=utf-8" ||
		resp.Header.Get("Content-Disposition") != `attachment; filename="weiqi-`+id+`.sgf"` {
		t.Fatalf("sgf: %d %v", resp.StatusCode, resp.Header)
	}
	sgf := body.Bytes()
	for _, want := range []string{"PB[Ann]", `PW[Bo [白\]]`, "KM[6.5]", "SZ[9]", "RE[" + *view.Result + "]"} {
		if !bytes.Contains(sgf, []byte(want)) {
			t.Fatalf("sgf lacks %s:\n%s", want, sgf)
		}
	}
	back, err := weiqi.FromSGF(sgf)
	if err != nil {
		t.Fatal(err)
	}
	got := weiqi.Rules{}.View(back, -1)
	if len(got.Moves) != len(view.Moves) || got.Captures != view.Captures {
		t.Fatalf("replayed %d moves, captures %v; want %d, %v", len(got.Moves), got.Captures, len(view.Moves), view.Captures)
	}

	if code, _ := get(t, base+"/games/weiqi/nope/sgf"); code != 404 {
		t.Fatalf("unknown match: %d", code)
	}
	gid := create(t, base, "gomoku", map[string]any{"numPlayers": 2})
	if code, body := get(t, base+"/games/gomoku/"+gid+"/sgf"); code != 404 || !bytes.Contains(body, []byte("not_found")) {
		t.Fatalf("gomoku sgf: %d %s", code, body)
	}
}

// gjson decodes a state's G into v.
func gjson(t *testing.T, s *protocol.State, v any) {
	t.Helper()
	if err := json.Unmarshal(s.G, v); err != nil {
		t.Fatal(err)
	}
}
