package main

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// helpKeys is the design's key table (按键), plus what the server adds to
// the design's game: passing and answering the opponent's requests.
var helpKeys = []hint{
	{"← ↑ ↓ → hjkl", text{"移动光标", "move the cursor"}},
	{"Enter Space", text{"落子（结算模式下 = 确认结算）", "play (in scoring: confirm)"}},
	{"p", text{"停一手（连续两次停一手即结算）", "pass (two passes start scoring)"}},
	{"u", text{"悔棋（热座立即生效，否则请对手同意）", "undo (hot-seat: at once; else asks)"}},
	{"r  y", text{"认输（按 r 后再按 y 确认）", "resign (r, then y to confirm)"}},
	{"e", text{"进入主动结算（演化中 = 立即完成）", "start scoring (evolution: finish)"}},
	{"y  n", text{"同意 / 拒绝对手的悔棋或结算请求", "agree / refuse the opponent's request"}},
	{"?", text{"切换按键帮助", "toggle this help"}},
	{"q Esc", text{"退出（结算模式下 = 取消结算）", "quit (in scoring: resume play)"}},
}

// helpScoring is the design's scoring table (主动结算).
var helpScoring = []hint{
	{"d", text{"切换光标所在整块棋的死/活", "toggle the group under the cursor dead"}},
	{"Enter e", text{"确认结算，双方确认后进入演化终局", "confirm; both confirmed: evolution"}},
	{"e", text{"演化中立即完成", "during the evolution: finish at once"}},
	{"Esc q", text{"取消结算 / 跳过演化", "resume play / skip the evolution"}},
}

// helpCompact is both tables in ten rows, for the terminals too low for
// them (the 9x9 board's 60x16): nothing of the full tables is missing,
// only said shorter.
var helpCompact = []hint{
	{"← ↑ ↓ → hjkl", text{"移动光标", "move the cursor"}},
	{"Enter Space", text{"落子 · 结算中：确认结算", "play · scoring: confirm"}},
	{"p", text{"停一手（连续两次即结算）", "pass (two passes: scoring)"}},
	{"u", text{"悔棋（热座立即，否则请对手同意）", "undo (hot-seat: at once; else asks)"}},
	{"r  y", text{"认输（按 r 后再按 y 确认）", "resign (r, then y to confirm)"}},
	{"e", text{"进入结算 · 演化中：立即完成", "start scoring · evolution: finish"}},
	{"d", text{"结算中：切换光标所在整块死/活", "scoring: toggle the group dead"}},
	{"y  n", text{"同意 / 拒绝对手的请求", "agree / refuse the opponent"}},
	{"?", text{"切换按键帮助", "toggle this help"}},
	{"q Esc", text{"退出 · 结算中：继续对局 · 演化：跳过", "quit · scoring: play on · evolution: skip"}},
}

// helpBox is the help overlay, at most w×h: the design's two key tables
// with the title, or where they do not fit (9x9's 14 rows above the
// status bar) the compact table; then, when there is room, the legend of
// the board's marks and the way out.
func (m *model) helpBox(w, h int) string {
	keyCol := lipgloss.NewStyle().Foreground(cursorHalo).Background(bgPanel).Width(14)
	row := func(hn hint) string {
		return keyCol.Render(hn.key) + panelText.Render(m.lang.tr(hn.do))
	}
	title := panelBold.Render(m.lang.tr(txtHelpTitle))
	full := []string{title}
	for _, hn := range helpKeys {
		full = append(full, row(hn))
	}
	full = append(full, haloText.Render(m.lang.tr(txtHelpScoring)))
	for _, hn := range helpScoring {
		full = append(full, row(hn))
	}
	compact := []string{title}
	for _, hn := range helpCompact {
		compact = append(compact, row(hn))
	}
	const frame = 4 // the border and the padding, across and down
	must := full
	if len(full)+2 > h || linesWidth(full)+frame > w {
		must = compact
	}
	if len(must)+2 > h {
		must = must[1:] // the title goes first
	}
	optional := []string{"", m.legend()}
	if lk.ascii {
		optional = append(optional, panelDim.Render(m.lang.tr(txtASCIINote)))
	}
	optional = append(optional, panelDim.Render(m.lang.tr(txtHelpClose)))
	lines := append([]string(nil), must...)
	switch room := h - 2 - len(must); {
	case room == 1:
		lines = append(lines, optional[1]) // the legend, without the blank
	case room > 1:
		lines = append(lines, optional[:min(room, len(optional))]...)
	}
	lines = lines[:min(len(lines), max(h-2, 0))]
	width := min(linesWidth(lines)+frame, w)
	if w-width < 2 {
		width = w // no sliver of the panels beside it
	}
	for i, l := range lines {
		lines[i] = fit(l, width-frame)
	}
	return panelBox().Padding(0, 1).Width(width).Render(strings.Join(lines, "\n"))
}

// legend explains the board's marks in the glyphs this terminal shows.
func (m *model) legend() string {
	sep := panelDim.Render("  ")
	item := func(glyphs, what string) string { return glyphs + panelDim.Render(" "+what) }
	seal := panelSeal.Render(glyphSeal)
	if lk.ascii {
		seal = panelSeal.Render("( )")
	}
	dead := lipgloss.NewStyle().Foreground(stoneWhite).Background(greyDead).Bold(true).Render(lk.deadGlyph())
	parts := []string{item(seal, m.lang.tr(text{"上一手", "last move"}))}
	if lk.noColor || lk.ascii {
		parts = append(parts,
			item(panelBold.Render(lk.stoneGlyph('B')), m.lang.tr(txtBlack)),
			item(panelBold.Render(lk.stoneGlyph('W')), m.lang.tr(txtWhite)))
	}
	parts = append(parts, item(dead, m.lang.tr(text{"死子", "dead"})))
	terr := panelBold.Render(lk.terrGlyph('B'))
	if lk.noColor || lk.ascii {
		terr += panelBold.Render(" " + lk.terrGlyph('W'))
	}
	parts = append(parts, item(terr, m.lang.tr(text{"领地", "territory"})))
	return strings.Join(parts, sep)
}

// linesWidth is the widest of lines, in cells.
func linesWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, lipgloss.Width(l))
	}
	return w
}
