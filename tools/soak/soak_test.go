package soak

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/protocol"
)

// viewState wraps a view's JSON in a state as a spectator receives it.
func viewState(t *testing.T, view any) *protocol.State {
	t.Helper()
	g, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}
	return &protocol.State{Type: "state", G: g}
}

// TestLeakCheckerPassesSpectatorViews plays 150 bot moves of every game
// and checks the spectator's view at every step: the checker must find
// nothing in what the rules show a spectator. A seated player's own view
// of a game with private hands must be flagged (it holds a players entry).
func TestLeakCheckerPassesSpectatorViews(t *testing.T) {
	for _, name := range all.Registry().Names() {
		g, _ := all.Registry().Get(name)
		c := newLeakChecker(name)
		st, err := g.Setup(seatsOf(name), setupOf(name), 7)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(7, 7))
		for step := 0; step < 150 && st.Status().Outcome == nil; step++ {
			if err := c.check(viewState(t, st.View(games.Spectator))); err != nil {
				t.Fatalf("%s step %d: the spectator's own view flagged: %v", name, step, err)
			}
			if name == "gongzhu" || name == "threemonks" {
				if c.check(viewState(t, st.View(0))) == nil {
					t.Fatalf("%s step %d: seat 0's private view passed as a spectator's", name, step)
				}
			}
			seat := mover(st.Status())
			move, args, err := st.Bot("easy", seat, rng)
			if err != nil {
				t.Fatalf("%s step %d: bot for seat %d: %v", name, step, seat, err)
			}
			if st, err = st.Apply(seat, move, args); err != nil {
				t.Fatalf("%s: bot move %s %s refused: %v", name, move, args, err)
			}
		}
	}
}

// mover is a seat that may move in s: the current one, else the lowest
// active one.
func mover(s games.Status) int {
	if s.Current >= 0 {
		return s.Current
	}
	seat := -1
	for a := range s.Active {
		if seat < 0 || a < seat {
			seat = a
		}
	}
	return seat
}

// TestLeakCheckerFindsSecrets: each kind of leak is flagged.
func TestLeakCheckerFindsSecrets(t *testing.T) {
	cases := []struct {
		game string
		st   protocol.State
		want string
	}{
		{"gongzhu", protocol.State{G: json.RawMessage(`{"round":1,"players":{"2":{"hand":["QS"]}}}`)}, "hand"},
		{"gongzhu", protocol.State{G: json.RawMessage(`{"round":1,"players":{"2":{}}}`)}, "players"},
		{"gongzhu", protocol.State{G: json.RawMessage(`{"trick":{"plays":[{"hands":[]}]}}`)}, "hands"},
		{"gongzhu", protocol.State{G: json.RawMessage(`{"trick":{"plays":[{"seat":0,"card":"2C"}]},"tricks":[],"pointCards":[["QS"],[],[],[]]}`)}, "QS"},
		{"gongzhu", protocol.State{G: json.RawMessage(`{"trick":{"plays":[]},"scoreboard":{"note":"AH"}}`)}, "AH"},
		{"carcassonne", protocol.State{G: json.RawMessage(`{"tilesLeft":3,"deck":["a","b"]}`)}, "deck"},
		{"gomoku", protocol.State{G: json.RawMessage(`{"secret":{"seed":1}}`)}, "secret"},
		{"gomoku", protocol.State{G: json.RawMessage(`{}`), You: "0"}, "seat"},
		{"threemonks", protocol.State{G: json.RawMessage(`{}`), Log: []protocol.LogEntry{
			{Turn: 1, PlayerID: "1", Move: "choose", Args: json.RawMessage(`["drink"]`)}}}, "choose"},
	}
	for _, tc := range cases {
		err := newLeakChecker(tc.game).check(&tc.st)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s %s: got %v, want a leak naming %q", tc.game, tc.st.G, err, tc.want)
		}
	}
	fine := protocol.State{G: json.RawMessage(`{"players":{}}`), Log: []protocol.LogEntry{
		{Turn: 1, PlayerID: "1", Move: "choose"}, {Turn: 1, PlayerID: "2", Move: "choose", Args: json.RawMessage(`[]`)}}}
	if err := newLeakChecker("threemonks").check(&fine); err != nil {
		t.Errorf("an empty players map and argument-less secret moves flagged: %v", err)
	}
	public := protocol.State{G: json.RawMessage(`{"trick":{"plays":[]},"tricks":[{"plays":[{"seat":1,"card":"QS"}]}],"pointCards":[[],["QS"]],"lastRound":{"taken":[["AH"]]}}`),
		Log: []protocol.LogEntry{{Move: "play", Args: json.RawMessage(`["QS"]`)}}}
	if err := newLeakChecker("gongzhu").check(&public); err != nil {
		t.Errorf("played cards, a finished round and a public move's arguments flagged: %v", err)
	}
}

// entries makes log entries named by moves, turn i+1 each.
func entries(moves ...string) []protocol.LogEntry {
	out := make([]protocol.LogEntry, len(moves))
	for i, m := range moves {
		out[i] = protocol.LogEntry{Turn: i + 1, Move: m}
	}
	return out
}

func TestNewEntries(t *testing.T) {
	abc := entries("a", "b", "c")
	cases := []struct {
		prev, cur []protocol.LogEntry
		want      int
	}{
		{nil, abc, 3},
		{abc, abc, 0},
		{abc[:1], abc, 2},
		{abc, abc[1:], 0}, // the window slid, nothing new
		{abc[:2], append(abc[1:], entries("d")...), 2}, // slid by one, c and d new
		{entries("x", "y"), abc, 3},                    // no overlap (a long gap)
	}
	for i, tc := range cases {
		if got := newEntries(tc.prev, tc.cur); got != tc.want {
			t.Errorf("case %d: %d new entries, want %d", i, got, tc.want)
		}
	}
}

