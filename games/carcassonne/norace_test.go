//go:build !race

package carcassonne

const raceEnabled = false
