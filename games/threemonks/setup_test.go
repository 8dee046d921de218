package threemonks

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/chaguan/chaguan/games"
)

func TestSetupDeal(t *testing.T) {
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for seed := uint64(0); seed < 50; seed++ {
			s, err := Rules{}.Setup(n, nil, games.NewRNG(seed))
			if err != nil {
				t.Fatalf("n=%d seed=%d: %v", n, seed, err)
			}
			fetching, seen := 0, map[ItemKind]bool{}
			for i, it := range s.Items {
				if seen[it.Kind] || it.Kind.Name().En == "" {
					t.Fatalf("n=%d seed=%d: item %q repeated or unknown", n, seed, it.Kind)
				}
				seen[it.Kind] = true
				if it.Kind.Fetching() {
					fetching++
				}
				if it.Water != 0 || s.Water[i] != StartWater || s.Last[i] != "" || s.StartItems[i] != it.Kind {
					t.Fatalf("n=%d seed=%d: seat %d starts wrong: %+v water %d", n, seed, i, it, s.Water[i])
				}
			}
			if fetching != (n+1)/2 {
				t.Fatalf("n=%d seed=%d: %d fetching items, want %d", n, seed, fetching, (n+1)/2)
			}
			if s.Holder < 0 || s.Holder >= n || s.Round != 1 || s.Centre != 0 || s.Taken != 0 {
				t.Fatalf("n=%d seed=%d: bad start %+v", n, seed, s)
			}
		}
	}
}

// TestSetupRandom checks the deal and the holder vary with the seed and
// every item can be dealt.
func TestSetupRandom(t *testing.T) {
	dealt, holders := map[ItemKind]bool{}, map[int]bool{}
	for seed := uint64(0); seed < 200; seed++ {
		s, _ := Rules{}.Setup(4, nil, games.NewRNG(seed))
		holders[s.Holder] = true
		for _, it := range s.Items {
			dealt[it.Kind] = true
		}
	}
	if len(dealt) != 10 || len(holders) != 4 {
		t.Fatalf("200 deals used items %v and holders %v", dealt, holders)
	}
}

func TestSetupRefuses(t *testing.T) {
	tests := []struct {
		name string
		n    int
		data string
	}{
		{"too few", 2, ""},
		{"too many", 9, ""},
		{"unknown option", 4, `{"rounds":5}`},
		{"not an object", 4, `[1]`},
		{"garbage", 4, `{`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Rules{}.Setup(tc.n, json.RawMessage(tc.data), games.NewRNG(1))
			if !errors.Is(err, games.ErrBadSetup) {
				t.Fatalf("error %v, want ErrBadSetup", err)
			}
		})
	}
	for _, ok := range []string{"", "null", "{}", " {} "} {
		if _, err := (Rules{}).Setup(3, json.RawMessage(ok), games.NewRNG(1)); err != nil {
			t.Fatalf("setupData %q refused: %v", ok, err)
		}
	}
}
