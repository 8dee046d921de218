package redistest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// Prefix returns a key prefix of t's own ("test-" and 16 random hex
// digits), so tests can share one server, and deletes every key under it
// when t ends. url is the server's address, as URL returns it, or a
// cluster's, as Cluster.URL gives it.
func Prefix(t testing.TB, url string) string {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	prefix := "test-" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		c, err := clientFor(url)
		if err != nil {
			t.Errorf("redistest: %v", err)
			return
		}
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := FlushPrefix(ctx, c, prefix); err != nil {
			t.Errorf("redistest: flush prefix %s: %v", prefix, err)
		}
	})
	return prefix
}

// clientFor is a client on url: a cluster client when it names more than
// one address (Cluster.URL), else a plain one.
func clientFor(url string) (redis.UniversalClient, error) {
	if copt, err := redis.ParseClusterURL(url); err == nil && len(copt.Addrs) > 1 {
		return redis.NewClusterClient(copt), nil
	}
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, err
	}
	return redis.NewClient(opt), nil
}

// FlushPrefix deletes every key that starts with prefix+":", on every
// master of a cluster. It uses SCAN, so it never blocks the server long.
func FlushPrefix(ctx context.Context, c redis.UniversalClient, prefix string) error {
	pattern := globEscape(prefix) + ":*"
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			return flush(ctx, n, pattern)
		})
	}
	return flush(ctx, c, pattern)
}

func flush(ctx context.Context, c redis.Cmdable, pattern string) error {
	iter := c.Scan(ctx, 0, pattern, 1000).Iterator()
	var keys []string
	for iter.Next(ctx) {
		keys = append(keys, iter.Val())
	}
	if err := iter.Err(); err != nil {
		return err
	}
	// One DEL per key: in a cluster the keys are in different slots.
	for _, k := range keys {
		if err := c.Del(ctx, k).Err(); err != nil {
			return err
		}
	}
	return nil
}

// globEscape escapes the characters SCAN MATCH treats specially.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
