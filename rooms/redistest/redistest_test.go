package redistest

import (
	"context"
	"fmt"
	"testing"

	"github.com/redis/go-redis/v9"
)

// TestPrefix: keys under a test's prefix are deleted when it ends, others
// are kept.
func TestPrefix(t *testing.T) {
	ctx := context.Background()
	url := URL(t)
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("URL(t) = %q: %v", url, err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	other := Prefix(t, url) // flushed at the end of TestPrefix: a neighbour
	var inner string
	t.Run("Inner", func(t *testing.T) {
		inner = Prefix(t, url)
		if inner == other {
			t.Fatalf("two tests got the same prefix %q", inner)
		}
		for _, k := range []string{inner + ":{m1}:rec", inner + ":games:gomoku", other + ":{m1}:rec"} {
			if err := c.Set(ctx, k, "x", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})
	for _, tc := range []struct {
		key  string
		kept bool
	}{
		{inner + ":{m1}:rec", false},
		{inner + ":games:gomoku", false},
		{other + ":{m1}:rec", true},
	} {
		n, err := c.Exists(ctx, tc.key).Result()
		if err != nil || (n == 1) != tc.kept {
			t.Errorf("after the inner test ended, EXISTS %s = %d, %v; want kept=%v", tc.key, n, err, tc.kept)
		}
	}
}

func TestGlobEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"test-00ff", "test-00ff"},
		{"a*b?c", `a\*b\?c`},
		{`[x]\`, `\[x\]\\`},
		{"茶馆", "茶馆"},
	} {
		t.Run(fmt.Sprintf("%q", tc.in), func(t *testing.T) {
			if got := globEscape(tc.in); got != tc.want {
				t.Fatalf("globEscape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestFlushPrefixGlob: a prefix with glob characters matches only itself.
func TestFlushPrefixGlob(t *testing.T) {
	ctx := context.Background()
	url := URL(t)
	opt, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	defer c.Close()
	base := Prefix(t, url) // cleans up both keys at the end
	for _, k := range []string{base + ":*:a", base + ":x:a"} {
		if err := c.Set(ctx, k, "x", 0).Err(); err != nil {
			t.Fatal(err)
		}
	}
	if err := FlushPrefix(ctx, c, base+":*"); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.Exists(ctx, base+":*:a").Result(); n != 0 {
		t.Error("key under the prefix survived")
	}
	if n, _ := c.Exists(ctx, base+":x:a").Result(); n != 1 {
		t.Error("key outside the prefix was deleted: the * matched as a glob")
	}
}

func TestRedacted(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"redis://127.0.0.1:6379/0", "redis://127.0.0.1:6379/0"},
		{"redis://:secret@host:6379/1", "redis://:xxxxx@host:6379/1"},
		{"rediss://user:secret@host", "rediss://user:xxxxx@host"},
		{"redis://bad host:%zz", "(unparsable URL)"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got := redacted(tc.in); got != tc.want {
				t.Fatalf("redacted(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
