package gongzhu

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// fixed builds a round-1 state from explicit hands (space-separated codes);
// the holder of the opening card leads unless the opening is absent, then
// seat 0 leads any card.
func fixed(t *testing.T, hands ...string) State {
	t.Helper()
	n := len(hands)
	s := State{Seats: n, Round: 1, Totals: make([]int, n), Secret: Secret{RNG: games.NewRNG(7)}}
	for i, h := range hands {
		s.Hands = append(s.Hands, cards.MustParseAll(h))
		if cards.Contains(s.Hands[i], OpeningCard(n)) {
			s.Opening, s.FirstLeader = OpeningCard(n), i
		}
	}
	s.Trick = Trick{Leader: s.FirstLeader, Taker: -1}
	return s
}

func play(t *testing.T, s State, seat int, code string) State {
	t.Helper()
	next, err := Rules{}.Apply(s, seat, MovePlay, games.Args(code))
	if err != nil {
		t.Fatalf("seat %d play %s: %v", seat, code, err)
	}
	return next
}

func TestSetupDeal(t *testing.T) {
	for _, n := range []int{3, 4} {
		for seed := uint64(0); seed < 50; seed++ {
			s := newState(t, n, seed)
			seen := map[cards.Card]bool{}
			for _, h := range s.Hands {
				if len(h) != len(Deck(n))/n {
					t.Fatalf("seats %d seed %d: hand of %d", n, seed, len(h))
				}
				for _, c := range h {
					if seen[c] {
						t.Fatalf("seats %d seed %d: %v dealt twice", n, seed, c)
					}
					seen[c] = true
				}
			}
			if want := len(Deck(n)); len(seen) != want {
				t.Fatalf("seats %d seed %d: %d cards dealt, want %d", n, seed, len(seen), want)
			}
			if n == 3 && seen[cards.MustParse("2C")] {
				t.Fatalf("seed %d: 3 seats were dealt ♣2", seed)
			}
			open := OpeningCard(n)
			if !cards.Contains(s.Hands[s.FirstLeader], open) || s.Current() != s.FirstLeader || s.Opening != open {
				t.Fatalf("seats %d seed %d: leader %d does not hold %v", n, seed, s.FirstLeader, open)
			}
			if got := s.Legal(s.FirstLeader); len(got) != 1 || got[0] != open {
				t.Fatalf("seats %d seed %d: opening legal cards %v", n, seed, got)
			}
		}
	}
}

func TestSetupData(t *testing.T) {
	tests := []struct {
		name string
		data string
		ok   bool
	}{
		{"absent", "", true}, {"null", "null", true}, {"empty object", "{}", true},
		{"unknown key", `{"jokers":true}`, false}, {"array", "[1]", false}, {"garbage", "{", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Rules{}.Setup(4, json.RawMessage(tt.data), games.NewRNG(1))
			if (err == nil) != tt.ok || (err != nil && !errors.Is(err, games.ErrBadSetup)) {
				t.Fatalf("setupData %q: %v", tt.data, err)
			}
		})
	}
	for _, n := range []int{0, 2, 5} {
		if _, err := (Rules{}).Setup(n, nil, games.NewRNG(1)); !errors.Is(err, games.ErrBadSetup) {
			t.Fatalf("%d seats: %v", n, err)
		}
	}
}

