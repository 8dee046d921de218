package soak

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"syscall"
	"time"

	"github.com/gorilla/websocket"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/protocol"
)

// Watching.
const (
	readWait     = 30 * time.Second // a match with no frame this long is stalled
	lobbyTimeout = 10 * time.Second // one lobby request
	retryPause   = 200 * time.Millisecond
)

// watcher keeps one bot-versus-bot match of its game playing: it creates
// the match on a random process, watches it as a spectator on a random
// process (reconnecting to a random process whenever the connection
// drops), checks every state frame for leaks, counts the moves, and starts
// the next match when one ends or has been watched long enough.
type watcher struct {
	s       *soaker
	game    string
	checker leakChecker
}

// matchWatch is what a watcher knows of the match it watches.
type matchWatch struct {
	id       string
	started  time.Time
	log      []protocol.LogEntry // the last public log seen
	over     bool                // gameover seen
	retired  bool                // watched long enough
	connects int                 // spectator connections made
}

// loop runs matches until ctx ends.
func (w *watcher) loop(ctx context.Context) {
	for ctx.Err() == nil {
		id, err := w.create(ctx)
		if err != nil {
			w.s.rec.error(ctx, err)
			sleep(ctx, retryPause)
			continue
		}
		w.s.rec.game(w.game, func(g *GameStats) { g.Matches++ })
		w.watch(ctx, &matchWatch{id: id, started: time.Now()})
	}
}

// create makes a match with a bot in every seat on a random process.
func (w *watcher) create(ctx context.Context) (id string, err error) {
	p := w.s.randomProc()
	defer w.where(p, w.s.since(), &err)
	n := seatsOf(w.game)
	bots := make(map[string]string, n)
	for i := range n {
		bots[fmt.Sprint(i)] = w.s.cfg.BotLevel
	}
	delay := int(w.s.cfg.BotDelay / time.Millisecond)
	req := protocol.CreateRequest{NumPlayers: n, Unlisted: true, Bots: bots, BotDelayMs: &delay, SetupData: setupOf(w.game)}
	ctx, cancel := context.WithTimeout(ctx, lobbyTimeout)
	defer cancel()
	return client.NewLobby(p.base(), nil).Create(ctx, w.game, req)
}

// watch follows m until it ends, is retired or ctx ends, reconnecting
// after every drop.
func (w *watcher) watch(ctx context.Context, m *matchWatch) {
	for ctx.Err() == nil {
		err := w.session(ctx, w.s.randomProc(), m)
		switch {
		case m.over:
			w.s.rec.game(w.game, func(g *GameStats) { g.Finished++ })
			return
		case m.retired:
			w.s.rec.game(w.game, func(g *GameStats) { g.Retired++ })
			return
		case err != nil:
			w.s.rec.error(ctx, err)
			if time.Since(m.started) >= w.s.cfg.MatchLimit {
				m.retired = true // never reachable again: give up on it
				continue
			}
			sleep(ctx, retryPause)
		}
	}
}

// where adds to *err, when not nil, the process a request or session went
// to and when it began and failed (since the soak's start), so that an
// error's sample in the report can be set beside B's restarts. The error
// keeps its class (classify unwraps it).
func (w *watcher) where(p *proc, began time.Duration, err *error) {
	if *err != nil {
		*err = fmt.Errorf("%s, from %s to %s: %w", p.name, began, w.s.since(), *err)
	}
}

// session is one spectator connection to m on p: it returns nil once m is
// over or retired (or ctx ends), else why the connection ended.
func (w *watcher) session(ctx context.Context, p *proc, m *matchWatch) (err error) {
	defer w.where(p, w.s.since(), &err)
	dctx, cancel := context.WithTimeout(ctx, lobbyTimeout)
	ws, err := client.DialWebSocket(dctx, p.base(), w.game, m.id)
	cancel()
	if err != nil {
		return err
	}
	if m.connects++; m.connects > 1 {
		w.s.rec.game(w.game, func(g *GameStats) { g.Reconnects++ })
	}
	stop := context.AfterFunc(ctx, func() { ws.Close() })
	defer stop()
	defer ws.Close()
	send := func(b []byte) error {
		ws.SetWriteDeadline(time.Now().Add(lobbyTimeout))
		return ws.WriteMessage(websocket.TextMessage, b)
	}
	hello, _ := json.Marshal(protocol.ClientMessage{Type: protocol.TypeHello, Patches: w.s.cfg.Patches})
	if err := send(hello); err != nil {
		return err
	}
	f := &feed{w: w, m: m, send: send}
	for !m.over && !m.retired {
		ws.SetReadDeadline(time.Now().Add(readWait))
		_, data, err := ws.ReadMessage()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := f.frame(data); err != nil {
			return err
		}
	}
	return nil
}

