//go:build !race

package gnugo

const raceEnabled = false
