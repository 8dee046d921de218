package gongzhu

import (
	"testing"

	"github.com/chaguan/chaguan/games/cards"
)

func TestHeartPoints(t *testing.T) {
	want := map[string]int{"AH": -50, "KH": -40, "QH": -30, "JH": -20, "TH": -10, "9H": -10,
		"8H": -10, "7H": -10, "6H": -10, "5H": -10, "4H": 0, "3H": 0, "2H": 0, "AS": 0, "JD": 0}
	sum := 0
	for code, w := range want {
		if got := HeartPoints(cards.MustParse(code)); got != w {
			t.Errorf("HeartPoints(%s) = %d, want %d", code, got, w)
		}
		sum += w
	}
	if sum != -200 {
		t.Fatalf("hearts add up to %d, want -200", sum)
	}
}

const allHearts = "AH KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H"

func TestScore(t *testing.T) {
	tests := []struct {
		name  string
		taken string
		want  int
	}{
		{"nothing", "", 0},
		{"only plain cards", "AS KS 3C 9D", 0},
		{"heart ace", "AH", -50},
		{"heart king", "KH", -40},
		{"heart queen", "QH", -30},
		{"heart jack", "JH", -20},
		{"heart ten", "TH", -10},
		{"heart five", "5H", -10},
		{"zero hearts", "2H 3H 4H", 0},
		{"honours", "AH KH QH JH", -140},
		{"small hearts", "TH 9H 8H 7H 6H 5H", -60},
		{"pig", "QS", -100},
		{"sheep", "JD", 100},
		{"pig and sheep", "QS JD", 0},
		{"transformer alone", "TC", 50},
		{"transformer with plain cards", "TC AS 2D 5C", 50},
		{"transformer doubles a heart", "TC 7H", -20},
		{"transformer with a zero heart", "TC 2H", 0},
		{"transformer doubles the pig", "TC QS", -200},
		{"transformer doubles the sheep", "TC JD", 200},
		{"transformer doubles pig and sheep", "TC QS JD", 0},
		{"transformer doubles pig and hearts", "TC QS AH KH", -380},
		{"twelve hearts stay negative", "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H", -150},
		{"all hearts", allHearts, 200},
		{"all hearts and pig", allHearts + " QS", 100},
		{"all hearts and sheep", allHearts + " JD", 300},
		{"all hearts, pig and sheep", allHearts + " QS JD", 200},
		{"all hearts doubled", allHearts + " TC", 400},
		{"all hearts and pig doubled", allHearts + " QS TC", 200},
		{"all hearts and sheep doubled", allHearts + " JD TC", 600},
		{"all sixteen", allHearts + " QS JD TC", 800},
		{"all sixteen with plain cards", allHearts + " QS JD TC AS 2D 9C", 800},
		{"fifteen without the ace", "KH QH JH TH 9H 8H 7H 6H 5H 4H 3H 2H QS JD TC", -300},
		{"sheep and hearts", "JD AH 5H", 40},
		{"pig with low hearts", "QS 2H 3H", -100},
		{"order does not matter", "7H TC QS", -220},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Score(cards.MustParseAll(tt.taken)); got != tt.want {
				t.Fatalf("Score(%s) = %d, want %d", tt.taken, got, tt.want)
			}
		})
	}
}

// TestScoreRound scores whole rounds, split between 3 or 4 seats, as a pure
// function of the cards each seat took.
func TestScoreRound(t *testing.T) {
	tests := []struct {
		name  string
		taken []string
		want  []int
	}{
		{"4 seats spread", []string{"AH KH QS", "JD TC", "QH JH TH 2C", "9H 8H 7H 6H 5H 4H 3H 2H"},
			[]int{-190, 200, -60, -50}},
		{"4 seats slam", []string{allHearts + " QS JD TC", "", "AS", "2C"}, []int{800, 0, 0, 0}},
		{"4 seats all hearts", []string{allHearts, "QS", "JD", "TC"}, []int{200, -100, 100, 50}},
		{"3 seats spread", []string{"QS TC 3C", "JD AH KH", allHearts[6:]}, []int{-200, 10, -110}},
		{"3 seats all hearts doubled", []string{allHearts + " TC", "QS JD", "3C"}, []int{400, 0, 0}},
		{"3 seats empty", []string{"", "", ""}, []int{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			taken := make([][]cards.Card, len(tt.taken))
			for i, s := range tt.taken {
				taken[i] = cards.MustParseAll(s)
			}
			got := ScoreRound(taken)
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("ScoreRound = %v, want %v", got, tt.want)
				}
			}
		})
	}
}

func TestPointCards(t *testing.T) {
	got := PointCards(cards.MustParseAll("AS TC 2H JD QS 5D"))
	if cards.Codes(got) != "QS 2H TC JD" {
		t.Fatalf("PointCards = %s", cards.Codes(got))
	}
}