// syncMsg asks for the whole view.
var syncMsg = []byte(`{"type":"sync"}`)

// feed reads one spectator connection's frames. With patches it holds the
// view they make, checks it after every patch as a state is checked, and
// every SyncEvery states asks for the whole view (sync) and compares it
// with the view held.
type feed struct {
	w    *watcher
	m    *matchWatch
	send func([]byte) error // writes one frame to the connection
	view client.View
	// resyncing: a sync was sent for a patch that did not apply; patches
	// are skipped until its state. comparing: a sync was sent to compare
	// its state with the view held. since counts the states since the
	// last comparison.
	resyncing, comparing bool
	since                int
}

// frame handles one server frame: a state (or the state a patch makes) is
// checked for leaks and its new log entries counted; an error frame is
// returned.
func (f *feed) frame(data []byte) error {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return fmt.Errorf("frame is not JSON: %w", err)
	}
	switch head.Type {
	case protocol.TypeError:
		var e protocol.Error
		json.Unmarshal(data, &e)
		return &client.MoveError{Code: e.Code, Message: e.Message}
	case protocol.TypeState:
		var st protocol.State
		if err := json.Unmarshal(data, &st); err != nil {
			return fmt.Errorf("state frame: %w", err)
		}
		if f.w.s.cfg.Patches {
			f.hold(data, &st)
		}
		f.w.observe(f.m, &st, nil)
	case protocol.TypePatch:
		if f.w.s.cfg.Patches {
			return f.patch(data)
		}
	}
	return nil
}

// hold makes a state message the view held. When a comparison awaits it
// and it is of the view's stateID (the sync's answer), it is compared
// with the view held first: a difference is a mismatch.
func (f *feed) hold(data []byte, st *protocol.State) {
	if f.comparing && !f.resyncing && f.view.Held() && f.view.StateID() == st.StateID {
		f.comparing = false
		var whole client.View
		err := whole.SetState(data)
		if err == nil {
			if held, want := f.view.AppendJSON(nil), whole.AppendJSON(nil); !bytes.Equal(held, want) {
				err = fmt.Errorf("stateID %d: the view made by patches differs from the sync's answer:\n  patched %s\n  sync    %s", st.StateID, clip(held), clip(want))
			}
		}
		f.w.s.rec.game(f.w.game, func(g *GameStats) {
			g.Compares++
			if err != nil {
				g.Mismatches++
			}
		})
		if err != nil {
			f.w.s.rec.mismatch(f.w.game, f.m.id, err)
		}
	}
	if f.view.SetState(data) != nil {
		f.view.Reset() // never a state the server writes: the next patch asks again
	}
	f.resyncing = false
}

// patch applies a patch message to the view held, checks the operations
// and the view they make, and asks for a sync when it is time to compare;
// a patch that does not apply (a gap: the server must send none) is
// counted as a mismatch and answered with a sync.
func (f *feed) patch(data []byte) error {
	if f.resyncing {
		return nil
	}
	var p protocol.Patch
	err := json.Unmarshal(data, &p)
	if err == nil {
		err = f.view.Apply(&p)
	}
	var st *protocol.State
	if err == nil {
		st, err = f.view.State(p.Ack)
	}
	if err != nil {
		f.w.s.rec.game(f.w.game, func(g *GameStats) { g.Gaps++ })
		f.w.s.rec.mismatch(f.w.game, f.m.id, fmt.Errorf("a patch that does not apply: %v", err))
		f.view.Reset()
		f.resyncing, f.comparing = true, false
		return f.send(syncMsg)
	}
	f.w.s.rec.game(f.w.game, func(g *GameStats) { g.Patches++ })
	f.w.observe(f.m, st, f.w.checker.checkOps(p.Ops))
	if f.since++; f.w.s.cfg.SyncEvery > 0 && f.since >= f.w.s.cfg.SyncEvery && !f.comparing {
		f.since, f.comparing = 0, true
		return f.send(syncMsg)
	}
	return nil
}