func TestRefusals(t *testing.T) {
	s := fixed(t, "2C 7H AS", "3C 9H 2D", "4C KH 3D", "5C QH 4D")
	tests := []struct {
		name, args, en, zh string
		seat               int
	}{
		{"not the opening card", `["7H"]`, "The first trick must be led with ♣2", "第一墩必须由♣2首出", 0},
		{"not held", `["QS"]`, "You do not hold ♠Q", "你手里没有♠Q", 0},
		{"bad card", `["ZZ"]`, `"ZZ" is not a card`, `"ZZ" 不是一张牌`, 0},
		{"two cards", `["2C","7H"]`, `play takes ["QS"]`, `play 的参数应为 ["QS"]`, 0},
		{"no card", `[]`, `play takes ["QS"]`, `play 的参数应为 ["QS"]`, 0},
		{"number", `[2]`, `play takes ["QS"]`, `play 的参数应为 ["QS"]`, 0},
		{"object", `{"card":"2C"}`, `play takes ["QS"]`, `play 的参数应为 ["QS"]`, 0},
		{"bare string", `"2C"`, `play takes ["QS"]`, `play 的参数应为 ["QS"]`, 0},
	}
	before, _ := json.Marshal(s)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Rules{}.Apply(s, tt.seat, MovePlay, json.RawMessage(tt.args))
			var me *games.MoveError
			if !errors.As(err, &me) || !strings.Contains(me.Reason.En, tt.en) || !strings.Contains(me.Reason.Zh, tt.zh) {
				t.Fatalf("args %s: error %v, want %q / %q", tt.args, err, tt.en, tt.zh)
			}
		})
	}
	if _, err := (Rules{}).Apply(s, 1, MovePlay, games.Args("3C")); !errors.Is(err, games.ErrNotYourTurn) {
		t.Fatalf("seat 1 out of turn: %v", err)
	}
	if _, err := (Rules{}).Apply(s, 0, "pass", nil); !errors.Is(err, games.ErrUnknownMove) {
		t.Fatalf("unknown move: %v", err)
	}
	if after, _ := json.Marshal(s); string(after) != string(before) {
		t.Fatal("a refused move changed the state")
	}
}

func TestFollowSuit(t *testing.T) {
	s := fixed(t, "2C 7H AS", "3C 9H 2D", "KH 3D 4D", "5C QH 4H")
	s = play(t, s, 0, "2C")
	tests := []struct {
		name     string
		seat     int
		card     string
		en, zh   string
		wantOK   bool
		wantNext int
	}{
		{"follows clubs", 1, "3C", "", "", true, 2},
		{"must follow clubs", 1, "9H", "You must follow clubs: you still hold ♣3", "必须跟梅花：你手里还有♣3", false, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			next, err := Rules{}.Apply(s, tt.seat, MovePlay, games.Args(tt.card))
			if tt.wantOK {
				if err != nil || next.Current() != tt.wantNext {
					t.Fatalf("play %s: %v, current %d", tt.card, err, next.Current())
				}
				return
			}
			var me *games.MoveError
			if !errors.As(err, &me) || me.Reason.En != tt.en || me.Reason.Zh != tt.zh {
				t.Fatalf("play %s: %v, want %q", tt.card, err, tt.en)
			}
		})
	}
	s = play(t, s, 1, "3C")
	// Seat 2 holds no club: any card, and the legal list says so.
	if got := cards.Codes(s.Legal(2)); got != "KH 3D 4D" {
		t.Fatalf("void seat legal %s", got)
	}
	s = play(t, s, 2, "KH")
	if got := cards.Codes(s.Legal(3)); got != "5C" {
		t.Fatalf("seat 3 must follow with 5C, legal %s", got)
	}
	// Following hearts: the reason names the lowest heart still held.
	h := fixed(t, "2C 8H", "TH 7H 3C", "4C 9H", "5C 6D")
	h.Trick = Trick{Leader: 0, Taker: -1, Plays: []Play{{0, cards.MustParse("8H")}}}
	h.Opening = cards.Card{}
	_, err := Rules{}.Apply(h, 1, MovePlay, games.Args("3C"))
	if err == nil || err.Error() != "You must follow hearts: you still hold ♥7" {
		t.Fatalf("follow hearts: %v", err)
	}
}

func TestTrickWinner(t *testing.T) {
	tests := []struct {
		name  string
		plays []string // in seat order from the leader, seat 0
		want  int
	}{
		{"highest of led suit", []string{"5C", "9C", "3C", "KC"}, 3},
		{"leader keeps it", []string{"AC", "9C", "3C", "KC"}, 0},
		{"off-suit ace does not win", []string{"5C", "AH", "6C", "AS"}, 2},
		{"all discard", []string{"2D", "AH", "AS", "KS"}, 0},
		{"three seats", []string{"TH", "JH", "9H"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := Trick{Leader: 0, Taker: -1}
			for i, code := range tt.plays {
				tr.Plays = append(tr.Plays, Play{Seat: i, Card: cards.MustParse(code)})
			}
			if got := tr.Winner(); got != tt.want {
				t.Fatalf("winner %d, want %d", got, tt.want)
			}
		})
	}
	// The winner leads the next trick.
	s := fixed(t, "2C AD", "3C KD", "AC 5D", "4C 6D")
	for i, code := range []string{"2C", "3C", "AC", "4C"} {
		s = play(t, s, i, code)
	}
	if s.Current() != 2 || s.Tricks[0].Taker != 2 || s.TricksPlayed != 1 {
		t.Fatalf("after trick 1: current %d taker %d", s.Current(), s.Tricks[0].Taker)
	}
	if got := cards.Codes(s.Legal(2)); got != "5D" {
		t.Fatalf("leader's legal cards %s", got)
	}
}

