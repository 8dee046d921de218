//go:build !race

package threemonks_test

// raceEnabled scales the long playout tests down under the race detector,
// which makes the bots about ten times slower.
const raceEnabled = false
