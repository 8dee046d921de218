//go:build !race

package gongzhu

const raceEnabled = false