func TestRoundEnd(t *testing.T) {
	// Two-card hands: seat 2 takes the clubs trick, then leads diamonds;
	// seat 0 takes ♦A with the pig and ♥K dumped on it.
	s := fixed(t, "2C AD", "3C QS", "AC 5D", "4C KH")
	for i, code := range []string{"2C", "3C", "AC", "4C"} {
		s = play(t, s, i, code)
	}
	s = play(t, s, 2, "5D")
	s = play(t, s, 3, "KH")
	s = play(t, s, 0, "AD")
	before, _ := json.Marshal(s)
	s2 := play(t, s, 1, "QS")
	if after, _ := json.Marshal(s); string(after) != string(before) {
		t.Fatal("the round's last card mutated the input state")
	}
	r := s2.LastRound
	if r == nil || r.Round != 1 || !reflect.DeepEqual(r.Scores, []int{-140, 0, 0, 0}) || len(r.Tricks) != 2 {
		t.Fatalf("last round %+v", r)
	}
	if !reflect.DeepEqual(s2.Totals, []int{-140, 0, 0, 0}) || s2.Round != 2 || len(s2.Tricks) != 0 {
		t.Fatalf("after the round: totals %v round %d", s2.Totals, s2.Round)
	}
	v := Rules{}.View(s2, games.Spectator).LastRound
	if cards.Codes(v.PointCards[0]) != "QS KH" || cards.Codes(v.Taken[2]) != "2C 3C 4C AC" || !reflect.DeepEqual(v.Scores, r.Scores) {
		t.Fatalf("last round view: taken %v / %v", v.PointCards[0], v.Taken[2])
	}
	// Round 2: full 13-card hands, led by the seat after round 1's first
	// leader (seat 0 led ♣2), with any card.
	if s2.FirstLeader != 1 || s2.Current() != 1 || s2.Opening.Valid() {
		t.Fatalf("round 2 leader %d current %d opening %v", s2.FirstLeader, s2.Current(), s2.Opening)
	}
	for i, h := range s2.Hands {
		if len(h) != 13 {
			t.Fatalf("round 2 seat %d holds %d cards", i, len(h))
		}
	}
	if len(s2.Legal(1)) != 13 {
		t.Fatalf("round 2 leader may play %d cards, want all 13", len(s2.Legal(1)))
	}
}

func TestLeaderRotation(t *testing.T) {
	for _, n := range []int{3, 4} {
		for seed := uint64(1); seed <= 5; seed++ {
			s := newState(t, n, seed)
			first := s.FirstLeader
			rng := botRNG(seed)
			levels := []string{LevelEasy, LevelNormal, LevelEasy, LevelNormal}[:n]
			for r := 2; r <= 2*n+1; r++ {
				s = playRound(t, s, levels, rng)
				if s.Round != r || s.FirstLeader != (first+r-1)%n || s.Current() != s.FirstLeader {
					t.Fatalf("seats %d seed %d round %d: leader %d, want %d", n, seed, r, s.FirstLeader, (first+r-1)%n)
				}
				if s.Opening.Valid() || len(s.Legal(s.FirstLeader)) != len(Deck(n))/n {
					t.Fatalf("seats %d seed %d round %d: the leader is restricted", n, seed, r)
				}
			}
		}
	}
}

// TestZeroState: the zero State (what loading "{}" gives) is refused or
// shown, never a panic.
func TestZeroState(t *testing.T) {
	r := Rules{}
	var s State
	_ = r.Status(s)
	_ = r.View(s, 0)
	_ = r.View(s, games.Spectator)
	if _, err := r.Apply(s, 0, MovePlay, games.Args("2C")); err == nil {
		t.Fatal("a move on the zero state was accepted")
	}
	if _, _, err := r.Bot(LevelNormal, r.View(s, 0), 0, botRNG(1)); err == nil {
		t.Fatal("a bot moved on the zero state")
	}
}
