//go:build unix

package server

import (
	"io"
	"syscall"
)

// rawReads says fill works on this platform.
const rawReads = true

// fill blocks until the socket is readable, then reads what is there into
// a pooled buffer for gorilla. The wait is the poller's (read deadlines
// apply) and the call chain is short, so a waiting goroutine needs only
// the smallest stack; it holds no buffer while it waits.
func (n *idleConn) fill() error {
	if n.try == nil {
		n.try = n.tryRead
	}
	err := n.raw.Read(n.try)
	switch {
	case err != nil:
	case n.rerr != nil:
		err = n.rerr
	case len(n.pre) == 0:
		err = io.EOF
	}
	n.rerr = nil
	if err != nil {
		n.release()
	}
	return err
}

// tryRead is fill's attempt at a read; false (would block) makes the
// poller wait for the socket.
func (n *idleConn) tryRead(fd uintptr) bool {
	buf := prePool.Get().(*[]byte)
	for {
		got, err := syscall.Read(int(fd), *buf)
		switch err {
		case syscall.EINTR:
			continue
		case syscall.EAGAIN:
			prePool.Put(buf)
			return false
		}
		n.pre, n.preBuf, n.rerr = (*buf)[:max(got, 0)], buf, err
		return true
	}
}
