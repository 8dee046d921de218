package redistest

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/chaguan/chaguan/rooms/redisstore"
)

// clusterNodes is how many redis-servers a Cluster runs: three masters
// with a replica each.
const clusterNodes = 6

// nodeTimeout is the cluster's cluster-node-timeout in milliseconds: how
// long a master may be silent before its replica takes over. Production
// default is 15 s; the tests want failovers of a second or two.
const nodeTimeout = 1000

// Cluster is a local Redis Cluster of a test's own: six redis-servers on
// loopback (three masters, a replica each), joined with redis-cli --cluster
// create. No persistence: a killed master's data live on in its replica.
type Cluster struct {
	// Addrs are the nodes' addresses, host:port.
	Addrs []string
	// URL names every node in go-redis's cluster URL form,
	// redis://host:port?addr=host:port&addr=… (redis.ParseClusterURL).
	URL   string
	procs map[string]*proc // by address; nil once killed
	// server is redis-server's path and dirs the nodes' directories, by
	// address: Restart starts a killed node again with them.
	server string
	dirs   map[string]string
}

// StartCluster starts a Redis Cluster for t and kills its servers when t
// ends. It skips t, saying so, when redis-server or redis-cli is not on
// PATH.
func StartCluster(t testing.TB) *Cluster {
	t.Helper()
	server, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redistest: no redis-server on PATH: a Redis Cluster test needs one")
	}
	cli, err := exec.LookPath("redis-cli")
	if err != nil {
		t.Skip("redistest: no redis-cli on PATH: it joins the cluster's nodes")
	}
	c := &Cluster{procs: map[string]*proc{}, server: server, dirs: map[string]string{}}
	t.Cleanup(c.stop)
	dir := t.TempDir()
	for i := range clusterNodes {
		addr, p, err := startNode(server, filepath.Join(dir, strconv.Itoa(i)))
		if err != nil {
			t.Fatalf("redistest: start cluster node %d: %v", i, err)
		}
		c.Addrs = append(c.Addrs, addr)
		c.procs[addr] = p
		c.dirs[addr] = filepath.Join(dir, strconv.Itoa(i))
	}
	args := append([]string{"--cluster", "create"}, c.Addrs...)
	args = append(args, "--cluster-replicas", "1", "--cluster-yes")
	if out, err := exec.Command(cli, args...).CombinedOutput(); err != nil {
		t.Fatalf("redistest: redis-cli --cluster create: %v: %.2000s", err, out)
	}
	c.URL = "redis://" + c.Addrs[0] + "?addr=" + strings.Join(c.Addrs[1:], "&addr=")
	if err := c.waitOK(30 * time.Second); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	if err := c.waitReplicas(30 * time.Second); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Logf("redis: started a Redis Cluster of the test's own on %s", strings.Join(c.Addrs, " "))
	return c
}

// startNode runs one cluster-enabled redis-server with its files in dir, on
// a free port whose cluster bus port (port+10000) is free too.
func startNode(path, dir string) (string, *proc, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", nil, err
	}
	var err error
	for range 5 { // a free port may be taken before redis-server binds it
		port := 0
		if port, err = freeClusterPort(); err != nil {
			continue
		}
		var p *proc
		if p, err = runNode(path, dir, port); err == nil {
			return "127.0.0.1:" + strconv.Itoa(port), p, nil
		}
	}
	return "", nil, err
}

// runNode runs a cluster node on port with its files (nodes.conf) in dir.
func runNode(path, dir string, port int) (*proc, error) {
	_, p, err := startServer(path, port, "--cluster-enabled", "yes",
		"--cluster-config-file", filepath.Join(dir, "nodes.conf"),
		"--cluster-node-timeout", strconv.Itoa(nodeTimeout),
		"--dir", dir, "--save", "", "--appendonly", "no",
		// A replica's first copy (and a restarted node's) at once, not 5 s
		// later, diskless syncs' default delay.
		"--repl-diskless-sync-delay", "0")
	return p, err
}

// freeClusterPort finds a free port below 55536 whose port+10000 is free.
func freeClusterPort() (int, error) {
	for range 50 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if port >= 55536 {
			continue
		}
		bus, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port+10000))
		if err != nil {
			continue
		}
		bus.Close()
		return port, nil
	}
	return 0, fmt.Errorf("no free port pair (port, port+10000) found")
}

// Client returns a go-redis cluster client on c, closed when t ends.
func (c *Cluster) Client(t testing.TB) *redis.ClusterClient {
	t.Helper()
	opt, err := redis.ParseClusterURL(c.URL)
	if err != nil {
		t.Fatalf("redistest: cluster URL %s: %v", c.URL, err)
	}
	cc := redis.NewClusterClient(opt)
	t.Cleanup(func() { cc.Close() })
	return cc
}

// node is a plain client on one node; the caller closes it.
func node(addr string) *redis.Client {
	return redis.NewClient(&redis.Options{Addr: addr, MaxRetries: -1, DialTimeout: time.Second})
}

