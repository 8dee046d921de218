//go:build !unix

package main

// selfCPUSeconds is unknown off Unix.
func selfCPUSeconds() float64 { return 0 }
