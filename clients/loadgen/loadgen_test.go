package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/clients/client"
)

func TestParseFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantErr string // substring; "" for success
	}{
		{name: "defaults", args: nil},
		{name: "localhost", args: []string{"-url", "http://localhost:8093", "-matches", "1000", "-idle", "2000"}},
		{name: "ipv6 loopback", args: []string{"-url", "http://[::1]:8093"}},
		{name: "remote refused", args: []string{"-url", "http://example.com:80"}, wantErr: "not a loopback"},
		{name: "remote allowed", args: []string{"-url", "http://example.com:80", "-allow-remote"}},
		{name: "no scheme", args: []string{"-url", "127.0.0.1:8080"}, wantErr: "-url"},
		{name: "zero matches", args: []string{"-matches", "0"}, wantErr: "-matches"},
		{name: "too many matches", args: []string{"-matches", "5001"}, wantErr: "-matches"},
		{name: "negative idle", args: []string{"-idle", "-1"}, wantErr: "-idle"},
		{name: "too long", args: []string{"-duration", "11m"}, wantErr: "-duration"},
		{name: "too short", args: []string{"-duration", "1ms"}, wantErr: "-duration"},
		{name: "no pacing", args: []string{"-seat-rate", "0", "-seat-burst", "0"}},
		{name: "negative rate", args: []string{"-seat-rate", "-1"}, wantErr: "-seat-rate"},
		{name: "rate without burst", args: []string{"-seat-rate", "5", "-seat-burst", "0"}, wantErr: "-seat-rate"},
		{name: "total rate", args: []string{"-rate", "1000", "-seat-rate", "0"}},
		{name: "negative total rate", args: []string{"-rate", "-5"}, wantErr: "-rate"},
		{name: "stray argument", args: []string{"extra"}, wantErr: "unexpected"},
		{name: "full client", args: []string{"-client", "full"}},
		{name: "lean client", args: []string{"-client", "lean"}},
		{name: "unknown client", args: []string{"-client", "fast"}, wantErr: "-client"},
		{name: "gongzhu", args: []string{"-game", "gongzhu"}},
		{name: "gomoku full", args: []string{"-game", "gomoku", "-client", "full"}},
		{name: "unknown game", args: []string{"-game", "chess"}, wantErr: "-game"},
		{name: "gongzhu full", args: []string{"-game", "gongzhu", "-client", "full"}, wantErr: "-client lean only"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseFlags(tc.args, io.Discard)
			if tc.wantErr == "" && err != nil {
				t.Fatalf("parseFlags(%q): %v", tc.args, err)
			}
			if tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("parseFlags(%q) = %v, want an error with %q", tc.args, err, tc.wantErr)
			}
		})
	}
}

func TestSummarize(t *testing.T) {
	d := make([]time.Duration, 0, 100)
	for i := 100; i >= 1; i-- { // reversed: summarize must sort
		d = append(d, time.Duration(i)*time.Millisecond)
	}
	got := summarize(d)
	want := latency{Count: 100, P50: 50, P90: 90, P99: 99, Max: 100}
	if got != want {
		t.Fatalf("summarize(1..100 ms) = %+v, want %+v", got, want)
	}
	if got := summarize(nil); got != (latency{}) {
		t.Fatalf("summarize(nil) = %+v", got)
	}
	if got := summarize([]time.Duration{1500 * time.Microsecond}); got.P50 != 1.5 || got.P99 != 1.5 {
		t.Fatalf("one sample: %+v", got)
	}
}

func TestFirstEmpty(t *testing.T) {
	full := strings.Repeat("B", 15)
	tests := []struct {
		name   string
		g      string
		seat   int
		x, y   int
		wantOK bool
	}{
		{"empty board", `{"board":["...............","..............."]}`, 0, 0, 0, true},
		{"empty board, seat 1", `{"board":["...............","..............."]}`, 1, 1, 0, true},
		// Row 1 gives seat 0 its even points and seat 1 its odd ones.
		{"second row", fmt.Sprintf(`{"board":[%q,"BW.W.."]}`, full), 0, 2, 1, true},
		{"second row, seat 1", fmt.Sprintf(`{"board":[%q,"BW.W.."]}`, full), 1, 5, 1, true},
		{"only the other seat's point", fmt.Sprintf(`{"board":[%q,"BW.W"]}`, full), 1, 0, 0, false},
		{"full", fmt.Sprintf(`{"board":[%q]}`, full), 0, 0, 0, false},
		{"not JSON", `nope`, 0, 0, 0, false},
		{"no board", `{}`, 0, 0, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x, y, ok := firstEmpty(json.RawMessage(tc.g), tc.seat)
			if ok != tc.wantOK || (ok && (x != tc.x || y != tc.y)) {
				t.Fatalf("firstEmpty = (%d,%d,%v), want (%d,%d,%v)", x, y, ok, tc.x, tc.y, tc.wantOK)
			}
		})
	}
}

// TestOwnerDraws: the pattern gives seat 0 113 points and seat 1 112, and
// no line of three points in any direction has one owner, so a match
// played by it ends only when the board is full, in a draw.
func TestOwnerDraws(t *testing.T) {
	const n = 15
	count := [2]int{}
	for y := range n {
		for x := range n {
			count[owner(x, y)]++
			for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
				x2, y2 := x+2*d[0], y+2*d[1]
				if x2 < 0 || x2 >= n || y2 < 0 || y2 >= n {
					continue
				}
				if o := owner(x, y); owner(x+d[0], y+d[1]) == o && owner(x2, y2) == o {
					t.Fatalf("seat %d owns three in a row from (%d,%d) along %v", o, x, y, d)
				}
			}
		}
	}
	if count != [2]int{113, 112} {
		t.Fatalf("points per seat %v, want [113 112]", count)
	}
}

func TestParseMetrics(t *testing.T) {
	text := `# HELP go_goroutines Number of goroutines.
# TYPE go_goroutines gauge
go_goroutines 42
go_memstats_heap_inuse_bytes 1.2e+07
go_gc_duration_seconds{quantile="0.5"} 0.001
process_resident_memory_bytes 3.3554432e+07
`
	got, err := parseMetrics(strings.NewReader(text), memMetrics)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"go_goroutines": 42, "go_memstats_heap_inuse_bytes": 12e6, "process_resident_memory_bytes": 33554432}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("parseMetrics = %v, want %v", got, want)
	}
	if _, err := parseMetrics(strings.NewReader("other_metric 1\n"), memMetrics); err == nil {
		t.Fatal("metrics without any wanted gauge accepted")
	}
}

func TestErrKind(t *testing.T) {
	tests := []struct {
		name, stage string
		err         error
		want        string
	}{
		{"refused move", "move", &client.MoveError{Code: "not_your_turn"}, "not_your_turn"},
		{"refused hello", "dial", fmt.Errorf("hello: %w", &client.MoveError{Code: "unauthorized"}), "dial/unauthorized"},
		{"lobby code", "join", &client.APIError{Status: 409, Code: "conflict"}, "join/conflict"},
		{"lobby status", "create", &client.APIError{Status: 502}, "create/http_502"},
		{"timeout", "move", context.DeadlineExceeded, "move/timeout"},
		{"closed", "move", client.ErrClosed, "move/closed"},
		{"other", "dial", errors.New("connection refused"), "dial/transport"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := errKind(tc.stage, tc.err); got != tc.want {
				t.Fatalf("errKind = %q, want %q", got, tc.want)
			}
		})
	}
}
