package gongzhu

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// expectRound recomputes a finished round's history entry from its tricks
// alone: who took each card, the scores from the scoring table, the seat
// holding each special card and the seat with 13 hearts, if any.
func expectRound(t *testing.T, lr *RoundResult, n int, before []int) RoundSummary {
	t.Helper()
	taken := make([][]cards.Card, n)
	holder := map[cards.Card]int{}
	hearts := make([]int, n)
	for _, tr := range lr.Tricks {
		for _, p := range tr.Plays {
			taken[tr.Taker] = append(taken[tr.Taker], p.Card)
			holder[p.Card] = tr.Taker
			if p.Card.Suit == cards.Hearts {
				hearts[tr.Taker]++
			}
		}
	}
	want := RoundSummary{Round: lr.Round, Scores: ScoreRound(taken), Totals: make([]int, n),
		Pig: holder[Pig], Sheep: holder[Sheep], Transformer: holder[Transformer], AllHearts: -1}
	for seat := range n {
		want.Totals[seat] = before[seat] + want.Scores[seat]
		if hearts[seat] == 13 {
			want.AllHearts = seat
		}
	}
	return want
}

// TestHistory plays 40 rounds for 3 and 4 seats and checks every new
// history entry against the round's own tricks (scores, running totals,
// pig, sheep, transformer, all hearts), that earlier entries never change,
// and that every view (seats and spectator) carries the history with the
// team sums for 4 seats.
func TestHistory(t *testing.T) {
	for _, n := range []int{3, 4} {
		s := newState(t, n, 11)
		rng := botRNG(11)
		levels := []string{LevelNormal, LevelEasy, LevelNormal, LevelEasy}[:n]
		if len(s.History) != 0 || len(Rules{}.View(s, 0).History) != 0 {
			t.Fatalf("%d seats: history before any round: %+v", n, s.History)
		}
		kept := []RoundSummary{}
		for r := 1; r <= 40; r++ {
			before := slices.Clone(s.Totals)
			s = playRound(t, s, levels, rng)
			if len(s.History) != r {
				t.Fatalf("%d seats round %d: %d history entries", n, r, len(s.History))
			}
			want := expectRound(t, s.LastRound, n, before)
			if got := s.History[r-1]; !reflect.DeepEqual(got, want) {
				t.Fatalf("%d seats round %d: history %+v, recomputed %+v", n, r, got, want)
			}
			if !reflect.DeepEqual(s.History[:r-1], kept) {
				t.Fatalf("%d seats round %d: earlier entries changed", n, r)
			}
			kept = append(kept, want)
			checkHistoryViews(t, s)
		}
	}
}

// checkHistoryViews: every viewer's history is the state's, plus team sums
// (seats 0+2, 1+3) with 4 seats only.
func checkHistoryViews(t *testing.T, s State) {
	t.Helper()
	for viewer := games.Spectator; viewer < s.Seats; viewer++ {
		h := Rules{}.View(s, viewer).History
		if len(h) != len(s.History) {
			t.Fatalf("viewer %d: %d rows for %d rounds", viewer, len(h), len(s.History))
		}
		for i, row := range h {
			if !reflect.DeepEqual(row.RoundSummary, s.History[i]) {
				t.Fatalf("viewer %d row %d: %+v, state %+v", viewer, i, row.RoundSummary, s.History[i])
			}
			var ts, tt []int
			if s.Seats == 4 {
				ts = []int{row.Scores[0] + row.Scores[2], row.Scores[1] + row.Scores[3]}
				tt = []int{row.Totals[0] + row.Totals[2], row.Totals[1] + row.Totals[3]}
			}
			if !reflect.DeepEqual(row.TeamScores, ts) || !reflect.DeepEqual(row.TeamTotals, tt) {
				t.Fatalf("viewer %d row %d: teams %v %v, want %v %v", viewer, i, row.TeamScores, row.TeamTotals, ts, tt)
			}
		}
	}
}

