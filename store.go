package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redisstore"
)

// openStore picks the store: Redis when a URL is configured (a Redis
// Cluster when the URL names more than one address, or with
// -redis-cluster), else memory. The description it returns names the store
// without any password.
func openStore(ctx context.Context, c config) (rooms.Store, string, error) {
	if c.redisURL == "" {
		return memstore.New(memstore.Options{TTL: c.ttl}), "memory", nil
	}
	st, err := redisstore.New(ctx, redisstore.Options{URL: c.redisURL, Cluster: c.cluster, TTL: c.ttl,
		WaitReplicas: c.waitRepl, WaitAOF: c.waitAOF, WaitTimeout: c.waitFor})
	if err != nil {
		return nil, "", err
	}
	return st, st.Where(), nil
}

// envInt reads a whole number from the environment variable key, 0 when
// it is unset; the process stops with a message when it is not a number.
func envInt(key string) int {
	v := os.Getenv(key)
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bad %s %q: want a whole number\n", key, v)
		os.Exit(2)
	}
	return n
}
