package main

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/chaguan/chaguan/games/weiqi"
)

var (
	sealBlock = lipgloss.NewStyle().Foreground(textMain).Background(sealRed).Bold(true)
	haloText  = lipgloss.NewStyle().Foreground(cursorHalo).Background(bgPanel).Bold(true)
)

// sidebar draws the right panel, width×height with its border: the
// players and their captures, the seal pool, the scoring or the score,
// and the record of the last moves (the design's 最近 20 手) in as many
// columns as fit. When the record does not fit whole, the blank lines
// between the parts go first, then the record's heading; what still does
// not fit is its oldest entries, never a part of one.
func (m *model) sidebar(width, height int) string {
	iw, ih := width-4, height-2 // inside the border and the 1-cell padding
	parts := [][]string{m.playerLines(iw), m.sealPool(iw)}
	if extra := m.phaseLines(iw); len(extra) > 0 {
		parts = append(parts, extra)
	}
	rec := m.v.Recent
	if len(rec) > weiqi.RecentLen {
		rec = rec[len(rec)-weiqi.RecentLen:]
	}
	heading := panelDim.Render(lk.sym("── ", "-- ") + m.lang.tr(txtRecord) + lk.sym(" ──", " --"))
	var best []string
	shown := -1
	for _, c := range []struct{ blanks, recBlank, heading bool }{
		{true, true, true}, {false, true, true}, {false, false, true}, {false, false, false},
	} {
		var lines []string
		for i, p := range parts {
			if i > 0 && c.blanks {
				lines = append(lines, "")
			}
			lines = append(lines, p...)
		}
		if c.recBlank {
			lines = append(lines, "")
		}
		if c.heading {
			lines = append(lines, heading)
		}
		if len(lines) > ih {
			continue
		}
		entries, n := m.record(rec, iw, ih-len(lines))
		if n > shown {
			best, shown = append(lines, entries...), n
		}
		if shown == len(rec) {
			break
		}
	}
	if best == nil {
		// Not even the parts fit (below the minimum size): whole lines,
		// the last ones first, go.
		for _, p := range parts {
			best = append(best, p...)
		}
		best = best[:min(len(best), max(ih, 0))]
	}
	for i, l := range best {
		best[i] = padRight(l, iw)
	}
	box := panelBox().Padding(0, 1).Width(width).Height(height)
	return box.Render(strings.Join(best, "\n"))
}

// playerLines are the two seats: colour, name, state and captures, with ▶
// before the player to move.
func (m *model) playerLines(width int) []string {
	var out []string
	for seat := 0; seat < 2; seat++ {
		id := strconv.Itoa(seat)
		mark := panelText.Render("  ")
		if m.v.Phase == "play" && m.v.ToMove == id && !m.evo {
			mark = haloText.Render("▶ ")
		}
		colour := [2]text{txtBlack, txtWhite}[seat]
		left := mark + panelBold.Render(panelStone("BW"[seat:seat+1])+" "+m.lang.tr(colour))
		name, tags := "", []string{}
		if seat < len(m.players) {
			p := m.players[seat]
			if p.Name != colour.zh && p.Name != colour.en {
				name = p.Name // hot-seat's default names repeat the colour
			}
			switch {
			case p.IsBot:
				name = m.lang.tr(txtBot) // the server names it in English
				if p.BotLevel != "" {
					name += " " + p.BotLevel
				}
			case p.Name == "":
				name = m.lang.tr(txtFreeSeat)
			case !p.IsConnected && !m.holds(id):
				// This terminal's own seat is connected, whatever the
				// state sent at its hello said.
				tags = append(tags, m.lang.tr(txtAway))
			}
		}
		if m.mode != modeHotSeat && m.holds(id) {
			tags = append(tags, m.lang.tr(txtYou))
		}
		if len(tags) > 0 {
			name += m.lang.tr(text{"（%s）", " (%s)"}, strings.Join(tags, ", "))
		}
		caps := panelDim.Render(m.lang.tr(txtCaptures, m.v.Captures[seat]))
		room := width - lipgloss.Width(left) - lipgloss.Width(caps) - 2
		name = truncate(name, max(room, 0))
		gap := width - lipgloss.Width(left) - 1 - lipgloss.Width(name) - lipgloss.Width(caps)
		out = append(out, left+panelText.Render(" "+name+strings.Repeat(" ", max(gap, 1)))+caps)
	}
	return out
}