// TestSummarize: a hand-made split where one seat takes all hearts and the
// pig, another the sheep, a third the transformer; and a split with no
// seat holding all hearts.
func TestSummarize(t *testing.T) {
	allHearts := "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"
	taken := [][]cards.Card{
		cards.MustParseAll("TC 2C"),
		cards.MustParseAll(allHearts + " QS"),
		cards.MustParseAll("JD 3C"),
	}
	scores := ScoreRound(taken)
	if want := []int{50, 100, 100}; !reflect.DeepEqual(scores, want) {
		t.Fatalf("scores %v, want %v", scores, want)
	}
	got := summarize(7, taken, scores, []int{10, 20, 30})
	want := RoundSummary{Round: 7, Scores: []int{50, 100, 100}, Totals: []int{10, 20, 30},
		Pig: 1, Sheep: 2, Transformer: 0, AllHearts: 1}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("summary %+v, want %+v", got, want)
	}
	taken[0] = append(taken[0], taken[1][12]) // seat 0 has ♥A: nobody has all 13
	taken[1] = taken[1][:12]
	if got := summarize(7, taken, scores, scores); got.AllHearts != -1 {
		t.Fatalf("all hearts %d with hearts split", got.AllHearts)
	}
}

// TestHistoryCap: a match past HistoryCap rounds keeps the latest
// HistoryCap entries, the running totals go on, and the state the round
// ended from keeps its own history.
func TestHistoryCap(t *testing.T) {
	s := newState(t, 4, 3)
	for r := 1; r <= HistoryCap; r++ {
		s.History = append(s.History, RoundSummary{Round: r, Scores: []int{1, 2, 3, 4}, Totals: []int{r, 2 * r, 3 * r, 4 * r}, AllHearts: -1})
	}
	s.Round = HistoryCap + 1
	s.Totals = []int{HistoryCap, 2 * HistoryCap, 3 * HistoryCap, 4 * HistoryCap}
	parent := s
	before := slices.Clone(s.History)
	s = playRound(t, s, []string{LevelEasy, LevelEasy, LevelEasy, LevelEasy}, botRNG(3))
	if len(s.History) != HistoryCap || s.History[0].Round != 2 || s.History[HistoryCap-1].Round != HistoryCap+1 {
		t.Fatalf("history of %d from round %d to %d", len(s.History), s.History[0].Round, s.History[len(s.History)-1].Round)
	}
	if want := expectRound(t, s.LastRound, 4, parent.Totals); !reflect.DeepEqual(s.History[HistoryCap-1], want) {
		t.Fatalf("last entry %+v, want %+v", s.History[HistoryCap-1], want)
	}
	if !reflect.DeepEqual(parent.History, before) {
		t.Fatal("ending a round changed the previous state's history")
	}
	if v := (Rules{}).View(s, games.Spectator); len(v.History) != HistoryCap || v.History[0].Round != 2 {
		t.Fatalf("view history of %d from round %d", len(v.History), v.History[0].Round)
	}
}

// TestHistoryOldState: a state stored before the history existed (no
// "history" key) loads, its views show an empty history ([] in JSON), and
// the next round starts the history with the stored totals carried on.
func TestHistoryOldState(t *testing.T) {
	s := playRound(t, newState(t, 3, 8), []string{LevelEasy, LevelEasy, LevelEasy}, botRNG(8))
	raw, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "history")
	old, _ := json.Marshal(m)
	st, err := Game.Load(old)
	if err != nil {
		t.Fatalf("old state does not load: %v", err)
	}
	view, err := st.AppendView(nil, games.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		History json.RawMessage `json:"history"`
	}
	if err := json.Unmarshal(view, &v); err != nil || string(v.History) != "[]" {
		t.Fatalf("old state's view history %s (%v), want []", v.History, err)
	}
	loaded, _ := games.Typed[State](st)
	before := slices.Clone(loaded.Totals)
	next := playRound(t, loaded, []string{LevelEasy, LevelEasy, LevelEasy}, botRNG(9))
	if len(next.History) != 1 || next.History[0].Round != 2 {
		t.Fatalf("history after the next round: %+v", next.History)
	}
	if want := expectRound(t, next.LastRound, 3, before); !reflect.DeepEqual(next.History[0], want) {
		t.Fatalf("entry %+v, want %+v", next.History[0], want)
	}
}
