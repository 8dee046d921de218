package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// idleSettle is how long the server gets to reach a steady state after the
// idle connections opened, before its memory is read again.
const idleSettle = 2 * time.Second

// memMetrics are the /metrics gauges read before and after the idle
// connections open (standard Go and process collectors).
var memMetrics = []string{
	"process_resident_memory_bytes",
	"go_memstats_heap_inuse_bytes",
	"go_memstats_stack_inuse_bytes",
	"go_memstats_sys_bytes",
	"go_goroutines",
}

// idleReport is the memory cost of the idle spectators.
type idleReport struct {
	Conns   int                `json:"conns"` // connections opened
	Failed  int                `json:"failed"`
	Before  map[string]float64 `json:"before,omitempty"`
	After   map[string]float64 `json:"after,omitempty"`
	PerConn map[string]float64 `json:"perConn,omitempty"` // (after-before)/conns
	// AfterGC and PerConnLive are read after a garbage collection (forced
	// through the server's POST /debug/gc, so only with -pprof; Before is
	// then read after one too): what the connections hold,
	// without the garbage their setup left that the next collection frees.
	AfterGC     map[string]float64 `json:"afterGC,omitempty"`
	PerConnLive map[string]float64 `json:"perConnLive,omitempty"`
	Note        string             `json:"note,omitempty"`
}

// openIdle creates one match nobody joins and connects cfg.Idle spectators
// to it, reading the server's /metrics before and after. It returns the open
// connections, which the caller closes.
func openIdle(ctx context.Context, cfg config, lobby *client.Lobby, hc *http.Client) (*idleReport, []*client.Conn) {
	rep := &idleReport{}
	id, err := lobby.Create(ctx, gameName, protocol.CreateRequest{NumPlayers: 2, Unlisted: true})
	if err != nil {
		rep.Note = "create: " + err.Error()
		return rep, nil
	}
	gcErr := forceGC(ctx, hc, cfg.URL)
	before, err := scrape(ctx, hc, cfg.URL, memMetrics)
	if err != nil {
		rep.Note = err.Error()
	}
	conns := make([]*client.Conn, cfg.Idle)
	sem := make(chan struct{}, cfg.SetupLimit)
	var wg sync.WaitGroup
	for i := range conns {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := client.Dial(ctx, cfg.URL, gameName, id, "", "")
			if err == nil {
				conns[i] = c
			}
		}()
	}
	wg.Wait()
	open := conns[:0]
	for _, c := range conns {
		if c != nil {
			open = append(open, c)
		}
	}
	rep.Conns, rep.Failed = len(open), cfg.Idle-len(open)
	sleep(ctx, idleSettle)
	after, err := scrape(ctx, hc, cfg.URL, memMetrics)
	if err != nil || before == nil {
		if err != nil {
			rep.Note = err.Error()
		}
		return rep, open
	}
	rep.Before, rep.After = before, after
	rep.PerConn = perConn(before, after, rep.Conns)
	if gcErr == nil {
		gcErr = forceGC(ctx, hc, cfg.URL)
	}
	if gcErr == nil {
		if rep.AfterGC, err = scrape(ctx, hc, cfg.URL, memMetrics); err == nil {
			rep.PerConnLive = perConn(before, rep.AfterGC, rep.Conns)
		}
	} else {
		rep.Note = "no live figures (start the server with -pprof): " + gcErr.Error()
	}
	return rep, open
}

// perConn is (after-before)/n for each metric in both.
func perConn(before, after map[string]float64, n int) map[string]float64 {
	out := map[string]float64{}
	for k, b := range before {
		if a, ok := after[k]; ok && n > 0 {
			out[k] = (a - b) / float64(n)
		}
	}
	return out
}

// forceGC has the server collect its garbage (POST /debug/gc, served with
// -pprof).
func forceGC(ctx context.Context, hc *http.Client, baseURL string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimRight(baseURL, "/")+"/debug/gc", nil)
	if err != nil {
		return err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("force gc: %w", err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusNoContent {
		return fmt.Errorf("force gc: /debug/gc: HTTP %d", resp.StatusCode)
	}
	return nil
}

// scrape reads the unlabelled samples of the named metrics from
// baseURL/metrics.
func scrape(ctx context.Context, hc *http.Client, baseURL string, names []string) (map[string]float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(baseURL, "/")+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("metrics: HTTP %d", resp.StatusCode)
	}
	return parseMetrics(io.LimitReader(resp.Body, 16<<20), names)
}

// parseMetrics picks the named metrics out of the Prometheus text format.
func parseMetrics(r io.Reader, names []string) (map[string]float64, error) {
	want := map[string]bool{}
	for _, m := range names {
		want[m] = true
	}
	out := map[string]float64{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 || !want[f[0]] {
			continue
		}
		if v, err := strconv.ParseFloat(f[1], 64); err == nil {
			out[f[0]] = v
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("metrics: %w", err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("metrics: none of %v found", names)
	}
	return out, nil
}

func (r *idleReport) writeText(w io.Writer) {
	fmt.Fprintf(w, "idle spectators: %d open, %d failed\n", r.Conns, r.Failed)
	if r.Note != "" {
		fmt.Fprintf(w, "  note: %s\n", r.Note)
	}
	keys := make([]string, 0, len(r.PerConn))
	for k := range r.PerConn {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(w, "  %-32s before=%.0f after=%.0f per_conn=%.1f", k, r.Before[k], r.After[k], r.PerConn[k])
		if live, ok := r.PerConnLive[k]; ok {
			fmt.Fprintf(w, " after_gc=%.0f per_conn_live=%.1f", r.AfterGC[k], live)
		}
		fmt.Fprintln(w)
	}
}
