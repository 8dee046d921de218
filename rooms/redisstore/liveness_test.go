package redisstore_test

import (
	"context"
	"testing"
	"time"

	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// TestLiveness: each store has its own process ID; another store on the
// same Redis sees it alive while it is open and gone once it closed; an ID
// nobody has is not alive.
func TestLiveness(t *testing.T) { testLiveness(t, redistest.URL(t)) }

// testLiveness is TestLiveness on the server or cluster at url.
func testLiveness(t *testing.T, url string) {
	ctx := context.Background()
	prefix := redistest.Prefix(t, url)
	a := open(t, redisstore.Options{URL: url, Prefix: prefix})
	b, err := redisstore.New(ctx, redisstore.Options{URL: url, Prefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	if a.ProcessID() == "" || a.ProcessID() == b.ProcessID() {
		t.Fatalf("process IDs %q and %q", a.ProcessID(), b.ProcessID())
	}
	ids := []string{a.ProcessID(), b.ProcessID(), "nobody"}
	alive, err := a.Alive(ctx, ids)
	if err != nil {
		t.Fatal(err)
	}
	if !alive[a.ProcessID()] || !alive[b.ProcessID()] || alive["nobody"] {
		t.Fatalf("while both are open: %v", alive)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// Redis drops b's subscription when it handles the closed connection,
	// which may come just after a's next command.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if alive, err = a.Alive(ctx, ids); err != nil {
			t.Fatal(err)
		}
		if !alive[b.ProcessID()] || time.Now().After(deadline) {
			break
		}
	}
	if !alive[a.ProcessID()] || alive[b.ProcessID()] {
		t.Fatalf("after b closed: %v", alive)
	}
	if got, err := a.Alive(ctx, nil); err != nil || len(got) != 0 {
		t.Fatalf("Alive(nil) = %v, %v", got, err)
	}
	if _, err := b.Alive(ctx, ids); err == nil {
		t.Fatal("a closed store answered Alive")
	}
}
