package redisstore_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/redisstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// failoverMoves is how many moves the failover test plays; the master is
// killed after killAfter of them.
const failoverMoves, killAfter = 30, 10

// TestClusterFailover plays a gomoku match on a Redis Cluster between two
// processes (two Managers, each with a store and cluster client of its
// own), Black connected to one and White to the other, and kills the master
// serving the match's slot with SIGKILL mid-game. Moves answered
// unavailable are sent again until one is acknowledged; the replica takes
// over and the match goes on to the end of the script. Every acknowledged
// move must be in the final record, in order, and both players' views must
// reach its last state. It logs how long moves got unavailable.
func TestClusterFailover(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	c := redistest.StartCluster(t)
	a, b := failoverManager(t, c), failoverManager(t, c)
	id, err := a.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	heard := listen(t, open(t, redisstore.Options{URL: c.URL}), id)
	players := [2]*player{connect(t, a, id, "Black"), connect(t, b, id, "White")}
	key := "chaguan:{" + id + "}:rec"

	var st failoverStats
	var killed string
	var killedAt time.Time
	for i := range failoverMoves {
		if i == killAfter {
			// The replica has the moves so far: this test is about the
			// failover (unavailable, retried, the slot map reloaded); what
			// asynchronous replication may lose is TestClusterFailoverWait's.
			c.AwaitReplicated(t, key)
			killedAt, killed = time.Now(), c.KillMaster(t, key)
		}
		if players[i%2].play(t, i, &st) {
			st.acked = append(st.acked, i)
		}
	}
	promoted := c.AwaitTakeover(t, key, killed)
	t.Logf("failover: master %s killed after move %d; replica %s serves the match's slot %d; the cluster was seen ok again %v after the kill (at the end of the moves)",
		killed, killAfter, promoted, redisstore.Slot(key), time.Since(killedAt).Round(time.Millisecond))
	t.Logf("failover: %d moves answered unavailable, from %v to %v after the kill (%v); the next move acknowledged %v after the kill; %d of %d moves acknowledged, %d applied without an acknowledgement",
		st.unavailable, st.firstUnavailable.Sub(killedAt).Round(time.Millisecond), st.lastUnavailable.Sub(killedAt).Round(time.Millisecond),
		st.lastUnavailable.Sub(st.firstUnavailable).Round(time.Millisecond), st.firstAckAfter.Sub(killedAt).Round(time.Millisecond),
		len(st.acked), failoverMoves, len(st.unacked))
	if st.unavailable == 0 {
		t.Error("no move was answered unavailable: the kill did not hit the match")
	}

	store := open(t, redisstore.Options{URL: c.URL})
	rec, err := store.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Moves) != failoverMoves {
		t.Fatalf("the final record has %d moves, want %d", len(rec.Moves), failoverMoves)
	}
	for _, i := range st.acked {
		x, y := position(i)
		if m := rec.Moves[i]; m.Seat != i%2 || m.Move != "place" || string(m.Args) != fmt.Sprintf("[%d,%d]", x, y) {
			t.Errorf("acknowledged move %d is %+v in the final record, want seat %d place [%d,%d]", i, m, i%2, x, y)
		}
	}
	heard.await(t, st.lastAckState)
	t.Logf("failover: a third store's subscription to the match was back (its resync event) %v after the kill",
		heard.resyncedAt().Sub(killedAt).Round(time.Millisecond))
	// Presence writes may follow the last move; each player must at least
	// have been shown it, White's through the other process's events.
	for seat, p := range players {
		p.awaitState(t, seat, st.lastAckState)
	}
}

// skipShort skips a failover test with -short (the CI's race-detector
// run): each starts a cluster of its own and waits for a takeover; the
// full run has them, and TestCluster covers the same code under -short.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a failover test takes about 10 s")
	}
}

// failoverStats are what the failover test measures.
type failoverStats struct {
	acked, unacked                    []int // move indexes
	unavailable                       int   // replies unavailable
	firstUnavailable, lastUnavailable time.Time
	firstAckAfter                     time.Time // the first acknowledgement after an unavailable
	lastAckState                      int64     // the stateID of the latest acknowledgement
}

