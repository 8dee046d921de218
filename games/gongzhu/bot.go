package gongzhu

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// Bot chooses seat's card from its view only: "easy" plays a random legal
// card, "normal" plays by the heuristics of normalBot.
func (Rules) Bot(level string, v View, seat int, rng *rand.Rand) (string, json.RawMessage, error) {
	me, ok := v.Players[games.PlayerID(seat)]
	if !ok {
		return "", nil, fmt.Errorf("gongzhu bot: the view holds no hand for seat %d", seat)
	}
	if len(me.Legal) == 0 {
		return "", nil, fmt.Errorf("gongzhu bot: seat %d has no card to play now", seat)
	}
	var c cards.Card
	switch level {
	case LevelEasy:
		c = me.Legal[rng.IntN(len(me.Legal))]
	case LevelNormal:
		c = newTable(v, seat).choose(rng)
	default:
		return "", nil, fmt.Errorf("%w: %q", games.ErrNoBot, level)
	}
	return MovePlay, games.Args(c.String()), nil
}
