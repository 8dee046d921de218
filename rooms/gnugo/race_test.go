//go:build race

package gnugo

// raceEnabled: the race detector slows the built-in Monte-Carlo bot about
// fifteenfold, so the whole-game test pits GNU Go against itself.
const raceEnabled = true
