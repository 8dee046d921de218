package main

import (
	"context"
	"net/http"

	"github.com/chaguan/chaguan/tools/cputime"
)

// serverCPUMetric is the Prometheus process collector's CPU counter.
const serverCPUMetric = "process_cpu_seconds_total"

// cpuReport is the CPU time both sides spent in the measured window; on
// a shared machine it says what a move costs whatever else runs there.
type cpuReport struct {
	ServerSeconds   float64 `json:"serverSeconds"` // from the server's /metrics; 0 if absent
	ClientSeconds   float64 `json:"clientSeconds"` // this process, user + system
	ServerPerMoveUs float64 `json:"serverPerMoveUs"`
	ClientPerMoveUs float64 `json:"clientPerMoveUs"`
}

// cpuMark is a reading of both sides' CPU time.
type cpuMark struct {
	server, client float64
	serverOK       bool
}

func markCPU(ctx context.Context, hc *http.Client, baseURL string) cpuMark {
	m := cpuMark{client: cputime.Self()}
	if v, err := scrape(ctx, hc, baseURL, []string{serverCPUMetric}); err == nil {
		m.server, m.serverOK = v[serverCPUMetric], true
	}
	return m
}

// since returns the CPU spent between from and m for moves accepted moves.
func (m cpuMark) since(from cpuMark, moves int64) *cpuReport {
	r := &cpuReport{ClientSeconds: m.client - from.client}
	if m.serverOK && from.serverOK {
		r.ServerSeconds = m.server - from.server
	}
	if moves > 0 {
		r.ServerPerMoveUs = r.ServerSeconds / float64(moves) * 1e6
		r.ClientPerMoveUs = r.ClientSeconds / float64(moves) * 1e6
	}
	return r
}
