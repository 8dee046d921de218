package llm

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/rooms"
	"github.com/chaguan/chaguan/rooms/memstore"
	"github.com/chaguan/chaguan/rooms/roomtest"
)

// firstOption answers the first listed option, with the key echoed nowhere.
func firstOption(user string) reply {
	m := regexp.MustCompile(`N from (-?\d+) to`).FindStringSubmatch(user)
	if m == nil {
		return reply{content: "no options?"}
	}
	return reply{content: `{"option": ` + m[1] + `}`}
}

// modelStyle answers the first listed option as a reasoning model writes
// it: a <think> block, a sentence, then a ```json fence.
func modelStyle(user string) reply {
	r := firstOption(user)
	r.content = "<think>Option 2 looks tempting: {\"option\": 2}.</think>\nThe first option is safest.\n```json\n" + r.content + "\n```"
	return r
}

// TestThroughRooms: seat 0 is the level "llm-test" against the built-in
// normal bot, through a real rooms.Manager on the memory store. A good
// endpoint plays every decision of seat 0 with no fallback; a malformed,
// out-of-range, slow or failing one makes the room play normal instead,
// and the fallback is counted with its reason. The game goes on either
// way, and the key is in no log line, stored record or view.
func TestThroughRooms(t *testing.T) {
	for _, c := range []struct {
		name    string
		answer  func(string) reply
		timeout time.Duration
		reason  string // "" for no fallback
	}{
		{"good answers", firstOption, 5 * time.Second, ""},
		{"answers as models write them", modelStyle, 5 * time.Second, ""},
		{"only reasoning", always(reply{content: "<think>I pick {\"option\": 1}"}), 5 * time.Second, rooms.FallbackError},
		{"malformed", always(reply{content: "place it north, key " + string(testKey)}), 5 * time.Second, rooms.FallbackError},
		{"out of range", always(reply{content: `{"option": 500}`}), 5 * time.Second, rooms.FallbackError},
		{"slow past the timeout", always(reply{content: `{"option": 1}`, delay: 5 * time.Second}), 100 * time.Millisecond, rooms.FallbackTimeout},
		{"HTTP 500", always(reply{status: 500, content: `{"error": {"message": "down ` + string(testKey) + `"}}`}), 5 * time.Second, rooms.FallbackError},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFake(t, c.answer)
			r := newRoom(t, f.player(t, c.timeout))
			mem, metrics, log, id := r.store, r.metrics, r.log, r.id
			const turns = 6
			rec, v := await(t, mem, id, 30*time.Second, func(v carcassonne.View) bool { return v.Turn > turns || v.Phase == carcassonne.PhaseOver })
			fb := metrics.List()
			t.Logf("turn %d, %d requests, fallbacks %v", v.Turn, f.requests(), fb)
			if c.reason == "" && len(fb) > 0 {
				t.Errorf("fallbacks %v with good answers\nlog:\n%s", fb, log.String())
			}
			if c.reason != "" {
				if len(fb) == 0 || fb[0] != "carcassonne/llm-test/"+c.reason {
					t.Errorf("fallbacks %v, want carcassonne/llm-test/%s\nlog:\n%s", fb, c.reason, log.String())
				}
				if !regexp.MustCompile(`bot player failed.*level=llm-test reason=` + c.reason + ` fallback=normal`).MatchString(log.String()) {
					t.Errorf("no fallback line in the log:\n%s", log.String())
				}
			}
			if f.requests() < turns/2 {
				t.Errorf("only %d requests reached the endpoint", f.requests())
			}
			whole, _ := json.Marshal(rec)
			mustNotLeak(t, "the log", log.String())
			mustNotLeak(t, "the stored record", string(whole))
			for seat := range 3 {
				st, err := carcassonne.Game.Load(rec.State)
				if err != nil {
					t.Fatal(err)
				}
				b, err := st.AppendView(nil, seat-1)
				if err != nil {
					t.Fatal(err)
				}
				mustNotLeak(t, "the view of seat "+strconv.Itoa(seat-1), string(b))
			}
		})
	}
}

// llmRoom is a match of the level "llm-test" (seat 0) against the
// built-in normal bot (seat 1) in a rooms.Manager on the memory store.
type llmRoom struct {
	store   *memstore.Store
	metrics *roomtest.Fallbacks
	log     *roomtest.Buffer
	id      string
}

// newRoom starts a manager with p as a Carcassonne bot level and creates
// the match, whose bots start playing at once.
func newRoom(t *testing.T, p *Engine) llmRoom {
	t.Helper()
	r := llmRoom{store: memstore.New(memstore.Options{}), metrics: &roomtest.Fallbacks{}, log: &roomtest.Buffer{}}
	t.Cleanup(func() { _ = r.store.Close() })
	m := rooms.New(rooms.Config{
		Store: r.store, Games: games.NewRegistry(carcassonne.Game), BotDelay: rooms.ZeroBotDelay,
		Logger: slog.New(slog.NewTextHandler(r.log, nil)), Metrics: r.metrics,
		Engines: map[string]map[string]rooms.EngineLevel{"carcassonne": {p.Level(): p.PlayerLevel()}},
	})
	t.Cleanup(m.Close)
	if got := m.BotLevels(carcassonne.Rules{}.Info()); !slices.Contains(got, "llm-test") {
		t.Fatalf("bot levels %v lack llm-test", got)
	}
	id, err := m.Create(context.Background(), "carcassonne", rooms.CreateParams{NumPlayers: 2, Bots: map[string]string{"0": "llm-test", "1": "normal"}})
	if err != nil {
		t.Fatal(err)
	}
	r.id = id
	// Bots play only while somebody is connected: a spectator watches.
	v, err := m.Connect(context.Background(), "carcassonne", id, rooms.Hello{}, nopSink{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	return r
}

// nopSink takes every message and drops it.
type nopSink struct{}

func (nopSink) Send([]byte, rooms.Kind) bool { return true }
func (nopSink) Close()                       {}

// await polls the stored match until done accepts its view.
func await(t *testing.T, store rooms.Store, id string, d time.Duration, done func(carcassonne.View) bool) (*rooms.Record, carcassonne.View) {
	t.Helper()
	var v carcassonne.View
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		rec, err := store.Get(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		st, err := carcassonne.Game.Load(rec.State)
		if err != nil {
			t.Fatal(err)
		}
		b, err := st.AppendView(nil, games.Spectator)
		if err != nil {
			t.Fatal(err)
		}
		v = carcassonne.View{}
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		if done(v) {
			return rec, v
		}
	}
	t.Fatalf("not done within %v; turn %d phase %s", d, v.Turn, v.Phase)
	return nil, v
}
