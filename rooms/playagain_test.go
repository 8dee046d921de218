package rooms_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/redistest"
)

// nextCheckingStore counts the records created and notes every write that
// records a nextMatchID whose match is not stored yet.
type nextCheckingStore struct {
	rooms.Store
	mu       sync.Mutex
	created  int
	dangling []string
}

func (s *nextCheckingStore) Create(ctx context.Context, rec *rooms.Record) error {
	err := s.Store.Create(ctx, rec)
	if err == nil {
		s.mu.Lock()
		s.created++
		s.mu.Unlock()
	}
	return err
}

func (s *nextCheckingStore) Update(ctx context.Context, rec *rooms.Record, prev int64) error {
	if rec.NextMatchID != "" {
		if _, err := s.Store.Get(ctx, rec.NextMatchID); err != nil {
			s.mu.Lock()
			s.dangling = append(s.dangling, rec.NextMatchID)
			s.mu.Unlock()
		}
	}
	return s.Store.Update(ctx, rec, prev)
}

// reset forgets the creates counted so far.
func (s *nextCheckingStore) reset() {
	s.mu.Lock()
	s.created = 0
	s.mu.Unlock()
}

// gomokuManager is a manager of gomoku matches on st whose bots wait.
func gomokuManager(t *testing.T, st rooms.Store) *rooms.Manager {
	t.Helper()
	m := rooms.New(rooms.Config{Store: st, Games: games.NewRegistry(gomoku.Game), BotDelay: time.Hour})
	t.Cleanup(m.Close)
	return m
}

// seatedMatch creates a 2-player gomoku match with both seats joined; it
// returns the match and seat 0's credentials.
func seatedMatch(t *testing.T, m *rooms.Manager) (string, string) {
	t.Helper()
	ctx := context.Background()
	id, err := m.Create(ctx, "gomoku", rooms.CreateParams{NumPlayers: 2})
	if err != nil {
		t.Fatal(err)
	}
	_, creds, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := m.Join(ctx, "gomoku", id, rooms.JoinParams{Name: "Bob"}); err != nil {
		t.Fatal(err)
	}
	return id, creds
}

// checkedMatch is seatedMatch on a checking memory store, whose count of
// creates starts after that match.
func checkedMatch(t *testing.T) (*nextCheckingStore, *rooms.Manager, string, string) {
	t.Helper()
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	st := &nextCheckingStore{Store: mem}
	m := gomokuManager(t, st)
	id, creds := seatedMatch(t, m)
	st.reset()
	return st, m, id, creds
}

// TestRefusedPlayAgainRecordsNothing: a playAgain refused for its
// parameters answers bad_request and leaves no nextMatchID behind, so a
// later valid one creates a real next match.
func TestRefusedPlayAgainRecordsNothing(t *testing.T) {
	st, m, id, creds := checkedMatch(t)
	ctx := context.Background()
	for _, p := range []rooms.PlayAgainParams{
		{NumPlayers: 99},
		{NumPlayers: -1},
		{SetupData: json.RawMessage(`"zz"`)},
	} {
		p.PlayerID, p.Credentials = "0", creds
		next, err := m.PlayAgain(ctx, "gomoku", id, p)
		if rooms.AsError(err).Code != protocol.CodeBadRequest || next != "" {
			t.Fatalf("playAgain %+v: %q, %v; want bad_request", p, next, err)
		}
		got, err := m.Get(ctx, "gomoku", id)
		if err != nil {
			t.Fatal(err)
		}
		if got.NextMatchID != "" {
			t.Fatalf("refused playAgain %+v recorded nextMatchID %q", p, got.NextMatchID)
		}
	}
	next, err := m.PlayAgain(ctx, "gomoku", id, rooms.PlayAgainParams{PlayerID: "0", Credentials: creds})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Get(ctx, "gomoku", next); err != nil {
		t.Fatalf("next match %s: %v", next, err)
	}
	if again, err := m.PlayAgain(ctx, "gomoku", id, rooms.PlayAgainParams{PlayerID: "0", Credentials: creds}); err != nil || again != next {
		t.Fatalf("second playAgain: %q, %v; want %q", again, err, next)
	}
	if len(st.dangling) > 0 {
		t.Fatalf("nextMatchID recorded before its match existed: %v", st.dangling)
	}
}

// TestPlayAgainRaceCreatesOneMatch: many concurrent playAgain calls all get
// the same ID, the next match exists before any write records it, and only
// one record is created.
func TestPlayAgainRaceCreatesOneMatch(t *testing.T) {
	st, m, id, creds := checkedMatch(t)
	const callers = 8
	ids := make([]string, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ids[i], errs[i] = m.PlayAgain(context.Background(), "gomoku", id, rooms.PlayAgainParams{PlayerID: "0", Credentials: creds})
		}()
	}
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || ids[i] != ids[0] || ids[0] == "" {
			t.Fatalf("caller %d: %q, %v; caller 0 got %q", i, ids[i], errs[i], ids[0])
		}
	}
	if _, err := st.Get(context.Background(), ids[0]); err != nil {
		t.Fatalf("the returned next match %s is not stored: %v", ids[0], err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.created != 1 || len(st.dangling) > 0 {
		t.Fatalf("created %d records (want 1); dangling nextMatchIDs %v", st.created, st.dangling)
	}
}

// TestPlayAgainNeedsCredentials: a caller with wrong credentials creates
// nothing.
func TestPlayAgainNeedsCredentials(t *testing.T) {
	st, m, id, _ := checkedMatch(t)
	_, err := m.PlayAgain(context.Background(), "gomoku", id, rooms.PlayAgainParams{PlayerID: "0", Credentials: "nope"})
	if rooms.AsError(err).Code != protocol.CodeForbidden {
		t.Fatalf("wrong credentials: %v, want forbidden", err)
	}
	if st.created != 0 {
		t.Fatalf("a refused playAgain created %d records", st.created)
	}
}

// TestPlayAgainJoinableFromAnotherProcess: on a shared Redis store, two
// processes ask to play again at once; each joins the ID it got through
// the other process at once, and the match is there.
func TestPlayAgainJoinableFromAnotherProcess(t *testing.T) {
	url := redistest.URL(t)
	prefix := redistest.Prefix(t, url)
	procs := [2]*rooms.Manager{gomokuManager(t, openStore(t, url, prefix)), gomokuManager(t, openStore(t, url, prefix))}
	ctx := context.Background()
	for range 10 {
		id, creds := seatedMatch(t, procs[0])
		errs := make(chan error, 2)
		for i, m := range procs {
			go func() {
				next, err := m.PlayAgain(ctx, "gomoku", id, rooms.PlayAgainParams{PlayerID: "0", Credentials: creds})
				if err == nil {
					_, _, err = procs[1-i].Join(ctx, "gomoku", next, rooms.JoinParams{Name: "Ann"})
				}
				errs <- err
			}()
		}
		for range procs {
			if err := <-errs; err != nil {
				t.Fatalf("play again, then join through the other process: %v", err)
			}
		}
	}
}
