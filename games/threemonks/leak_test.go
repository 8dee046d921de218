package threemonks_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/gametest"
	"github.com/chaguan/chaguan/games/threemonks"
)

// TestNoLeak plays whole bot games through the erased Game and checks every
// view of every seat and of a spectator after every move: no secret key, no
// other seat's players entry, no revealed cards while choosing, the
// viewer's own choice only in its own entry, and (non-interference) the
// view's bytes do not change when another seat's hidden choice changes.
func TestNoLeak(t *testing.T) {
	total := 40
	if testing.Short() || raceEnabled {
		total = 8
	}
	for g := 0; g < total; g++ {
		n := 3 + g%6
		seed := uint64(1000 + g)
		if _, err := playGame(n, seed, func(s int) string { return []string{"easy", "normal"}[s%2] }, func(st games.State) {
			if err := checkViews(st, n); err != nil {
				t.Fatalf("seed %d, n=%d: %v", seed, n, err)
			}
		}); err != nil {
			t.Fatal(err)
		}
	}
}

func checkViews(st games.State, n int) error {
	s, _ := games.Typed[threemonks.State](st)
	choosing := st.Status().Phase == "choose"
	for viewer := games.Spectator; viewer < n; viewer++ {
		b, err := json.Marshal(st.View(viewer))
		if err != nil {
			return err
		}
		if err := gametest.CheckView(b, viewer, []string{"secret", "choices"}); err != nil {
			return fmt.Errorf("viewer %d: %v", viewer, err)
		}
		var v threemonks.View
		if err := json.Unmarshal(b, &v); err != nil {
			return err
		}
		if choosing && v.Revealed != nil {
			return fmt.Errorf("viewer %d sees revealed cards while choosing", viewer)
		}
		if viewer >= 0 && v.Players[games.PlayerID(viewer)].Choice != s.Secret.Choices[viewer] {
			return fmt.Errorf("viewer %d does not see its own choice", viewer)
		}
		if choosing {
			if err := nonInterference(s, viewer, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// nonInterference changes every other seat's hidden choice and checks that
// viewer's view is byte for byte the same.
func nonInterference(s threemonks.State, viewer int, want []byte) error {
	alt := s
	alt.Secret.Choices = append([]threemonks.Card(nil), s.Secret.Choices...)
	changed := false
	for i, c := range alt.Secret.Choices {
		if i == viewer || c == "" {
			continue
		}
		for _, other := range threemonks.Cards {
			if other != c && other != s.Last[i] {
				alt.Secret.Choices[i], changed = other, true
				break
			}
		}
	}
	if !changed {
		return nil
	}
	got, err := json.Marshal(threemonks.Rules{}.View(alt, viewer))
	if err != nil {
		return err
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("viewer %d's view depends on others' hidden choices:\n%s\n%s", viewer, want, got)
	}
	return nil
}
