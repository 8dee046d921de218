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
	modeHotSeat  mode = iota // both seats here, the seed's 双人热座
	modeBot                  // seat 0 here, the server's bot in seat 1
	modeRemote               // one seat here, the other elsewhere (a browser)
	modeSpectate             // no seat: watch only
)

// evoEvery is the evolution's pace: the seed's 300 ms a generation.
const evoEvery = 300 * time.Millisecond

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

	evo     bool // the evolution animation runs
	evoGen  int  // the generation on screen while evo
	evoSeen bool // this game's end by scoring was shown
	evoTick int  // the token of the current tick chain
	closed  bool // the connection ended
}

// newModel starts a model on the session's first state.
func newModel(m mode, seats []string, l lang, be backend, first *protocol.State) *model {
	md := &model{mode: m, seats: seats, lang: l, be: be, evoEvery: evoEvery}
	md.apply(first)
	return md
}

// Messages the model sends itself.
type (
	// doneMsg ends a move sequence: st is the state the last accepted
	// move produced, err the refusal that stopped the sequence.
	doneMsg struct {
		st  *protocol.State
		err error
	}
	evoTickMsg struct{ token int }
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
	case closedMsg:
		m.closed = true
		m.setErr(m.lang.tr(txtConnLost))
		return m, nil
	case doneMsg:
		m.busy = false
		cmds := []tea.Cmd{m.apply(msg.st)}
		if msg.err != nil {
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
// screen, and starts the evolution when it ends the game by scoring.
func (m *model) apply(st *protocol.State) tea.Cmd {
	if st == nil || (m.have && st.StateID <= m.stateID) {
		return nil
	}
	var v weiqi.View
	if err := json.Unmarshal(st.G, &v); err != nil || v.Size == 0 {
		return nil
	}
	had, before := m.have, m.v.Phase
	m.v, m.have, m.stateID, m.players = v, true, st.StateID, st.Players
	m.status = "" // the message was about the position before
	if !had {
		m.cx, m.cy = v.Size/2, v.Size/2
	}
	m.cx, m.cy = min(m.cx, v.Size-1), min(m.cy, v.Size-1)
	if v.Phase != "over" {
		m.evoSeen = false // resumed and played on: a later end animates again
		return nil
	}
	m.confirmResign = false
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
	be := m.be
	return func() tea.Msg {
		var last *protocol.State
		for _, s := range steps {
			ctx, cancel := context.WithTimeout(context.Background(), moveWait)
			st, err := be.Move(ctx, s.seat, s.name, s.args...)
			cancel()
			if err != nil {
				return doneMsg{st: last, err: err}
			}
			last = st
		}
		return doneMsg{st: last}
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
		return m.lang.tr(text{"服务器没有回应", "The server did not answer"})
	case errors.Is(err, client.ErrClosed):
		return m.lang.tr(txtConnLost)
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
