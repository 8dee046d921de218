package rooms

import (
	"container/list"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/protocol"
)

// MaxReplaySteps is the most steps one replay page holds.
const MaxReplaySteps = 500

// MaxReplayPageBytes bounds the steps of one replay page, in bytes of
// their JSON: a page ends before the step that would pass it, but always
// holds at least one step. A long match's views grow with it (a Gong Zhu
// table's scoreboard, about 20 KB a step after 13,000 moves), so a bound
// on steps alone would let one request take tens of megabytes.
const MaxReplayPageBytes = 1 << 20

// Replay returns a page of a match step by step as a spectator saw it:
// the record's seed and moves replayed through the rules, the spectator's
// view and ctx at every stateID, and the log entry of each move. Secrets
// stay hidden exactly as live: views are the spectator's, and secret
// arguments are left out of the log. A match still in play replays up to
// the present, which every spectator has seen already (a Gong Zhu table
// never ends). A record that lacks its moves is not_found.
//
// Steps come a page at a time: from the stateID from (1 is the start), at
// most limit of them (1 to MaxReplaySteps) and at most MaxReplayPageBytes
// of them but one; Total says how many there are and Next where the next
// page starts. Building a page takes a slot of the Manager's ReplayGate:
// with none free in time it is unavailable.
func (m *Manager) Replay(ctx context.Context, gameName, id string, from, limit int64) (protocol.Replay, error) {
	if err := checkReplayPage(from, limit); err != nil {
		return protocol.Replay{}, err
	}
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return protocol.Replay{}, err
	}
	release, err := m.replays.Acquire(ctx)
	if err != nil {
		return protocol.Replay{}, err
	}
	defer release()
	return m.buildReplay(ctx, rec, g, from, limit)
}

// ReplayPage is a replay page ready to send, with what HTTP caching
// needs.
type ReplayPage struct {
	// Body is the JSON of the protocol.Replay; nil when NotModified.
	Body []byte
	// ETag names this page of the match as it stands, quoted as the ETag
	// header wants it: it changes with every move and with the players'
	// names, so it names one body.
	ETag string
	// Final is set once the match is over: the page never changes again.
	Final bool
	// NotModified is set when the caller already has this page (one of
	// its ETags is ETag): nothing was built.
	NotModified bool
}

// ReplayPage is Replay as the server sends it: the page's JSON and its
// ETag. When etags (the request's If-None-Match, "*" for any) name the
// page, it is NotModified and nothing is built. A finished match's pages
// are kept, up to Config.ReplayCacheBytes, and served again without
// building or waiting for a slot.
func (m *Manager) ReplayPage(ctx context.Context, gameName, id string, from, limit int64, etags []string) (ReplayPage, error) {
	if err := checkReplayPage(from, limit); err != nil {
		return ReplayPage{}, err
	}
	rec, g, err := m.load(ctx, gameName, id)
	if err != nil {
		return ReplayPage{}, err
	}
	players := mustMarshal(replayPlayers(rec))
	page := ReplayPage{ETag: replayETag(rec, players, from, limit), Final: len(rec.Gameover) > 0}
	for _, tag := range etags {
		if tag == page.ETag || tag == "*" {
			page.NotModified = true
			return page, nil
		}
	}
	if page.Final {
		if body := m.pages.get(page.ETag); body != nil {
			page.Body = body
			return page, nil
		}
	}
	release, err := m.replays.Acquire(ctx)
	if err != nil {
		return ReplayPage{}, err
	}
	defer release()
	out, err := m.buildReplay(ctx, rec, g, from, limit)
	if err != nil {
		return ReplayPage{}, err
	}
	if page.Body, err = json.Marshal(out); err != nil {
		return ReplayPage{}, AsError(err)
	}
	if page.Final {
		m.pages.put(page.ETag, page.Body)
	}
	return page, nil
}

func checkReplayPage(from, limit int64) error {
	if from < 1 || limit < 1 || limit > MaxReplaySteps {
		return newError(protocol.CodeBadRequest, "from must be at least 1 and limit between 1 and %d", MaxReplaySteps)
	}
	return nil
}

