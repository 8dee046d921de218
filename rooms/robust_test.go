package rooms_test

import (
	"bytes"
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
)

// racingStore makes the next moves' writes lose their compare-and-set: just
// before each, another writer (as a presence change on another process
// would) stores the current record again under a new stateID.
type racingStore struct {
	rooms.Store
	mu    sync.Mutex
	races int // move writes still to lose
}

func (s *racingStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	s.mu.Lock()
	race := s.races > 0
	s.mu.Unlock()
	if race {
		cur, err := s.Store.Get(ctx, rec.ID)
		if err != nil {
			return err
		}
		if rec.StateID > cur.StateID { // a move, not presence
			s.mu.Lock()
			s.races--
			s.mu.Unlock()
			other := *cur
			other.Version = cur.Version + 1
			if err := s.Store.Update(ctx, &other, cur.Version); err != nil {
				return err
			}
		}
	}
	return s.Store.Update(ctx, rec, prev)
}

func (s *racingStore) setRaces(n int) {
	s.mu.Lock()
	s.races = n
	s.mu.Unlock()
}

// TestMoveSurvivesConflictingWrites: a move whose write loses to other
// writers a few times in a row is judged again on the newer record and
// lands once; one that keeps losing is refused with stale_state and
// changes nothing, and the room plays on.
func TestMoveSurvivesConflictingWrites(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	st := &racingStore{Store: mem}
	m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	match := newBenchMatch(t, m, nil)
	defer match.close()
	id := match.id

	move := func(seat int, ref int64, x, y int) []byte {
		t.Helper()
		if err := match.seats[seat].Move(&ref, "place", games.Args(x, y), nil); err != nil {
			t.Fatal(err)
		}
		select {
		case msg := <-match.sinks[seat].answers:
			return msg
		case <-time.After(time.Minute):
			t.Fatal("no answer to the move")
			return nil
		}
	}
	seq := func() int64 {
		rec, err := mem.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		return rec.StateID
	}

	start := seq()
	st.setRaces(3)
	if msg := move(0, 1, 7, 7); !bytes.Contains(msg, []byte(`"ack":1`)) {
		t.Fatalf("a move that lost three races was not accepted: %s", msg)
	}
	if got := seq(); got != start+1 {
		t.Fatalf("stateID %d after one move from %d", got, start)
	}

	st.setRaces(1000)
	msg := move(1, 2, 0, 0)
	if !bytes.Contains(msg, []byte(`"code":"stale_state"`)) || !bytes.Contains(msg, []byte(`"ref":2`)) {
		t.Fatalf("a move that always loses: %s, want stale_state for ref 2", msg)
	}
	if got := seq(); got != start+1 {
		t.Fatalf("the refused move changed the stateID to %d", got)
	}

	st.setRaces(0)
	// It is still white's turn: black is refused as usual, white lands.
	if msg := move(0, 3, 1, 1); !bytes.Contains(msg, []byte(`"code":"not_your_turn"`)) {
		t.Fatalf("black moving twice: %s", msg)
	}
	if msg := move(1, 4, 0, 0); !bytes.Contains(msg, []byte(`"ack":4`)) {
		t.Fatalf("white's move after the races: %s", msg)
	}
	if got := seq(); got != start+2 {
		t.Fatalf("stateID %d after two moves from %d", got, start)
	}
}

// TestCloseRecordsDeparture: a stopping manager stores that the players
// connected through it left, while its store still answers, so that other
// processes see them away and their grace period starts. A seat also
// connected through another manager stays connected until that one stops.
func TestCloseRecordsDeparture(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	cfg := rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour}
	a, b := rooms.New(cfg), rooms.New(cfg)
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	ctx := context.Background()
	id, err := a.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	connect := func(m *rooms.Manager, pid, creds string) {
		t.Helper()
		if _, err := m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, &benchSink{answers: make(chan []byte, 16)}); err != nil {
			t.Fatal(err)
		}
	}
	for seat := range 2 {
		pid, creds, err := a.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "P" + games.PlayerID(seat)})
		if err != nil {
			t.Fatal(err)
		}
		connect(a, pid, creds)
		if seat == 0 {
			connect(b, pid, creds) // seat 0 has a second tab, on another process
		}
	}
	seats := func() []rooms.Seat {
		r, err := mem.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		return r.Seats
	}
	if s := seats(); s[0].Processes != 2 || s[1].Processes != 1 {
		t.Fatalf("connected before any stop: %d and %d, want 2 and 1", s[0].Processes, s[1].Processes)
	}
	a.Close()
	s := seats()
	if s[0].Processes != 1 || s[0].AwaySince != 0 {
		t.Errorf("seat 0, still connected through b: connected %d, awaySince %d", s[0].Processes, s[0].AwaySince)
	}
	if s[1].Processes != 0 || s[1].AwaySince == 0 {
		t.Errorf("seat 1 after its only process stopped: connected %d, awaySince %d", s[1].Processes, s[1].AwaySince)
	}
	b.Close()
	if s := seats(); s[0].Processes != 0 || s[0].AwaySince == 0 {
		t.Errorf("seat 0 after both processes stopped: connected %d, awaySince %d", s[0].Processes, s[0].AwaySince)
	}
	// A stopped manager starts no room: lobby calls and connections are refused.
	if _, err := a.Connect(ctx, "gomoku", id, rooms.Hello{}, &benchSink{answers: make(chan []byte, 1)}); err == nil {
		t.Error("a closed manager accepted a connection")
	}
}

