package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"time"
)

// Garbage-collector settings for a server (docs/performance.md, "The
// garbage collector"). A move allocates about 14 KB that lives for a
// moment, so under load Go's default GOGC=100 collects a small live heap
// several times a second, and every collection scans every connection's
// goroutine stack: GOGC=400 saves a fifth of the server's CPU per move.
// But a high GOGC also lets an idle server's heap, and so its resident
// memory, grow to five times what is live. So, unless the GOGC environment
// variable is set, a tuner raises GOGC to 400 while the process allocates
// fast (under load) and lowers it back to 100 when it slows down, and a
// memory limit of half the machine's (or the container's) memory, unless
// GOMEMLIMIT is set, is the safety net the Go GC guide recommends beside
// a raised GOGC.
const (
	gcPercentIdle = 100
	gcPercentBusy = 400
	// The allocation rates, in bytes per second, above which the tuner
	// raises GOGC and below which it lowers it again: about 2,300 and 600
	// moves/s of the Gomoku load test.
	gcRateBusy    = 32 << 20
	gcRateIdle    = 8 << 20
	gcTunePeriod  = time.Second
	memLimitShare = 0.5 // of the memory available to the process
)

// gcSettings is what main sets up.
type gcSettings struct {
	tune  bool  // run the GOGC tuner (GOGC was not set)
	limit int64 // memory limit in bytes; 0: leave GOMEMLIMIT's (or none could be read)
}

// gcDefaults decides the settings from the environment and the memory
// available: cgroupMax is the content of cgroup v2's memory.max (or ""),
// meminfo that of /proc/meminfo (or "").
func gcDefaults(getenv func(string) string, cgroupMax, meminfo string) gcSettings {
	var s gcSettings
	s.tune = getenv("GOGC") == ""
	if getenv("GOMEMLIMIT") == "" {
		if avail := availableMemory(cgroupMax, meminfo); avail > 0 {
			s.limit = int64(float64(avail) * memLimitShare)
		}
	}
	return s
}

// availableMemory is the container's memory limit when there is one,
// else the machine's total memory, in bytes; 0 when neither can be read.
func availableMemory(cgroupMax, meminfo string) int64 {
	if n, err := strconv.ParseInt(strings.TrimSpace(cgroupMax), 10, 64); err == nil && n > 0 {
		return n
	}
	sc := bufio.NewScanner(strings.NewReader(meminfo))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err == nil && kb > 0 {
				return kb * 1024
			}
		}
	}
	return 0
}

// setUpGC reads the environment and the machine, sets the memory limit
// and returns the settings; the tuner itself runs in tuneGC.
func setUpGC() gcSettings {
	read := func(path string) string {
		b, err := os.ReadFile(path)
		if err != nil {
			return ""
		}
		return string(bytes.TrimSpace(b))
	}
	s := gcDefaults(os.Getenv, read("/sys/fs/cgroup/memory.max"), read("/proc/meminfo"))
	if s.limit != 0 {
		debug.SetMemoryLimit(s.limit)
	}
	return s
}

// gcTuner chooses GOGC from the allocation rate, with hysteresis so that
// a rate near one threshold does not flip it every period.
type gcTuner struct{ percent int }

// next returns the GOGC for an allocation rate in bytes per second.
func (t *gcTuner) next(rate float64) int {
	switch {
	case rate >= gcRateBusy:
		t.percent = gcPercentBusy
	case rate < gcRateIdle:
		t.percent = gcPercentIdle
	case t.percent == 0:
		t.percent = gcPercentIdle
	}
	return t.percent
}

// tuneGC sets GOGC every period from the allocation rate until ctx ends,
// then leaves it at gcPercentIdle.
func tuneGC(ctx context.Context, period time.Duration) {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	read := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	t := gcTuner{percent: gcPercentIdle}
	debug.SetGCPercent(gcPercentIdle)
	defer debug.SetGCPercent(gcPercentIdle)
	tick := time.NewTicker(period)
	defer tick.Stop()
	last, at := read(), time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			cur := read()
			rate := float64(cur-last) / now.Sub(at).Seconds()
			last, at = cur, now
			before := t.percent
			if p := t.next(rate); p != before {
				debug.SetGCPercent(p)
			}
		}
	}
}
