package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// TestOpenStoreCluster: -redis with go-redis's cluster URL form (more than
// one address), or one node's address with -redis-cluster, opens the
// store on the cluster; one node's address alone is a plain server. The
// store works through either cluster form.
func TestOpenStoreCluster(t *testing.T) {
	c := redistest.StartCluster(t)
	for _, tc := range []struct {
		name string
		cfg  config
		desc string
	}{
		{"ClusterURL", config{redisURL: c.URL}, "Redis Cluster " + strings.Join(c.Addrs, ",")},
		{"Flag", config{redisURL: "redis://" + c.Addrs[1], cluster: true}, "Redis Cluster " + c.Addrs[1]},
		{"OneNode", config{redisURL: "redis://" + c.Addrs[1]}, "redis://" + c.Addrs[1] + "/0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			st, desc, err := openStore(ctx, tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			if desc != tc.desc {
				t.Errorf("openStore described %q, want %q", desc, tc.desc)
			}
			if !strings.HasPrefix(desc, "Redis Cluster") {
				return
			}
			// Matches in many slots: a plain client would meet MOVED.
			for i := range 10 {
				rec := storetest.NewRecord(fmt.Sprintf("%s-%d", tc.name, i), "gomoku", 100)
				if err := st.Create(ctx, rec); err != nil {
					t.Fatalf("Create: %v", err)
				}
				if _, err := st.Get(ctx, rec.ID); err != nil {
					t.Fatalf("Get: %v", err)
				}
			}
		})
	}
}

// TestOpenStoreClusterDown: a cluster nobody answers is unavailable, and
// the error names the addresses without the password.
func TestOpenStoreClusterDown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, _, err := openStore(ctx, config{redisURL: "redis://:secret@127.0.0.1:1?addr=127.0.0.1:2"})
	if !errors.Is(err, rooms.ErrUnavailable) {
		t.Fatalf("openStore on a cluster that is down: %v, want ErrUnavailable", err)
	}
	if msg := err.Error(); strings.Contains(msg, "secret") || !strings.Contains(msg, "Redis Cluster 127.0.0.1:1,127.0.0.1:2") {
		t.Fatalf("error %q: want the addresses and no password", msg)
	}
}
