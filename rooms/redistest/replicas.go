package redistest

import (
	"context"
	"fmt"
	"net/url"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Kill kills the node at addr with SIGKILL, as KillMaster does, without
// asking first which node serves a slot: a test that looked the master up
// before its last write kills it right after the reply.
func (c *Cluster) Kill(t testing.TB, addr string) {
	t.Helper()
	p := c.procs[addr]
	if p == nil {
		t.Fatalf("redistest: node %s is not running", addr)
	}
	p.kill()
	c.procs[addr] = nil
}

// Restart starts the killed node at addr again, on its port with its
// cluster configuration (its data were not kept: the cluster has no
// persistence), and waits until it has rejoined as a replica of the
// master that took its slots over and every master has a replica in sync,
// so that the next failover has a replica to promote. It returns how long
// that took.
func (c *Cluster) Restart(t testing.TB, addr string) time.Duration {
	t.Helper()
	start := time.Now()
	if c.procs[addr] != nil {
		t.Fatalf("redistest: node %s is running", addr)
	}
	_, port, err := splitPort(addr)
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	p, err := runNode(c.server, c.dirs[addr], port)
	if err != nil {
		t.Fatalf("redistest: restart cluster node %s: %v", addr, err)
	}
	c.procs[addr] = p
	if err := c.waitOK(30 * time.Second); err != nil {
		t.Fatalf("redistest: after restarting node %s: %v", addr, err)
	}
	if err := c.waitReplicas(60 * time.Second); err != nil {
		t.Fatalf("redistest: after restarting node %s: %v", addr, err)
	}
	return time.Since(start)
}

// splitPort splits "host:port".
func splitPort(addr string) (string, int, error) {
	i := strings.LastIndexByte(addr, ':')
	if i < 0 {
		return "", 0, fmt.Errorf("address %q has no port", addr)
	}
	port, err := strconv.Atoi(addr[i+1:])
	if err != nil {
		return "", 0, fmt.Errorf("address %q: %w", addr, err)
	}
	return addr[:i], port, nil
}

// Replicated is a redis-server of one test's own with replicas of its
// own (redis-server --replicaof), for tests of what a write waits for
// (WAIT). No persistence.
type Replicated struct {
	// URL is the master's, "redis://127.0.0.1:port/0".
	URL string
	// Replicas are the replicas' URLs.
	Replicas []string
	procs    []*proc // the master's first
}

// StartReplicated starts a master and n replicas of it, waits until every
// replica is in sync, and kills them all when t ends. It skips t, saying
// so, when no redis-server is on PATH: miniredis has no replication.
func StartReplicated(t testing.TB, n int) *Replicated {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redistest: no redis-server on PATH: a test of replication needs one (miniredis does not replicate)")
	}
	r := &Replicated{}
	t.Cleanup(func() {
		for _, p := range r.procs {
			p.kill()
		}
	})
	var port int
	var p *proc
	for range 3 { // a free port may be taken before redis-server binds it
		if port, p, err = startServer(path, 0, "--save", "", "--appendonly", "no", "--dir", t.TempDir()); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("redistest: start master: %v", err)
	}
	r.procs = append(r.procs, p)
	r.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", port)
	for i := range n {
		var rport int
		for range 3 {
			// A replica keeps the copy it is sent in its directory.
			if rport, p, err = startServer(path, 0, "--save", "", "--appendonly", "no", "--dir", t.TempDir(),
				"--replicaof", "127.0.0.1", strconv.Itoa(port)); err == nil {
				break
			}
		}
		if err != nil {
			t.Fatalf("redistest: start replica %d: %v", i, err)
		}
		r.procs = append(r.procs, p)
		r.Replicas = append(r.Replicas, fmt.Sprintf("redis://127.0.0.1:%d/0", rport))
	}
	if err := r.waitSynced(30 * time.Second); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Logf("redis: started a redis-server of the test's own on port %d with %d replicas", port, n)
	return r
}

// waitSynced waits until the master sees every replica online.
func (r *Replicated) waitSynced(within time.Duration) error {
	u, err := url.Parse(r.URL)
	if err != nil {
		return err
	}
	m := node(u.Host)
	defer m.Close()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	want := len(r.Replicas)
	for {
		info, err := m.Info(ctx, "replication").Result()
		if err == nil && strings.Count(info, "state=online") == want {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("the master does not see its %d replicas in sync after %v (%v): %s", want, within, err, info)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