// clip shortens a view for a report line.
func clip(b []byte) string {
	const max = 400
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}

// observe checks and counts one state of m; opsLeak is what the patch
// that made it showed, if it did (checkOps).
func (w *watcher) observe(m *matchWatch, st *protocol.State, opsLeak error) {
	leak := opsLeak
	if leak == nil {
		leak = w.checker.check(st)
	}
	moves := newEntries(m.log, st.Log)
	m.log = st.Log
	m.over = len(bytes.TrimSpace(st.Ctx.Gameover)) > 0 && string(st.Ctx.Gameover) != "null"
	m.retired = !m.over && w.longEnough(m, st)
	w.s.rec.game(w.game, func(g *GameStats) {
		g.States++
		g.Checks++
		g.Moves += moves
		if leak != nil {
			g.Leaks++
		}
	})
	if leak != nil {
		w.s.rec.leak(w.game, m.id, leak)
	}
}

// longEnough reports whether m has been watched for MatchLimit, or (for a
// game that never ends, Gong Zhu) has passed Rounds rounds.
func (w *watcher) longEnough(m *matchWatch, st *protocol.State) bool {
	if time.Since(m.started) >= w.s.cfg.MatchLimit {
		return true
	}
	if w.game != "gongzhu" || w.s.cfg.Rounds <= 0 {
		return false
	}
	var g struct {
		Round int `json:"round"`
	}
	json.Unmarshal(st.G, &g)
	return g.Round > w.s.cfg.Rounds
}

// newEntries counts the entries of cur that prev (the log seen before) did
// not hold: the log is a window of the latest entries, so the longest
// suffix of prev that starts cur is what both hold.
func newEntries(prev, cur []protocol.LogEntry) int {
	for o := min(len(prev), len(cur)); o > 0; o-- {
		if sameEntries(prev[len(prev)-o:], cur[:o]) {
			return len(cur) - o
		}
	}
	return len(cur)
}

// sameEntries reports whether two runs of log entries are equal.
func sameEntries(a, b []protocol.LogEntry) bool {
	for i := range a {
		x, y := a[i], b[i]
		if x.Turn != y.Turn || x.PlayerID != y.PlayerID || x.Move != y.Move || x.Text != y.Text || !bytes.Equal(x.Args, y.Args) {
			return false
		}
	}
	return true
}

// seatsOf is how many bots play game: four at Gong Zhu (the partnership
// game), three at Three Monks (its fewest), two elsewhere.
func seatsOf(game string) int {
	switch game {
	case "gongzhu":
		return 4
	case "threemonks":
		return 3
	default:
		return 2
	}
}

// setupOf is game's setup: Weiqi on 9x9, so bot matches end.
func setupOf(game string) json.RawMessage {
	if game == "weiqi" {
		return json.RawMessage(`{"size":9}`)
	}
	return nil
}

// Error classes that are not protocol codes.
const (
	codeRefused = "conn_refused" // nothing listens: a process is down
	codeDropped = "conn_dropped" // the connection ended under us
	codeStalled = "stalled"      // no frame for readWait
	codeOther   = "other"
)

// classify names err by its protocol code, or by what happened to the
// connection.
func classify(err error) string {
	var ae *client.APIError
	if errors.As(err, &ae) {
		if ae.Code == "" {
			return fmt.Sprintf("http_%d", ae.Status)
		}
		return ae.Code
	}
	var me *client.MoveError
	if errors.As(err, &me) {
		return me.Code
	}
	var ne net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return codeRefused
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return codeStalled
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET),
		errors.Is(err, syscall.EPIPE), errors.Is(err, net.ErrClosed), errors.Is(err, http.ErrServerClosed),
		isCloseError(err):
		return codeDropped
	}
	return codeOther
}

// isCloseError reports whether err is a WebSocket close frame.
func isCloseError(err error) bool {
	var ce *websocket.CloseError
	return errors.As(err, &ce)
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}
