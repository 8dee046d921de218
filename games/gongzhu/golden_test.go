package gongzhu

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/chaguan/chaguan/games"
)

var update = flag.Bool("update", false, "rewrite the golden views in testdata/")

// TestGoldenViews pins the JSON of every seat's and the spectator's view at a
// fixed position (seed 5, easy bots, a round and five cards in) for 3 and
// 4 seats. Run with -update after a deliberate change of the view, and read
// the diff.
func TestGoldenViews(t *testing.T) {
	for _, n := range []int{3, 4} {
		s := newState(t, n, 5)
		rng := botRNG(5)
		levels := []string{LevelEasy, LevelEasy, LevelEasy, LevelEasy}[:n]
		s = playRound(t, s, levels, rng)
		r := Rules{}
		for i := 0; i < 5; i++ {
			seat := s.Current()
			_, args, err := r.Bot(LevelEasy, r.View(s, seat), seat, rng)
			if err != nil {
				t.Fatal(err)
			}
			if s, err = r.Apply(s, seat, MovePlay, args); err != nil {
				t.Fatal(err)
			}
		}
		for viewer := games.Spectator; viewer < n; viewer++ {
			name := fmt.Sprintf("seats%d_viewer%d.json", n, viewer)
			if viewer == games.Spectator {
				name = fmt.Sprintf("seats%d_spectator.json", n)
			}
			t.Run(name, func(t *testing.T) {
				got, err := json.MarshalIndent(r.View(s, viewer), "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, '\n')
				path := filepath.Join("testdata", name)
				if *update {
					if err := os.MkdirAll("testdata", 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(path, got, 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				want, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run with -update to create it)", err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("view differs from %s (seed 5; -update rewrites it):\n%s", path, got)
				}
			})
		}
	}
}