// sealPool is the design's 印池: a large cinnabar seal beside the last
// move's coordinate.
func (m *model) sealPool(width int) []string {
	blk := sealBlock
	if lk.noColor {
		blk = blk.Reverse(true) // a block without colours too
	}
	seal := [3]string{blk.Render("      "), blk.Render("  " + sealChar + "  "), blk.Render("      ")}
	gap := panelText.Render("  ")
	v := &m.v
	var l1, l2, l3 string
	l1 = panelDim.Render(m.lang.tr(txtLastMove))
	switch n := len(v.Moves); {
	case m.evo:
		l2 = panelSeal.Render(m.lang.tr(txtEvolving, m.evoGen, len(v.Evolution)-1))
	case n == 0:
		l2 = panelDim.Render(m.lang.tr(txtNoMoveYet))
	default:
		colour := "BW"[(n-1)%2 : (n-1)%2+1]
		mv := v.Moves[n-1]
		if mv == "pass" {
			mv = m.lang.tr(txtPassed, m.lang.tr([2]text{txtBlack, txtWhite}[(n-1)%2]))
		}
		l2 = panelBold.Render(panelStone(colour) + " " + mv)
		info := m.lang.tr(txtMoveN, n)
		if k := len(v.Recent); k > 0 && v.Recent[k-1].Captured > 0 {
			info += lk.sym(" · ", " - ") + m.lang.tr(txtCaptures, v.Recent[k-1].Captured)
		}
		l3 = panelDim.Render(info)
	}
	return []string{seal[0] + gap + l1, seal[1] + gap + l2, seal[2] + gap + l3}
}

// phaseLines are the scoring preview, or the score at the end, in width
// cells: in full words when they fit, else in the short form (the
// numbers only, the heading saying what they are), else wrapped between
// words. A number is never cut.
func (m *model) phaseLines(width int) []string {
	v := &m.v
	switch {
	case m.evo:
		return nil
	case v.Phase == "scoring":
		ok := func(i int) string {
			if v.Approved[i] {
				return m.lang.tr(txtApproved)
			}
			return m.lang.tr(txtNotApproved)
		}
		out := []string{haloText.Render(m.lang.tr(txtScoring)) +
			panelText.Render("  "+panelStone("B")+" "+ok(0)+"  "+panelStone("W")+" "+ok(1))}
		bs, bt, ws, wt := m.preview()
		return append(out, fitForms(width,
			[]styled{{panelText, m.lang.tr(txtPreviewBlack, bs, bt)}, {panelText, m.lang.tr(txtPreviewWhite, ws, wt, num(v.Komi))}},
			[]styled{{panelText, m.lang.tr(txtPreviewBlack, bs, bt)}, {panelText, m.lang.tr(txtPreviewWhiteShort, ws, wt, num(v.Komi))}},
		)...)
	case v.Phase == "over":
		var out []string
		if s := v.Score; s != nil {
			out = fitForms(width,
				[]styled{
					{panelDim, m.lang.tr(txtScoreTitle)},
					{panelText, m.lang.tr(txtScoreBlack, s.Black.Stones, s.Black.Territory, num(s.Black.Total))},
					{panelText, m.lang.tr(txtScoreWhite, s.White.Stones, s.White.Territory, num(s.White.Komi), num(s.White.Total))},
				},
				[]styled{
					{panelDim, m.lang.tr(txtScoreTitleShort)},
					{panelText, m.lang.tr(txtScoreBlackShort, s.Black.Stones, s.Black.Territory, num(s.Black.Total))},
					{panelText, m.lang.tr(txtScoreWhiteShort, s.White.Stones, s.White.Territory, num(s.White.Komi), num(s.White.Total))},
				})
		}
		return append(out, fitForms(width, []styled{{panelSeal, m.resultText()}})...)
	}
	return nil
}

// styled is a line of text and its style.
type styled struct {
	st lipgloss.Style
	s  string
}

// fitForms renders the first of forms whose every line fits width, else
// the last one wrapped between words (never inside a word or a number).
func fitForms(width int, forms ...[]styled) []string {
	var out []string
	for i, form := range forms {
		fits := true
		for _, l := range form {
			fits = fits && ansi.StringWidth(l.s) <= width
		}
		if !fits && i < len(forms)-1 {
			continue
		}
		for _, l := range form {
			for _, w := range wrapWords(l.s, width) {
				out = append(out, l.st.Render(w))
			}
		}
		break
	}
	return out
}

