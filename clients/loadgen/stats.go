package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chaguan/chaguan/clients/client"
)

// samples collects the latencies of one seat's goroutine; only that
// goroutine appends, and the run reads them after it has exited.
type samples struct {
	ack []time.Duration // send to own ack
	opp []time.Duration // send to the opponent seeing its turn
}

// errorCounts counts failures by protocol code or by a local kind
// ("dial", "create", "join", "timeout", "closed"). Safe for concurrent use.
type errorCounts struct {
	mu sync.Mutex
	n  map[string]int64
}

func (e *errorCounts) add(code string) {
	e.mu.Lock()
	if e.n == nil {
		e.n = map[string]int64{}
	}
	e.n[code]++
	e.mu.Unlock()
}

func (e *errorCounts) snapshot() map[string]int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make(map[string]int64, len(e.n))
	for k, v := range e.n {
		out[k] = v
	}
	return out
}

// latency summarises a set of durations in milliseconds.
type latency struct {
	Count int64   `json:"count"`
	P50   float64 `json:"p50Ms"`
	P90   float64 `json:"p90Ms"`
	P99   float64 `json:"p99Ms"`
	Max   float64 `json:"maxMs"`
}

// summarize sorts d in place and returns its nearest-rank percentiles.
func summarize(d []time.Duration) latency {
	if len(d) == 0 {
		return latency{}
	}
	slices.Sort(d)
	rank := func(p float64) float64 {
		i := int(p*float64(len(d))+0.999999) - 1 // ceil(p*n)-1
		i = max(0, min(i, len(d)-1))
		return ms(d[i])
	}
	return latency{Count: int64(len(d)), P50: rank(0.50), P90: rank(0.90), P99: rank(0.99), Max: ms(d[len(d)-1])}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// report is the run's result, printed as text or JSON.
type report struct {
	URL         string           `json:"url"`
	Game        string           `json:"game"`    // -game
	Client      string           `json:"client"`  // -client: lean or full
	Patches     bool             `json:"patches"` // -patches: the connections asked for patches
	Matches     int              `json:"matches"`
	Seconds     float64          `json:"seconds"`
	SetupMs     float64          `json:"setupMs"` // time to start all matches
	Moves       int64            `json:"moves"`   // accepted moves
	MovesPerSec float64          `json:"movesPerSec"`
	Games       int64            `json:"games"` // matches played to the end
	Ack         latency          `json:"ack"`
	Opponent    latency          `json:"opponent"`
	Errors      map[string]int64 `json:"errors"`
	PerSecond   []int64          `json:"perSecond"` // accepted moves in each second
	Idle        *idleReport      `json:"idle,omitempty"`
	CPU         *cpuReport       `json:"cpu,omitempty"`
	Bytes       *bytesReport     `json:"bytes,omitempty"` // lean client only
}

// bytesReport is the state-frame payload each viewer read per accepted
// move in the measured window (WebSocket framing not counted): every move
// sends each seat and spectator of its match one state, or with patches
// one patch (or a state, when the patch would be no shorter).
type bytesReport struct {
	SeatPerMove      float64 `json:"seatPerMove"`                // mean over the seats
	SpectatorPerMove float64 `json:"spectatorPerMove,omitempty"` // mean over the spectators
	ViewerPerMove    float64 `json:"viewerPerMove"`              // mean over every connection
}

func (r *report) writeText(w io.Writer) {
	if r.Idle != nil {
		r.Idle.writeText(w)
	}
	fmt.Fprintf(w, "ack latency:      %s\n", r.Ack)
	fmt.Fprintf(w, "opponent latency: %s\n", r.Opponent)
	fmt.Fprintf(w, "errors: %s\n", formatErrors(r.Errors))
	if c := r.CPU; c != nil {
		fmt.Fprintf(w, "cpu: server %.2fs (%.0f µs/move), loadgen %.2fs (%.0f µs/move)\n",
			c.ServerSeconds, c.ServerPerMoveUs, c.ClientSeconds, c.ClientPerMoveUs)
	}
	if b := r.Bytes; b != nil {
		what := "state"
		if r.Patches {
			what = "state+patch"
		}
		fmt.Fprintf(w, "%s bytes per viewer per move: %.0f (seat %.0f, spectator %.0f)\n", what, b.ViewerPerMove, b.SeatPerMove, b.SpectatorPerMove)
	}
	fmt.Fprintf(w, "summary: matches=%d seconds=%.1f moves=%d moves/s=%.0f games=%d ack_p50=%.3fms ack_p99=%.3fms opp_p99=%.3fms errors=%d game=%s patches=%v\n",
		r.Matches, r.Seconds, r.Moves, r.MovesPerSec, r.Games, r.Ack.P50, r.Ack.P99, r.Opponent.P99, total(r.Errors), r.Game, r.Patches)
}

func (l latency) String() string {
	return fmt.Sprintf("n=%d p50=%.3fms p90=%.3fms p99=%.3fms max=%.3fms", l.Count, l.P50, l.P90, l.P99, l.Max)
}

func formatErrors(m map[string]int64) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%d", k, m[k])
	}
	return strings.Join(parts, " ")
}

func total(m map[string]int64) int64 {
	var n int64
	for _, v := range m {
		n += v
	}
	return n
}

// errKind names an error for the error counts: a refused move by its
// protocol code alone, anything else as stage/code.
func errKind(stage string, err error) string {
	var me *client.MoveError
	var ae *client.APIError
	switch {
	case errors.As(err, &me) && stage == "move":
		return me.Code
	case errors.As(err, &me):
		return stage + "/" + me.Code
	case errors.As(err, &ae) && ae.Code != "":
		return stage + "/" + ae.Code
	case errors.As(err, &ae):
		return stage + "/http_" + strconv.Itoa(ae.Status)
	case errors.Is(err, context.DeadlineExceeded):
		return stage + "/timeout"
	case errors.Is(err, client.ErrClosed):
		return stage + "/closed"
	}
	return stage + "/transport"
}
