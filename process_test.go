package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// childAddrEnv, when set, makes the test binary a Chaguan server process
// (the real run loop) on that address instead of running tests: the tests
// below start two such processes on one Redis.
const (
	childAddrEnv  = "CHAGUAN_TEST_CHILD_ADDR"
	childRedisEnv = "CHAGUAN_TEST_CHILD_REDIS"
	childGraceEnv = "CHAGUAN_TEST_CHILD_GRACE"
)

func TestMain(m *testing.M) {
	if addr := os.Getenv(childAddrEnv); addr != "" {
		grace, err := time.ParseDuration(os.Getenv(childGraceEnv))
		if err != nil {
			grace = time.Minute
		}
		err = run(config{addr: addr, redisURL: os.Getenv(childRedisEnv), logLevel: "warn",
			grace: grace, botDelay: time.Millisecond, ttl: time.Hour, wsRate: 1000, wsBurst: 1000})
		if err != nil {
			fmt.Fprintln(os.Stderr, "child server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startProcess starts a server process on redisURL and returns its base
// URL. At the end of the test it is sent SIGTERM and must drain and exit 0.
func startProcess(t *testing.T, redisURL string) string {
	base, _ := startProcessGrace(t, redisURL, time.Minute)
	return base
}

// startProcessGrace is startProcess with the server's default grace
// period; kill ends the process at once with SIGKILL, as a crash would
// (the end-of-test check then only reaps it).
func startProcessGrace(t *testing.T, redisURL string, grace time.Duration) (base string, kill func()) {
	t.Helper()
	addr := freeAddr(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childAddrEnv+"="+addr, childRedisEnv+"="+redisURL, childGraceEnv+"="+grace.String())
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var killed bool
	kill = func() {
		killed = true
		cmd.Process.Kill()
		<-exited
		exited <- nil
	}
	t.Cleanup(func() {
		if !killed {
			cmd.Process.Signal(syscall.SIGTERM)
		}
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("server process %d on %s: %v after SIGTERM, want a clean exit", cmd.Process.Pid, addr, err)
			}
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			t.Errorf("server process on %s still running 15 s after SIGTERM", addr)
		}
	})
	base = "http://" + addr
	for deadline := time.Now().Add(15 * time.Second); ; {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return base, kill
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("server process on %s exited before serving: %v", addr, err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("server process on %s never answered /healthz: %v", addr, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// twoProcesses starts two server processes sharing one Redis.
func twoProcesses(t *testing.T) (a, b string) {
	url := redistest.URL(t)
	return startProcess(t, url), startProcess(t, url)
}

// newGomoku creates a Gomoku match on base and seats two players there.
func newGomoku(t *testing.T, ctx context.Context, base string) (id string, black, white *protocol.JoinResponse) {
	t.Helper()
	lobby := client.NewLobby(base, nil)
	id, err := lobby.Create(ctx, "gomoku", protocol.CreateRequest{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	seat0, seat1 := "0", "1"
	if black, err = lobby.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "Black", PlayerID: &seat0}); err != nil {
		t.Fatal(err)
	}
	if white, err = lobby.Join(ctx, "gomoku", id, protocol.JoinRequest{PlayerName: "White", PlayerID: &seat1}); err != nil {
		t.Fatal(err)
	}
	return id, black, white
}

func dialAs(t *testing.T, ctx context.Context, base, id string, seat *protocol.JoinResponse) *client.Conn {
	t.Helper()
	var pid, cred string
	if seat != nil {
		pid, cred = seat.PlayerID, seat.PlayerCredentials
	}
	c, err := client.Dial(ctx, base, "gomoku", id, pid, cred)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// awaitState waits up to 10 s for c's latest state to satisfy ok.
func awaitState(t *testing.T, c *client.Conn, what string, ok func(*protocol.State) bool) *protocol.State {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; {
		if s := c.Latest(); s != nil && ok(s) {
			return s
		}
		if time.Now().After(deadline) {
			t.Fatalf("never saw %s; latest state %d", what, c.Latest().StateID)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func viewIn(t *testing.T, s *protocol.State) gomoku.View {
	t.Helper()
	var v gomoku.View
	if err := json.Unmarshal(s.G, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestTwoProcessesOneRedis runs two real server processes on one Redis:
// black plays through process A, white and a spectator through process
// B; the spectator sees every move at once and black's win. Then, over ten
// rounds, black is connected to both processes and both connections play a
// different first move at the same stateID at the same moment: exactly one
// lands, and both processes then show that one stone.
func TestTwoProcessesOneRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes; skipped with -short")
	}
	a, b := twoProcesses(t)
	ctx := context.Background()

	id, black, white := newGomoku(t, ctx, a)
	pa := dialAs(t, ctx, a, id, black)
	pb := dialAs(t, ctx, b, id, white)
	spec := dialAs(t, ctx, b, id, nil)
	moves := [][2]int{{7, 7}, {0, 0}, {7, 8}, {0, 1}, {7, 9}, {0, 2}, {7, 10}, {0, 3}, {7, 11}}
	for i, mv := range moves {
		p := pa
		if i%2 == 1 {
			p = pb
		}
		acked, err := p.Move(ctx, "place", mv[0], mv[1])
		if err != nil {
			t.Fatalf("move %d %v: %v", i, mv, err)
		}
		seen := awaitState(t, spec, fmt.Sprintf("move %d on the spectator's process", i),
			func(s *protocol.State) bool { return s.StateID >= acked.StateID })
		if v := viewIn(t, seen); len(v.Moves) != i+1 || v.Moves[i] != mv {
			t.Fatalf("spectator on B after move %d: moves %v", i, v.Moves)
		}
	}
	if v := viewIn(t, spec.Latest()); v.Result == nil || v.Result.Winner == nil || *v.Result.Winner != "0" {
		t.Fatalf("spectator on B did not see black win on A: %s", spec.Latest().G)
	}

	for round := range 10 {
		id, black, _ := newGomoku(t, ctx, a)
		ca, cb := dialAs(t, ctx, a, id, black), dialAs(t, ctx, b, id, black)
		sid := ca.Latest().StateID
		if got := cb.Latest().StateID; got != sid {
			t.Fatalf("round %d: the processes start at stateIDs %d and %d", round, sid, got)
		}
		errs := make([]error, 2)
		var start, done sync.WaitGroup
		start.Add(1)
		for i, c := range []*client.Conn{ca, cb} {
			done.Add(1)
			go func() {
				defer done.Done()
				start.Wait()
				_, errs[i] = c.MoveAt(ctx, sid, "place", 3+6*i, 3+6*i)
			}()
		}
		start.Done()
		done.Wait()
		landed := 0
		for i, err := range errs {
			switch {
			case err == nil:
				landed++
			case client.IsCode(err, protocol.CodeStaleState), client.IsCode(err, protocol.CodeNotYourTurn):
			default:
				t.Fatalf("round %d: connection %d: %v", round, i, err)
			}
		}
		if landed != 1 {
			t.Fatalf("round %d: %d of 2 conflicting moves landed (%v)", round, landed, errs)
		}
		for name, base := range map[string]string{"A": a, "B": b} {
			w := dialAs(t, ctx, base, id, nil)
			if v := viewIn(t, w.Latest()); len(v.Moves) != 1 || v.ToMove != "1" {
				t.Fatalf("round %d: process %s shows moves %v, to move %s", round, name, v.Moves, v.ToMove)
			}
			w.Close()
		}
	}
}

// TestCrashedProcess: black plays through process A, white and a
// spectator through process B. A is killed (SIGKILL: no chance to say its
// players left); B finds A gone, shows black away, and once black's grace
// period has run out the bot plays black's turn, which B's spectator sees.
func TestCrashedProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two server processes; skipped with -short")
	}
	url := redistest.URL(t)
	a, killA := startProcessGrace(t, url, time.Second)
	b, _ := startProcessGrace(t, url, time.Second)
	ctx := context.Background()
	id, black, white := newGomoku(t, ctx, a)
	pa := dialAs(t, ctx, a, id, black)
	pb := dialAs(t, ctx, b, id, white)
	spec := dialAs(t, ctx, b, id, nil)
	if _, err := pa.Move(ctx, "place", 7, 7); err != nil {
		t.Fatal(err)
	}
	if _, err := pb.Move(ctx, "place", 0, 0); err != nil {
		t.Fatal(err)
	}
	awaitState(t, spec, "black's turn with black connected", func(s *protocol.State) bool {
		return s.Ctx.Turn == 3 && s.Players[0].IsConnected
	})
	killA()
	st := awaitState(t, spec, "black away on B", func(s *protocol.State) bool { return !s.Players[0].IsConnected })
	if v := viewIn(t, st); len(v.Moves) != 2 {
		t.Fatalf("black shown away after %d moves; the bot must wait out the grace period first", len(v.Moves))
	}
	st = awaitState(t, spec, "the bot's move for black", func(s *protocol.State) bool { return len(viewIn(t, s).Moves) == 3 })
	if v := viewIn(t, st); v.ToMove != "1" {
		t.Fatalf("after the bot's move for black: to move %s", v.ToMove)
	}
}

// TestProcessRefusesBadRedis: a Redis URL that cannot be parsed stops the
// process with a message instead of serving.
func TestProcessRefusesBadRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a server process; skipped with -short")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childAddrEnv+"="+freeAddr(t), childRedisEnv+"=notaurl://x")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "child server:") {
		t.Fatalf("a bad Redis URL: exit %v, output %q; want a failed start with a message", err, out)
	}
}