// The short forms of the score lines, for a narrow sidebar.
var (
	txtPreviewWhiteShort = text{"白 子%d + 地%d + %s", "W %d st + %d terr + %s"}
	txtScoreTitleShort   = text{"计分：子 + 地 + 贴目", "Score: stones + terr + komi"}
	txtScoreBlackShort   = text{"黑 %d + %d = %s", "B %d + %d = %s"}
	txtScoreWhiteShort   = text{"白 %d + %d + %s = %s", "W %d + %d + %s = %s"}
)

// preview counts the scoring preview: each side's stones not marked dead
// and its territory (the server's, with the dead stones removed).
func (m *model) preview() (bs, bt, ws, wt int) {
	dead := map[string]bool{}
	for _, p := range m.v.Dead {
		dead[p] = true
	}
	for y, row := range m.v.Board {
		for x := 0; x < len(row); x++ {
			switch {
			case row[x] == 'B' && !dead[weiqi.FormatCoord(x, y, m.v.Size)]:
				bs++
			case row[x] == 'W' && !dead[weiqi.FormatCoord(x, y, m.v.Size)]:
				ws++
			}
		}
	}
	for _, row := range m.v.Territory {
		bt += strings.Count(row, "b")
		wt += strings.Count(row, "w")
	}
	return bs, bt, ws, wt
}

// resultText is the result in words, with the server's notation.
func (m *model) resultText() string {
	if m.v.Result == nil {
		return ""
	}
	r := *m.v.Result
	var t string
	switch {
	case r == "Draw":
		return m.lang.tr(txtDraw)
	case r == "B+R":
		t = m.lang.tr(txtBlackWinsR)
	case r == "W+R":
		t = m.lang.tr(txtWhiteWinsR)
	case strings.HasPrefix(r, "B+"):
		t = m.lang.tr(txtBlackWinsBy, r[2:])
	case strings.HasPrefix(r, "W+"):
		t = m.lang.tr(txtWhiteWinsBy, r[2:])
	default:
		return r
	}
	return t + " (" + r + ")"
}

// record lays out the newest entries of rec (oldest first) that fit in
// rows lines of width cells: down then across, in as few columns as
// take them, all of one width (the widest entry's), two cells apart or
// one when that fits another column. An entry is never cut. n is how
// many entries the lines hold.
func (m *model) record(rec []weiqi.RecentMove, width, rows int) (lines []string, n int) {
	for n = len(rec); n > 0 && rows > 0; n-- {
		shown := rec[len(rec)-n:]
		numW := len(strconv.Itoa(shown[len(shown)-1].N))
		entries := make([]string, n)
		colW := 0
		for i, e := range shown {
			entries[i] = m.recordEntry(e, numW)
			colW = max(colW, lipgloss.Width(entries[i]))
		}
		cols := (n + rows - 1) / rows
		gap := 2
		if cols*colW+(cols-1)*gap > width {
			gap = 1
		}
		if cols*colW+(cols-1)*gap > width {
			continue
		}
		used := (n + cols - 1) / cols
		out := make([]string, used)
		for r := range out {
			var b strings.Builder
			for c := 0; c < cols; c++ {
				i := c*used + r
				if i >= n {
					break
				}
				if c > 0 {
					b.WriteString(panelText.Render(strings.Repeat(" ", gap)))
				}
				b.WriteString(padRight(entries[i], colW))
			}
			out[r] = b.String()
		}
		return out, n
	}
	return nil, 0
}

// recordEntry is one move of the record: its number right-aligned in
// numW digits, the stone, the point and what it captured.
func (m *model) recordEntry(e weiqi.RecentMove, numW int) string {
	mv := e.Move
	if mv == "pass" {
		mv = m.lang.tr(text{"停", "pass"})
	}
	cap := ""
	if e.Captured > 0 {
		cap = lk.sym("×", "x") + strconv.Itoa(e.Captured)
	}
	return panelDim.Render(fmt.Sprintf("%*d ", numW, e.N)) +
		panelText.Render(panelStone(e.Color)+" "+mv) + panelSeal.Render(cap)
}

// num writes a score: 7.5, 52.
func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// truncate cuts s to width cells, with … when it was longer.
func truncate(s string, width int) string {
	if lipgloss.Width(s) <= width {
		return s
	}
	if width <= 0 {
		return ""
	}
	var b strings.Builder
	for _, r := range s {
		if lipgloss.Width(b.String()+string(r)) > width-1 {
			break
		}
		b.WriteRune(r)
	}
	return b.String() + "…"
}
