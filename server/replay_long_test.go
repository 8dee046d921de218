package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/server"
	"github.com/chaguan/chaguan/server/servertest"
)

// botRecord plays up to n moves of a match of easy bots through the rules
// alone (no room: the fastest way to a long match), and returns its
// record as it was stored before moves were kept in chunks, every move in
// Moves, with the spectator's view after each move whose stateID keep
// accepts. The match ends earlier if the game does.
func botRecord(t testing.TB, id, game string, seats, n int, keep func(int64) bool) (*rooms.Record, map[int64][]byte) {
	t.Helper()
	g, _ := all.Registry().Get(game)
	const seed = 20260101
	st, err := g.Setup(seats, nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	views := map[int64][]byte{}
	var moves []rooms.MoveRecord
	for len(moves) < n && st.Status().Outcome == nil {
		seat := st.Status().Movers(seats)[0]
		name, args, err := st.Bot("easy", seat, rng)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			t.Fatal(err)
		}
		if string(args) == "[]" {
			args = nil
		}
		moves = append(moves, rooms.MoveRecord{Seat: seat, Move: name, Args: args})
		if stateID := int64(len(moves)) + 1; keep(stateID) {
			if views[stateID], err = st.AppendView(nil, games.Spectator); err != nil {
				t.Fatal(err)
			}
		}
	}
	state, err := st.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	seq := int64(len(moves)) + 1
	rec := &rooms.Record{ID: id, Game: game, NumPlayers: seats, CreatedAt: 1_700_000_000_000, UpdatedAt: 1_700_000_000_000,
		Version: seq, StateID: seq, Seats: make([]rooms.Seat, seats), State: state, Moves: moves,
		Options: rooms.Options{GraceMs: 60000, Seed: seed}}
	for i := range rec.Seats {
		rec.Seats[i] = rooms.Seat{Name: fmt.Sprintf("Bot %d", i), Bot: "easy"}
	}
	if out := st.Status().Outcome; out != nil {
		rec.Gameover, _ = json.Marshal(out)
	}
	return rec, views
}

// storeRecords returns a memory store holding recs.
func storeRecords(t testing.TB, recs ...*rooms.Record) *memstore.Store {
	t.Helper()
	mem := memstore.New(memstore.Options{})
	t.Cleanup(func() { mem.Close() })
	for _, rec := range recs {
		if err := mem.Create(context.Background(), rec); err != nil {
			t.Fatal(err)
		}
	}
	return mem
}

// heapBytes is the live and not yet swept heap objects' bytes.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// TestReplayBurstMemory is the attack: 40 requests for the page of 500
// steps from stateID 13,000 of a 13,600-move Gong Zhu table (each step's
// view about 20 KB), 20 at a time, through the real handler. The heap
// must grow by less than 200 MB at its peak (it grew by about 2 GB when a
// page was bounded by steps alone and every request built its page at
// once): each page is cut at about 1 MiB, and at most four are built at
// once while the others wait or get 503 with Retry-After. The record is
// one stored before moves were kept in chunks (every move in it), which
// still replays.
func TestReplayBurstMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays a 13,600-move match")
	}
	const moves = 13600
	rec, views := botRecord(t, "burst", "gongzhu", 4, moves, func(id int64) bool { return id >= 13000 })
	srv := servertest.Start(t, servertest.Options{Store: storeRecords(t, rec)})
	url := srv.URL + "/games/gongzhu/burst/replay?from=13000&limit=500"

	runtime.GC()
	base := heapBytes()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			if h := heapBytes(); h > peak.Load() {
				peak.Store(h)
			}
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	type answer struct {
		code       int
		bytes      int64
		retryAfter string
	}
	answers := make(chan answer, 40)
	var wg sync.WaitGroup
	jobs := make(chan struct{}, 40)
	for range 40 {
		jobs <- struct{}{}
	}
	close(jobs)
	for range 20 {
		wg.Go(func() {
			for range jobs {
				resp, err := http.Get(url)
				if err != nil {
					t.Error(err)
					return
				}
				n, _ := io.Copy(io.Discard, resp.Body) // counted, not kept
				resp.Body.Close()
				answers <- answer{resp.StatusCode, n, resp.Header.Get("Retry-After")}
			}
		})
	}
	wg.Wait()
	close(stop)
	<-sampled
	close(answers)
	growth := int64(peak.Load()) - int64(base)
	ok, busy := 0, 0
	var biggest int64
	for a := range answers {
		switch {
		case a.code == 200:
			ok++
			biggest = max(biggest, a.bytes)
		case a.code == 503 && a.retryAfter != "":
			busy++
		default:
			t.Errorf("answer %d (%d bytes, Retry-After %q)", a.code, a.bytes, a.retryAfter)
		}
	}
	t.Logf("40 requests: %d pages (the biggest %d bytes), %d busy (503); heap %d MB before, peak growth %d MB",
		ok, biggest, busy, base>>20, growth>>20)
	if ok == 0 || biggest > rooms.MaxReplayPageBytes+64<<10 {
		t.Fatalf("%d pages served, the biggest %d bytes", ok, biggest)
	}
	if growth > 200<<20 {
		t.Fatalf("the heap grew by %d MB during the burst; want under 200 MB", growth>>20)
	}

	// The page itself: cut at its bytes, next where the rest start, every
	// step what the match showed then.
	code, b := get(t, url)
	if code != 200 {
		t.Fatalf("replay: %d %s", code, b)
	}
	var page protocol.Replay
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if page.Total != moves+1 || page.From != 13000 || len(page.Steps) == 0 || len(page.Steps) >= 500 ||
		page.Next != 13000+int64(len(page.Steps)) {
		t.Fatalf("page: total %d, from %d, %d steps, next %d", page.Total, page.From, len(page.Steps), page.Next)
	}
	for i, s := range page.Steps {
		if s.StateID != 13000+int64(i) || !bytes.Equal(compact(t, s.G), compact(t, views[s.StateID])) {
			t.Fatalf("step %d: stateID %d, not the match's view", i, s.StateID)
		}
	}
}

