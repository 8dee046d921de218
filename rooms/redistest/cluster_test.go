package redistest

import (
	"context"
	"testing"

	"github.com/chaguan/chaguan/rooms/redisstore"
)

// TestCluster: the cluster serves keys through go-redis's cluster client,
// Slot agrees with CLUSTER KEYSLOT, and after KillMaster a key written
// (and replicated, WAIT) before is still there, served by the promoted
// replica.
func TestCluster(t *testing.T) {
	ctx := context.Background()
	c := StartCluster(t)
	cc := c.Client(t)
	for _, key := range []string{"a", "chaguan:{m1}:rec", "x:{}:y", "{user1000}.following", "茶馆"} {
		want, err := cc.ClusterKeySlot(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		if got := redisstore.Slot(key); int64(got) != want {
			t.Errorf("redisstore.Slot(%q) = %d, CLUSTER KEYSLOT says %d", key, got, want)
		}
	}
	const key = "test:{m1}:rec"
	if err := cc.Set(ctx, key, "kept", 0).Err(); err != nil {
		t.Fatal(err)
	}
	master, err := cc.MasterForKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := master.Wait(ctx, 1, 0).Result(); err != nil || n != 1 {
		t.Fatalf("WAIT 1 0 = %d, %v; want the replica to have the key", n, err)
	}
	old := c.KillMaster(t, key)
	promoted := c.AwaitTakeover(t, key, old)
	if old != master.Options().Addr {
		t.Errorf("KillMaster killed %s; go-redis said %s serves the key", old, master.Options().Addr)
	}
	n := node(promoted)
	defer n.Close()
	if v, err := n.Get(ctx, key).Result(); err != nil || v != "kept" {
		t.Fatalf("GET %s on the promoted replica %s = %q, %v", key, promoted, v, err)
	}
}
