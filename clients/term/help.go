package main

import (
	"strings"

	"charm.land/lipgloss/v2"
)

// helpKeys is the seed's key table (按键), plus what the server adds to
// the seed's game: passing and answering the opponent's requests.
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

// helpScoring is the seed's scoring table (主动结算).
var helpScoring = []hint{
	{"d", text{"切换光标所在整块棋的死/活", "toggle the group under the cursor dead"}},
	{"Enter e", text{"确认结算，双方确认后进入演化终局", "confirm; both confirmed: evolution"}},
	{"e", text{"演化中立即完成", "during the evolution: finish at once"}},
	{"Esc q", text{"取消结算 / 跳过演化", "resume play / skip the evolution"}},
}

// helpBox is the help overlay, at most w×h: the key tables, then, when
// there is room, the legend of the board's marks and the way out.
func (m *model) helpBox(w, h int) string {
	keyCol := lipgloss.NewStyle().Foreground(cursorHalo).Background(bgPanel).Width(14)
	row := func(hn hint) string {
		return keyCol.Render(hn.key) + panelText.Render(m.lang.tr(hn.do))
	}
	must := []string{panelBold.Render(m.lang.tr(txtHelpTitle))}
	for _, hn := range helpKeys {
		must = append(must, row(hn))
	}
	must = append(must, haloText.Render(m.lang.tr(txtHelpScoring)))
	for _, hn := range helpScoring {
		must = append(must, row(hn))
	}
	legend := panelSeal.Render(glyphSeal) + panelDim.Render(m.lang.tr(text{" 朱砂落款印：上一手   ", " seal: the last move   "})) +
		lipgloss.NewStyle().Foreground(stoneWhite).Background(greyDead).Bold(true).Render(glyphDead) +
		panelDim.Render(m.lang.tr(text{" 死子   ", " dead   "})) +
		panelBold.Render(glyphTerr) + panelDim.Render(m.lang.tr(text{" 领地", " territory"}))
	optional := []string{"", legend, panelDim.Render(m.lang.tr(txtHelpClose))}
	if len(must)+2 > h {
		must = must[1:] // the title goes first: 9x9's 16 rows hold the rest
	}
	room := h - 2 - len(must)
	lines := must
	if room > 0 {
		lines = append(lines, optional[:min(room, len(optional))]...)
	}
	width := 0
	for _, l := range lines {
		width = max(width, lipgloss.Width(l))
	}
	width = min(width+4, w) // border and padding
	for i, l := range lines {
		lines[i] = fit(l, width-4)
	}
	return panelBox.Padding(0, 1).Width(width).Render(strings.Join(lines, "\n"))
}