// listener is a third store's subscription to a match, used as a room
// uses its own: it follows the events and, on a resync event (events may
// have been lost while the subscription was down), reads the stateID.
type listener struct {
	mu       sync.Mutex
	resyncs  int
	resynced time.Time // when the first resync came
	latest   int64     // the highest stateID heard of
}

// listen subscribes to match id in s and records its events until t ends.
func listen(t *testing.T, s *redisstore.Store, id string) *listener {
	events, cancel, err := s.Subscribe(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cancel)
	l := &listener{}
	go func() {
		for ev := range events {
			v := ev.RecordVersion()
			if ev.Resync {
				v, _ = s.Version(context.Background(), id) // 0 on failure
			}
			l.mu.Lock()
			if ev.Resync {
				if l.resyncs == 0 {
					l.resynced = time.Now()
				}
				l.resyncs++
			}
			l.latest = max(l.latest, v)
			l.mu.Unlock()
		}
	}()
	return l
}

// await waits until the listener has had a resync event (its connection
// died with the master) and knows of stateID or a later one, through its
// re-made subscription or the read after the resync.
func (l *listener) await(t *testing.T, stateID int64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		l.mu.Lock()
		done := l.resyncs > 0 && l.latest >= stateID
		l.mu.Unlock()
		if done {
			return
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	t.Fatalf("a subscriber on the cluster had %d resync events and heard of stateID %d, want a resync and %d", l.resyncs, l.latest, stateID)
}

// resyncedAt is when the first resync event came.
func (l *listener) resyncedAt() time.Time {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.resynced
}

// failoverManager is a "process" on the cluster: a store with a cluster
// client of its own and a Manager whose bots never move.
func failoverManager(t *testing.T, c *redistest.Cluster) *rooms.Manager {
	st := open(t, redisstore.Options{URL: c.URL})
	m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour,
		Grace: time.Hour, OpTimeout: 2 * time.Second})
	t.Cleanup(m.Close)
	return m
}

// player is one seat's connection and what it was sent.
type player struct {
	v    *rooms.Viewer
	sink *sink
	next int64 // the next move's id
}

// connect seats a person named name through m and connects them.
func connect(t *testing.T, m *rooms.Manager, id, name string) *player {
	ctx := context.Background()
	pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: name})
	if err != nil {
		t.Fatal(err)
	}
	p := &player{sink: &sink{}}
	if p.v, err = m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, p.sink); err != nil {
		t.Fatal(err)
	}
	return p
}

// position is where move i places its stone: Black's on even rows and
// White's on odd ones, three columns apart, so nobody makes five.
func position(i int) (x, y int) {
	k := i / 2
	return (k%5)*3 + i%2, (k/5)*2 + i%2
}

// play sends move i until it is acknowledged (true) or refused as already
// made (false: a reply lost in the failover, the move applied), counting
// unavailable replies in st.
func (p *player) play(t *testing.T, i int, st *failoverStats) bool {
	t.Helper()
	x, y := position(i)
	args := games.Args(x, y)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); {
		p.next++
		id := p.next
		from := p.sink.len()
		if err := p.v.Move(&id, "place", args, nil); err != nil {
			t.Fatalf("move %d: %v", i, err)
		}
		reply := p.sink.await(t, from, func(m *reply) bool { return m.ack(id) || m.refers(id) })
		switch {
		case reply.ack(id):
			st.lastAckState = reply.StateID
			if st.unavailable > 0 && st.firstAckAfter.IsZero() {
				st.firstAckAfter = time.Now()
			}
			return true
		case reply.Code == protocol.CodeUnavailable:
			now := time.Now()
			if st.unavailable == 0 {
				st.firstUnavailable = now
			}
			st.unavailable, st.lastUnavailable = st.unavailable+1, now
			time.Sleep(20 * time.Millisecond)
		case p.applied(t, i, x, y):
			st.unacked = append(st.unacked, i)
			return false
		default:
			t.Fatalf("move %d refused: %s %s", i, reply.Code, reply.Message)
		}
	}
	t.Fatalf("move %d not acknowledged within 60 s", i)
	return false
}