// recordingSink keeps every message.
type recordingSink struct {
	mu    sync.Mutex
	msgs  [][]byte
	kinds []rooms.Kind
}

func (s *recordingSink) Send(msg []byte, kind rooms.Kind) bool {
	s.mu.Lock()
	s.msgs, s.kinds = append(s.msgs, msg), append(s.kinds, kind)
	s.mu.Unlock()
	return true
}

// kind is the Kind msg was sent with.
func (s *recordingSink) kind(t *testing.T, msg []byte) rooms.Kind {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, m := range s.msgs {
		if bytes.Equal(m, msg) {
			return s.kinds[i]
		}
	}
	t.Fatalf("%.80s was not sent", msg)
	return 0
}
func (s *recordingSink) Close() {}

func (s *recordingSink) await(t *testing.T, what string, ok func([]byte) bool) []byte {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		for _, m := range s.msgs {
			if ok(m) {
				s.mu.Unlock()
				return m
			}
		}
		s.mu.Unlock()
	}
	t.Fatalf("no %s", what)
	return nil
}

// TestKindsOfRoomMessages: the room tells its sink what each message is:
// only a state message without ack is one a later state supersedes
// (KindState); the mover's answer, a refusal and chat are kept.
func TestKindsOfRoomMessages(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	m := rooms.New(rooms.Config{Store: mem, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	var sinks [2]*recordingSink
	var seats [2]*rooms.Viewer
	for seat := range 2 {
		pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "P"})
		if err != nil {
			t.Fatal(err)
		}
		sinks[seat] = &recordingSink{}
		if seats[seat], err = m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, sinks[seat]); err != nil {
			t.Fatal(err)
		}
	}
	ref := int64(9)
	if err := seats[0].Move(&ref, "place", games.Args(7, 7), nil); err != nil {
		t.Fatal(err)
	}
	wrong := int64(10)
	if err := seats[0].Move(&wrong, "place", games.Args(1, 1), nil); err != nil {
		t.Fatal(err)
	}
	if err := seats[1].Chat("hello \"G\":"); err != nil {
		t.Fatal(err)
	}
	has := func(s string) func([]byte) bool { return func(m []byte) bool { return bytes.Contains(m, []byte(s)) } }
	for _, c := range []struct {
		what string
		sink *recordingSink
		msg  []byte
		want rooms.Kind
	}{
		{"the mover's acked state", sinks[0], sinks[0].await(t, "acked state", has(`"ack":9`)), rooms.KindAckedState},
		{"the other seat's state", sinks[1], sinks[1].await(t, "state with a stone", has(`"moves":[[7,7]]`)), rooms.KindState},
		{"a refusal", sinks[0], sinks[0].await(t, "refusal", has(`"ref":10`)), rooms.KindOther},
		{"chat", sinks[0], sinks[0].await(t, "chat", has(`"type":"chat"`)), rooms.KindOther},
	} {
		if got := c.sink.kind(t, c.msg); got != c.want {
			t.Errorf("%s sent as kind %d, want %d: %.120s", c.what, got, c.want, c.msg)
		}
	}
}

// crashableStore refuses every write once crashed is set.
type crashableStore struct {
	rooms.Store
	crashed atomic.Bool
}

func (s *crashableStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if s.crashed.Load() {
		return rooms.ErrUnavailable
	}
	return s.Store.Update(ctx, rec, prev)
}

// fakeCluster is a table of which fake processes are alive, shared by
// their managers' Liveness.
type fakeCluster struct {
	mu    sync.Mutex
	alive map[string]bool
}

func (c *fakeCluster) setAlive(id string, v bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.alive == nil {
		c.alive = map[string]bool{}
	}
	c.alive[id] = v
}

// fakeLiveness is process id of a fakeCluster.
type fakeLiveness struct {
	id string
	c  *fakeCluster
}

func (f fakeLiveness) ProcessID() string { return f.id }
func (f fakeLiveness) Alive(_ context.Context, ids []string) (map[string]bool, error) {
	f.c.mu.Lock()
	defer f.c.mu.Unlock()
	out := map[string]bool{}
	for _, id := range ids {
		out[id] = f.c.alive[id]
	}
	return out, nil
}

