// Package cputime reads processes' CPU time for the load generators'
// per-move figures.
package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Process is another process's user + system CPU time in seconds, read
// from /proc (Linux, in the kernel's 100 Hz clock ticks); 0 where there is
// no /proc entry for pid.
func Process(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime (fields 14 and 15) of a /proc/PID/stat
// line. The command name, field 2, is in parentheses and may hold spaces
// and parentheses itself, so fields are counted from its last ')'.
func parseStat(s string) float64 {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0
	}
	ut, err1 := strconv.ParseFloat(f[11], 64)
	st, err2 := strconv.ParseFloat(f[12], 64)
	if err1 != nil || err2 != nil {
		return 0
	}
	return (ut + st) / 100
}
