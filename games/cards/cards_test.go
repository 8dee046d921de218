package cards

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Card
		err  bool
	}{
		{"queen of spades", "QS", Card{Queen, Spades}, false},
		{"ten of clubs", "TC", Card{Ten, Clubs}, false},
		{"two of hearts", "2H", Card{2, Hearts}, false},
		{"ace of diamonds", "AD", Card{Ace, Diamonds}, false},
		{"lower case", "qs", Card{Queen, Spades}, false},
		{"ten spelt 10", "10c", Card{Ten, Clubs}, false},
		{"surrounding space", " 7H ", Card{7, Hearts}, false},
		{"empty", "", Card{}, true},
		{"one char", "Q", Card{}, true},
		{"three chars", "QSS", Card{}, true},
		{"bad rank", "1S", Card{}, true},
		{"bad suit", "QX", Card{}, true},
		{"suit first", "SQ", Card{}, true},
		{"symbol", "Q♠", Card{}, true},
		{"eleven", "11S", Card{}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.in)
			if tt.err {
				if err == nil || !errors.Is(err, ErrBadCard) {
					t.Fatalf("Parse(%q) = %v, %v; want an ErrBadCard", tt.in, got, err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("Parse(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

func TestStringRoundTrip(t *testing.T) {
	for _, c := range Deck() {
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("%v does not round-trip: %v %v", c, back, err)
		}
	}
}

func TestLabels(t *testing.T) {
	tests := []struct{ code, label, str string }{
		{"QS", "♠Q", "QS"},
		{"TC", "♣10", "TC"},
		{"7H", "♥7", "7H"},
		{"JD", "♦J", "JD"},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			c := MustParse(tt.code)
			if c.Label() != tt.label || c.String() != tt.str {
				t.Fatalf("%s: label %q string %q", tt.code, c.Label(), c.String())
			}
		})
	}
	if (Card{}).Valid() || (Card{}).String() != "??" {
		t.Fatalf("zero card should be invalid and print ??, got %q", Card{}.String())
	}
	if Hearts.Name() != "hearts" || Hearts.NameZh() != "红心" || !Diamonds.Red() || Clubs.Red() {
		t.Fatal("suit names or colours wrong")
	}
}

func TestJSON(t *testing.T) {
	in := []Card{MustParse("QS"), MustParse("TC")}
	b, err := json.Marshal(in)
	if err != nil || string(b) != `["QS","TC"]` {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var out []Card
	if err := json.Unmarshal(b, &out); err != nil || len(out) != 2 || out[0] != in[0] || out[1] != in[1] {
		t.Fatalf("unmarshal: %v %v", out, err)
	}
	if err := json.Unmarshal([]byte(`["ZZ"]`), &out); err == nil {
		t.Fatal("bad card unmarshalled")
	}
	if _, err := json.Marshal(Card{}); err == nil {
		t.Fatal("zero card marshalled")
	}
}

func TestDeck(t *testing.T) {
	full := Deck()
	if len(full) != 52 {
		t.Fatalf("deck has %d cards", len(full))
	}
	seen := map[Card]bool{}
	for _, c := range full {
		if !c.Valid() || seen[c] {
			t.Fatalf("bad or repeated card %v", c)
		}
		seen[c] = true
	}
	short := Deck(MustParse("2C"))
	if len(short) != 51 || Contains(short, MustParse("2C")) {
		t.Fatalf("deck without 2C: %d cards", len(short))
	}
}

func TestShuffleDeal(t *testing.T) {
	for _, seed := range []uint64{1, 2, 99} {
		d := Deck()
		Shuffle(d, games.NewRNG(seed))
		d2 := Deck()
		Shuffle(d2, games.NewRNG(seed))
		if Codes(d) != Codes(d2) {
			t.Fatalf("seed %d: shuffle is not deterministic", seed)
		}
		if Codes(d) == Codes(Deck()) {
			t.Fatalf("seed %d: shuffle left the deck in order", seed)
		}
		hands, err := Deal(d, 4)
		if err != nil {
			t.Fatal(err)
		}
		count := 0
		for _, h := range hands {
			if len(h) != 13 {
				t.Fatalf("seed %d: hand of %d", seed, len(h))
			}
			count += len(h)
		}
		if count != 52 {
			t.Fatalf("seed %d: dealt %d", seed, count)
		}
	}
	if _, err := Deal(Deck(), 3); err == nil {
		t.Fatal("52 cards dealt to 3")
	}
	if _, err := Deal(Deck(), 0); err == nil {
		t.Fatal("dealt to 0 hands")
	}
}

func TestSort(t *testing.T) {
	hand := MustParseAll("AD 2S QH TC 3S 5D KH")
	Sort(hand)
	if got, want := Codes(hand), "2S 3S QH KH TC 5D AD"; got != want {
		t.Fatalf("sorted %q, want %q", got, want)
	}
}

func TestHandHelpers(t *testing.T) {
	hand := MustParseAll("2S QH KH TC")
	rest, ok := Without(hand, MustParse("QH"))
	if !ok || Codes(rest) != "2S KH TC" || Codes(hand) != "2S QH KH TC" {
		t.Fatalf("Without: %q %v (input now %q)", Codes(rest), ok, Codes(hand))
	}
	if _, ok := Without(hand, MustParse("AS")); ok {
		t.Fatal("removed a card not held")
	}
	if CountSuit(hand, Hearts) != 2 || len(OfSuit(hand, Clubs)) != 1 || len(OfSuit(hand, Diamonds)) != 0 {
		t.Fatal("suit counts wrong")
	}
	if got := Sorted(hand); Codes(got) != "2S QH KH TC" {
		t.Fatalf("Sorted: %q", Codes(got))
	}
}

// FuzzParse: Parse never panics, and whatever it accepts prints back as a
// canonical code that parses to the same card.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"QS", "TC", "10h", "", "Q", "ZZ", "1S", "♠Q", "10", " as "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			if !errors.Is(err, ErrBadCard) {
				t.Fatalf("Parse(%q): error %v does not wrap ErrBadCard", s, err)
			}
			return
		}
		if !c.Valid() {
			t.Fatalf("Parse(%q) accepted invalid %v", s, c)
		}
		back, err := Parse(c.String())
		if err != nil || back != c {
			t.Fatalf("Parse(%q) = %v does not round-trip: %v %v", s, c, back, err)
		}
	})
}
