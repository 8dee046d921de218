// Package gongzhu is Gong Zhu (拱猪), the Chinese cousin of Hearts, for 3 or
// 4 seats, as docs/gongzhu.md and docs/decisions.md settle it: no exposing,
// 3 seats play 51 cards (♣2 removed), 4 seats 52; compulsory follow; the
// hearts, the pig, the sheep and the transformer score; rounds never end
// the match.
//
// The package is pure rules: no I/O, no clock, and randomness only from the
// games.RNG kept in State.Secret.
package gongzhu

import "github.com/chaguan/chaguan/games"

// Game is Gong Zhu as the rooms package sees it.
var Game games.Game = games.Erase[State, View](Rules{})
