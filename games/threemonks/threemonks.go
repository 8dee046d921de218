// Package threemonks implements Three Monks (三个和尚), a 3-8 player card game
// of simultaneous hidden choices: every round each monk secretly plays one of
// five action cards, the cards are revealed, and the proposed phases (chant,
// fetch, exchange, drink) resolve clockwise from the wooden-fish token's
// holder. The first monk to hold 10 water wins.
//
// docs/threemonks.md describes the game; the rule choices are listed in
// docs/decisions.md (section "Three Monks"). The rules are pure: no I/O, no
// clock, randomness only in Setup.
package threemonks

import "github.com/chaguan/chaguan/games"

// Rules implements games.Rules for Three Monks.
type Rules struct{}

// Game is Three Monks as the rooms package sees it.
var Game games.Game = games.Erase[State, View](Rules{})
