package main

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The layout: the board panel on the left, the sidebar filling the rest of
// the width (at most sidebarMax), the status bar's two lines at the bottom.
// At the design's minimum sizes (9x9 60x16, 13x13 68x20, 19x19 80x26) every
// part fits exactly.
const (
	sidebarMin = 33
	sidebarMax = 44
	statusRows = 2
	panelsMax  = 24 // the panels' height on a tall terminal (the 19x19 board's own)
)

// boardPanelSize is the board panel's outer size: the board's 2-cell
// points, its row labels and padding, a title row, the column letters
// above and below, and the border.
func boardPanelSize(size int) (w, h int) { return 2*size + 9, size + 5 }

// minSize is the smallest terminal the board of size fits in.
func minSize(size int) (w, h int) {
	bw, bh := boardPanelSize(size)
	return bw + sidebarMin, bh + statusRows
}

// View draws the whole screen in the alternate screen on the panel colour.
func (m *model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.BackgroundColor = bgPanel
	v.WindowTitle = m.lang.tr(text{"围棋 · 茶馆", "Weiqi · Chaguan"})
	if lk.ascii {
		v.WindowTitle = toASCII(v.WindowTitle)
	}
	return v
}

// render is the screen as a string of w×h cells (the minimum size before
// the first WindowSizeMsg).
func (m *model) render() string {
	if !m.have {
		return ""
	}
	if lk.ascii && m.lang != langEn {
		// A terminal that is not UTF-8 cannot show Chinese: the game
		// speaks English there, the messages made from now on too.
		m.lang = langEn
	}
	w, h := m.w, m.h
	mw, mh := minSize(m.v.Size)
	if w == 0 {
		w, h = mw, mh
	}
	var screen string
	if w < mw || h < mh {
		screen = m.tooSmallScreen(w, h, mw, mh)
	} else {
		screen = m.gameScreen(w, h)
	}
	if lk.ascii {
		screen = toASCII(screen)
	}
	return screen
}

// panelFill is the panel colour around the panels.
var panelFill = lipgloss.WithWhitespaceStyle(lipgloss.NewStyle().Background(bgPanel))

// tooSmallScreen says what the board needs, its lines wrapped between
// words to the width there is.
func (m *model) tooSmallScreen(w, h, mw, mh int) string {
	var lines []string
	for _, l := range wrapWords(m.lang.tr(txtTooSmall, mw, mh, w, h), w) {
		lines = append(lines, panelSeal.Render(l))
	}
	for _, l := range wrapWords(m.lang.tr(txtTooSmallHint), w) {
		lines = append(lines, panelDim.Render(l))
	}
	return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, strings.Join(lines, "\n"), panelFill)
}

// gameScreen is the board, the sidebar and the status bar, with the help
// over the panels when it is open: the status bar always shows.
func (m *model) gameScreen(w, h int) string {
	bw, bh := boardPanelSize(m.v.Size)
	ph := min(h-statusRows, max(bh, panelsMax))
	sw := min(w-bw, sidebarMax)
	top := lipgloss.JoinHorizontal(lipgloss.Top, m.boardPanel(ph), m.sidebar(sw, ph))
	top = lipgloss.Place(w, h-statusRows, lipgloss.Center, lipgloss.Center, top, panelFill)
	if m.help {
		top = m.overlay(top, w, h-statusRows)
	}
	return lipgloss.JoinVertical(lipgloss.Left, top, m.statusBar(w))
}

// overlay draws the help box centred over the panels, w×h.
func (m *model) overlay(panels string, w, h int) string {
	box := m.helpBox(w, h)
	bw, bh := lipgloss.Size(box)
	base := lipgloss.NewLayer(panels)
	top := lipgloss.NewLayer(box).X(max(0, (w-bw)/2)).Y(max(0, (h-bh)/2)).Z(1)
	return lipgloss.NewCompositor(base, top).Render()
}

// padRight pads a styled line with panel-coloured spaces to width cells,
// or cuts it there.
func padRight(s string, width int) string {
	if n := lipgloss.Width(s); n < width {
		return s + panelText.Render(strings.Repeat(" ", width-n))
	}
	return lipgloss.NewStyle().MaxWidth(width).Render(s)
}

// wrapWords breaks s into lines of at most width cells between words, so
// no number or word is ever cut in two. Only a word wider than the whole
// width (a run of Chinese without spaces) is broken, between characters.
func wrapWords(s string, width int) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		for ansi.StringWidth(word) > width && width > 0 {
			if line != "" {
				lines = append(lines, line)
				line = ""
			}
			cut := ansi.Truncate(word, width, "")
			if cut == "" {
				break
			}
			lines = append(lines, cut)
			word = word[len(cut):]
		}
		switch {
		case word == "":
		case line == "":
			line = word
		case ansi.StringWidth(line)+1+ansi.StringWidth(word) <= width:
			line += " " + word
		default:
			lines = append(lines, line)
			line = word
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
