// Package all registers every game Chaguan serves. Adding a game is one
// package under games/ plus one line here.
package all

import (
	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/carcassonne"
	"github.com/chaguan/chaguan/games/gomoku"
	"github.com/chaguan/chaguan/games/gongzhu"
	"github.com/chaguan/chaguan/games/threemonks"
	"github.com/chaguan/chaguan/games/weiqi"
)

// Registry returns a fresh registry of every game, in lobby order.
func Registry() *games.Registry {
	return games.NewRegistry(
		gongzhu.Game,
		gomoku.Game,
		threemonks.Game,
		weiqi.Game,
		carcassonne.Game,
	)
}
