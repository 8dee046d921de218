package gongzhu

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
	"github.com/chaguan/chaguan/games/gametest"
)

// TestAppendJSON: View.AppendJSON writes json.Marshal's bytes for every
// viewer of 3- and 4-seat matches played by bots, past the history's cap,
// and for views with the nil and empty fields json.Marshal writes as null
// or leaves out.
func TestAppendJSON(t *testing.T) {
	for _, n := range []int{3, 4} {
		st, err := Game.Setup(n, nil, uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		moves := 60 * 52 // a 4-seat round is 52 moves: past HistoryCap rounds with 3 seats
		if testing.Short() {
			moves = 600
		}
		for i := range moves {
			if i%7 == 0 || i > moves-120 {
				for viewer := games.Spectator; viewer < n; viewer++ {
					if err := gametest.CheckAppendView(st, viewer); err != nil {
						t.Fatalf("%d seats, move %d: %v", n, i, err)
					}
				}
			}
			seat := st.Status().Current
			name, args, err := st.Bot("easy", seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			if st, err = st.Apply(seat, name, args); err != nil {
				t.Fatal(err)
			}
		}
	}
	team := 1
	for _, v := range []View{
		{},
		{Players: map[string]PlayerView{"1": {}, "0": {Hand: []cards.Card{}}}, Teams: [][]int{}, History: []HistoryRow{{TeamScores: []int{}}},
			LastRound: &RoundView{}, Scoreboard: Scoreboard{Rows: []ScoreRow{{Team: &team}}, Teams: []TeamScore{{}}}},
		{Trick: TrickView{LedSuit: "<&>\u2028", Plays: []Play{}}, Tricks: []TrickView{{}}, PointCards: [][]cards.Card{nil, {}}},
		{Players: map[string]PlayerView{"0": {Hand: []cards.Card{{}}}}}, // a card json.Marshal cannot write
	} {
		want, werr := jsonMarshal(v)
		got := v.AppendJSON([]byte("x"))
		if werr == nil && string(got) != "x"+string(want) {
			t.Errorf("AppendJSON wrote\n%s\njson.Marshal gives\nx%s", got, want)
		}
	}
}

func jsonMarshal(v View) ([]byte, error) { return json.Marshal(v) }
