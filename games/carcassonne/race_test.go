//go:build race

package carcassonne

// raceEnabled cuts the longest playouts under -race: the rules are
// single-threaded, so the race detector gains nothing from the full counts.
const raceEnabled = true
