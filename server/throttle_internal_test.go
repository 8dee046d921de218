package server

import (
	"fmt"
	"testing"
)

// TestClientLimiterBounded: each address has its own bucket, and the map
// of addresses never grows past MaxClients.
func TestClientLimiterBounded(t *testing.T) {
	l := newClientLimiter(Throttle{Rate: 0.001, Burst: 2, MaxClients: 8})
	for i := range 2 {
		if !l.allow("a") {
			t.Fatalf("request %d of a refused within the burst", i)
		}
	}
	if l.allow("a") {
		t.Fatal("a allowed past its burst")
	}
	if !l.allow("b") {
		t.Fatal("b refused for a's requests")
	}
	for i := range 100 {
		l.allow(fmt.Sprint("c", i))
		if n := l.size(); n > 8 {
			t.Fatalf("%d addresses remembered, more than 8", n)
		}
	}
}

// TestClientKey: IPv4 peers count per address, IPv6 per /64.
func TestClientKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7:5555":             "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443": "2001:db8:1:2::/64",
		"[2001:db8:1:2:ff::1]:80":    "2001:db8:1:2::/64",
		"[::ffff:192.0.2.7]:1":       "::ffff:192.0.2.7",
		"garbage":                    "garbage",
	} {
		if got := clientKey(in); got != want {
			t.Errorf("clientKey(%q) = %q, want %q", in, got, want)
		}
	}
}
