package server

import (
	"errors"
	"net"
	"os"
	"testing"
	"time"
)

// TestIdleConnWriteDeadline: the socket's write deadline moves later only
// when the one in place gives less than half the time asked for, moves
// earlier (or off) at once, and a deadline passed still fails a write.
func TestIdleConnWriteDeadline(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()
	client, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	server, ok := <-accepted
	if !ok {
		t.Fatal("no connection accepted")
	}
	defer server.Close()
	n := &idleConn{TCPConn: server.(*net.TCPConn)}

	now := time.Now()
	steps := []struct {
		what     string
		deadline time.Time
		sets     int
	}{
		{"the first deadline", now.Add(10 * time.Second), 1},
		{"a little later", now.Add(10*time.Second + time.Millisecond), 1},
		{"later, the one in place still over half", now.Add(19 * time.Second), 1},
		{"earlier", now.Add(time.Second), 2},
		{"later, the one in place under half", now.Add(10 * time.Second), 3},
		{"none", time.Time{}, 4},
		{"again after none", now.Add(10 * time.Second), 5},
	}
	for _, s := range steps {
		if err := n.SetWriteDeadline(s.deadline); err != nil {
			t.Fatal(err)
		}
		if n.wdlSets != s.sets {
			t.Fatalf("%s: the socket's deadline was moved %d times, want %d", s.what, n.wdlSets, s.sets)
		}
	}
	if _, err := n.Write([]byte("x")); err != nil {
		t.Fatalf("write within the deadline: %v", err)
	}
	// A deadline in the past is earlier than any in place: the write fails.
	if err := n.SetWriteDeadline(time.Now().Add(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Write([]byte("x")); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write after the deadline: %v, want a deadline error", err)
	}
	// The next frame's deadline replaces the passed one.
	if err := n.SetWriteDeadline(time.Now().Add(10 * time.Second)); err != nil {
		t.Fatal(err)
	}
	if _, err := n.Write([]byte("x")); err != nil {
		t.Fatalf("write after a new deadline: %v", err)
	}
}
