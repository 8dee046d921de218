package gametest_test

import (
	"testing"

	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/games/gametest"
)

// BenchmarkBotMatch is one move of a bot-only match of each game through
// the erased Game, at the level that covers an absent person ("normal"),
// on the seat count a room most often has. Weiqi's "normal" thinks for a
// second a move (Monte Carlo playouts), so weiqi plays "easy".
func BenchmarkBotMatch(b *testing.B) {
	seats := map[string]int{"gongzhu": 4}
	levels := map[string]string{"weiqi": "easy"}
	reg := all.Registry()
	for _, name := range reg.Names() {
		g, _ := reg.Get(name)
		info := g.Info()
		o := gametest.Options{Level: "normal", MaxMoves: 400}
		if l, ok := levels[info.Name]; ok {
			o.Level = l
		}
		if n, ok := seats[info.Name]; ok {
			o.Seats = []int{n}
		}
		b.Run(info.Name, func(b *testing.B) { gametest.BotMatch(b, g, o) })
	}
}
