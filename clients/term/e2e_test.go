package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/server/servertest"
)

// The end-to-end tests run the real binary in tmux (a private tmux server
// per test), type keys with send-keys and read the screen with
// capture-pane. They skip where tmux is missing; .ci/run installs it.

// e2eWait bounds each wait for the screen: generous, for a loaded 2-core
// machine (each step is one local round trip plus a redraw).
const e2eWait = 30 * time.Second

// tmuxTerm is one running binary in a tmux session.
type tmuxTerm struct {
	t      *testing.T
	socket string
}

// startTmux builds the binary and runs it with args in a w×h tmux window.
// The shell around it prints EXIT=<status> when it ends.
func startTmux(t *testing.T, w, h int, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed: the end-to-end terminal tests need it (apt-get install -y tmux)")
	}
	if testing.Short() {
		t.Skip("-short: no end-to-end terminal test")
	}
	bin := buildBinary(t)
	tt := &tmuxTerm{t: t, socket: fmt.Sprintf("chaguan-term-%d-%s", time.Now().UnixNano(), t.Name())}
	// A UTF-8 locale and a true-colour terminal, whatever the caller's.
	cmd := fmt.Sprintf("env -u TMUX TERM=xterm-256color COLORTERM=truecolor LANG=C.UTF-8 %s %s; echo EXIT=$?; sleep 600",
		bin, strings.Join(args, " "))
	tt.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tt.socket, "kill-server").Run() })
	return tt
}

// The binary, built once for every end-to-end test of the run.
var (
	binOnce sync.Once
	binDir  string
	binErr  error
)

