// Package carcassonne is the base game of Carcassonne (卡卡颂) for 2-5
// seats, as docs/carcassonne.md and docs/decisions.md settle it: the
// official 72 tiles (types A-X, the start tile D at (0,0)), roads, cities
// with shields, cloisters and fields on half-edges, current-edition
// scoring, 7 meeples each. docs/carcassonne.md describes the moves and the
// view.
//
// The package is pure rules: no I/O, no clock, and randomness only from the
// games.RNG kept in State.Secret (the deck is shuffled once, at Setup).
package carcassonne

import "github.com/chaguan/chaguan/games"

// Game is Carcassonne as the rooms package sees it.
var Game games.Game = games.Erase[State, View](Rules{})

// Rules implements games.Rules for Carcassonne.
type Rules struct{}
