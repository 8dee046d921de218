package main

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// startTmuxEnv is startTmux with env (NAME=value words) set for the
// binary after the usual true-colour terminal, and the caller's locale and
// NO_COLOR taken away first (so env alone decides them).
func startTmuxEnv(t *testing.T, w, h int, env string, args ...string) *tmuxTerm {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux not installed: the end-to-end terminal tests need it (apt-get install -y tmux)")
	}
	if testing.Short() {
		t.Skip("-short: no end-to-end terminal test")
	}
	bin := buildBinary(t)
	tt := &tmuxTerm{t: t, socket: fmt.Sprintf("chaguan-term-%d-%s", time.Now().UnixNano(), t.Name())}
	cmd := fmt.Sprintf("env -u TMUX -u LC_ALL -u LC_CTYPE -u LANG -u NO_COLOR TERM=xterm-256color COLORTERM=truecolor %s %s %s; echo EXIT=$?; sleep 600",
		env, bin, strings.Join(args, " "))
	tt.tmux("-f", "/dev/null", "new-session", "-d", "-s", "main", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), cmd)
	t.Cleanup(func() { _ = exec.Command("tmux", "-L", tt.socket, "kill-server").Run() })
	return tt
}

// TestTmuxTooSmallSuggestsSizes: the default 19x19 board in an 80x24
// terminal exits with status 2 naming the boards that fit there.
func TestTmuxTooSmallSuggestsSizes(t *testing.T) {
	tt := startTmuxEnv(t, 80, 24, "LANG=C.UTF-8", "-lang", "en")
	s := tt.waitFor("terminal too small (need 80x26, have 80x24)",
		"This terminal fits -size 13 (68x20) or -size 9 (60x16).", "EXIT=2")
	t.Logf("too small:\n%s", strings.TrimRight(s, "\n"))
}

// TestTmuxHelpAtMinimum: at 9x9's 60x16 the help shows whole (its compact
// table) and the status bar stays on the last two lines.
func TestTmuxHelpAtMinimum(t *testing.T) {
	tt := startTmuxEnv(t, 60, 16, "LANG=C.UTF-8", "-size", "9", "-lang", "en")
	tt.waitFor("Black to play")
	tt.keys("?")
	s := tt.waitFor("Keys", "q Esc         quit · scoring: play on · evolution: skip", "close help")
	t.Logf("help:\n%s", s)
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) != 16 || !strings.Contains(lines[14], "Black to play │ cursor E5") || !strings.Contains(lines[15], "?/Esc close help") {
		t.Fatalf("the status bar is not on the last two lines:\n%s", s)
	}
	if !strings.HasPrefix(lines[0], "╭") || !strings.HasPrefix(lines[13], "╰") {
		t.Fatalf("the help box is not the panels' 14 rows:\n%s", s)
	}
	tt.keys("?")
	tt.waitFor("Enter play")
	tt.keys("q")
	tt.waitFor("EXIT=0")
}

// TestTmuxNoColor: with NO_COLOR the terminal gets no colour at all, and
// still tells the stones apart (● ○) and shows the cursor ([ ]).
func TestTmuxNoColor(t *testing.T) {
	tt := startTmuxEnv(t, 60, 16, "LANG=C.UTF-8 NO_COLOR=1", "-size", "9", "-lang", "en")
	tt.waitFor("Black to play", "[╋]")
	tt.keys("Enter")
	tt.waitFor("White to play", "[●]")
	tt.keys("l", "Enter")
	s := tt.waitFor("Black to play", "2 ○ F5", "●[○]")
	t.Logf("no colour:\n%s", s)
	styled := tt.tmux("capture-pane", "-p", "-e", "-t", "main")
	if m := regexp.MustCompile(`\x1b\[[0-9;]*[34]8;[25];`).FindString(styled); m != "" {
		t.Fatalf("a colour reached the terminal: %q", m)
	}
	tt.keys("q")
	tt.waitFor("EXIT=0")
}

// TestTmuxASCII: in the C locale the terminal gets only ASCII (the
// board as . + X O, in English though -lang zh asked for Chinese).
func TestTmuxASCII(t *testing.T) {
	tt := startTmuxEnv(t, 60, 16, "LANG=C", "-size", "9", "-lang", "zh")
	tt.waitFor("Weiqi 9x9 - hot-seat", "X Black to play | cursor E5")
	tt.keys("Enter")
	s := tt.waitFor("O White to play", ". . . .(X). . . .", "1 X E5")
	t.Logf("ASCII:\n%s", s)
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			t.Fatalf("byte %#x at %d on the screen:\n%s", s[i], i, s)
		}
	}
	tt.keys("q")
	tt.waitFor("EXIT=0")
}
