package main

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// The layout: the board panel on the left, the sidebar filling the rest of
// the width (at most sidebarMax), the status bar's two lines at the bottom.
// At the seed's minimum sizes (9x9 60x16, 13x13 68x20, 19x19 80x26) every
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
	return v
}

// render is the screen as a string of w×h cells (the minimum size before
// the first WindowSizeMsg).
func (m *model) render() string {
	if !m.have {
		return ""
	}
	w, h := m.w, m.h
	mw, mh := minSize(m.v.Size)
	if w == 0 {
		w, h = mw, mh
	}
	fill := lipgloss.WithWhitespaceStyle(lipgloss.NewStyle().Background(bgPanel))
	if w < mw || h < mh {
		msg := panelSeal.Render(m.lang.tr(txtTooSmall, mw, mh, w, h)) + "\n" +
			panelDim.Render(m.lang.tr(txtTooSmallHint))
		return lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, msg, fill)
	}
	bw, bh := boardPanelSize(m.v.Size)
	ph := min(h-statusRows, max(bh, panelsMax))
	sw := min(w-bw, sidebarMax)
	top := lipgloss.JoinHorizontal(lipgloss.Top, m.boardPanel(ph), m.sidebar(sw, ph))
	top = lipgloss.Place(w, h-statusRows, lipgloss.Center, lipgloss.Center, top, fill)
	screen := lipgloss.JoinVertical(lipgloss.Left, top, m.statusBar(w))
	if m.help {
		screen = m.overlay(screen, w, h)
	}
	return screen
}

// overlay draws the help box centred over the screen.
func (m *model) overlay(screen string, w, h int) string {
	box := m.helpBox(w, h)
	bw, bh := lipgloss.Size(box)
	base := lipgloss.NewLayer(screen)
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
