package main

import (
	tea "charm.land/bubbletea/v2"

	"github.com/chaguan/chaguan/games/weiqi"
)

// cursorKeys move the cursor: the arrows and vi's hjkl (the design's 按键).
var cursorKeys = map[string][2]int{
	"left": {-1, 0}, "h": {-1, 0},
	"right": {1, 0}, "l": {1, 0},
	"up": {0, -1}, "k": {0, -1},
	"down": {0, 1}, "j": {0, 1},
}

// key handles one key press (never while a move travels: Update queues
// those). The order is the screen's: the overlays and questions first
// (modal), then the cursor, then the game's phase.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	m.status = ""
	if m.reconnecting || m.closed {
		m.setErr(m.offline()) // stays up while the connection is down
	}
	if cmd, done := m.modal(s); done {
		return cmd
	}
	if !m.have { // no view yet (the server sent none that reads as weiqi)
		if s == "q" || s == "esc" {
			return tea.Quit
		}
		return nil
	}
	if d, ok := cursorKeys[s]; ok {
		m.cx = min(max(m.cx+d[0], 0), m.v.Size-1)
		m.cy = min(max(m.cy+d[1], 0), m.v.Size-1)
		return nil
	}
	if s == "?" {
		m.help = true
		return nil
	}
	if m.reconnecting || m.closed {
		// The board is locked while the connection is down: a key that
		// would move is refused here, saying why. q/Esc quit (in scoring
		// too: there is nothing to resume without the server).
		if s == "q" || s == "esc" {
			return tea.Quit
		}
		m.setErr(m.offline())
		return nil
	}
	if (s == "y" || s == "n") && m.answerer() != "" {
		return m.answer(s == "y")
	}
	switch {
	case m.mode == modeSpectate || m.v.Phase == "over":
		if s == "q" || s == "esc" {
			return tea.Quit
		}
		switch {
		case m.unseated:
			m.setInfo(m.lang.tr(txtSeatLost))
		case m.mode == modeSpectate:
			m.setInfo(m.lang.tr(txtSpectating))
		default:
			m.setInfo(m.lang.tr(txtGameOver))
		}
		return nil
	case m.v.Phase == "scoring":
		return m.scoringKey(s)
	}
	return m.playKey(s)
}

// modal handles s when something owns the keys: the help overlay, the
// too-small screen, the evolution or the resignation question. done is
// false when none does.
func (m *model) modal(s string) (cmd tea.Cmd, done bool) {
	switch {
	case m.help:
		if s == "?" || s == "esc" || s == "q" {
			m.help = false
		}
	case m.tooSmall():
		if s == "q" || s == "esc" {
			return tea.Quit, true
		}
	case m.evo:
		if s == "e" || s == "q" || s == "esc" {
			// e finishes at once; q/Esc skip the rest. The server has
			// scored the game already, so neither can take it back.
			m.stopEvolution()
		}
	case m.confirmResign:
		m.confirmResign = false
		if s == "y" {
			return m.resign(), true
		}
		m.setInfo(m.lang.tr(txtResignOff))
	default:
		return nil, false
	}
	return nil, true
}

// playKey handles a key in phase play.
func (m *model) playKey(s string) tea.Cmd {
	switch s {
	case "enter", "space":
		return m.mover("play", weiqi.FormatCoord(m.cx, m.cy, m.v.Size))
	case "p":
		return m.mover("pass")
	case "u":
		return m.undo()
	case "r":
		m.confirmResign = true
		return nil
	case "e":
		return m.askScoring()
	case "d":
		m.setInfo(m.lang.tr(text{"d 只在结算时标记死子：先按 e 进入结算", "d marks dead stones in scoring: press e first"}))
	case "q", "esc":
		return tea.Quit
	}
	return nil
}

// scoringKey handles a key in phase scoring: the design's 主动结算.
func (m *model) scoringKey(s string) tea.Cmd {
	switch s {
	case "d":
		p := weiqi.FormatCoord(m.cx, m.cy, m.v.Size)
		if c := m.v.Board[m.cy][m.cx]; c != 'B' && c != 'W' {
			m.setInfo(m.lang.tr(txtNoStone, p))
			return nil
		}
		return m.send(step{m.seats[0], "toggleDead", []any{p}})
	case "enter", "space", "e":
		return m.approve()
	case "q", "esc":
		return m.send(step{m.seats[0], "resume", nil})
	case "r":
		m.confirmResign = true
	case "u":
		m.setInfo(m.lang.tr(txtNoUndoScoring))
	}
	return nil
}

// mover plays a move of the player to move: in hot-seat whoever's turn it
// is, otherwise this terminal's seat when it is its turn.
func (m *model) mover(name string, args ...any) tea.Cmd {
	seat := m.v.ToMove
	if !m.holds(seat) {
		m.setInfo(m.lang.tr(txtNotYourTurn))
		return nil
	}
	return m.send(step{seat, name, args})
}

// undo takes back a move. In hot-seat it applies at once: the player who
// made the last move asks and the other agrees, so exactly that move goes.
// Against a bot or a remote player it asks the opponent, who answers.
func (m *model) undo() tea.Cmd {
	if m.mode != modeHotSeat {
		return m.send(step{m.seats[0], "requestUndo", nil})
	}
	asker := m.v.ToMove
	if n := len(m.v.Moves); n > 0 {
		asker = other(m.v.ToMove) // the player of move n
	}
	return m.send(step{asker, "requestUndo", nil}, step{other(asker), "answerUndo", []any{true}})
}

// askScoring enters scoring (the design's e): at once in hot-seat, by the
// opponent's consent otherwise.
func (m *model) askScoring() tea.Cmd {
	if m.mode != modeHotSeat {
		return m.send(step{m.seats[0], "requestScoring", nil})
	}
	asker := m.v.ToMove
	return m.send(step{asker, "requestScoring", nil}, step{other(asker), "answerScoring", []any{true}})
}

// approve confirms the dead-stone marks for every seat here that has not.
func (m *model) approve() tea.Cmd {
	var steps []step
	for _, seat := range m.seats {
		if i := int(seat[0] - '0'); i >= 0 && i < 2 && !m.v.Approved[i] {
			steps = append(steps, step{seat, "approve", nil})
		}
	}
	if len(steps) == 0 {
		m.setInfo(m.lang.tr(txtApproveWait))
		return nil
	}
	return m.send(steps...)
}

// resign gives the game up: in hot-seat for the player to move.
func (m *model) resign() tea.Cmd {
	seat := m.seats[0]
	if m.mode == modeHotSeat {
		seat = m.v.ToMove
	}
	return m.send(step{seat, "resign", nil})
}

// answerer is the seat here that must answer a pending undo or scoring
// request, "" when there is none.
func (m *model) answerer() string {
	for _, req := range []*string{m.v.UndoRequest, m.v.ScoringRequest} {
		if req != nil && m.holds(other(*req)) {
			return other(*req)
		}
	}
	return ""
}

// answer agrees to (yes) or refuses the pending request.
func (m *model) answer(yes bool) tea.Cmd {
	name := "answerScoring"
	if m.v.UndoRequest != nil {
		name = "answerUndo"
	}
	return m.send(step{m.answerer(), name, []any{yes}})
}

// tooSmall reports whether the terminal is below the board's minimum.
func (m *model) tooSmall() bool {
	if m.w == 0 || !m.have {
		return false
	}
	w, h := minSize(m.v.Size)
	return m.w < w || m.h < h
}
