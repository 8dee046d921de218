//go:build !unix

package server

import "errors"

// rawReads says fill works on this platform: not here, so connections are
// read the plain way.
const rawReads = false

func (n *idleConn) fill() error { return errors.New("server: raw reads are not supported here") }
