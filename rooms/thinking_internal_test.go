package rooms

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
)

// TestThinkingOnTheWire: the seat thinking is in every viewer's state
// while it is shown, encoded as json.Marshal(protocol.State) would, with
// a clock too; a patch viewer gets it as an add at /thinking (a patch of
// the same stateID), then its removal with the move, and holds exactly
// what a full viewer holds at every step; a new connection's first state
// shows it too.
func TestThinkingOnTheWire(t *testing.T) {
	r := testRoom(t, gomoku.Game, 2, 3)
	r.rec.Options.Clock = &ClockOptions{PerMoveMs: 5000, BankMs: 60000}
	p := r.watchPair(1)
	rng := rand.New(rand.NewPCG(3, 3))
	r.botMove(t, rng, nil)
	p.check(t)

	// Seat 1's Engine starts and takes a while.
	r.botBusy = true
	r.startThinking(1)
	since := r.think.since
	r.think.shown = true
	r.broadcast(nil, nil)
	last := p.check(t)
	var add bool
	for _, op := range last.Ops {
		add = add || (op.Op == "add" && op.Path == "/thinking")
	}
	if last.Type != protocol.TypePatch || last.StateID != last.Base || !add {
		t.Fatalf("got %+v, want a patch of the same stateID adding /thinking", last)
	}
	var full protocol.State
	if err := json.Unmarshal(p.fs.msgs[len(p.fs.msgs)-1], &full); err != nil {
		t.Fatal(err)
	}
	if th := full.Thinking; th == nil || th.PlayerID != "1" || th.Since != since || th.ServerTime < since {
		t.Fatalf("thinking %+v, want seat 1 since %d", th, since)
	}
	// A presence change keeps it; a newcomer's first state has it.
	r.presenceChange(0)
	p.check(t)
	newcomer := &recSink{}
	v := &Viewer{r: r, sink: newcomer, seat: games.Spectator}
	r.viewers[v] = struct{}{}
	r.sendState(v, nil)
	var first protocol.State
	if err := json.Unmarshal(newcomer.msgs[0], &first); err != nil {
		t.Fatal(err)
	}
	if first.Thinking == nil || first.Thinking.Since != since {
		t.Fatalf("a newcomer's first state shows thinking %+v, want since %d", first.Thinking, since)
	}
	delete(r.viewers, v)

	// The move ends it.
	r.botBusy, r.think.shown = false, false
	r.botMove(t, rng, nil)
	last = p.check(t)
	var remove bool
	for _, op := range last.Ops {
		remove = remove || (op.Op == "remove" && op.Path == "/thinking")
	}
	if !remove {
		t.Fatalf("the move's patch %+v does not remove /thinking", last.Ops)
	}
	if bytes.Contains(p.fs.msgs[len(p.fs.msgs)-1], []byte(`"thinking"`)) {
		t.Fatal("the state after the move still shows thinking")
	}
}

// TestThinkingFrameMatchesJSON: a state showing the seat thinking is byte
// for byte what json.Marshal of protocol.State gives, thinking last.
func TestThinkingFrameMatchesJSON(t *testing.T) {
	r := testRoom(t, gomoku.Game, 2, 5)
	r.botBusy = true
	r.startThinking(0)
	r.think.shown = true
	f := r.frame()
	var th protocol.Thinking // its serverTime is the frame's moment
	if err := json.Unmarshal(f.thinking, &th); err != nil {
		t.Fatal(err)
	}
	if th.PlayerID != "0" || th.Since != r.think.since || th.ServerTime <= th.Since {
		t.Fatalf("thinking %+v, want seat 0 since %d", th, r.think.since)
	}
	for _, seat := range []int{games.Spectator, 0, 1} {
		you := ""
		if seat >= 0 {
			you = games.PlayerID(seat)
		}
		want, _ := json.Marshal(protocol.State{Type: protocol.TypeState, MatchID: r.rec.ID, StateID: r.rec.StateID,
			G: mustMarshal(r.st.View(seat)), Ctx: r.rec.wireCtx(r.st.Status()), Players: r.rec.players(), Log: []protocol.LogEntry{},
			You: you, Thinking: &th})
		if got := f.encode(seat, nil); !bytes.Equal(got, want) {
			t.Fatalf("seat %d:\n got %s\nwant %s", seat, got, want)
		}
	}
	// Not shown, or for another position: absent.
	r.think.seq++
	if r.frame().thinking != nil || r.thinkingNow() != nil {
		t.Error("thinking shown for a decision about another position")
	}
}
