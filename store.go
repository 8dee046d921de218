package main

import (
	"context"
	"net/url"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redisstore"
)

// openStore picks the store: Redis when a URL is configured, else memory.
// The description it returns names the store without any password.
func openStore(ctx context.Context, c config) (rooms.Store, string, error) {
	if c.redisURL == "" {
		return memstore.New(memstore.Options{TTL: c.ttl}), "memory", nil
	}
	st, err := redisstore.New(ctx, redisstore.Options{URL: c.redisURL, TTL: c.ttl})
	if err != nil {
		return nil, "", err
	}
	desc := "redis"
	if u, err := url.Parse(c.redisURL); err == nil {
		desc = "redis://" + u.Host + u.Path
	}
	return st, desc, nil
}
