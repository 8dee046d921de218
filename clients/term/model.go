package main

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/chaguan/chaguan/clients/client"
	"github.com/chaguan/chaguan/games/weiqi"
	"github.com/chaguan/chaguan/protocol"
)

// mode is how this terminal takes part in the game.
type mode int

const (
	modeHotSeat  mode = iota // both seats here, the design's 双人热座
	modeBot                  // seat 0 here, the server's bot in seat 1
	modeRemote               // one seat here, the other elsewhere (a browser)
	modeSpectate             // no seat: watch only
)

// evoEvery is the evolution's pace: the design's 300 ms a generation.
const evoEvery = 300 * time.Millisecond

// backFor is how long "reconnected" stays on the status line.
const backFor = 3 * time.Second

// model is the Bubble Tea model of one game. The server holds the rules
// and the position; the model holds only what the screen needs (the last
// view, the cursor, the overlay, the message) and turns keys into moves.
// Update never blocks: moves and waits run in tea.Cmds.
type model struct {
	mode     mode
	seats    []string // the seats this terminal plays
	lang     lang
	be       backend
	evoEvery time.Duration

	v       weiqi.View // the newest view; valid when have
	have    bool
	stateID int64
	players []protocol.Player

	cx, cy int // the cursor: column from the left, row from the top
	w, h   int // the terminal, 0 until the first WindowSizeMsg

	help          bool
	confirmResign bool // r was pressed; y resigns
	busy          bool // a move sequence is on its way
	queue         []tea.KeyPressMsg

	status    string // the last message; a key press clears it
	statusErr bool
	ackedAt   int64 // the stateID of the last state that acked a move of ours
	unseated  bool  // the server took this terminal's seat away: it watches

	evo     bool // the evolution animation runs
	evoGen  int  // the generation on screen while evo
	evoSeen bool // this game's end by scoring was shown
	evoTick int  // the token of the current tick chain
	closed  bool // the connection ended for good

	// reconnecting: the connection dropped and is being dialled again;
	// the board is locked (keys that would move are refused here) until
	// it is back.
	reconnecting bool
	closedText   string        // why the connection ended, once closed
	backFor      time.Duration // how long "reconnected" shows
	backTok      int           // the token of the newest "reconnected" message
	// forget drops the seat this terminal holds from the seats file; it
	// is called once, when the seat is over: the game ended, or the seat
	// passed to somebody else. nil when no seat is kept there.
	forget func()
}

// newModel starts a model on the session's first state.
func newModel(m mode, seats []string, l lang, be backend, first *protocol.State) *model {
	md := &model{mode: m, seats: seats, lang: l, be: be, evoEvery: evoEvery, backFor: backFor}
	md.apply(first)
	return md
}

// keepSeat gives the model the seats file's forget for the seat it
// plays; a seat already over (a finished game) is forgotten at once.
func (m *model) keepSeat(forget func()) {
	m.forget = forget
	if m.unseated || (m.have && m.v.Phase == "over") {
		m.seatOver()
	}
}

// seatOver forgets the held seat, once.
func (m *model) seatOver() {
	if f := m.forget; f != nil {
		m.forget = nil
		f()
	}
}

// Messages the model sends itself.
type (
	// doneMsg ends a move sequence: st is the state the last accepted
	// move produced, err the refusal that stopped the sequence.
	doneMsg struct {
		st   *protocol.State
		err  error
		from int64 // the stateID on screen when the sequence was sent
	}
	evoTickMsg struct{ token int }
	// backGoneMsg ends the "reconnected" message of its token.
	backGoneMsg struct{ token int }
)

// step is one move of a sequence, played as seat.
type step struct {
	seat, name string
	args       []any
}

func (m *model) Init() tea.Cmd { return m.listen() }

