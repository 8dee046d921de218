package main

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/chaguan/chaguan/games/weiqi"
)

// recordCol is the width of one record entry ("38 ● Q16 ×2") with its gap.
const recordCol = 14

var (
	sealBlock = lipgloss.NewStyle().Foreground(textMain).Background(sealRed).Bold(true)
	haloText  = lipgloss.NewStyle().Foreground(cursorHalo).Background(bgPanel).Bold(true)
)

// sidebar draws the right panel, width×height with its border: the
// players and their captures, the seal pool, the scoring or the score,
// and the record of the last moves in as many columns as fit.
func (m *model) sidebar(width, height int) string {
	iw, ih := width-4, height-2 // inside the border and the 1-cell padding
	head := m.playerLines(iw)
	head = append(head, "")
	head = append(head, m.sealPool(iw)...)
	if extra := m.phaseLines(); len(extra) > 0 {
		head = append(head, "")
		head = append(head, extra...)
	}
	if rows := ih - len(head) - 2; rows < 2 {
		head = dropBlanks(head, 2-rows) // room for two rows of the record
	}
	if rows := ih - len(head) - 2; rows > 0 {
		head = append(head, "", panelDim.Render("── "+m.lang.tr(txtRecord)+" ──"))
		head = append(head, m.record(iw, rows)...)
	} else if len(head) > ih {
		head = dropBlanks(head, len(head)-ih)
		head = head[:min(len(head), ih)]
	}
	for i, l := range head {
		head[i] = padRight(l, iw)
	}
	box := panelBox.Padding(0, 1).Width(width).Height(height)
	return box.Render(strings.Join(head, "\n"))
}

// dropBlanks removes up to n empty lines, the last first.
func dropBlanks(lines []string, n int) []string {
	for i := len(lines) - 1; i >= 0 && n > 0; i-- {
		if lines[i] == "" {
			lines = append(lines[:i], lines[i+1:]...)
			n--
		}
	}
	return lines
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
			if p.Name != m.lang.tr(colour) {
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

// sealPool is the seed's 印池: a large cinnabar seal beside the last
// move's coordinate.
func (m *model) sealPool(width int) []string {
	seal := [3]string{sealBlock.Render("      "), sealBlock.Render("  " + sealChar + "  "), sealBlock.Render("      ")}
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
			info += " · " + m.lang.tr(txtCaptures, v.Recent[k-1].Captured)
		}
		l3 = panelDim.Render(info)
	}
	return []string{seal[0] + gap + l1, seal[1] + gap + l2, seal[2] + gap + l3}
}

// phaseLines are the scoring preview, or the score at the end.
func (m *model) phaseLines() []string {
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
		bs, bt, ws, wt := m.preview()
		return []string{
			haloText.Render(m.lang.tr(txtScoring)) + panelText.Render("  ● "+ok(0)+"  ○ "+ok(1)),
			panelText.Render(m.lang.tr(txtPreviewBlack, bs, bt)),
			panelText.Render(m.lang.tr(txtPreviewWhite, ws, wt, num(v.Komi))),
		}
	case v.Phase == "over":
		var out []string
		if s := v.Score; s != nil {
			out = append(out, panelDim.Render(m.lang.tr(txtScoreTitle)),
				panelText.Render(m.lang.tr(txtScoreBlack, s.Black.Stones, s.Black.Territory, num(s.Black.Total))),
				panelText.Render(m.lang.tr(txtScoreWhite, s.White.Stones, s.White.Territory, num(s.White.Komi), num(s.White.Total))))
		}
		return append(out, panelSeal.Render(m.resultText()))
	}
	return nil
}

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

// record lays the last moves (G.recent, oldest first) in columns of rows,
// down then across; when they do not all fit, the newest that do.
func (m *model) record(width, rows int) []string {
	cols := max(1, (width+1)/recordCol)
	rec := m.v.Recent
	if n := rows * cols; len(rec) > n {
		rec = rec[len(rec)-n:]
	}
	out := make([]string, 0, rows)
	for r := 0; r < rows && r < len(rec); r++ {
		var b strings.Builder
		for c := 0; c < cols; c++ {
			i := c*rows + r
			if i >= len(rec) {
				break
			}
			b.WriteString(m.recordEntry(rec[i]))
		}
		out = append(out, b.String())
	}
	return out
}

// recordEntry is one move of the record, recordCol cells wide.
func (m *model) recordEntry(e weiqi.RecentMove) string {
	mv := e.Move
	if mv == "pass" {
		mv = m.lang.tr(text{"停", "pass"})
	}
	cap := ""
	if e.Captured > 0 {
		cap = "×" + strconv.Itoa(e.Captured)
	}
	s := panelDim.Render(fmt.Sprintf("%3d ", e.N)) +
		panelText.Render(panelStone(e.Color)+" "+mv) + panelSeal.Render(cap)
	return padRight(s, recordCol)
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
