package client

// PatchCounts returns the patches c applied and the syncs it sent for a
// gap (Options.Patches), for the external tests.
func PatchCounts(c *Conn) (patched, resyncs int64) {
	return c.patched.Load(), c.resyncs.Load()
}
