package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/tools/soak"
)

// TestSoak runs the soak for 60 s: two server processes (this test binary
// in its child mode, see TestMain) on one Redis, bot-versus-bot matches of
// every game each watched by a spectator on a random process, process B
// restarted every 8-16 s by SIGTERM or SIGKILL. Every game must make moves,
// no spectator state may show hidden information, the only errors may be
// those a restart causes (refused and dropped connections, unavailable),
// and B must have been restarted at least twice, SIGTERM always exiting
// cleanly.
func TestSoak(t *testing.T) {
	if testing.Short() {
		t.Skip("a 60 s soak of two server processes; skipped with -short")
	}
	if _, err := exec.LookPath("redis-server"); err != nil && os.Getenv("REDIS_URL") == "" {
		t.Skip("needs a real Redis: no redis-server on PATH and no REDIS_URL")
	}
	redisURL := redistest.URL(t)
	var progress bytes.Buffer
	serverLog, err := os.Create(t.TempDir() + "/servers.log")
	if err != nil {
		t.Fatal(err)
	}
	defer serverLog.Close()
	launch := func(addr string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childAddrEnv+"="+addr, childRedisEnv+"="+redisURL, childGraceEnv+"=5s")
		cmd.Stdout, cmd.Stderr = serverLog, serverLog
		return cmd
	}
	rep, err := soak.Run(context.Background(), soak.Config{
		Launch: launch, Addrs: [2]string{freeAddr(t), freeAddr(t)},
		Duration: 60 * time.Second, RestartMin: 8 * time.Second, RestartMax: 16 * time.Second,
		KillShare: 0.5, DownMax: time.Second, RSSEvery: 2 * time.Second, Progress: &progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	t.Logf("soak report:\n%s", text.String())
	defer func() {
		if t.Failed() {
			logTail(t, serverLog.Name())
		}
	}()
	checkSoak(t, rep)
}

// checkSoak asserts what a soak must show.
func checkSoak(t *testing.T, rep *soak.Report) {
	t.Helper()
	for game, g := range rep.Games {
		if g.Moves == 0 || g.Checks == 0 {
			t.Errorf("%s: %d moves seen and %d states checked; every game must play", game, g.Moves, g.Checks)
		}
	}
	if n := rep.LeakCount(); n > 0 {
		t.Errorf("%d spectator states showed hidden information: %v", n, rep.Leaks)
	}
	if bad := rep.Unexpected(); len(bad) > 0 {
		t.Errorf("errors a restart does not explain: %v (first messages %v)", bad, rep.ErrorSamples)
	}
	if len(rep.Restarts) < 2 {
		t.Errorf("B restarted %d times in 60 s, want at least 2", len(rep.Restarts))
	}
	if bad := rep.UncleanRestarts(); len(bad) > 0 {
		t.Errorf("restarts that did not end or come back as they should: %+v", bad)
	}
	if len(rep.FinalExits) > 0 {
		t.Errorf("processes that did not exit cleanly on the final SIGTERM: %v", rep.FinalExits)
	}
	if rep.Reconnects() == 0 {
		t.Error("no spectator ever reconnected, though B was restarted")
	}
	if len(rep.RSS) == 0 {
		t.Error("no RSS sample taken")
	}
}

// logTail logs the end of the servers' output.
func logTail(t *testing.T, path string) {
	b, _ := os.ReadFile(path)
	if len(b) > 4<<10 {
		b = b[len(b)-4<<10:]
	}
	t.Logf("servers' output ends:\n%s", b)
}
