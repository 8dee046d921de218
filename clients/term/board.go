package main

import (
	"fmt"
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/chaguan/chaguan/games/weiqi"
)

// Board cell styles: each point is two cells, the point itself and the
// line (or the seal) to its right.
var (
	onBoard    = lipgloss.NewStyle().Background(bgBoard)
	gridStyle  = onBoard.Foreground(gridHard)
	starStyle  = lipgloss.NewStyle().Foreground(gridHard).Background(gridSoft).Bold(true)
	labelStyle = onBoard.Foreground(textDim)
	sealStyle  = onBoard.Foreground(sealRed).Bold(true)
	titleStyle = onBoard.Foreground(textMain).Bold(true)
	cursorMark = onBoard.Foreground(cursorHalo).Bold(true)
)

// starPoints are the star points (and tengen) of each size, by column and
// row from the top left, 0-based.
func isStar(x, y, size int) bool {
	var lines []int
	switch size {
	case 9:
		lines = []int{2, 4, 6}
	case 13:
		lines = []int{3, 6, 9}
	case 19:
		lines = []int{3, 9, 15}
	}
	in := func(v int) bool {
		for _, l := range lines {
			if l == v {
				return true
			}
		}
		return false
	}
	if size == 9 && (x == 4) != (y == 4) {
		return false // 9x9 has the four 3-3 points and tengen, no sides
	}
	if size == 13 && (x == 6) != (y == 6) {
		return false
	}
	return in(x) && in(y)
}

// gridGlyph is the empty intersection at (x, y) in Unicode: a corner, an
// edge or a cross (look.gridGlyph adds the star points and ASCII).
func gridGlyph(x, y, size int) string {
	top, bottom, left, right := y == 0, y == size-1, x == 0, x == size-1
	switch {
	case top && left:
		return "┌"
	case top && right:
		return "┐"
	case bottom && left:
		return "└"
	case bottom && right:
		return "┘"
	case top:
		return "┬"
	case bottom:
		return "┴"
	case left:
		return "├"
	case right:
		return "┤"
	}
	return "┼"
}

// boardScene is what the board shows now: the position, and the marks on
// it, which depend on the phase and the evolution.
type boardScene struct {
	rows      []string        // size strings of '.', 'B', 'W'
	territory []string        // 'b'/'w' marks, or nil
	dead      map[string]bool // stones marked dead, by coordinate
	seal      string          // the point the seal sits beside, or ""
}

// scene picks the board to draw: a generation during the evolution, the
// last generation with its territory after the end by scoring, else the
// position with the seal on the last move (and in scoring the marks).
func (m *model) scene() boardScene {
	v := &m.v
	sc := boardScene{rows: v.Board}
	switch {
	case m.evo:
		sc.rows = v.Evolution[m.evoGen]
		return sc
	case v.Phase == "over" && len(v.Evolution) > 0:
		sc.rows = v.Evolution[len(v.Evolution)-1]
		sc.territory = v.Territory
		return sc
	case v.Phase == "scoring":
		sc.territory = v.Territory
		sc.dead = map[string]bool{}
		for _, p := range v.Dead {
			sc.dead[p] = true
		}
	}
	if v.Last != nil && *v.Last != "pass" {
		sc.seal = *v.Last
	}
	return sc
}

