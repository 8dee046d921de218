package main

import (
	"context"
	"errors"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms/redistest"
)

// startServer serves cfg on a loopback listener for the test's life.
func startServer(t *testing.T, cfg config) (string, *server) {
	t.Helper()
	var store *recordStore
	if cfg.Redis != "" {
		var err error
		if store, err = newRecordStore(context.Background(), cfg.Redis, cfg.Record, cfg.Workers); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { store.rdb.Close() })
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	s := newServer(cfg, store)
	if cfg.WS {
		go http.Serve(ln, s)
	} else {
		go s.serveRaw(ln)
	}
	return ln.Addr().String(), s
}

func testConfig(t *testing.T, args ...string) config {
	t.Helper()
	cfg, err := parseFlags(append([]string{"-matches", "3", "-duration", "300ms"}, args...), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	cfg.warmUp = 100 * time.Millisecond
	return cfg
}

// TestRun plays a short run each way and checks that the moves the seats
// saw are the moves the server accepted (no move is lost or out of turn:
// a move out of turn would end its match and the run).
func TestRun(t *testing.T) {
	redisURL := redistest.URL(t)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"raw", nil},
		{"ws", []string{"-ws"}},
		{"ws+redis", []string{"-ws", "-redis", redisURL}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(t, tc.args...)
			addr, s := startServer(t, cfg)
			marks := 0
			r, err := runClient(context.Background(), cfg, addr, func() cpuMark {
				marks++
				return cpuMark{server: float64(marks), client: float64(2 * marks)}
			})
			if err != nil {
				t.Fatal(err)
			}
			if r.Moves <= 0 || r.MovesPerSecond <= 0 {
				t.Fatalf("no moves: %+v", r)
			}
			// One second of "server CPU" between the marks, spread over the moves.
			near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*b }
			if want := 1e6 / float64(r.Moves); !near(r.ServerPerMoveUs, want) || !near(r.ClientPerMoveUs, 2*want) {
				t.Errorf("per-move CPU %v / %v, want %v / %v", r.ServerPerMoveUs, r.ClientPerMoveUs, want, 2*want)
			}
			if got := s.moves.Load(); got < r.Moves {
				t.Errorf("server accepted %d moves, seats counted %d in the window alone", got, r.Moves)
			}
		})
	}
}

// TestOutOfTurn: a move by the seat whose turn it is not ends the match.
func TestOutOfTurn(t *testing.T) {
	cfg := testConfig(t)
	addr, s := startServer(t, cfg)
	var seats [2]msgConn
	for i := range seats {
		c, err := dial(context.Background(), false, addr, 7, i)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		seats[i] = c
	}
	if err := seats[1].write([]byte("m")); err != nil {
		t.Fatal(err)
	}
	if _, err := seats[0].read(nil); !errors.Is(err, io.EOF) {
		t.Fatalf("seat 0 read %v after seat 1 moved first, want the match closed (EOF)", err)
	}
	if n := s.moves.Load(); n != 0 {
		t.Fatalf("%d moves accepted", n)
	}
}

// TestRecordStoreConflicts: the compare-and-set refuses a stale stateID.
func TestRecordStoreConflicts(t *testing.T) {
	st, err := newRecordStore(context.Background(), redistest.URL(t), 100, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer st.rdb.Close()
	key := "floortest:{" + t.Name() + time.Now().Format(time.RFC3339Nano) + "}"
	defer st.rdb.Del(context.Background(), key)
	if err := st.update(key, 0); err != nil {
		t.Fatal(err)
	}
	if err := st.update(key, 0); err == nil || !strings.Contains(err.Error(), "conflict") {
		t.Fatalf("second write from stateID 0: %v, want a conflict", err)
	}
	if err := st.update(key, 1); err != nil {
		t.Fatalf("write from the current stateID: %v", err)
	}
}

func TestFlags(t *testing.T) {
	for _, args := range [][]string{
		{"-matches", "0"}, {"-matches", "5001"}, {"-duration", "0s"}, {"-duration", "1h"},
		{"-frame", "0"}, {"-record", "0"}, {"-workers", "0"}, {"-serve", "10.0.0.1:80"}, {"-serve", "nohost"},
	} {
		if _, err := parseFlags(args, io.Discard); err == nil {
			t.Errorf("parseFlags(%q) accepted", args)
		}
	}
}