// samples makes an RSS series of process A with these MB values.
func samples(mbs ...int) []RSSSample {
	out := make([]RSSSample, len(mbs))
	for i, m := range mbs {
		out[i] = RSSSample{At: time.Duration(i) * time.Second, Proc: "A", PID: 1, KB: m << 10}
	}
	return out
}

func TestVerdict(t *testing.T) {
	cases := []struct {
		s    []RSSSample
		want string
	}{
		{samples(20, 30, 40), "too short"},
		{samples(20, 30, 40, 40, 41, 40, 42, 41), "flat"},
		{samples(20, 30, 40, 60, 80, 100, 120, 140), "growing"},
		{samples(100, 100, 100, 100, 110, 110, 115, 115), "flat"}, // +15% is within bounds
	}
	for _, tc := range cases {
		if got := verdict(tc.s); !strings.HasPrefix(got, tc.want) {
			t.Errorf("verdict of %v: %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestParseVmRSS(t *testing.T) {
	status := "Name:\tchaguan\nVmPeak:\t  900 kB\nVmRSS:\t   34512 kB\nThreads: 9\n"
	if kb, err := parseVmRSS(bufio.NewScanner(strings.NewReader(status))); err != nil || kb != 34512 {
		t.Errorf("got %d, %v; want 34512", kb, err)
	}
	if _, err := parseVmRSS(bufio.NewScanner(strings.NewReader("Name: x\n"))); err == nil {
		t.Error("a status without VmRSS gave no error")
	}
	if _, err := rssKB(0); err == nil {
		t.Error("no process gave no error")
	}
}

func TestClassify(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("dial: %w", &client.APIError{Status: 503, Code: protocol.CodeUnavailable}), protocol.CodeUnavailable},
		{&client.APIError{Status: 502}, "http_502"},
		{fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED), codeRefused},
		{&websocket.CloseError{Code: websocket.CloseGoingAway}, codeDropped},
		{io.ErrUnexpectedEOF, codeDropped},
		{&client.MoveError{Code: protocol.CodeInternal}, protocol.CodeInternal},
		{fmt.Errorf("something else"), codeOther},
	}
	for _, tc := range cases {
		if got := classify(tc.err); got != tc.want {
			t.Errorf("classify(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestWhere checks that an error told with its process and times keeps
// its class, and that a nil error stays nil.
func TestWhere(t *testing.T) {
	w := &watcher{s: &soaker{start: time.Now().Add(-12 * time.Second)}}
	p := &proc{name: "B"}
	err := error(fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED))
	w.where(p, 11*time.Second, &err)
	if got := classify(err); got != codeRefused {
		t.Errorf("classify(%v) = %q, want %q", err, got, codeRefused)
	}
	// "to 12s", or later on a slow machine.
	if msg := err.Error(); !strings.HasPrefix(msg, "B, from 11s to 1") || !strings.Contains(msg, "s: dial tcp: ") {
		t.Errorf("error %q does not begin with the process and the times", err)
	}
	var none error
	w.where(p, time.Second, &none)
	if none != nil {
		t.Errorf("a nil error became %v", none)
	}
}

func TestReportJudgement(t *testing.T) {
	r := &Report{
		Errors: map[string]int{codeRefused: 3, codeDropped: 2, protocol.CodeUnavailable: 1, protocol.CodeInternal: 1},
		Restarts: []Restart{
			{Signal: "SIGTERM", Exit: exitClean},
			{Signal: "SIGKILL", Exit: exitKilled},
			{Signal: "SIGTERM", Exit: "exit status 1"},
			{Signal: "SIGKILL", Exit: exitKilled, StartErr: "never answered"},
		},
	}
	if got := r.Unexpected(); len(got) != 1 || got[protocol.CodeInternal] != 1 {
		t.Errorf("unexpected errors %v, want only internal", got)
	}
	if got := r.UncleanRestarts(); len(got) != 2 || got[0].Exit != "exit status 1" || got[1].StartErr == "" {
		t.Errorf("unclean restarts %+v, want the failed SIGTERM exit and the failed start", got)
	}
	if describeExit(syscall.SIGTERM, nil) != exitClean || describeExit(syscall.SIGKILL, fmt.Errorf("signal: killed")) != exitKilled {
		t.Error("describeExit misnames a clean exit or a kill")
	}
}

func TestParseFlags(t *testing.T) {
	if _, err := parseFlags([]string{"-duration", "1m"}, io.Discard); err == nil {
		t.Error("no -server accepted")
	}
	if _, err := parseFlags([]string{"-server", "x", "-addrs", "10.0.0.1:1,127.0.0.1:2"}, io.Discard); err == nil {
		t.Error("a non-loopback address accepted")
	}
	if _, err := parseFlags([]string{"-server", "x", "-duration", "2h"}, io.Discard); err == nil {
		t.Error("a 2 h soak accepted")
	}
	c, err := parseFlags([]string{"-server", "x", "-games", "gomoku,weiqi"}, io.Discard)
	if err != nil || len(c.Games) != 2 || c.Addrs[1] != "127.0.0.1:18782" {
		t.Errorf("good flags: %+v, %v", c, err)
	}
	if err := (Config{Launch: serverLauncher(c, io.Discard), Addrs: c.Addrs, Games: []string{"chess"}}).withDefaults().check(); err == nil {
		t.Error("an unknown game accepted")
	}
}
