package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chaguan/chaguan/games/weiqi"
)

// TestTmuxReconnectAndResume: the real binary joins a browser player's
// match; the server restarts on the same store mid-game. The terminal says
// reconnecting…, refuses a move meanwhile, comes back by itself, says so
// and plays on. After q, the same -join link puts it back in its seat
// (kept in the seats file, mode 0600), and the end of the game forgets it.
func TestTmuxReconnectAndResume(t *testing.T) {
	r := startRestartable(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*e2eWait)
	defer cancel()
	id, browser := reconnectingPlayer(ctx, t, r.proxy.URL())
	seats := filepath.Join(t.TempDir(), "seats.json")
	args := []string{"-join", r.proxy.URL() + "/m/weiqi/" + id, "-name", "Term", "-lang", "en", "-seats", seats}
	tt := startTmux(t, 100, 30, args...)
	tt.waitFor("Weiqi 9x9 · online", "Term (you)", "Waiting for Black…")
	if fi, err := os.Stat(seats); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("seats file: %v %v; want mode 0600", fi, err)
	}

	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("White to play", "1 ● E5")
	r.stop()
	tt.waitFor("reconnecting…")
	tt.keys("l", "Enter") // refused on the spot: nothing to send it on
	tt.waitFor("reconnecting…", "cursor F5")
	r.start()
	s := tt.waitFor("Reconnected", "White to play")
	t.Logf("back:\n%s", s)
	tt.keys("Enter")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return len(v.Moves) == 2 && v.Moves[1] == "F5" })
	tt.waitFor("2 ○ F5", "Waiting for Black…")
	tt.keys("q")
	tt.waitFor("EXIT=0")

	// The same link again: the seat, not a spectator's view.
	tt = startTmux(t, 100, 30, args...)
	tt.waitFor("Term (you)", "Back in your seat: White", "2 ○ F5")
	if _, err := browser.Move(ctx, "play", "D4"); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("White to play", "3 ● D4")
	tt.keys("j", "Enter") // E4
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return len(v.Moves) == 4 && v.Moves[3] == "E4" })
	tt.keys("r")
	tt.waitFor("Resign? y to confirm")
	tt.keys("y")
	tt.waitFor("Black wins: White resigned (B+R)")
	if _, err := os.Stat(seats); !os.IsNotExist(err) {
		t.Fatalf("the seats file outlived the game's end: %v", err)
	}
	tt.keys("q")
	tt.waitFor("EXIT=0")
}