// point draws the intersection (x, y).
func (m *model) point(sc *boardScene, x, y int) string {
	size := m.v.Size
	c := byte('.')
	if y < len(sc.rows) && x < len(sc.rows[y]) {
		c = sc.rows[y][x]
	}
	var st lipgloss.Style
	var g string
	switch {
	case (c == 'B' || c == 'W') && sc.dead[weiqi.FormatCoord(x, y, size)]:
		st, g = lipgloss.NewStyle().Foreground(stoneColour(c)).Background(greyDead).Bold(true), lk.deadGlyph()
	case c == 'B':
		// The slate disc on its lit rim (blackRim): slate on the bare
		// board would all but vanish.
		st, g = lipgloss.NewStyle().Foreground(stoneBlack).Background(blackRim), lk.stoneGlyph(c)
	case c == 'W':
		st, g = onBoard.Foreground(stoneWhite), lk.stoneGlyph(c)
	case sc.territory != nil && y < len(sc.territory) && x < len(sc.territory[y]) && sc.territory[y][x] != '.':
		// White's dots in shell, black's in the rim's warm grey (slate
		// dots would vanish as slate stones do).
		owner, fg := sc.territory[y][x]-'a'+'A', blackRim
		if owner == 'W' {
			fg = stoneWhite
		}
		st, g = onBoard.Foreground(fg).Bold(true), lk.terrGlyph(owner)
	case isStar(x, y, size):
		st, g = starStyle, lk.gridGlyph(x, y, size)
	default:
		st, g = gridStyle, lk.gridGlyph(x, y, size)
	}
	if x == m.cx && y == m.cy {
		// The amber halo; without colours the brackets either side
		// (between) mark the cursor instead.
		st = st.Background(cursorHalo)
		if c != 'B' && c != 'W' {
			st = st.Foreground(bgBoard)
		}
	}
	return st.Render(g)
}

func stoneColour(c byte) color.Color {
	if c == 'W' {
		return stoneWhite
	}
	return stoneBlack
}

// between draws the cell right of column x on row y (x = -1: the cell
// left of the first column, the row label's margin). It holds the line to
// the next point, or a mark of the point beside it: the cursor's
// brackets without colours, the seal ▪ right of the last move (in ASCII
// parentheses around it, as in the usual text diagrams).
func (m *model) between(sc *boardScene, x, y int) string {
	size := m.v.Size
	if lk.noColor && y == m.cy {
		switch m.cx {
		case x + 1:
			return cursorMark.Render("[")
		case x:
			return cursorMark.Render("]")
		}
	}
	seal := func(col int) bool {
		return col >= 0 && col < size && sc.seal != "" && sc.seal == weiqi.FormatCoord(col, y, size)
	}
	switch {
	case seal(x) && lk.ascii:
		return sealStyle.Render(")")
	case seal(x):
		return sealStyle.Render(glyphSeal)
	case seal(x+1) && lk.ascii:
		return sealStyle.Render("(")
	case x >= 0 && x < size-1:
		return gridStyle.Render(lk.horiz())
	case x < 0:
		return labelStyle.Render(" ")
	}
	return onBoard.Render(" ")
}

// boardPanel draws the board in its bordered panel of height rows.
func (m *model) boardPanel(height int) string {
	size := m.v.Size
	sc := m.scene()
	letters := labelStyle.Render("   ")
	for x := 0; x < size; x++ {
		letters += labelStyle.Render(weiqi.FormatCoord(x, 0, size)[:1] + " ")
	}
	letters += labelStyle.Render("  ")
	lines := []string{m.boardTitle(2*size + 5), letters}
	for y := 0; y < size; y++ {
		var b strings.Builder
		label := fmt.Sprintf("%2d", size-y)
		b.WriteString(labelStyle.Render(label))
		b.WriteString(m.between(&sc, -1, y))
		for x := 0; x < size; x++ {
			b.WriteString(m.point(&sc, x, y))
			b.WriteString(m.between(&sc, x, y))
		}
		b.WriteString(labelStyle.Render(fmt.Sprintf("%-2s", label)))
		lines = append(lines, b.String())
	}
	lines = append(lines, letters)
	_, ph := boardPanelSize(size)
	box := panelBox().Background(bgBoard).Padding(0, 1).Height(max(height, ph)).AlignVertical(lipgloss.Center)
	return box.Render(strings.Join(lines, "\n"))
}

// boardTitle is the board panel's first row: the game, the size and how
// this terminal plays, centred.
func (m *model) boardTitle(width int) string {
	size := m.v.Size
	t := m.lang.tr(txtTitle, size, size)
	if m.lang == langZh {
		t = m.lang.tr(txtTitle, size)
	}
	kind := [...]text{txtHotSeat, txtVsBot, txtOnline, txtWatch}[m.mode]
	t += lk.sym(" · ", " - ") + m.lang.tr(kind)
	return lipgloss.PlaceHorizontal(width, lipgloss.Center, titleStyle.Render(t),
		lipgloss.WithWhitespaceStyle(onBoard))
}