// buildBinary builds the real binary (go build) into a directory that
// TestMain removes.
func buildBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "chaguan-term-"); binErr != nil {
			return
		}
		out, err := exec.Command("go", "build", "-o", filepath.Join(binDir, "term"), ".").CombinedOutput()
		if err != nil {
			binErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return filepath.Join(binDir, "term")
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

func (tt *tmuxTerm) tmux(args ...string) string {
	tt.t.Helper()
	cmd := exec.Command("tmux", append([]string{"-u", "-L", tt.socket}, args...)...)
	if os.Getenv("TERM") == "" || os.Getenv("TERM") == "dumb" {
		cmd.Env = append(os.Environ(), "TERM=xterm-256color") // tmux wants one, even detached
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		tt.t.Fatalf("tmux %q: %v\n%s", args, err, out)
	}
	return string(out)
}

// screen is the window's text now.
func (tt *tmuxTerm) screen() string { return tt.tmux("capture-pane", "-p", "-t", "main") }

// keys types keys (tmux key names: Enter, Escape, or text).
func (tt *tmuxTerm) keys(keys ...string) {
	tt.t.Helper()
	tt.tmux(append([]string{"send-keys", "-t", "main"}, keys...)...)
}

// waitFor polls the screen until it holds every one of subs and returns
// it; it fails the test with the last screen after e2eWait.
func (tt *tmuxTerm) waitFor(subs ...string) string {
	tt.t.Helper()
	deadline := time.Now().Add(e2eWait)
	for {
		s := tt.screen()
		missing := ""
		for _, sub := range subs {
			if !strings.Contains(s, sub) {
				missing = sub
				break
			}
		}
		if missing == "" {
			return s
		}
		if time.Now().After(deadline) {
			tt.t.Fatalf("after %v the screen has no %q:\n%s", e2eWait, missing, s)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestTmuxResignation plays a short 9x9 hot-seat game in the real binary:
// two stones, an undo, the stone again, a resize below the minimum and
// back, then black resigns with r and y.
func TestTmuxResignation(t *testing.T) {
	tt := startTmux(t, 100, 30, "-size", "9", "-lang", "en")
	tt.waitFor("Weiqi 9x9 · hot-seat", "Black to play", "cursor E5")
	tt.keys("Enter")
	tt.waitFor("White to play", "1 ● E5", "●▪")
	tt.keys("l", "Enter")
	tt.waitFor("Black to play", "2 ○ F5")
	tt.keys("u") // hot-seat: white's F5 goes at once
	s := tt.waitFor("White to play", "move 1")
	if strings.Contains(s, "2 ○ F5") {
		t.Fatalf("undo left F5 in the record:\n%s", s)
	}
	tt.keys("Enter") // the cursor is still on F5
	tt.waitFor("Black to play", "2 ○ F5")

	tt.tmux("resize-window", "-t", "main", "-x", "50", "-y", "14")
	tt.waitFor("terminal too small (need 60x16, have 50x14)")
	tt.tmux("resize-window", "-t", "main", "-x", "100", "-y", "30")
	tt.waitFor("A B C D E F G H J", "Black to play")

	tt.keys("r")
	tt.waitFor("Resign? y to confirm")
	tt.keys("y")
	s = tt.waitFor("White wins: Black resigned (W+R)")
	t.Logf("the end:\n%s", s)
	tt.keys("q")
	tt.waitFor("EXIT=0")
}

// TestTmuxScoring plays a 9x9 hot-seat game through scoring: two stones,
// pass and pass into scoring, Esc back to play, e into scoring again, d
// marks white's stone dead, Enter confirms for both, the evolution runs
// and the score and the winner show.
func TestTmuxScoring(t *testing.T) {
	tt := startTmux(t, 100, 30, "-size", "9", "-lang", "en")
	tt.waitFor("Black to play")
	tt.keys("Enter")
	tt.waitFor("White to play")
	tt.keys("l", "Enter")
	tt.waitFor("Black to play", "2 ○ F5")
	tt.keys("p")
	tt.waitFor("White to play", "Black passed")
	tt.keys("p")
	tt.waitFor("Scoring  ● wait  ○ wait", "d dead")
	tt.keys("Escape") // resume: play on
	tt.waitFor("Black to play")
	tt.keys("e") // hot-seat: scoring at once
	tt.waitFor("Scoring  ● wait", "B 1 st + 0 terr")
	tt.keys("d") // the cursor is on white's F5
	s := tt.waitFor("●─✕", "W 0 st + 0 terr", "B 1 st + 80 terr")
	t.Logf("scoring:\n%s", s)
	tt.keys("Enter")
	tt.waitFor("Evolution")
	s = tt.waitFor("Score (area)", "B 0 st + 0 terr = 0", "W 0 st + 0 terr + 7.5 = 7.5", "White wins by 7.5 (W+7.5)")
	t.Logf("the end:\n%s", s)
	tt.keys("q")
	tt.waitFor("EXIT=0")
}

// TestTmuxJoin: a browser player (the Go client, as the web page would)
// creates a 9x9 match and sits in seat 0; the binary joins with the
// invite link and plays white in the same game: a stone each, the
// browser's undo request answered with y, then white resigns.
func TestTmuxJoin(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*e2eWait)
	defer cancel()
	id, browser := browserPlayer(ctx, t, srv.URL)
	tt := startTmux(t, 100, 30, "-join", srv.URL+"/m/weiqi/"+id, "-name", "Term", "-lang", "en")
	tt.waitFor("Weiqi 9x9 · online", "Browser", "Term (you)", "Waiting for Black…")

	if _, err := browser.Move(ctx, "play", "E5"); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("White to play", "1 ● E5")
	tt.keys("l", "Enter")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return len(v.Moves) == 2 && v.Moves[1] == "F5" })
	tt.waitFor("Waiting for Black…", "2 ○ F5")

	if _, err := browser.Move(ctx, "requestUndo"); err != nil {
		t.Fatal(err)
	}
	tt.waitFor("Black asks to undo: y agrees, n refuses")
	tt.keys("y")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return len(v.Moves) == 0 })
	tt.waitFor("no move yet")

	tt.keys("r")
	tt.waitFor("Resign? y to confirm")
	tt.keys("y")
	waitConn(ctx, t, browser, func(v weiqi.View) bool { return v.Result != nil && *v.Result == "B+R" })
	s := tt.waitFor("Black wins: White resigned (B+R)")
	t.Logf("the end:\n%s", s)
	tt.keys("q")
	tt.waitFor("EXIT=0")
}

// TestTmuxTooSmall: started in a terminal below the 9x9 board's 60x16, the
// binary says so and exits with status 2, the terminal left as it was.
func TestTmuxTooSmall(t *testing.T) {
	tt := startTmux(t, 59, 16, "-size", "9", "-lang", "zh")
	s := tt.waitFor("终端太小：需要 60×16，当前 59×16", "EXIT=2")
	t.Logf("too small:\n%s", strings.TrimRight(s, "\n"))
}