// applied reports whether the player's latest state has move i's stone:
// a reply lost while the master died may hide a move that was made.
func (p *player) applied(t *testing.T, i, x, y int) bool {
	t.Helper()
	if err := p.v.Sync(); err != nil {
		t.Fatal(err)
	}
	from := p.sink.len()
	state := p.sink.await(t, from, func(m *reply) bool { return m.Type == protocol.TypeState })
	return state.StateID >= int64(i+2) && state.Log != nil && slices.ContainsFunc(state.Log, func(e protocol.LogEntry) bool {
		return string(e.Args) == fmt.Sprintf("[%d,%d]", x, y)
	})
}

// awaitState waits until the player has been sent the state at stateID or
// a later one.
func (p *player) awaitState(t *testing.T, seat int, stateID int64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if p.sink.last() >= stateID {
			return
		}
	}
	t.Fatalf("seat %d's view is at stateID %d, not the last move's %d", seat, p.sink.last(), stateID)
}

// reply is the fields of a state or error message the test reads.
type reply struct {
	Type    string              `json:"type"`
	StateID int64               `json:"stateID"`
	Ack     *int64              `json:"ack"`
	Ref     *int64              `json:"ref"`
	Code    string              `json:"code"`
	Message string              `json:"message"`
	Log     []protocol.LogEntry `json:"log"`
}

func (r *reply) ack(id int64) bool {
	return r.Type == protocol.TypeState && r.Ack != nil && *r.Ack == id
}
func (r *reply) refers(id int64) bool {
	return r.Type == protocol.TypeError && r.Ref != nil && *r.Ref == id
}

// sink keeps every message a viewer is sent.
type sink struct {
	mu   sync.Mutex
	msgs []reply
}

func (s *sink) Send(msg []byte, _ rooms.Kind) bool {
	var r reply
	json.Unmarshal(msg, &r) // chat and other messages leave it empty
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, r)
	return true
}

func (s *sink) Close() {}

// last is the stateID of the latest state message.
func (s *sink) last() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.msgs) - 1; i >= 0; i-- {
		if s.msgs[i].Type == protocol.TypeState {
			return s.msgs[i].StateID
		}
	}
	return 0
}

func (s *sink) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.msgs)
}

// await waits up to 30 s for a message from index from on that ok accepts.
func (s *sink) await(t *testing.T, from int, ok func(*reply) bool) *reply {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		s.mu.Lock()
		for i := from; i < len(s.msgs); i++ {
			if ok(&s.msgs[i]) {
				r := s.msgs[i]
				s.mu.Unlock()
				return &r
			}
		}
		s.mu.Unlock()
	}
	t.Fatal("no such message within 30 s")
	return nil
}

// TestClusterLivenessFailover kills the master serving the liveness
// channels' slot under two stores: while they subscribe again on the
// promoted replica, Alive answers unavailable rather than count without
// its own process, and both show alive again afterwards. It logs how many
// answers called the other process dead: the window between the two
// processes' re-subscriptions, which rooms' reassertHolders puts right.
func TestClusterLivenessFailover(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	c := redistest.StartCluster(t)
	a := open(t, redisstore.Options{URL: c.URL})
	b := open(t, redisstore.Options{URL: c.URL})
	ids := []string{a.ProcessID(), b.ProcessID()}
	killed := c.KillMaster(t, "chaguan:{procs}:proc:"+a.ProcessID())
	killedAt := time.Now()
	unavailable, bDead := 0, 0
	var lastErr error
	for deadline := killedAt.Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the processes did not both show alive within 30 s of the kill (last error: %v)", lastErr)
		}
		alive, err := a.Alive(ctx, ids)
		if err != nil {
			unavailable, lastErr = unavailable+1, err
			continue
		}
		if !alive[a.ProcessID()] {
			t.Fatalf("Alive answered with a's own subscription missing: %v", alive)
		}
		if !alive[b.ProcessID()] {
			bDead++ // a is back on the new master, b not yet
			continue
		}
		break
	}
	t.Logf("liveness failover: master %s killed; both processes alive again %v after the kill; meanwhile %d Alive calls answered unavailable and %d called b dead",
		killed, time.Since(killedAt).Round(time.Millisecond), unavailable, bDead)
}
