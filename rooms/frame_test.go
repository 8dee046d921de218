package rooms

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/protocol"
)

// TestFrameMatchesJSON checks that the spliced state message is byte for
// byte what json.Marshal of protocol.State gives, for seats and spectators,
// with and without ack.
func TestFrameMatchesJSON(t *testing.T) {
	st, err := gomoku.Game.Setup(2, nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st, err = st.Apply(0, "place", games.Args(7, 7)); err != nil {
		t.Fatal(err)
	}
	rec := &Record{ID: "m-\"1\"", Game: "gomoku", NumPlayers: 2, Version: 9, StateID: 2,
		Seats: []Seat{{Name: "Ann <&>", CredHash: "h", Processes: 1}, {Bot: "hard", Name: "Bot"}},
		Log:   []protocol.LogEntry{{Turn: 1, PlayerID: "0", Move: "place", Args: json.RawMessage(`[7,7]`)}}}
	r := &room{id: rec.ID, rec: rec, st: st, game: gomoku.Game}
	f := r.frame()
	ack := int64(41)
	for _, seat := range []int{games.Spectator, 0, 1} {
		for _, a := range []*int64{nil, &ack} {
			you := ""
			if seat >= 0 {
				you = games.PlayerID(seat)
			}
			want, _ := json.Marshal(protocol.State{Type: protocol.TypeState, MatchID: rec.ID, StateID: rec.StateID, Ack: a,
				G: mustMarshal(st.View(seat)), Ctx: rec.wireCtx(st.Status()), Players: rec.players(), Log: rec.Log, You: you})
			if got := f.encode(seat, a); !bytes.Equal(got, want) {
				t.Fatalf("seat %d ack %v:\n got %s\nwant %s", seat, a, got, want)
			}
		}
	}
}

func BenchmarkFrameEncode(b *testing.B) {
	st, _ := gomoku.Game.Setup(2, nil, 1)
	for i := 0; i < 40; i++ {
		next, err := st.Apply(i%2, "place", games.Args(i%15, i/15*2+i%2))
		if err == nil {
			st = next
		}
	}
	rec := &Record{ID: "m", Game: "gomoku", NumPlayers: 2, StateID: 41, Seats: []Seat{{Name: "A"}, {Name: "B"}}}
	for i := 0; i < maxLog; i++ {
		rec.appendLog(protocol.LogEntry{Turn: i, PlayerID: "0", Move: "place", Args: json.RawMessage(`[7,7]`)})
	}
	r := &room{id: rec.ID, rec: rec, st: st, game: gomoku.Game}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		f := r.frame()
		f.encode(0, nil)
		f.encode(1, nil)
		f.encode(-1, nil)
	}
}

// TestFrameCacheFollowsChanges: across a move (StateID and Seq bump) and a
// presence change (StateID only), the cached players and log always match
// a fresh encoding.
func TestFrameCacheFollowsChanges(t *testing.T) {
	st, _ := gomoku.Game.Setup(2, nil, 1)
	rec := &Record{ID: "m", Game: "gomoku", NumPlayers: 2, Version: 4, StateID: 1,
		Seats: []Seat{{Name: "Ann", CredHash: "h"}, {Name: "Bob", CredHash: "k"}}}
	r := &room{id: rec.ID, rec: rec, st: st, game: gomoku.Game}
	check := func(step string) {
		t.Helper()
		want, _ := json.Marshal(protocol.State{Type: protocol.TypeState, MatchID: r.rec.ID, StateID: r.rec.StateID,
			G: mustMarshal(r.st.View(0)), Ctx: r.rec.wireCtx(r.st.Status()), Players: r.rec.players(),
			Log: append([]protocol.LogEntry{}, r.rec.Log...), You: "0"})
		f := r.frame()
		if got := f.encode(0, nil); !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", step, got, want)
		}
	}
	check("start")
	// A move: both counters bump, the log grows, the seats stay.
	next, _ := st.Apply(0, "place", games.Args(7, 7))
	nr := *r.rec
	nr.Seats = append([]Seat(nil), r.rec.Seats...)
	nr.Log = append([]protocol.LogEntry(nil), r.rec.Log...)
	nr.appendLog(protocol.LogEntry{Turn: 1, PlayerID: "0", Move: "place", Args: json.RawMessage(`[7,7]`)})
	nr.Version, nr.StateID = nr.Version+1, nr.StateID+1
	r.rec, r.st = &nr, next
	check("after a move")
	// Presence: only StateID bumps; a seat is now connected.
	pr := r.rec.clone()
	pr.Seats[1].Processes = 1
	pr.Version++
	r.rec = pr
	check("after presence")
}
