package main

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/chaguan/chaguan/games/weiqi"
)

// statusBar is the bottom two lines: who plays, the cursor's point and the
// latest message, then the keys that work now.
func (m *model) statusBar(width int) string {
	sep := panelDim.Render(" │ ")
	line := panelText.Render(" ") + m.whoLine() + sep +
		panelText.Render(m.lang.tr(txtCursor, weiqi.FormatCoord(m.cx, m.cy, m.v.Size)))
	if msg := m.message(); msg != "" {
		line += sep + msg
	}
	return fit(line, width) + "\n" + fit(panelText.Render(" ")+m.hints(width-1), width)
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

// message is the latest message, else what waits on a player.
func (m *model) message() string {
	v := &m.v
	switch {
	case m.confirmResign:
		return panelSeal.Render(m.lang.tr(txtConfirmResign))
	case m.status != "" && m.statusErr:
		return panelSeal.Render(m.status)
	case m.status != "":
		return haloText.Render(m.status)
	case m.closed:
		return panelSeal.Render(m.lang.tr(txtConnLost))
	case m.answerer() != "" && v.UndoRequest != nil:
		return haloText.Render(m.lang.tr(txtOppUndo, m.colourName(*v.UndoRequest)))
	case m.answerer() != "":
		return haloText.Render(m.lang.tr(txtOppScoring, m.colourName(*v.ScoringRequest)))
	case v.UndoRequest != nil && m.holds(*v.UndoRequest):
		return haloText.Render(m.lang.tr(txtUndoAsked))
	case v.ScoringRequest != nil && m.holds(*v.ScoringRequest):
		return haloText.Render(m.lang.tr(txtScoringAsked))
	case m.unseated:
		return panelSeal.Render(m.lang.tr(txtSeatLost))
	case m.mode == modeSpectate:
		return panelDim.Render(m.lang.tr(txtSpectating))
	case v.Phase == "play" && v.Last != nil && *v.Last == "pass":
		return panelDim.Render(m.lang.tr(txtPassed, m.colourName(other(v.ToMove))))
	}
	return ""
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
	// On a narrow terminal the obvious keys go first, so help and quit stay.
	for _, drop := range []hint{hintMove, hintPass, hintResign} {
		if ansi.StringWidth(render(hs)) < width {
			break
		}
		hs = slices.DeleteFunc(hs, func(h hint) bool { return h == drop })
	}
	return render(hs)
}
