package main

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/protocol"
)

// gongzhuFrame is the state frame viewer (a seat, or games.Spectator)
// gets of s, built with encoding/json as the server builds it.
func gongzhuFrame(t testing.TB, s gongzhu.State, viewer int) []byte {
	t.Helper()
	g, err := json.Marshal(gongzhu.Rules{}.View(s, viewer))
	if err != nil {
		t.Fatal(err)
	}
	cur := strconv.Itoa(s.Current())
	b, err := json.Marshal(protocol.State{
		Type: protocol.TypeState, MatchID: "m", StateID: 7, G: g,
		Ctx: protocol.Ctx{NumPlayers: 4, PlayOrder: []string{"0", "1", "2", "3"}, CurrentPlayer: cur,
			Phase: gongzhu.PhasePlay, Started: true, Gameover: json.RawMessage("null")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestScanLegal plays whole Gong Zhu rounds with the scan alone: on every
// state the seat to play reads the first card of its own legal list from
// the frame (the rules accept it), and every other seat and the spectator
// read none.
func TestScanLegal(t *testing.T) {
	rules := gongzhu.Rules{}
	s, err := rules.Setup(4, nil, games.NewRNG(3))
	if err != nil {
		t.Fatal(err)
	}
	for move := range 2*52 + 5 { // two whole rounds and into a third
		cur := s.Current()
		for _, viewer := range []int{games.Spectator, 0, 1, 2, 3} {
			var v view
			if kind := scanFrameWith(gongzhuFrame(t, s, viewer), &v, scanLegal); kind != frameState {
				t.Fatalf("move %d viewer %d: kind %d, want state", move, viewer, kind)
			}
			want := ""
			if viewer == cur {
				want = s.Legal(cur)[0].String()
			}
			if v.card != want || v.current != strconv.Itoa(cur) || !v.started || v.over {
				t.Fatalf("move %d viewer %d: view %+v, want card %q current %d", move, viewer, v, want, cur)
			}
		}
		var v view
		scanFrameWith(gongzhuFrame(t, s, cur), &v, scanLegal)
		args, ok := appendCard(nil, &v)
		if !ok {
			t.Fatalf("move %d: no card to play in %+v", move, v)
		}
		if s, err = rules.Apply(s, cur, gongzhu.MovePlay, args); err != nil {
			t.Fatalf("move %d: the rules refuse %s: %v", move, args, err)
		}
	}
	if s.Round < 3 {
		t.Fatalf("round %d after 109 cards, want 3", s.Round)
	}
}

// TestScanLegalOdd checks the scan on players objects it must not
// misread: escapes in other members, a null or empty legal list, a code
// that is not a card.
func TestScanLegalOdd(t *testing.T) {
	tests := []struct{ g, want string }{
		{`{"players":{"2":{"hand":["QS","2C"],"legal":["2C"]}}}`, "2C"},
		{`{"note":"\"players\":{\"0\":{\"legal\":[\"AS\"]}}","players":{ "1" : { "legal" : [ "TH" , "AH" ] } }}`, "TH"},
		{`{"players":{"0":{"hand":["QS"],"legal":[]}}}`, ""},
		{`{"players":{"0":{"hand":["QS"],"legal":null}}}`, ""},
		{`{"players":{}}`, ""},
		{`{"players":{"0":{"legal":["1S"]}}}`, ""},
		{`{"players":{"0":{"legal":["QS"`, ""},
		{`{"seats":4}`, ""},
	}
	for _, tc := range tests {
		var v view
		scanLegal([]byte(tc.g), &v)
		if v.card != tc.want {
			t.Errorf("scanLegal(%s) = %q, want %q", tc.g, v.card, tc.want)
		}
	}
}

// TestScanLegalAllocs: reading a Gong Zhu frame allocates nothing.
func TestScanLegalAllocs(t *testing.T) {
	s, err := gongzhu.Rules{}.Setup(4, nil, games.NewRNG(1))
	if err != nil {
		t.Fatal(err)
	}
	frame := gongzhuFrame(t, s, s.Current())
	var v view
	if n := testing.AllocsPerRun(100, func() { scanFrameWith(frame, &v, scanLegal) }); n != 0 {
		t.Fatalf("scanFrameWith allocates %.0f times per Gong Zhu frame", n)
	}
	if !slices.Contains(s.Hands[s.Current()], mustParse(t, v.card)) {
		t.Fatalf("scanned card %q is not in the hand of seat %d", v.card, s.Current())
	}
}

func mustParse(t *testing.T, code string) cards.Card {
	t.Helper()
	c, err := cards.Parse(code)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// BenchmarkScanGongzhu measures the scan of a seat's Gong Zhu frame.
func BenchmarkScanGongzhu(b *testing.B) {
	s, _ := gongzhu.Rules{}.Setup(4, nil, games.NewRNG(1))
	frame := gongzhuFrame(b, s, s.Current())
	b.SetBytes(int64(len(frame)))
	var v view
	for b.Loop() {
		scanFrameWith(frame, &v, scanLegal)
	}
}
