package gnugo

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
)

// ErrEngine is a GTP failure answer ("? ..."): the engine is alive and
// refused the command.
var ErrEngine = errors.New("gnugo refused the command")

// engine is one running GNU Go process speaking GTP on its stdin and
// stdout. It is owned by whoever holds the Engine's token.
type engine struct {
	cmd  *exec.Cmd
	in   io.WriteCloser
	out  *bufio.Reader
	dead bool // the process was killed or a pipe broke: start another

	// What the engine's board holds, so a later call that extends the
	// same game replays only the new moves.
	size  int
	komi  float64
	moves []string // GTP vertices or "pass", black first
}

// start runs path in GTP mode.
func start(path string, level int) (*engine, error) {
	cmd := exec.Command(path, "--mode", "gtp", "--level", strconv.Itoa(level),
		"--chinese-rules", "--positional-superko")
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, fmt.Errorf("gnugo: %w", err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("gnugo: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("gnugo: start %s: %w", path, err)
	}
	return &engine{cmd: cmd, in: in, out: bufio.NewReader(out)}, nil
}

// do sends one GTP command and returns its answer's text. When ctx ends
// first the process is killed (a hung engine must not hold a room) and
// the engine is dead.
func (e *engine) do(ctx context.Context, command string) (string, error) {
	if e.dead {
		return "", errors.New("gnugo: engine is dead")
	}
	if err := ctx.Err(); err != nil {
		e.dead = true
		e.kill()
		return "", fmt.Errorf("gnugo: %s: %w", command, err)
	}
	stop := context.AfterFunc(ctx, e.kill)
	answer, err := e.roundTrip(command)
	if !stop() { // the deadline passed: the process is killed, answer or not
		e.dead = true
		return "", fmt.Errorf("gnugo: %s: %w", command, ctx.Err())
	}
	if err != nil && !errors.Is(err, ErrEngine) {
		e.dead = true // a broken pipe or garbled answer: start afresh
		e.kill()
	}
	return answer, err
}

// roundTrip writes command and reads the answer: "= text" or "? text",
// possibly over several lines, ended by an empty line.
func (e *engine) roundTrip(command string) (string, error) {
	if _, err := io.WriteString(e.in, command+"\n"); err != nil {
		return "", fmt.Errorf("gnugo: write %s: %w", command, err)
	}
	var lines []string
	for {
		line, err := e.out.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("gnugo: read the answer to %s: %w", command, err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if len(lines) == 0 {
				continue // GTP allows blank lines before an answer
			}
			break
		}
		lines = append(lines, line)
	}
	text := strings.Join(lines, "\n")
	switch {
	case strings.HasPrefix(text, "="):
		return strings.TrimSpace(text[1:]), nil
	case strings.HasPrefix(text, "?"):
		return "", fmt.Errorf("%w: %s: %s", ErrEngine, command, strings.TrimSpace(text[1:]))
	}
	return "", fmt.Errorf("gnugo: answer to %s is not GTP: %q", command, text)
}

// kill stops the process; it may run on the AfterFunc goroutine while
// do waits on a read, which it makes fail.
func (e *engine) kill() {
	_ = e.cmd.Process.Kill()
}

// close ends the process and reaps it.
func (e *engine) close() {
	e.dead = true
	_ = e.in.Close()
	e.kill()
	_ = e.cmd.Wait()
}
