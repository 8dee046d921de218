//go:build !linux

package redistest

import "os/exec"

// dieWithTest does nothing where there is no parent-death signal: the
// tests' cleanups kill their servers.
func dieWithTest(*exec.Cmd) {}