// TestReplayLongMatch: a match of more than 20,000 moves replays to its
// end. It starts from a record of 19,990 moves stored before chunks (every
// move in it); a spectator connects and the bots play on, sealing the
// old moves a chunk per move; the last page of the replay is what the
// spectator was shown, step by step, and the record keeps fewer than a
// chunk of moves.
func TestReplayLongMatch(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: plays a 20,000-move match")
	}
	const moves = 19990
	rec, views := botRecord(t, "long", "gongzhu", 4, moves, func(id int64) bool { return id%rooms.LegacyMovesPerChunk < 3 })
	old, _ := json.Marshal(rec)
	mem := storeRecords(t, rec)
	// A send queue longer than the 41 moves played here lets the spectator
	// be shown every state however busy the machine (a full queue drops
	// superseded states: a viewer that falls behind sees only the latest).
	srv := servertest.Start(t, servertest.Options{Store: mem, BotDelay: 2 * time.Millisecond,
		WS: server.WSConfig{SendBuffer: 4096}})

	spec := dial(t, srv.URL, "gongzhu", "long")
	live := map[int64]*protocol.State{}
	first := spec.hello(nil)
	live[first.StateID] = first
	const end = moves + 1 + 40
	for s := first; s.StateID < end; {
		s = spec.state()
		live[s.StateID] = s
	}
	stored, err := mem.Get(context.Background(), "long")
	if err != nil {
		t.Fatal(err)
	}
	now, _ := json.Marshal(stored)
	t.Logf("record of %d moves: %d bytes with every move in it; %d bytes with %d chunks sealed and %d moves in it",
		moves, len(old), len(now), stored.SealedChunks, len(stored.Moves))
	if stored.StateID < end || stored.SealedChunks != moves/rooms.LegacyMovesPerChunk || len(stored.Moves) >= rooms.LegacyMovesPerChunk {
		t.Fatalf("stored at seq %d: %d chunks sealed, %d moves in the record", stored.StateID, stored.SealedChunks, len(stored.Moves))
	}

	// The page that ends the match as the spectator last saw it.
	from := int64(end - 35)
	code, b := get(t, fmt.Sprintf("%s/games/gongzhu/long/replay?from=%d&limit=35", srv.URL, from))
	if code != 200 {
		t.Fatalf("replay: %d %s", code, b)
	}
	var page protocol.Replay
	if err := json.Unmarshal(b, &page); err != nil {
		t.Fatal(err)
	}
	if len(page.Steps) != 35 || page.Total < end || page.Steps[34].StateID != end-1 {
		t.Fatalf("page from %d: %d steps, total %d", from, len(page.Steps), page.Total)
	}
	for _, s := range page.Steps {
		l, ok := live[s.StateID]
		if !ok {
			t.Fatalf("state %d was not shown live", s.StateID)
		}
		if !bytes.Equal(compact(t, s.G), compact(t, l.G)) {
			t.Fatalf("state %d: replay view\n%.300s\nlive\n%.300s", s.StateID, s.G, l.G)
		}
		if a, b := mustJSON(t, s.Ctx), mustJSON(t, l.Ctx); !bytes.Equal(a, b) {
			t.Fatalf("state %d: replay ctx %s, live %s", s.StateID, a, b)
		}
		if a, b := mustJSON(t, s.Log), mustJSON(t, l.Log[len(l.Log)-1]); !bytes.Equal(a, b) {
			t.Fatalf("state %d: replay log %s, live %s", s.StateID, a, b)
		}
	}
	// Pages across the edges of the sealed chunks replay as the match was.
	for k := int64(1); k < 20; k += 6 {
		at := k*rooms.LegacyMovesPerChunk - 1
		code, b := get(t, fmt.Sprintf("%s/games/gongzhu/long/replay?from=%d&limit=5", srv.URL, at))
		var p protocol.Replay
		if code != 200 || json.Unmarshal(b, &p) != nil || len(p.Steps) != 5 {
			t.Fatalf("replay from %d: %d %.200s", at, code, b)
		}
		for _, s := range p.Steps {
			if v, ok := views[s.StateID]; ok && !bytes.Equal(compact(t, s.G), compact(t, v)) {
				t.Fatalf("state %d differs from the match's", s.StateID)
			}
		}
	}
}

