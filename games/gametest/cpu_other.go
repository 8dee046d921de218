//go:build !unix

package gametest

import "time"

// processCPU is unknown here: BotMatch reports cpu-ns/op as 0.
func processCPU() time.Duration { return 0 }
