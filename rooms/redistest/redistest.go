// Package redistest gives tests a Redis to talk to: the one named by the
// REDIS_URL environment variable, else a redis-server started on a free
// port (when one is on PATH), else an in-process miniredis. REDISTEST=miniredis
// forces the in-process server. Tests sharing a server keep apart by key
// prefix (Prefix).
package redistest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms/roomtest"
)

// Server is the Redis a test uses.
type Server struct {
	URL string
	// Mini is the in-process server when there was neither REDIS_URL nor a
	// redis-server; nil otherwise. Its FastForward moves its clock.
	Mini *miniredis.Miniredis
}

// URL returns the address of a Redis for t, as "redis://host:port/db"; see
// Start.
func URL(t testing.TB) string { return Start(t).URL }

// Start returns a Redis for t and logs which one. REDIS_URL, when set, is
// used as it is. Otherwise every test in the process shares one redis-server
// (no persistence), started on a free port and killed when the last test
// using it has finished; without redis-server on PATH each test gets its own
// miniredis.
func Start(t testing.TB) *Server {
	t.Helper()
	if u := os.Getenv("REDIS_URL"); u != "" {
		t.Logf("redis: using REDIS_URL=%s", redacted(u))
		return &Server{URL: u}
	}
	if path, err := exec.LookPath("redis-server"); err == nil && os.Getenv("REDISTEST") != "miniredis" {
		port, err := shared.acquire(path)
		if err == nil {
			t.Cleanup(shared.release)
			t.Logf("redis: started redis-server on port %d", port)
			return &Server{URL: fmt.Sprintf("redis://127.0.0.1:%d/0", port)}
		}
		t.Logf("redis: redis-server would not start (%v); falling back to miniredis", err)
	}
	m := miniredis.NewMiniRedis()
	if err := m.Start(); err != nil {
		t.Fatalf("redistest: start miniredis: %v", err)
	}
	t.Cleanup(m.Close)
	t.Logf("redis: using in-process miniredis at %s", m.Addr())
	return &Server{URL: "redis://" + m.Addr() + "/0", Mini: m}
}

// redacted is a URL with its password, if any, replaced by "xxxxx".
func redacted(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Redacted()
}

// processServer is the redis-server shared by the tests of this process,
// reference-counted: started by the first acquire, killed by the last release.
type processServer struct {
	mu    sync.Mutex
	users int
	port  int
	proc  *proc
}

var shared processServer

func (p *processServer) acquire(path string) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users == 0 {
		var err error
		for range 3 { // a free port may be taken before redis-server binds it
			if p.port, p.proc, err = startServer(path, 0, "--save", "", "--appendonly", "no"); err == nil {
				break
			}
		}
		if err != nil {
			return 0, err
		}
	}
	p.users++
	return p.port, nil
}

func (p *processServer) release() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.users--
	if p.users == 0 {
		p.proc.kill()
		p.proc = nil
	}
}

// proc is a started redis-server; exited receives cmd.Wait's result.
type proc struct {
	cmd    *exec.Cmd
	exited chan error
}

func (p *proc) kill() {
	p.cmd.Process.Kill()
	<-p.exited
}

// startServer runs redis-server with args on port, or on a free port when
// port is 0, and waits until it answers.
func startServer(path string, port int, args ...string) (int, *proc, error) {
	if port == 0 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, nil, err
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
	}
	cmd := exec.Command(path, append([]string{"--port", strconv.Itoa(port), "--bind", "127.0.0.1"}, args...)...)
	var out roomtest.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	dieWithTest(cmd)
	if err := cmd.Start(); err != nil {
		return 0, nil, err
	}
	p := &proc{cmd: cmd, exited: make(chan error, 1)}
	go func() { p.exited <- cmd.Wait() }()
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(port), MaxRetries: -1})
	defer c.Close()
	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case err := <-p.exited:
			return 0, nil, fmt.Errorf("redis-server exited (%v): %.300s", err, out.String())
		default:
		}
		if c.Ping(context.Background()).Err() == nil {
			return port, p, nil
		}
		if time.Now().After(deadline) {
			p.kill()
			return 0, nil, fmt.Errorf("redis-server on port %d did not answer in 10s: %.300s", port, out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}