// waitOK waits until every running node reports cluster_state:ok and sees
// every slot served by a running master.
func (c *Cluster) waitOK(within time.Duration) error {
	deadline := time.Now().Add(within)
	for {
		err := c.checkOK()
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("cluster not ok within %v: %w", within, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitReplicas waits until every master has a replica in sync
// (INFO replication: slave0 … state=online): a replica still loading its
// first copy of the data cannot take over.
func (c *Cluster) waitReplicas(within time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	for {
		synced, masters := 0, 0
		for addr := range c.procs {
			n := node(addr)
			info, err := n.Info(ctx, "replication").Result()
			n.Close()
			if err != nil {
				return fmt.Errorf("%s: INFO replication: %w", addr, err)
			}
			if strings.Contains(info, "role:master") {
				masters++
				if strings.Contains(info, "state=online") {
					synced++
				}
			}
		}
		if masters == clusterNodes/2 && synced == masters {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%d of %d masters have a replica in sync after %v", synced, masters, within)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// checkOK says why the cluster is not ok yet, or nil.
func (c *Cluster) checkOK() error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for addr, p := range c.procs {
		if p == nil {
			continue
		}
		n := node(addr)
		info, err := n.ClusterInfo(ctx).Result()
		n.Close()
		if err != nil {
			return fmt.Errorf("%s: CLUSTER INFO: %w", addr, err)
		}
		if !strings.Contains(info, "cluster_state:ok") {
			return fmt.Errorf("%s: cluster_state is not ok", addr)
		}
		for _, slot := range []int{0, 8191, 16383} {
			if owner, err := c.slotMaster(ctx, addr, slot); err != nil || c.procs[owner] == nil {
				return fmt.Errorf("%s: slot %d is served by %q (%v)", addr, slot, owner, err)
			}
		}
	}
	return nil
}

// slotMaster asks the node at addr which master serves slot.
func (c *Cluster) slotMaster(ctx context.Context, addr string, slot int) (string, error) {
	n := node(addr)
	defer n.Close()
	shards, err := n.ClusterShards(ctx).Result()
	if err != nil {
		return "", err
	}
	for _, sh := range shards {
		for _, r := range sh.Slots {
			if int64(slot) < r.Start || int64(slot) > r.End {
				continue
			}
			for _, nd := range sh.Nodes {
				if nd.Role == "master" && nd.Health == "online" {
					return net.JoinHostPort(nd.IP, strconv.FormatInt(nd.Port, 10)), nil
				}
			}
		}
	}
	return "", fmt.Errorf("no node serves slot %d", slot)
}

// MasterOf returns the address of the master serving key's slot, as a
// running node sees it.
func (c *Cluster) MasterOf(t testing.TB, key string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	slot := redisstore.Slot(key)
	for addr, p := range c.procs {
		if p == nil {
			continue
		}
		if owner, err := c.slotMaster(ctx, addr, slot); err == nil {
			return owner
		}
	}
	t.Fatalf("redistest: no running node knows who serves slot %d", slot)
	return ""
}

// KillMaster kills the master serving key's slot with SIGKILL, so its
// clients get no goodbye but broken connections, and returns its address
// at once: the test goes on while the cluster notices (AwaitTakeover).
func (c *Cluster) KillMaster(t testing.TB, key string) string {
	t.Helper()
	old := c.MasterOf(t, key)
	c.procs[old].kill()
	c.procs[old] = nil
	t.Logf("redis: killed master %s, serving slot %d", old, redisstore.Slot(key))
	return old
}

// AwaitTakeover waits until a replica has taken key's slot over from the
// killed master old and every running node says the cluster is ok, and
// returns the new master's address.
func (c *Cluster) AwaitTakeover(t testing.TB, key, old string) string {
	t.Helper()
	if err := c.waitOK(30 * time.Second); err != nil {
		t.Fatalf("redistest: after killing master %s: %v", old, err)
	}
	promoted := c.MasterOf(t, key)
	if promoted == old {
		t.Fatalf("redistest: slot %d still served by the killed master %s", redisstore.Slot(key), old)
	}
	return promoted
}

// stop kills every node still running.
func (c *Cluster) stop() {
	for addr, p := range c.procs {
		if p != nil {
			p.kill()
			c.procs[addr] = nil
		}
	}
}

// AwaitReplicated waits until every replica of the master serving key's
// slot is linked to it and has everything the master has written
// (INFO replication's offsets), so that a kill that follows tests the
// failover itself, not replication lag: a replica still loading its first
// copy on a loaded machine would take over without the match. Tests of
// what an unacknowledged replication loses must not call it.
func (c *Cluster) AwaitReplicated(t testing.TB, key string) {
	t.Helper()
	ctx := context.Background()
	master := c.MasterOf(t, key)
	slot := int64(redisstore.Slot(key))
	m := node(master)
	defer m.Close()
	deadline := time.Now().Add(30 * time.Second)
	for ; ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("redistest: the replicas of %s (slot %d) did not catch up within 30 s", master, slot)
		}
		shards, err := m.ClusterShards(ctx).Result()
		if err != nil {
			continue
		}
		var replicas []string
		for _, sh := range shards {
			for _, r := range sh.Slots {
				if slot < r.Start || slot > r.End {
					continue
				}
				for _, nd := range sh.Nodes {
					if nd.Role != "master" {
						replicas = append(replicas, net.JoinHostPort(nd.IP, strconv.FormatInt(nd.Port, 10)))
					}
				}
			}
		}
		want, ok := replOffset(ctx, m, "master_repl_offset")
		if !ok || len(replicas) == 0 {
			continue
		}
		caughtUp := true
		for _, addr := range replicas {
			r := node(addr)
			info, err := r.Info(ctx, "replication").Result()
			got, ok := replOffset(ctx, r, "slave_repl_offset")
			r.Close()
			if err != nil || !ok || !strings.Contains(info, "master_link_status:up") || got < want {
				caughtUp = false
			}
		}
		if caughtUp {
			return
		}
	}
}

// replOffset reads one offset field of a node's INFO replication.
func replOffset(ctx context.Context, n *redis.Client, field string) (int64, bool) {
	info, err := n.Info(ctx, "replication").Result()
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
