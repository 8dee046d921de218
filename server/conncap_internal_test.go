package server

import "testing"

// TestAdmitCountsPerAddress: the per-address cap counts each client key on
// its own, the process cap counts them all, a released slot is reusable,
// and a negative cap is no cap.
func TestAdmitCountsPerAddress(t *testing.T) {
	s := &Server{cfg: Config{WS: WSConfig{MaxConns: 3, MaxConnsPerIP: 2}}, perIP: map[string]int{}}
	steps := []struct {
		key  string
		want bool
	}{
		{"10.0.0.1", true}, {"10.0.0.1", true}, {"10.0.0.1", false}, // per address
		{"2001:db8::/64", true}, {"10.0.0.2", false}, // per process
	}
	for i, st := range steps {
		if got := s.admit(st.key) == nil; got != st.want {
			t.Fatalf("step %d: admit(%s) = %v, want %v", i, st.key, got, st.want)
		}
	}
	s.release("10.0.0.1")
	if err := s.admit("10.0.0.2"); err != nil {
		t.Fatalf("after a release: %v", err)
	}
	if s.admitted != 3 || s.perIP["10.0.0.1"] != 1 || s.perIP["10.0.0.2"] != 1 {
		t.Fatalf("counts: %d %v", s.admitted, s.perIP)
	}
	for _, k := range []string{"10.0.0.1", "10.0.0.2", "2001:db8::/64"} {
		s.release(k)
	}
	if s.admitted != 0 || len(s.perIP) != 0 {
		t.Fatalf("after releasing all: %d %v", s.admitted, s.perIP)
	}
	off := &Server{cfg: Config{WS: WSConfig{MaxConns: -1, MaxConnsPerIP: -1}}, perIP: map[string]int{}}
	for i := range 1000 {
		if err := off.admit("10.0.0.1"); err != nil {
			t.Fatalf("uncapped admit %d: %v", i, err)
		}
	}
}
