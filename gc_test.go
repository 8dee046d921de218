package main

import (
	"context"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestGCDefaults(t *testing.T) {
	meminfo := "MemTotal:       24683652 kB\nMemFree:        1000 kB\n"
	half := int64(24683652 * 1024 / 2)
	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	for _, tc := range []struct {
		name    string
		vars    map[string]string
		cgroup  string
		meminfo string
		want    gcSettings
	}{
		{"machine memory", nil, "", meminfo, gcSettings{tune: true, limit: half}},
		{"container limit wins", nil, "2147483648", meminfo, gcSettings{tune: true, limit: 1 << 30}},
		{"unlimited container", nil, "max", meminfo, gcSettings{tune: true, limit: half}},
		{"nothing readable", nil, "", "", gcSettings{tune: true}},
		{"GOGC set", map[string]string{"GOGC": "100"}, "", meminfo, gcSettings{limit: half}},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, "", meminfo, gcSettings{tune: true}},
		{"both set", map[string]string{"GOGC": "off", "GOMEMLIMIT": "1GiB"}, "1", meminfo, gcSettings{}},
	} {
		if got := gcDefaults(env(tc.vars), tc.cgroup, tc.meminfo); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

// TestGCTunerHysteresis: GOGC rises at the busy rate, stays up between the
// thresholds, and falls below the idle rate.
func TestGCTunerHysteresis(t *testing.T) {
	var g gcTuner
	for i, step := range []struct {
		rate float64
		want int
	}{
		{0, gcPercentIdle},
		{gcRateIdle + 1, gcPercentIdle}, // between: stays idle
		{gcRateBusy, gcPercentBusy},
		{gcRateIdle + 1, gcPercentBusy}, // between: stays busy
		{gcRateBusy * 10, gcPercentBusy},
		{gcRateIdle - 1, gcPercentIdle},
		{gcRateBusy - 1, gcPercentIdle},
	} {
		if got := g.next(step.rate); got != step.want {
			t.Fatalf("step %d: rate %.0f B/s gives GOGC %d, want %d", i, step.rate, got, step.want)
		}
	}
}

// TestTuneGC runs the tuner on this process: allocating fast raises GOGC,
// stopping leaves it at the idle value.
func TestTuneGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercentIdle))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { tuneGC(ctx, 20*time.Millisecond); close(done) }()
	var sink [][]byte
	raised := false
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end) && !raised; {
		for range 1000 {
			sink = append(sink, make([]byte, 4096)) // about 200 MB/s and more
			if len(sink) > 256 {
				sink = sink[:0]
			}
		}
		raised = gogc() == gcPercentBusy
	}
	cancel()
	<-done
	if !raised {
		t.Fatal("GOGC never rose while allocating fast")
	}
	if p := gogc(); p != gcPercentIdle {
		t.Fatalf("GOGC %d after the tuner stopped, want %d", p, gcPercentIdle)
	}
}

// gogc reads the current GOGC without changing it.
func gogc() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}