// listen waits for the server's next push.
func (m *model) listen() tea.Cmd {
	if m.closed || m.be == nil {
		return nil
	}
	be := m.be
	return func() tea.Msg { return be.Next() }
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		return m, nil
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return m, tea.Quit
		}
		if m.busy {
			// Keys typed while a move travels wait for its answer, so the
			// seat to move is known when they are handled.
			m.queue = append(m.queue, msg)
			return m, nil
		}
		return m, m.key(msg)
	case stateMsg:
		return m, tea.Batch(m.apply(msg.st), m.listen())
	case serverErrMsg:
		m.setErr(m.errText(&client.MoveError{Code: msg.err.Code, Message: msg.err.Message, MessageZh: msg.err.MessageZh}))
		return m, m.listen()
	case reconnectingMsg:
		m.reconnecting = true
		m.confirmResign, m.queue = false, nil
		m.setErr(m.lang.tr(txtReconnecting))
		return m, m.listen()
	case reconnectedMsg:
		if !m.reconnecting {
			// the first connection's own "open", or a repeat
			return m, tea.Batch(m.apply(msg.st), m.listen())
		}
		m.reconnecting = false
		seated := !m.unseated
		cmd := m.apply(msg.st) // the full state: the board is redrawn from it
		if seated && m.unseated {
			return m, tea.Batch(cmd, m.listen()) // the seat went meanwhile: seatCheck said so
		}
		m.setInfo(m.lang.tr(txtReconnected))
		m.backTok++
		tok := m.backTok
		back := tea.Tick(m.backFor, func(time.Time) tea.Msg { return backGoneMsg{tok} })
		return m, tea.Batch(cmd, m.listen(), back)
	case backGoneMsg:
		if msg.token == m.backTok && m.status == m.lang.tr(txtReconnected) {
			m.status = ""
		}
		return m, nil
	case closedMsg:
		m.closed, m.reconnecting = true, false
		m.confirmResign, m.queue = false, nil
		switch {
		case len(m.seats) > 0 && client.IsCode(msg.err, protocol.CodeUnauthorized):
			// the reconnect's hello was refused: the seat passed to the
			// bot or was given up meanwhile
			m.seats, m.mode, m.unseated = nil, modeSpectate, true
			m.closedText = m.lang.tr(txtSeatGone)
			m.seatOver()
		case client.IsCode(msg.err, protocol.CodeNotFound):
			m.closedText = m.lang.tr(txtMatchGone)
			m.seatOver()
		case m.forget != nil:
			m.closedText = m.lang.tr(txtConnLostKept)
		default:
			m.closedText = m.lang.tr(txtConnLost)
		}
		m.setErr(m.closedText)
		return m, nil
	case doneMsg:
		m.busy = false
		cmds := []tea.Cmd{m.apply(msg.st)}
		switch {
		case msg.err == nil:
		case errors.Is(msg.err, context.DeadlineExceeded) && m.answered(msg.from):
			// The move's answer came in after the wait gave up, before
			// this: it was played, so nothing failed. (One that comes
			// later still clears the message, as every new state does.)
		default:
			m.setErr(m.errText(msg.err))
			m.queue = nil // keys typed after a refusal were aimed at another position
		}
		for len(m.queue) > 0 && !m.busy {
			k := m.queue[0]
			m.queue = m.queue[1:]
			cmds = append(cmds, m.key(k))
		}
		return m, tea.Batch(cmds...)
	case evoTickMsg:
		if !m.evo || msg.token != m.evoTick {
			return m, nil
		}
		m.evoGen++
		if m.evoGen >= len(m.v.Evolution)-1 {
			m.stopEvolution()
			return m, nil
		}
		return m, m.tick()
	}
	return m, nil
}

// apply takes a state from the server when it is newer than the one on
// screen, and starts the evolution when it ends the game by scoring. A
// state with the stateID on screen is no move: the server sends it when
// only the players changed (a seat taken, presence, a rename) or this
// terminal lost its seat; it updates those and leaves the rest alone.
func (m *model) apply(st *protocol.State) tea.Cmd {
	if st == nil || (m.have && st.StateID < m.stateID) {
		return nil
	}
	if m.have && st.StateID == m.stateID {
		m.players = st.Players
		m.seatCheck(st)
		return nil
	}
	var v weiqi.View
	if err := json.Unmarshal(st.G, &v); err != nil || v.Size == 0 {
		return nil
	}
	had, old := m.have, m.v
	before := old.Phase
	m.v, m.have, m.stateID, m.players = v, true, st.StateID, st.Players
	m.status = "" // the message was about the position before
	if st.Ack != nil {
		m.ackedAt = st.StateID
	}
	if had {
		m.notice(&old, st.Ack != nil)
	}
	m.seatCheck(st)
	if !had {
		m.cx, m.cy = v.Size/2, v.Size/2
	}
	m.cx, m.cy = min(m.cx, v.Size-1), min(m.cy, v.Size-1)
	if v.Phase != "over" {
		m.evoSeen = false // resumed and played on: a later end animates again
		return nil
	}
	m.confirmResign = false
	m.seatOver() // the game is over: no seat to come back to
	if m.evoSeen || len(v.Evolution) == 0 {
		return nil
	}
	m.evoSeen = true
	if !had || before == "over" {
		return nil // joined a finished game: show the end, no replay
	}
	m.evo, m.evoGen = true, 0
	m.evoTick++
	return m.tick()
}

func (m *model) tick() tea.Cmd {
	tok := m.evoTick
	return tea.Tick(m.evoEvery, func(time.Time) tea.Msg { return evoTickMsg{tok} })
}

