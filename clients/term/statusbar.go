package main

import (
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chaguan/chaguan/games/weiqi"
)

// statusBar is the bottom two lines: who plays, the cursor's point and the
// latest message, then the keys that work now. Where the first line is
// too long the cursor's point goes, then the message's last words (a
// number is never cut).
func (m *model) statusBar(width int) string {
	sep := panelDim.Render(lk.sym(" │ ", " | "))
	who := panelText.Render(" ") + m.whoLine()
	cursor := panelText.Render(m.lang.tr(txtCursor, weiqi.FormatCoord(m.cx, m.cy, m.v.Size)))
	line := who + sep + cursor
	if msg, st := m.message(); msg != "" {
		line += sep + st.Render(msg)
		if ansi.StringWidth(line) > width {
			room := width - ansi.StringWidth(who+sep)
			line = who + sep + st.Render(shorten(msg, room))
		}
	}
	return fit(line, width) + "\n" + fit(panelText.Render(" ")+m.hints(width-1), width)
}

// shorten cuts s to width cells between words, with … after the last
// word kept.
func shorten(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	out := ""
	for _, w := range strings.Fields(s) {
		next := w
		if out != "" {
			next = out + " " + w
		}
		if ansi.StringWidth(next)+1 > width {
			break
		}
		out = next
	}
	if out == "" {
		// One word wider than the line (Chinese has no spaces): cut it
		// between characters.
		return ansi.Truncate(s, width, "…")
	}
	return out + "…"
}

// fit pads a styled line to width cells or cuts it there.
func fit(s string, width int) string {
	if ansi.StringWidth(s) > width {
		s = ansi.Truncate(s, width, "")
	}
	return padRight(s, width)
}

// colourName is "黑方"/"Black" for seat "0", "白方"/"White" for "1".
func (m *model) colourName(seat string) string {
	if seat == "1" {
		return m.lang.tr(txtWhite)
	}
	return m.lang.tr(txtBlack)
}

// whoLine says whose turn it is, or the phase when nobody plays.
func (m *model) whoLine() string {
	v := &m.v
	switch {
	case m.evo:
		return panelSeal.Render(m.lang.tr(txtEvolving, m.evoGen, len(v.Evolution)-1))
	case v.Phase == "over":
		return panelSeal.Render(m.resultText())
	case v.Phase == "scoring":
		return haloText.Render(m.lang.tr(txtScoring))
	}
	who := m.colourName(v.ToMove)
	stone := panelStone("BW"[v.ToMove[0]-'0' : v.ToMove[0]-'0'+1])
	t := m.lang.tr(txtToPlay, who)
	switch {
	case m.mode == modeBot && v.ToMove == "1" && v.UndoRequest == nil && v.ScoringRequest == nil:
		t = m.lang.tr(txtBotThinking, who)
	case m.mode == modeRemote && !m.holds(v.ToMove):
		t = m.lang.tr(txtWaitFor, who)
	}
	return panelBold.Render(stone + " " + t)
}

// message is the latest message, else what waits on a player, and its
// style.
func (m *model) message() (string, lipgloss.Style) {
	v := &m.v
	switch {
	case m.confirmResign:
		return m.lang.tr(txtConfirmResign), panelSeal
	case m.status != "" && m.statusErr:
		return m.status, panelSeal
	case m.status != "":
		return m.status, haloText
	case m.closed:
		return m.lang.tr(txtConnLost), panelSeal
	case m.answerer() != "" && v.UndoRequest != nil:
		return m.lang.tr(txtOppUndo, m.colourName(*v.UndoRequest)), haloText
	case m.answerer() != "":
		return m.lang.tr(txtOppScoring, m.colourName(*v.ScoringRequest)), haloText
	case v.UndoRequest != nil && m.holds(*v.UndoRequest):
		return m.lang.tr(txtUndoAsked), haloText
	case v.ScoringRequest != nil && m.holds(*v.ScoringRequest):
		return m.lang.tr(txtScoringAsked), haloText
	case m.unseated:
		return m.lang.tr(txtSeatLost), panelSeal
	case m.mode == modeSpectate:
		return m.lang.tr(txtSpectating), panelDim
	case v.Phase == "play" && v.Last != nil && *v.Last == "pass":
		return m.lang.tr(txtPassed, m.colourName(other(v.ToMove))), panelDim
	}
	return "", panelText
}

// hint is one key and what it does.
type hint struct {
	key string
	do  text
}

var (
	hintMove    = hint{"←↑↓→/hjkl", text{"移动", "move"}}
	hintPlay    = hint{"Enter", text{"落子", "play"}}
	hintPass    = hint{"p", text{"停一手", "pass"}}
	hintUndo    = hint{"u", text{"悔棋", "undo"}}
	hintResign  = hint{"r", text{"认输", "resign"}}
	hintScore   = hint{"e", text{"结算", "score"}}
	hintHelp    = hint{"?", text{"帮助", "help"}}
	hintQuit    = hint{"q", text{"退出", "quit"}}
	hintDead    = hint{"d", text{"死活", "dead"}}
	hintConfirm = hint{"Enter/e", text{"确认", "confirm"}}
	hintResume  = hint{"Esc", text{"取消结算", "resume"}}
	hintFinish  = hint{"e", text{"立即完成", "finish"}}
	hintSkip    = hint{"q/Esc", text{"跳过", "skip"}}
	hintYes     = hint{"y", text{"同意", "agree"}}
	hintNo      = hint{"n", text{"拒绝", "refuse"}}
)

// hints lists the keys that work now.
func (m *model) hints(width int) string {
	var hs []hint
	switch {
	case m.help:
		hs = []hint{{"?/Esc", text{"关闭帮助", "close help"}}}
	case m.evo:
		hs = []hint{hintFinish, hintSkip}
	case m.reconnecting || m.closed:
		// The board is locked: only what works without the server.
		hs = []hint{hintMove, hintHelp, hintQuit}
	case m.confirmResign:
		hs = []hint{{"y", text{"确认认输", "resign"}}, {"…", text{"取消", "cancel"}}}
	case m.answerer() != "":
		hs = []hint{hintYes, hintNo, hintMove, hintHelp}
	case m.mode == modeSpectate || m.v.Phase == "over":
		hs = []hint{hintMove, hintHelp, hintQuit}
	case m.v.Phase == "scoring":
		hs = []hint{hintMove, hintDead, hintConfirm, hintResume, hintResign, hintHelp}
	default:
		hs = []hint{hintMove, hintPlay, hintPass, hintUndo, hintResign, hintScore, hintHelp, hintQuit}
	}
	render := func(hs []hint) string {
		parts := make([]string, len(hs))
		for i, h := range hs {
			parts[i] = panelText.Render(h.key) + panelDim.Render(" "+m.lang.tr(h.do))
		}
		return strings.Join(parts, panelDim.Render("  "))
	}
	// On a narrow terminal the obvious keys go first, so help and quit
	// stay; then the others from the end, but help. A hint is never cut.
	for _, drop := range []hint{hintMove, hintPass, hintResign} {
		if ansi.StringWidth(render(hs)) < width {
			break
		}
		hs = slices.DeleteFunc(hs, func(h hint) bool { return h == drop })
	}
	for i := len(hs) - 1; i >= 0 && ansi.StringWidth(render(hs)) >= width; i-- {
		if hs[i] != hintHelp && len(hs) > 1 {
			hs = slices.Delete(hs, i, i+1)
		}
	}
	return render(hs)
}