// manager starts process id of the cluster on st, alive.
func (c *fakeCluster) manager(t *testing.T, id string, st rooms.Store, grace time.Duration) *rooms.Manager {
	c.setAlive(id, true)
	m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: rooms.ZeroBotDelay,
		Grace: grace, Liveness: fakeLiveness{id: id, c: c}})
	t.Cleanup(m.Close)
	return m
}

// acrossTwo starts a Gomoku match with black connected through a and
// white through b.
func acrossTwo(t *testing.T, a, b *rooms.Manager) (id string, seats [2]*rooms.Viewer, sinks [2]*recordingSink) {
	ctx := context.Background()
	id, err := a.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for seat, m := range []*rooms.Manager{a, b} {
		pid, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "P"})
		if err != nil {
			t.Fatal(err)
		}
		sinks[seat] = &recordingSink{}
		if seats[seat], err = m.Connect(ctx, "gomoku", id, rooms.Hello{PlayerID: &pid, Credentials: creds}, sinks[seat]); err != nil {
			t.Fatal(err)
		}
	}
	return id, seats, sinks
}

func seatsOf(t *testing.T, st rooms.Store, id string) []rooms.Seat {
	t.Helper()
	r, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return r.Seats
}

// TestCrashedProcessHoldersDropped: black is connected through process A,
// white through B. A dies without a word (no Close); B's room finds A gone,
// counts black's connection as closed, and once black's grace period has
// run out the bot plays black's turn.
func TestCrashedProcessHoldersDropped(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	var cl fakeCluster
	// A's store access ends when it "crashes": its room, still running in
	// this test, can no longer write (a crashed process writes nothing).
	aStore := &crashableStore{Store: mem}
	a, b := cl.manager(t, "A", aStore, 200*time.Millisecond), cl.manager(t, "B", mem, 200*time.Millisecond)
	id, _, sinks := acrossTwo(t, a, b)
	s := seatsOf(t, mem, id)
	if s[0].Processes != 1 || !slices.Equal(s[0].Holders, []string{"A"}) || !slices.Equal(s[1].Holders, []string{"B"}) {
		t.Fatalf("holders before the crash: %+v", s)
	}
	// Long past black's grace period, black is still connected: no bot.
	time.Sleep(400 * time.Millisecond)
	if s := seatsOf(t, mem, id); s[0].Processes != 1 || s[0].AwaySince != 0 {
		t.Fatalf("black away while A lives: %+v", s[0])
	}
	aStore.crashed.Store(true)
	cl.setAlive("A", false)
	// The bot moves for black once B has seen A gone and the grace passed.
	sinks[1].await(t, "a stone played for black by the bot", func(m []byte) bool { return bytes.Contains(m, []byte(`"moves":[[`)) })
	s = seatsOf(t, mem, id)
	if s[0].Processes != 0 || len(s[0].Holders) != 0 || s[0].AwaySince == 0 {
		t.Errorf("black after A crashed: %+v", s[0])
	}
	if s[1].Processes != 1 || !slices.Equal(s[1].Holders, []string{"B"}) {
		t.Errorf("white, on the live process: %+v", s[1])
	}
}

// TestLiveProcessReassertsHolders: when A wrongly finds B dead (B's
// liveness subscription was reconnecting, say) and drops white's
// connection through B, B puts it back at once, so the bot never takes the
// turn of a player who is connected.
func TestLiveProcessReassertsHolders(t *testing.T) {
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	var cl fakeCluster
	a, b := cl.manager(t, "A", mem, time.Second), cl.manager(t, "B", mem, time.Second)
	id, seats, sinks := acrossTwo(t, a, b)
	ref := int64(1)
	if err := seats[0].Move(&ref, "place", games.Args(7, 7), nil); err != nil {
		t.Fatal(err)
	}
	sinks[0].await(t, "black's move acked", func(m []byte) bool { return bytes.Contains(m, []byte(`"ack":1`)) })
	cl.setAlive("B", false)
	// A drops B's holder again and again for a while (each time B puts it
	// back); the grace period never runs out for white.
	sinks[0].await(t, "white shown away once", func(m []byte) bool {
		return bytes.Contains(m, []byte(`"isConnected":false`))
	})
	time.Sleep(600 * time.Millisecond)
	cl.setAlive("B", true)
	time.Sleep(300 * time.Millisecond)
	rec, err := mem.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if s := rec.Seats[1]; s.Processes != 1 || !slices.Equal(s.Holders, []string{"B"}) || s.AwaySince != 0 {
		t.Errorf("white's seat after the false alarm: %+v", s)
	}
	if rec.StateID != 2 { // joins do not bump the stateID; black's move did once
		t.Errorf("stateID %d: the bot moved for white, who was connected all along", rec.StateID)
	}
}