// replayGet fetches url with If-None-Match inm (none when empty).
func replayGet(t *testing.T, url, inm string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("GET", url, nil)
	if inm != "" {
		req.Header.Set("If-None-Match", inm)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// TestReplayCaching: a finished match's pages carry an ETag and may be
// kept for good (immutable); If-None-Match is answered 304 without
// building anything, and a page built once is served again, both while
// every replay slot is taken; a page that must be built then waits and
// gets 503 with Retry-After. A match in play's pages have an ETag too
// but are revalidated, and a move changes it.
func TestReplayCaching(t *testing.T) {
	done, _ := botRecord(t, "done", "gomoku", 2, 1000, func(int64) bool { return false })
	if len(done.Gameover) == 0 {
		t.Fatal("the gomoku match did not end")
	}
	playing, _ := botRecord(t, "playing", "gomoku", 2, 6, func(int64) bool { return false })
	mem := storeRecords(t, done, playing)
	gate := rooms.NewReplayGate(1, 200*time.Millisecond)
	srv := servertest.Start(t, servertest.Options{Store: mem, Replays: gate})
	url := srv.URL + "/games/gomoku/done/replay?from=1&limit=10"

	resp, body := replayGet(t, url, "")
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || !strings.HasPrefix(etag, `"`) ||
		resp.Header.Get("Cache-Control") != "public, max-age=86400, immutable" {
		t.Fatalf("finished match: %d, ETag %s, Cache-Control %q", resp.StatusCode, etag, resp.Header.Get("Cache-Control"))
	}

	// Every slot taken: nothing can be built now.
	release, err := gate.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, inm := range []string{etag, `"other", W/` + etag, "*"} {
		resp, b := replayGet(t, url, inm)
		if resp.StatusCode != 304 || len(b) != 0 || resp.Header.Get("ETag") != etag {
			t.Fatalf("If-None-Match %s: %d, %d bytes, ETag %s", inm, resp.StatusCode, len(b), resp.Header.Get("ETag"))
		}
	}
	if resp, b := replayGet(t, url, ""); resp.StatusCode != 200 || !bytes.Equal(b, body) {
		t.Fatalf("the page built before: %d, %d bytes", resp.StatusCode, len(b))
	}
	resp, b := replayGet(t, srv.URL+"/games/gomoku/done/replay?from=2&limit=10", "")
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(b), "unavailable") {
		t.Fatalf("a page to build with every slot taken: %d, Retry-After %q, %s", resp.StatusCode, resp.Header.Get("Retry-After"), b)
	}
	release()
	if resp, _ := replayGet(t, srv.URL+"/games/gomoku/done/replay?from=2&limit=10", ""); resp.StatusCode != 200 {
		t.Fatalf("the slot freed: %d", resp.StatusCode)
	}

	// A match in play.
	purl := srv.URL + "/games/gomoku/playing/replay?from=1&limit=10"
	resp, _ = replayGet(t, purl, "")
	ptag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || ptag == "" || ptag == etag || resp.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("match in play: %d, ETag %s, Cache-Control %q", resp.StatusCode, ptag, resp.Header.Get("Cache-Control"))
	}
	if resp, _ := replayGet(t, purl, ptag); resp.StatusCode != 304 {
		t.Fatalf("match in play, unchanged: %d", resp.StatusCode)
	}
	more, _ := botRecord(t, "playing", "gomoku", 2, 7, func(int64) bool { return false })
	more.Version = playing.Version + 1
	if err := mem.Update(context.Background(), more, playing.Version); err != nil {
		t.Fatal(err)
	}
	resp, b = replayGet(t, purl, ptag)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") == ptag {
		t.Fatalf("match in play, after a move: %d, ETag %s", resp.StatusCode, resp.Header.Get("ETag"))
	}
	var page protocol.Replay
	if err := json.Unmarshal(b, &page); err != nil || page.Total != 8 || len(page.Steps) != 8 || page.Next != 0 {
		t.Fatalf("after a move: total %d, %d steps, next %d (%v)", page.Total, len(page.Steps), page.Next, err)
	}
}
