package redistest

import (
	"fmt"
	"os/exec"
	"testing"
)

// Own is a redis-server of one test's own, which the test may restart. Its
// data survive a restart, as a production server's do: it keeps an
// append-only file, written through on every command, in a directory of
// the test's.
type Own struct {
	URL  string
	path string
	dir  string
	port int
	proc *proc
}

// StartOwn starts a redis-server for t alone, on a free port, and kills it
// when t ends. It skips t, saying so, when no redis-server is on PATH: an
// in-process miniredis cannot be killed under its clients the same way.
func StartOwn(t testing.TB) *Own {
	t.Helper()
	path, err := exec.LookPath("redis-server")
	if err != nil {
		t.Skip("redistest: no redis-server on PATH: this test needs one it can restart")
	}
	o := &Own{path: path, dir: t.TempDir()}
	for range 3 { // a free port may be taken before redis-server binds it
		if err = o.start(); err == nil {
			break
		}
	}
	if err != nil {
		t.Fatalf("redistest: start redis-server: %v", err)
	}
	o.URL = fmt.Sprintf("redis://127.0.0.1:%d/0", o.port)
	t.Cleanup(func() {
		if o.proc != nil {
			o.proc.kill()
		}
	})
	t.Logf("redis: started a redis-server of the test's own on port %d", o.port)
	return o
}

// start runs the server on o.port (a free one when 0), with o's data.
func (o *Own) start() error {
	port, p, err := startServer(o.path, o.port, "--dir", o.dir, "--save", "",
		"--appendonly", "yes", "--appendfsync", "always")
	if err != nil {
		return err
	}
	o.port, o.proc = port, p
	return nil
}

// Restart kills the server with SIGKILL, so its clients get no goodbye but
// a broken connection, and starts it again on the same port with the same
// data; it returns once the server answers again.
func (o *Own) Restart(t testing.TB) {
	t.Helper()
	o.proc.kill()
	o.proc = nil
	if err := o.start(); err != nil {
		t.Fatalf("redistest: restart redis-server on port %d: %v", o.port, err)
	}
}
