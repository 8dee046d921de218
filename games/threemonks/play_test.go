package threemonks_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/threemonks"
)

// playGame plays one game of bots (level(seat) per seat) from seed, calling
// check after every move (and on the start). Simultaneous choosers move in
// an order drawn from the seed. It returns the final state. It may run on
// any goroutine: it reports failures as an error.
func playGame(n int, seed uint64, level func(int) string, check func(games.State)) (games.State, error) {
	st, err := threemonks.Game.Setup(n, nil, seed)
	if err != nil {
		return nil, fmt.Errorf("seed %d: %v", seed, err)
	}
	rng := rand.New(rand.NewPCG(seed, 99))
	for moves := 0; ; moves++ {
		if check != nil {
			check(st)
		}
		status := st.Status()
		if status.Outcome != nil {
			return st, nil
		}
		if moves > threemonks.RoundCap*(n+20) {
			return nil, fmt.Errorf("seed %d: %d moves without an end", seed, moves)
		}
		movers := status.Movers(n)
		seat := movers[rng.IntN(len(movers))]
		name, args, err := st.Bot(level(seat), seat, rng)
		if err != nil {
			return nil, fmt.Errorf("seed %d: bot: %v", seed, err)
		}
		if st, err = st.Apply(seat, name, args); err != nil {
			return nil, fmt.Errorf("seed %d: bot move %s %s refused: %v", seed, name, args, err)
		}
	}
}