// replayPlayers is the players list of a replay: the seats' names and
// bots, not who is connected now (a bot counts as connected, as live).
func replayPlayers(rec *Record) []protocol.Player {
	players := rec.players()
	for i := range players {
		players[i].IsConnected, players[i].Autoplay = players[i].IsBot, false
	}
	return players
}

// replayETag names a page of rec: the match, its moves (StateID), the page,
// and what else the page shows of the record (the players, whether every
// seat is taken, the outcome).
func replayETag(rec *Record, players []byte, from, limit int64) string {
	h := sha256.New()
	b := []byte("replay/1\x00")
	b = append(b, rec.ID...)
	for _, n := range []int64{rec.StateID, from, limit, MaxReplayPageBytes} {
		b = strconv.AppendInt(append(b, 0), n, 10)
	}
	b = strconv.AppendBool(append(b, 0), rec.started())
	h.Write(append(b, 0))
	h.Write(players)
	h.Write([]byte{0})
	h.Write(rec.Gameover)
	return `"` + hex.EncodeToString(h.Sum(nil)[:16]) + `"`
}

// buildReplay replays rec's moves up to the page's last step (reading
// only the chunks those need) and builds the page.
func (m *Manager) buildReplay(ctx context.Context, rec *Record, g games.Game, from, limit int64) (protocol.Replay, error) {
	if !rec.movesComplete() {
		return protocol.Replay{}, errNoMoves
	}
	out := protocol.Replay{MatchID: rec.ID, GameName: rec.Game, Players: replayPlayers(rec), Total: rec.StateID, From: from,
		Steps: []protocol.ReplayStep{}}
	info := g.Info()
	// The ctx as the live match wrote it: every seat taken, the outcome
	// once there is one.
	at := Record{NumPlayers: rec.NumPlayers, Seats: rec.Seats}
	var size int       // bytes of the steps so far
	var scratch []byte // the encoding of a step's ctx, to count it
	// step adds the state at stateID to the page; it reports false when
	// the page is full and st is not on it.
	step := func(stateID int64, st games.State, entry *protocol.LogEntry) (bool, error) {
		view, err := st.AppendView(nil, games.Spectator)
		if err != nil {
			return false, err
		}
		status := st.Status()
		at.Gameover = nil
		if status.Outcome != nil {
			if at.Gameover, err = json.Marshal(status.Outcome); err != nil {
				return false, err
			}
		}
		scratch = at.appendWireCtx(scratch[:0], status)
		n := len(view) + len(scratch) + 64 // the keys, the stateID
		if entry != nil {
			n += 80 + len(entry.Move) + len(entry.Args) + len(entry.Text)
		}
		if len(out.Steps) > 0 && size+n > MaxReplayPageBytes {
			return false, nil
		}
		size += n
		out.Steps = append(out.Steps, protocol.ReplayStep{
			StateID: stateID, G: view, Ctx: at.wireCtx(status), Log: entry,
		})
		return true, nil
	}
	if from > rec.StateID {
		return out, nil // past the end: nothing to replay
	}
	last := min(from+limit-1, rec.StateID) // the last stateID the page may hold
	// streak counts each seat's timeouts in a row, as the clocks did.
	st, start, streak, err := m.replayStart(ctx, rec, g, from)
	if err != nil {
		return protocol.Replay{}, AsError(err)
	}
	if from == 1 {
		if _, err := step(1, st, nil); err != nil {
			return protocol.Replay{}, AsError(err)
		}
	}
	err = m.eachMove(ctx, rec, start, last-1, func(i int64, mv MoveRecord) error {
		stateID := i + 2
		if mv.Seat < 0 || mv.Seat >= rec.NumPlayers {
			return newError(protocol.CodeInternal, "move %d does not replay: no seat %d", i+1, mv.Seat)
		}
		before := st.Status()
		var err error
		if st, err = st.Apply(mv.Seat, mv.Move, mv.Args); err != nil {
			return newError(protocol.CodeInternal, "move %d does not replay: %v", i+1, err)
		}
		if streak[mv.Seat]++; !mv.Timeout {
			streak[mv.Seat] = 0
		}
		if stateID < from {
			return nil
		}
		entry := moveLogEntry(info, before, mv.Seat, mv.Move, mv.Args)
		entry.BotReason, entry.Fallback = mv.Reason, mv.Fallback
		if mv.Timeout {
			entry.Text = timeoutText(streak[mv.Seat])
		}
		more, err := step(stateID, st, &entry)
		if err != nil {
			return err
		}
		if !more {
			return errStopMoves
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopMoves) {
		return protocol.Replay{}, AsError(err)
	}
	if n := len(out.Steps); n > 0 && out.Steps[n-1].StateID < rec.StateID {
		out.Next = out.Steps[n-1].StateID + 1
	}
	return out, nil
}

// moveLogEntry is the public log entry of a move: its arguments are left
// out when the game keeps them secret.
func moveLogEntry(info games.Info, before games.Status, seat int, name string, args json.RawMessage) protocol.LogEntry {
	entry := protocol.LogEntry{Turn: before.Turn, PlayerID: games.PlayerID(seat), Move: name}
	if spec, _ := info.Move(name); !spec.SecretArgs && len(args) > 0 && string(args) != "[]" {
		entry.Args = args
	}
	return entry
}

// DefaultMaxReplays and DefaultReplayWait are the default ReplayGate's:
// four replays built at once in a process, each about 1 MB of views and
// their JSON at most, the others waiting up to 2 s for a slot.
const (
	DefaultMaxReplays = 4
	DefaultReplayWait = 2 * time.Second
)

// ReplayGate caps the replays a process builds at once: building a page
// replays every move before it and holds the page's views and their
// JSON, so a burst of requests for a long match's pages could otherwise
// take all of the process's memory. A replay that finds every slot taken
// waits for one, up to the gate's wait or the end of its request, and is
// then refused unavailable (the server answers 503 with Retry-After).
// Several Managers may share one gate.
type ReplayGate struct {
	slots chan struct{}
	wait  time.Duration
}

// NewReplayGate returns a gate of n slots (at least 1) whose callers wait
// up to wait for one.
func NewReplayGate(n int, wait time.Duration) *ReplayGate {
	return &ReplayGate{slots: make(chan struct{}, max(n, 1)), wait: wait}
}

// Acquire takes a slot, waiting up to the gate's wait (or until ctx ends)
// for one; release gives it back. With no slot in time it is unavailable.
func (g *ReplayGate) Acquire(ctx context.Context) (release func(), err error) {
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	default:
	}
	t := time.NewTimer(g.wait)
	defer t.Stop()
	select {
	case g.slots <- struct{}{}:
		return g.release, nil
	case <-t.C:
	case <-ctx.Done():
	}
	return nil, &Error{Code: protocol.CodeUnavailable, Message: "too many replays are being built; try again in a moment",
		MessageZh: "正在生成的复盘太多，请稍后再试"}
}

func (g *ReplayGate) release() { <-g.slots }

// DefaultReplayCacheBytes is Config.ReplayCacheBytes's default.
const DefaultReplayCacheBytes = 16 << 20

// replayCache keeps the most recently used pages of finished matches, by
// ETag, up to max bytes of JSON. A nil cache keeps nothing.
type replayCache struct {
	mu    sync.Mutex
	max   int64
	size  int64
	order *list.List // of *cachedPage, most recent first
	pages map[string]*list.Element
}

type cachedPage struct {
	etag string
	body []byte
}

func newReplayCache(max int64) *replayCache {
	if max <= 0 {
		return nil
	}
	return &replayCache{max: max, order: list.New(), pages: map[string]*list.Element{}}
}

// get returns the page named etag, or nil. Callers must not modify it.
func (c *replayCache) get(etag string) []byte {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.pages[etag]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return e.Value.(*cachedPage).body
}

// put keeps body as the page named etag, dropping the least recently used
// pages beyond max bytes. A page over a quarter of max is not kept.
func (c *replayCache) put(etag string, body []byte) {
	if c == nil || int64(len(body)) > c.max/4 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.pages[etag]; ok {
		return
	}
	c.pages[etag] = c.order.PushFront(&cachedPage{etag: etag, body: body})
	c.size += int64(len(body))
	for c.size > c.max {
		old := c.order.Back()
		p := old.Value.(*cachedPage)
		c.order.Remove(old)
		delete(c.pages, p.etag)
		c.size -= int64(len(p.body))
	}
}
