package weiqi

import (
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/chaguan/chaguan/games/gametest"
)

// TestNormalBotSameFromViewAndJSON checks the "normal" level, too slow for
// the conformance playouts, on a few positions of a 9×9 game between easy
// bots: it chooses the same from the view handed to it as from the view's
// JSON.
func TestNormalBotSameFromViewAndJSON(t *testing.T) {
	st, err := Game.Setup(2, json.RawMessage(`{"size":9}`), 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for move := 0; move < 30 && st.Status().Outcome == nil; move++ {
		seat := st.Status().Current
		if move%10 == 0 {
			if err := gametest.CheckBotDirect(st, "normal", seat, uint64(move)); err != nil {
				t.Fatalf("move %d: %v", move, err)
			}
		}
		name, args, err := st.Bot("easy", seat, rng)
		if err != nil {
			t.Fatal(err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			t.Fatalf("move %d: %s %s: %v", move, name, args, err)
		}
	}
}
