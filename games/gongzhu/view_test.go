package gongzhu

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

func TestScoreboard(t *testing.T) {
	tests := []struct {
		name      string
		totals    []int
		last      []int
		wantSeats []int
		wantRanks []int
		wantTeams []TeamScore
	}{
		{"3 seats best first", []int{-300, 50, -20}, []int{-100, 50, 20}, []int{1, 2, 0}, []int{1, 2, 3}, nil},
		{"3 seats ties share a rank", []int{0, 0, -50}, []int{0, 0, -50}, []int{0, 1, 2}, []int{1, 1, 3}, nil},
		{"4 seats with teams", []int{-100, 200, -40, 30}, []int{-100, 200, -40, 30}, []int{1, 3, 2, 0}, []int{1, 2, 3, 4},
			[]TeamScore{{Rank: 1, Team: 1, Seats: []int{1, 3}, LastRound: 230, Total: 230},
				{Rank: 2, Team: 0, Seats: []int{0, 2}, LastRound: -140, Total: -140}}},
		{"4 seats before any round", []int{0, 0, 0, 0}, nil, []int{0, 1, 2, 3}, []int{1, 1, 1, 1},
			[]TeamScore{{Rank: 1, Team: 0, Seats: []int{0, 2}}, {Rank: 1, Team: 1, Seats: []int{1, 3}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := State{Seats: len(tt.totals), Totals: tt.totals}
			if tt.last != nil {
				s.LastRound = &RoundResult{Scores: tt.last}
			}
			b := scoreboard(s)
			for i, row := range b.Rows {
				if row.Seat != tt.wantSeats[i] || row.Rank != tt.wantRanks[i] || row.Total != tt.totals[row.Seat] {
					t.Fatalf("row %d = %+v; want seat %d rank %d", i, row, tt.wantSeats[i], tt.wantRanks[i])
				}
				if tt.last != nil && row.LastRound != tt.last[row.Seat] {
					t.Fatalf("row %d last round %d", i, row.LastRound)
				}
				if (row.Team != nil) != (s.Seats == 4) || (row.Team != nil && *row.Team != row.Seat%2) {
					t.Fatalf("row %d team %v", i, row.Team)
				}
			}
			if !reflect.DeepEqual(b.Teams, tt.wantTeams) {
				t.Fatalf("teams %+v, want %+v", b.Teams, tt.wantTeams)
			}
		})
	}
}

func TestView(t *testing.T) {
	s := fixed(t, "2C 7H AS", "3C 9H 2D", "KH 3D 4D", "5C QH 4H")
	s = play(t, s, 0, "2C")
	r := Rules{}
	for viewer := games.Spectator; viewer < 4; viewer++ {
		v := r.View(s, viewer)
		if v.Trick.LedSuit != "C" ||
			v.Trick.Winner() != 0 || len(v.Trick.Plays) != 1 || !reflect.DeepEqual(v.Teams, [][]int{{0, 2}, {1, 3}}) {
			t.Fatalf("viewer %d: %+v", viewer, v)
		}
		if viewer == games.Spectator {
			if len(v.Players) != 0 {
				t.Fatalf("spectator sees %v", v.Players)
			}
			continue
		}
		me, ok := v.Players[games.PlayerID(viewer)]
		if len(v.Players) != 1 || !ok || !reflect.DeepEqual(me.Hand, cards.Sorted(s.Hands[viewer])) {
			t.Fatalf("viewer %d players %v", viewer, v.Players)
		}
		wantLegal := map[int]string{1: "3C"}[viewer]
		if got := cards.Codes(me.Legal); got != wantLegal {
			t.Fatalf("viewer %d legal %q, want %q", viewer, got, wantLegal)
		}
	}
	// The opening lead is flagged, without naming the card, until played.
	if v := r.View(fixed(t, "2C 7H", "3C 9H", "KH 3D", "5C QH"), 1); !v.OpeningLead {
		t.Fatalf("opening lead not flagged: %+v", v)
	}
	if v := r.View(s, 0); v.OpeningLead {
		t.Fatal("opening lead still flagged after ♣2 was played")
	}
}

// TestHandCount: HandCount, counted from the view's tricks, is every
// seat's hand size, and the view's trick has the state's on top, in every
// state of three rounds at 3 and at 4 seats, for every viewer: what the
// JSON leaves out is told by what it has.
func TestHandCount(t *testing.T) {
	r := Rules{}
	for _, n := range []int{3, 4} {
		s := newState(t, n, uint64(n)*11)
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		for range 3 * len(Deck(n)) {
			for viewer := games.Spectator; viewer < n; viewer++ {
				v := r.View(s, viewer)
				if got, want := v.Trick.Winner(), s.Trick.Winner(); got != want {
					t.Fatalf("%d seats, round %d: the view's trick has %d on top, the state's %d", n, s.Round, got, want)
				}
				for seat := range n {
					if got, want := v.HandCount(seat), len(s.Hands[seat]); got != want {
						t.Fatalf("%d seats, round %d, viewer %d: HandCount(%d) = %d, the hand holds %d", n, s.Round, viewer, seat, got, want)
					}
				}
			}
			s = easyMove(t, s, rng)
		}
	}
}

// easyMove plays the easy bot's card for the seat to play.
func easyMove(t testing.TB, s State, rng *rand.Rand) State {
	t.Helper()
	r := Rules{}
	seat := s.Current()
	name, args, err := r.Bot(LevelEasy, r.View(s, seat), seat, rng)
	if err != nil {
		t.Fatal(err)
	}
	next, err := r.Apply(s, seat, name, args)
	if err != nil {
		t.Fatal(err)
	}
	return next
}