// stopEvolution ends the animation on the last generation.
func (m *model) stopEvolution() {
	m.evo = false
	m.evoGen = max(0, len(m.v.Evolution)-1)
	m.evoTick++ // a tick on its way is stale now
}

// send plays steps in order, stopping at the first refusal.
func (m *model) send(steps ...step) tea.Cmd {
	m.busy = true
	be, from := m.be, m.stateID
	return func() tea.Msg {
		var last *protocol.State
		for _, s := range steps {
			ctx, cancel := context.WithTimeout(context.Background(), moveWait)
			st, err := be.Move(ctx, s.seat, s.name, s.args...)
			cancel()
			if err != nil {
				return doneMsg{st: last, err: err, from: from}
			}
			last = st
		}
		return doneMsg{st: last, from: from}
	}
}

// answered reports whether a move of a sequence sent on stateID from was
// acked since: by a state that acked a move of ours, or in hot-seat by any
// newer state (only this terminal moves there; the acks of the second
// seat's connection do not reach the model).
func (m *model) answered(from int64) bool {
	return m.ackedAt > from || (m.mode == modeHotSeat && m.stateID > from)
}

// seatCheck notices a state whose you is "" while this terminal plays:
// the server took away the seat of the connection the model follows (the
// first of its seats), after three turn-clock timeouts or because the
// player left from elsewhere. The terminal watches from then on (in
// hot-seat too: the game it ran is no longer its own).
func (m *model) seatCheck(st *protocol.State) {
	if st.You != "" || len(m.seats) == 0 {
		return
	}
	m.seats, m.mode, m.unseated = nil, modeSpectate, true
	m.confirmResign, m.queue = false, nil
	m.setErr(m.lang.tr(txtSeatLost))
	m.seatOver()
}

// offline is what a key that would move says while the connection is
// down: reconnecting, or closed for good (q quits; a seat kept in the
// seats file is there again with -join and the same link).
func (m *model) offline() string {
	switch {
	case m.reconnecting:
		return m.lang.tr(txtReconnecting)
	case m.closedText != "":
		return m.closedText
	}
	return m.lang.tr(txtConnLost)
}

// notice tells what the other side did that the board alone does not
// say: a refused undo or scoring request of ours, a dead mark removed.
// old is the view before; ours says the new state acked a move of ours.
// Hot-seat has no other side: both seats are here.
func (m *model) notice(old *weiqi.View, ours bool) {
	v := &m.v
	if m.mode == modeHotSeat || ours {
		return
	}
	switch {
	case old.UndoRequest != nil && m.holds(*old.UndoRequest) && v.UndoRequest == nil &&
		v.Phase == "play" && len(v.Moves) >= len(old.Moves):
		m.setInfo(m.lang.tr(txtUndoRefused))
	case old.ScoringRequest != nil && m.holds(*old.ScoringRequest) && v.ScoringRequest == nil && v.Phase == "play":
		m.setInfo(m.lang.tr(txtScoringRefused))
	case old.Phase == "scoring" && v.Phase == "scoring":
		now := map[string]bool{}
		for _, p := range v.Dead {
			now[p] = true
		}
		for _, p := range old.Dead {
			if !now[p] {
				m.setInfo(m.lang.tr(txtDeadRemoved, p))
				return
			}
		}
	}
}

func (m *model) setErr(s string)  { m.status, m.statusErr = s, true }
func (m *model) setInfo(s string) { m.status, m.statusErr = s, false }

// errText is a refusal as the player reads it: the server's own reason in
// the chosen language (禁止自杀, 禁止打劫, 此处已有棋子 come this way),
// else a translation of its code.
func (m *model) errText(err error) string {
	var me *client.MoveError
	switch {
	case errors.As(err, &me):
		if m.lang == langZh && me.MessageZh != "" {
			return me.MessageZh
		}
		if t, ok := codeTexts[me.Code]; ok && (m.lang == langZh || me.Message == "") {
			return m.lang.tr(t)
		}
		if me.Message != "" {
			return me.Message
		}
		return me.Code
	case errors.Is(err, context.DeadlineExceeded):
		return m.lang.tr(txtNoAnswer)
	case errors.Is(err, client.ErrDisconnected):
		return m.lang.tr(txtReconnecting)
	case errors.Is(err, client.ErrClosed):
		return m.offline()
	}
	return err.Error()
}

// holds reports whether this terminal plays seat.
func (m *model) holds(seat string) bool {
	for _, s := range m.seats {
		if s == seat {
			return true
		}
	}
	return false
}

// other is the seat that is not seat.
func other(seat string) string {
	if seat == "0" {
		return "1"
	}
	return "0"
}
