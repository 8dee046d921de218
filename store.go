package main

import (
	"context"

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
	st, err := redisstore.New(ctx, redisstore.Options{URL: c.redisURL, Cluster: c.cluster, TTL: c.ttl})
	if err != nil {
		return nil, "", err
	}
	return st, st.Where(), nil
}
