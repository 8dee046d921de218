package redisstore_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
	"github.com/chaguan/chaguan/rooms/storetest"
)

// killRoundsWait is how many masters TestClusterFailoverWait kills with
// the option on (and a quarter as many, at least one, with it off): 8 by
// default (about 40 s), -failover-rounds=20 for the long run behind the
// figures in docs/reliability.md (about 2 minutes); writesPerRound is how
// many acknowledged Updates precede each kill.
var killRoundsWait = flag.Int("failover-rounds", 8, "masters TestClusterFailoverWait kills with WaitReplicas 1 (a quarter as many without)")

const writesPerRound = 5

// TestClusterFailoverWait: acknowledged means kept. On a Redis Cluster
// (three masters, a replica each) a store with WaitReplicas 1 plays
// rounds: it creates a match, has writesPerRound Updates acknowledged, and
// the master serving the match's slot (looked up beforehand) is killed
// with SIGKILL right after the last acknowledgement; once the replica has
// taken over, every acknowledged write must be in the store (the record
// at or past the last acknowledged stateID, with a log entry for each),
// and the killed node is restarted to rejoin as a replica for the next
// round. The same rounds with the option off are logged for comparison:
// they may lose writes whose replication was in flight when the master
// died, and are not asserted either way.
func TestClusterFailoverWait(t *testing.T) {
	skipShort(t)
	c := redistest.StartCluster(t)
	t.Run("Wait", func(t *testing.T) {
		o := redisstore.Options{URL: c.URL, Prefix: redistest.Prefix(t, c.URL), WaitReplicas: 1}
		st := killRounds(t, c, o, *killRoundsWait)
		t.Logf("WaitReplicas 1: %s", st)
		if st.lost > 0 {
			t.Errorf("%d of %d acknowledged writes lost in %d failovers with WaitReplicas 1", st.lost, st.acked, st.rounds)
		}
	})
	t.Run("NoWait", func(t *testing.T) {
		o := redisstore.Options{URL: c.URL, Prefix: redistest.Prefix(t, c.URL)}
		st := killRounds(t, c, o, max(*killRoundsWait/4, 1))
		t.Logf("no wait (allowed to lose writes, not asserted): %s", st)
	})
}

// roundStats are what killRounds saw.
type roundStats struct {
	rounds, acked, lost, unavailable int
	takeover, restart                time.Duration // totals
}

func (st roundStats) String() string {
	n := time.Duration(max(st.rounds, 1))
	return fmt.Sprintf("%d rounds (a master killed in each), %d acknowledged writes, %d lost; %d writes answered unavailable; a takeover took %v and a restart with resync %v on average",
		st.rounds, st.acked, st.lost, st.unavailable, (st.takeover / n).Round(time.Millisecond), (st.restart / n).Round(time.Millisecond))
}

// killRounds plays the rounds of TestClusterFailoverWait with a store
// opened with o.
func killRounds(t *testing.T, c *redistest.Cluster, o redisstore.Options, rounds int) roundStats {
	ctx := context.Background()
	s := open(t, o)
	var st roundStats
	for round := range rounds {
		id := fmt.Sprintf("kill%d", round)
		key := o.Prefix + ":{" + id + "}:rec"
		rec := storetest.NewRecord(id, "gomoku", 2048)
		eventually(t, "create match "+id, func() error {
			if err := s.Create(ctx, rec); err != nil && !errors.Is(err, rooms.ErrExists) {
				return err // an ErrExists is an earlier attempt's
			}
			return nil
		})
		master := c.MasterOf(t, key)
		var acked []int64
		cur := rec
		for deadline := time.Now().Add(30 * time.Second); len(acked) < writesPerRound; {
			if time.Now().After(deadline) {
				t.Fatalf("round %d: %d writes acknowledged in 30 s, want %d", round, len(acked), writesPerRound)
			}
			next := storetest.Next(cur)
			err := s.Update(ctx, next, cur.Version)
			if err == nil {
				acked, cur = append(acked, next.Version), next
				continue
			}
			if !errors.Is(err, rooms.ErrUnavailable) {
				t.Fatalf("round %d: Update: %v", round, err)
			}
			st.unavailable++
			if cur = get(t, s, id); cur == nil { // it may or may not have been written
				t.Fatalf("round %d: match %s vanished before the kill", round, id)
			}
		}
		c.Kill(t, master) // right after the last acknowledgement
		killedAt := time.Now()
		c.AwaitTakeover(t, key, master)
		st.takeover += time.Since(killedAt)

		stored := get(t, s, id)
		for _, sid := range acked {
			switch {
			case stored == nil:
				st.lost++
				t.Logf("round %d: acknowledged write of stateID %d lost: the match is not in the store", round, sid)
			case !hasWrite(stored, sid):
				st.lost++
				t.Logf("round %d: acknowledged write of stateID %d lost: the store has stateID %d", round, sid, stored.Version)
			}
		}
		st.rounds, st.acked = st.rounds+1, st.acked+len(acked)
		st.restart += c.Restart(t, master)
	}
	return st
}

// hasWrite reports whether rec holds the write of stateID sid as
// storetest.Next makes it: rec is at sid or later, with its log entry.
func hasWrite(rec *rooms.Record, sid int64) bool {
	return rec.Version >= sid && slices.ContainsFunc(rec.Log, func(e protocol.LogEntry) bool {
		return int64(e.Turn) == sid && string(e.Args) == fmt.Sprintf("[%d]", sid)
	})
}

// get reads match id, trying again for up to 30 s while the store is
// unavailable (a failover under way); nil if the match is not there.
func get(t *testing.T, s *redisstore.Store, id string) *rooms.Record {
	t.Helper()
	var rec *rooms.Record
	eventually(t, "get match "+id, func() (err error) {
		rec, err = s.Get(context.Background(), id)
		if errors.Is(err, rooms.ErrNotFound) {
			return nil
		}
		return err
	})
	return rec
}

// eventually calls fn until it succeeds, for up to 30 s while it answers
// ErrUnavailable; any other error fails t.
func eventually(t *testing.T, what string, fn func() error) {
	t.Helper()
	var err error
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if err = fn(); err == nil {
			return
		}
		if !errors.Is(err, rooms.ErrUnavailable) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	t.Fatalf("%s: still unavailable after 30 s: %v", what, err)
}
