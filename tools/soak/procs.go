package soak

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Launcher makes the command that runs one server process listening on
// addr ("127.0.0.1:port"); the soak starts it, and starts a new one on the
// same addr after each restart.
type Launcher func(addr string) *exec.Cmd

// Process lifetimes.
const (
	healthWait = 20 * time.Second // longest wait for /healthz after a start
	stopWait   = 20 * time.Second // longest wait for an exit after SIGTERM
)

// proc is one server process slot: a name, a fixed address and the process
// currently running there (none while restarting).
type proc struct {
	name, addr string
	launch     Launcher

	mu     sync.Mutex // guards cmd and exited
	cmd    *exec.Cmd
	exited chan error // receives the process's exit once
}

// base is the process's URL.
func (p *proc) base() string { return "http://" + p.addr }

// pid is the running process's id, 0 when none runs.
func (p *proc) pid() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd == nil {
		return 0
	}
	return p.cmd.Process.Pid
}

// start runs a new process and waits until it answers /healthz.
// The address must be free: a process of some other run answering there
// would pass for this one.
func (p *proc) start(ctx context.Context) error {
	l, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("start %s: %s is taken: %w", p.name, p.addr, err)
	}
	l.Close()
	cmd := p.launch(p.addr)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", p.name, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	p.mu.Lock()
	p.cmd, p.exited = cmd, exited
	p.mu.Unlock()
	return p.awaitHealthy(ctx, exited)
}

// awaitHealthy polls /healthz until it answers 200, the process exits or
// healthWait passes.
func (p *proc) awaitHealthy(ctx context.Context, exited chan error) error {
	hc := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(healthWait)
	for {
		if resp, err := hc.Get(p.base() + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-exited:
			exited <- err
			return fmt.Errorf("%s on %s exited before serving: %v", p.name, p.addr, err)
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s on %s never answered /healthz", p.name, p.addr)
		}
	}
}

// stop sends sig and waits for the exit; a process still running stopWait
// after SIGTERM is killed. It returns the exit error: nil is a clean exit,
// which SIGTERM must give (SIGKILL never does).
func (p *proc) stop(sig syscall.Signal) error {
	p.mu.Lock()
	cmd, exited := p.cmd, p.exited
	p.cmd, p.exited = nil, nil
	p.mu.Unlock()
	if cmd == nil {
		return nil
	}
	cmd.Process.Signal(sig)
	select {
	case err := <-exited:
		return err
	case <-time.After(stopWait):
		cmd.Process.Kill()
		<-exited
		return fmt.Errorf("still running %s after %s: killed", stopWait, sig)
	}
}

// rssKB reads the process's resident set size from /proc/<pid>/status
// (VmRSS, in kB); 0 and an error when no process runs or Linux's /proc is
// not there.
func rssKB(pid int) (int, error) {
	if pid == 0 {
		return 0, errors.New("no process")
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return parseVmRSS(bufio.NewScanner(f))
}

// parseVmRSS finds the "VmRSS:  1234 kB" line of a /proc status file.
func parseVmRSS(sc *bufio.Scanner) (int, error) {
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:")
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			break
		}
		return strconv.Atoi(fields[0])
	}
	return 0, errors.New("no VmRSS line")
}
