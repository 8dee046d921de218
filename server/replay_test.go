package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/chaguan/chaguan/protocol"
	"github.com/chaguan/chaguan/server/servertest"
)

// replayCase is a match the replay test plays: seat 0 a person whose bot
// plays for them (autoplay), the other seats bots. A game that does not
// end soon (Gong Zhu never does) stops at stopAt: seat 0 resigns there
// when resign is set, and is compared as it stands otherwise.
type replayCase struct {
	game   string
	seats  int
	setup  any
	stopAt int64
	resign bool
}

// TestReplayEqualsLive plays a match of every game while a spectator
// watches, then checks that every step of GET .../replay is exactly what
// the spectator was shown at that stateID: the view, the ctx and the log
// entry of the move that made it.
func TestReplayEqualsLive(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{BotDelay: time.Millisecond})
	for _, c := range []replayCase{
		{game: "gomoku", seats: 2, stopAt: 14, resign: true},
		{game: "weiqi", seats: 2, setup: map[string]any{"size": 9}, stopAt: 16, resign: true},
		{game: "threemonks", seats: 3},
		{game: "carcassonne", seats: 2},
		{game: "gongzhu", seats: 4, stopAt: 70},
	} {
		t.Run(c.game, func(t *testing.T) { replayMatch(t, srv.URL, c) })
	}
}

func replayMatch(t *testing.T, base string, c replayCase) {
	bots := map[string]string{}
	for i := 1; i < c.seats; i++ {
		bots[fmt.Sprint(i)] = "easy"
	}
	body := map[string]any{"numPlayers": c.seats, "bots": bots}
	if c.setup != nil {
		body["setupData"] = c.setup
	}
	id := create(t, base, c.game, body)
	spec := dial(t, base, c.game, id)
	live := map[int64]*protocol.State{}
	first := spec.hello(nil)
	live[first.StateID] = first

	ann := join(t, base, c.game, id, "Ann")
	me := dial(t, base, c.game, id)
	me.hello(&ann)
	me.send(map[string]any{"type": "autoplay", "on": true})
	deadline := time.Now().Add(90 * time.Second)
	for {
		s := spec.state()
		live[s.StateID] = s
		if g := string(s.Ctx.Gameover); g != "" && g != "null" {
			break
		}
		if c.stopAt > 0 && s.StateID >= c.stopAt {
			if !c.resign {
				break
			}
			me.send(map[string]any{"type": "autoplay", "on": false})
			me.send(map[string]any{"type": "move", "id": 999, "move": "resign", "args": []any{}})
			c.stopAt = 0 // now wait for the end
		}
		if time.Now().After(deadline) {
			t.Fatalf("no end by state %d", s.StateID)
		}
	}

	rp := fetchReplay(t, base, c.game, id)
	if rp.MatchID != id || rp.GameName != c.game || len(rp.Players) != c.seats {
		t.Fatalf("replay head: %s %s %d players", rp.MatchID, rp.GameName, len(rp.Players))
	}
	compared := 0
	for i, step := range rp.Steps {
		if step.StateID != int64(i)+1 {
			t.Fatalf("step %d has stateID %d", i, step.StateID)
		}
		s, ok := live[step.StateID]
		if !ok {
			continue
		}
		compared++
		if !bytes.Equal(compact(t, step.G), compact(t, s.G)) {
			t.Fatalf("state %d: replay view\n%s\nlive\n%s", step.StateID, step.G, s.G)
		}
		if a, b := mustJSON(t, step.Ctx), mustJSON(t, s.Ctx); !bytes.Equal(a, b) {
			t.Fatalf("state %d: replay ctx %s, live %s", step.StateID, a, b)
		}
		if i == 0 {
			continue
		}
		if step.Log == nil || len(s.Log) == 0 {
			t.Fatalf("state %d: no log entry (replay %v, live %d entries)", step.StateID, step.Log, len(s.Log))
		}
		if a, b := mustJSON(t, step.Log), mustJSON(t, s.Log[len(s.Log)-1]); !bytes.Equal(a, b) {
			t.Fatalf("state %d: replay log %s, live %s", step.StateID, a, b)
		}
	}
	// Every live state is in the replay; a finished match's replay ends
	// where the live match did.
	last := rp.Steps[len(rp.Steps)-1].StateID
	_, ended := live[last]
	if compared != len(live) || compared < 10 || (!ended && c.stopAt == 0) {
		t.Fatalf("compared %d of %d live states (replay ends at %d)", compared, len(live), last)
	}
	t.Logf("%s: %d steps, %d compared with the live spectator", c.game, len(rp.Steps), compared)
}

// fetchReplay reads a match's whole replay, asking for 50 steps a page
// (so paging is tested too) and following next.
func fetchReplay(t *testing.T, base, game, id string) protocol.Replay {
	t.Helper()
	var all protocol.Replay
	for from := int64(1); ; {
		code, b := get(t, fmt.Sprintf("%s/games/%s/%s/replay?from=%d&limit=50", base, game, id, from))
		if code != 200 {
			t.Fatalf("replay from %d: %d %s", from, code, b)
		}
		var page protocol.Replay
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatal(err)
		}
		if page.From != from || len(page.Steps) == 0 || len(page.Steps) > 50 || page.Steps[0].StateID != from {
			t.Fatalf("page from %d: from %d, %d steps", from, page.From, len(page.Steps))
		}
		steps := append(all.Steps, page.Steps...)
		all, all.Steps = page, steps
		if page.Next == 0 {
			if int64(len(all.Steps)) != page.Total {
				t.Fatalf("%d steps of %d", len(all.Steps), page.Total)
			}
			return all
		}
		if page.Next != from+int64(len(page.Steps)) {
			t.Fatalf("page from %d: %d steps, next %d", from, len(page.Steps), page.Next)
		}
		from = page.Next
	}
}

// TestReplayErrors: bad pages are refused, unknown matches are not found,
// and a record kept without its moves says it cannot be replayed.
func TestReplayErrors(t *testing.T) {
	srv := servertest.Start(t, servertest.Options{})
	id := create(t, srv.URL, "gomoku", map[string]any{"numPlayers": 2})
	for q, want := range map[string]int{
		"?from=0": 400, "?limit=0": 400, "?limit=501": 400, "?from=x": 400,
		"?from=99999999999999999999": 400, "": 200, "?from=5": 200,
	} {
		if code, b := get(t, srv.URL+"/games/gomoku/"+id+"/replay"+q); code != want {
			t.Errorf("replay%s: %d %s, want %d", q, code, b, want)
		}
	}
	if code, _ := get(t, srv.URL+"/games/gomoku/nope/replay"); code != 404 {
		t.Errorf("unknown match: %d", code)
	}
}

func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
