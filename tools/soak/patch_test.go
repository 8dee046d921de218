package soak

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// testSoaker is a soaker whose two process slots both name srv, with no
// process of its own to start: enough to run watchers.
func testSoaker(url string, cfg Config) *soaker {
	cfg = cfg.withDefaults()
	s := &soaker{cfg: cfg, rec: newRecorder(cfg.Games), start: time.Now()}
	addr := strings.TrimPrefix(url, "http://")
	for i, name := range []string{"A", "B"} {
		s.procs[i] = &proc{name: name, addr: addr}
	}
	return s
}

// TestWatchPatches watches a bot match of every game with a patch
// spectator against a real server: every patch's view is checked, the
// view is compared with a sync's answer every 7 states, and none differs.
func TestWatchPatches(t *testing.T) {
	// A sync every 7 states of bots 2 ms apart is faster than the default
	// 20 messages a second a connection may send, once a loaded machine
	// bunches the states; the limit is not what this test is about.
	srv := servertest.Start(t, servertest.Options{WS: server.WSConfig{Rate: 1000, Burst: 100}})
	games := all.Registry().Names()
	s := testSoaker(srv.URL, Config{Games: games, Patches: true, SyncEvery: 7, BotDelay: 2 * time.Millisecond,
		Rounds: 1, MatchLimit: 4 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, game := range games {
		w := &watcher{s: s, game: game, checker: newLeakChecker(game)}
		id, err := w.create(ctx)
		if err != nil {
			t.Fatalf("%s: create: %v", game, err)
		}
		w.watch(ctx, &matchWatch{id: id, started: time.Now()})
	}
	rep := s.rec.report(time.Since(s.start), s.cfg)
	var text strings.Builder
	rep.WriteText(&text)
	t.Logf("report:\n%s", text.String())
	for _, game := range games {
		g := rep.Games[game]
		if g.Patches == 0 || g.Compares == 0 || g.Moves == 0 {
			t.Errorf("%s: %d patches, %d comparisons, %d moves: the patches were not exercised", game, g.Patches, g.Compares, g.Moves)
		}
		if g.Checks != g.States || g.States < g.Patches {
			t.Errorf("%s: %d checks of %d states (%d patches): every view must be checked", game, g.Checks, g.States, g.Patches)
		}
		if g.Finished+g.Retired != 1 {
			t.Errorf("%s: the match neither ended nor was retired: %+v", game, g)
		}
	}
	if rep.LeakCount() != 0 || rep.MismatchCount() != 0 || len(rep.Errors) != 0 {
		t.Fatalf("leaks %v, mismatches %v, errors %v", rep.Leaks, rep.Mismatches, rep.Errors)
	}
	if !strings.Contains(text.String(), "compared with a sync's answer every 7 states") {
		t.Error("the text report has no patches table")
	}
}

// feedFor is a feed of a Gong Zhu spectator with patches, comparing every
// two states, whose sent frames are collected.
func feedFor(t *testing.T) (*feed, *[]string) {
	s := testSoaker("http://127.0.0.1:1", Config{Games: []string{"gongzhu"}, Patches: true, SyncEvery: 2})
	w := &watcher{s: s, game: "gongzhu", checker: newLeakChecker("gongzhu")}
	var sent []string
	f := &feed{w: w, m: &matchWatch{id: "m1", started: time.Now()}, send: func(b []byte) error {
		sent = append(sent, string(b))
		return nil
	}}
	return f, &sent
}

const (
	specState = `{"type":"state","matchID":"m1","stateID":3,"G":{"round":1,"players":{},"trick":{"plays":[]},"tricks":[]},` +
		`"ctx":{"currentPlayer":"0","started":true,"gameover":null},"players":[],"log":[],"you":""}`
	playPatch = `{"type":"patch","stateID":4,"base":3,"ops":[{"op":"add","path":"/G/trick/plays/-","value":{"seat":0,"card":"2C"}},` +
		`{"op":"add","path":"/log/-","value":{"turn":1,"playerID":"0","move":"play","args":["2C"]}}]}`
	playPatch2 = `{"type":"patch","stateID":5,"base":4,"ops":[{"op":"add","path":"/G/trick/plays/-","value":{"seat":1,"card":"3C"}}]}`
)

// TestFeedCompares: a sync is sent every SyncEvery states; an answer equal
// to the view held passes, one that differs is a mismatch.
func TestFeedCompares(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		mismatch     bool
	}{
		{"equal", `{"type":"state","matchID":"m1","stateID":5,"G":{"round":1,"players":{},"trick":{"plays":[{"seat":0,"card":"2C"},{"seat":1,"card":"3C"}]},"tricks":[]},` +
			`"ctx":{"currentPlayer":"0","started":true,"gameover":null},"players":[],"log":[{"turn":1,"playerID":"0","move":"play","args":["2C"]}],"you":""}`, false},
		{"a card missing", `{"type":"state","matchID":"m1","stateID":5,"G":{"round":1,"players":{},"trick":{"plays":[{"seat":0,"card":"2C"}]},"tricks":[]},` +
			`"ctx":{"currentPlayer":"0","started":true,"gameover":null},"players":[],"log":[{"turn":1,"playerID":"0","move":"play","args":["2C"]}],"you":""}`, true},
		{"members in another order", `{"type":"state","matchID":"m1","stateID":5,"G":{"players":{},"round":1,"trick":{"plays":[{"seat":0,"card":"2C"},{"seat":1,"card":"3C"}]},"tricks":[]},` +
			`"ctx":{"currentPlayer":"0","started":true,"gameover":null},"players":[],"log":[{"turn":1,"playerID":"0","move":"play","args":["2C"]}],"you":""}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, sent := feedFor(t)
			for _, fr := range []string{specState, playPatch, playPatch2} {
				if err := f.frame([]byte(fr)); err != nil {
					t.Fatal(err)
				}
			}
			if len(*sent) != 1 || (*sent)[0] != `{"type":"sync"}` || !f.comparing {
				t.Fatalf("after two patches: sent %q, comparing %v; want one sync", *sent, f.comparing)
			}
			if err := f.frame([]byte(tc.answer)); err != nil {
				t.Fatal(err)
			}
			rep := f.w.s.rec.report(time.Second, f.w.s.cfg)
			g := rep.Games["gongzhu"]
			if g.Compares != 1 || (g.Mismatches == 1) != tc.mismatch || (len(rep.Mismatches) == 1) != tc.mismatch {
				t.Fatalf("compares %d, mismatches %d %q; want a mismatch: %v", g.Compares, g.Mismatches, rep.Mismatches, tc.mismatch)
			}
			if g.Patches != 2 || g.States != 4 || g.Checks != 4 || g.Leaks != 0 || g.Moves != 1 {
				t.Fatalf("stats %+v", g)
			}
		})
	}
}

// TestFeedGapAndLeaks: a patch that does not apply is counted, answered
// with a sync, and the patches after it are skipped until the state; a
// patch that shows a secret (an operation naming a hand, a card not
// played) is a leak.
func TestFeedGapAndLeaks(t *testing.T) {
	f, sent := feedFor(t)
	f.frame([]byte(specState))
	f.frame([]byte(playPatch2)) // base 4, the view is at 3
	f.frame([]byte(playPatch))  // would apply, but a sync is awaited
	g := f.w.s.rec.report(time.Second, f.w.s.cfg).Games["gongzhu"]
	if g.Gaps != 1 || g.Patches != 0 || len(*sent) != 1 || !f.resyncing {
		t.Fatalf("after a gap: %+v, sent %q", g, *sent)
	}
	f.frame([]byte(specState))
	if f.resyncing {
		t.Fatal("still resyncing after the state")
	}
	for _, leak := range []string{
		`{"type":"patch","stateID":4,"base":3,"ops":[{"op":"add","path":"/G/players/2","value":{"hand":["QS"]}}]}`,
		`{"type":"patch","stateID":4,"base":3,"ops":[{"op":"add","path":"/G/hand","value":1},{"op":"remove","path":"/G/hand"}]}`,
		`{"type":"patch","stateID":4,"base":3,"ops":[{"op":"add","path":"/G/pointCards","value":[["QS"]]}]}`,
	} {
		f.frame([]byte(specState))
		before := f.w.s.rec.report(time.Second, f.w.s.cfg).Games["gongzhu"].Leaks
		if err := f.frame([]byte(leak)); err != nil {
			t.Fatal(err)
		}
		if after := f.w.s.rec.report(time.Second, f.w.s.cfg).Games["gongzhu"].Leaks; after != before+1 {
			t.Errorf("%s: leaks %d -> %d, want one more", leak, before, after)
		}
	}
	rep := f.w.s.rec.report(time.Second, f.w.s.cfg)
	if rep.MismatchCount() != 1 || len(rep.Mismatches) != 1 || !strings.Contains(rep.Mismatches[0], "does not apply") {
		t.Fatalf("mismatches %d %q, want the gap", rep.MismatchCount(), rep.Mismatches)
	}
}

// TestParsePatchFlags: -patches and -sync-every reach the Config; a
// negative -sync-every is refused.
func TestParsePatchFlags(t *testing.T) {
	c, err := parseFlags([]string{"-server", "x", "-patches", "-sync-every", "9"}, nil)
	if err != nil || !c.Patches || c.SyncEvery != 9 {
		t.Fatalf("%+v, %v", c.Config, err)
	}
	if _, err := parseFlags([]string{"-server", "x", "-sync-every", "-1"}, nil); err == nil {
		t.Fatal("-sync-every -1 accepted")
	}
}
