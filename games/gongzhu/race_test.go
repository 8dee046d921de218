//go:build race

package gongzhu

// raceEnabled cuts the longest playouts under -race: the rules are
// single-threaded, so the race detector gains nothing from the full counts,
// and they would take minutes on a busy machine.
const raceEnabled = true
