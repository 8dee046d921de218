package main

import (
	"os"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// The design's palette (调色板, docs/weiqi.md "Design"), taken from the
// materials of a real set: slate black stones, clam-shell white stones, a
// torreya (榧木) board.
// Every colour on screen comes from this table, but greyDead: the design asks
// for the dead stones' ✕ on grey and names no grey.
var (
	bgPanel    = lipgloss.Color("#1B1612") // BG_PANEL: ink-dark panels
	bgBoard    = lipgloss.Color("#2E2519") // BG_BOARD: the torreya board
	gridHard   = lipgloss.Color("#4A3D2A") // GRID_HARD: the grid lines
	gridSoft   = lipgloss.Color("#3A2F1F") // GRID_SOFT: star points and tengen
	stoneBlack = lipgloss.Color("#0A0A0A") // STONE_BLACK_BG: slate
	stoneWhite = lipgloss.Color("#EFE4C9") // STONE_WHITE_BG: shell
	cursorHalo = lipgloss.Color("#D4A56A") // CURSOR_HALO: amber cursor
	sealRed    = lipgloss.Color("#B2343A") // SEAL_RED: the cinnabar seal
	textDim    = lipgloss.Color("#8E7B5E") // TEXT_DIM: warm grey text
	textMain   = lipgloss.Color("#D9C9A6") // TEXT_MAIN: rice-paper text
	borderGold = lipgloss.Color("#6B5535") // BORDER_GOLD: bronze borders
	greyDead   = lipgloss.Color("#6A6A6A") // the grey under a dead stone's ✕

	// blackRim is the cell under a black stone. Slate on the torreya
	// board is 1.3:1, too close to tell a stone from the wood; on the
	// palette's warm grey the slate disc stands out at 4.8:1, a lit rim
	// around the stone. The shell stone needs none (13:1 on the board).
	blackRim = textDim
)

// look is what this terminal can show: colours or not (NO_COLOR), Unicode
// or only ASCII (a locale that is not UTF-8). Bubble Tea takes the same
// environment to decide its colour profile; the glyphs follow here, so a
// screen without colours still tells black from white and shows the
// cursor, and a non-UTF-8 terminal gets no byte it cannot show.
type look struct {
	noColor bool // NO_COLOR is set, or TERM=dumb: text attributes only
	ascii   bool // the locale's character set is not UTF-8
}

// lk is this process's look, read from the environment once.
var lk = lookFromEnv(os.Getenv)

// lookFromEnv reads the look from the environment. NO_COLOR counts when
// it is set to anything (no-color.org; Bubble Tea's own test is narrower,
// and a plain screen drawn in colour loses nothing). The character set is
// the locale's: LC_ALL, else LC_CTYPE, else LANG (the POSIX order); one
// that names no UTF-8 (C, POSIX, en_US.ISO-8859-1, zh_CN.GB18030) means
// ASCII. With none of them set nothing is known, and the modern terminal
// the design assumes is UTF-8.
func lookFromEnv(getenv func(string) string) look {
	var l look
	l.noColor = getenv("NO_COLOR") != "" || getenv("TERM") == "dumb"
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			l.ascii = !strings.Contains(v, "utf-8") && !strings.Contains(v, "utf8")
			break
		}
	}
	return l
}

// Glyphs of the full look. Every one is a single terminal cell wide (the
// ambiguous-width ones, ● ○ ▪ ✕, are narrow in a UTF-8 terminal outside a
// CJK width setting, as the design assumes).
const (
	glyphStone = "●" // a stone of either colour on the board (in colour)
	glyphSeal  = "▪" // the seal beside the last move (落款印)
	glyphDead  = "✕" // a stone marked dead in scoring
	glyphTerr  = "·" // an empty point of one side's territory (in colour)
	glyphStar  = "╋" // a star point (星位) or tengen (天元)
	glyphHoriz = "─" // the line between two intersections
	sealChar   = "印" // the character inside the seal pool's large seal
)

// stoneGlyph is a stone of colour c ('B' or 'W') on the board: one glyph
// for both in colour (the colour tells them apart), ● and ○ without
// colours, X and O in ASCII.
func (l look) stoneGlyph(c byte) string {
	switch {
	case l.ascii && c == 'W':
		return "O"
	case l.ascii:
		return "X"
	case l.noColor && c == 'W':
		return "○"
	}
	return glyphStone
}

// deadGlyph is a stone marked dead.
func (l look) deadGlyph() string {
	if l.ascii {
		return "x"
	}
	return glyphDead
}

// terrGlyph is an empty point of c's territory ('B' or 'W'): a dot in
// the owner's colour, else • and ◦ (b and w in ASCII).
func (l look) terrGlyph(c byte) string {
	switch {
	case l.ascii && c == 'W':
		return "w"
	case l.ascii:
		return "b"
	case l.noColor && c == 'W':
		return "◦"
	case l.noColor:
		return "•"
	}
	return glyphTerr
}

// gridGlyph is the empty intersection at (x, y): a corner, an edge or a
// cross, a star point, or in ASCII . and +.
func (l look) gridGlyph(x, y, size int) string {
	if isStar(x, y, size) {
		if l.ascii {
			return "+"
		}
		return glyphStar
	}
	if l.ascii {
		return "."
	}
	return gridGlyph(x, y, size)
}

// horiz is the line between two intersections (a space in ASCII, as in
// the usual ". . X O" diagrams).
func (l look) horiz() string {
	if l.ascii {
		return " "
	}
	return glyphHoriz
}

// sym is u in Unicode, a in ASCII (for the panels' marks and arrows).
func (l look) sym(u, a string) string {
	if l.ascii {
		return a
	}
	return u
}

// panelStone is how the panels write a colour ("B" or "W"): slate black
// on the dark panel would vanish, so text uses the usual ● for black and
// ○ for white (X and O in ASCII).
func panelStone(c string) string {
	if c == "W" {
		return lk.sym("○", "O")
	}
	return lk.sym("●", "X")
}

// Styles shared by the panels.
var (
	panelText = lipgloss.NewStyle().Foreground(textMain).Background(bgPanel)
	panelDim  = lipgloss.NewStyle().Foreground(textDim).Background(bgPanel)
	panelBold = panelText.Bold(true)
	panelSeal = lipgloss.NewStyle().Foreground(sealRed).Background(bgPanel).Bold(true)
)

// panelBox is the bordered panel: rounded bronze, or + - | in ASCII.
func panelBox() lipgloss.Style {
	b := lipgloss.RoundedBorder()
	if lk.ascii {
		b = lipgloss.ASCIIBorder()
	}
	return lipgloss.NewStyle().Background(bgPanel).Border(b).
		BorderForeground(borderGold).BorderBackground(bgPanel)
}

// asciiFor is what each non-ASCII character the screen can hold becomes
// in ASCII, cell for cell. Anything else becomes ? (?? when two cells
// wide): names and server messages may hold any text.
var asciiFor = map[rune]string{
	'…': ".", '·': ".", '×': "x", '▶': ">", '●': "X", '○': "O",
	'←': "<", '→': ">", '↑': "^", '↓': "v", '▪': "#", '✕': "x",
	'─': "-", '│': "|", '╭': "+", '╮': "+", '╰': "+", '╯': "+",
	'┌': "+", '┐': "+", '└': "+", '┘': "+", '├': "+", '┤': "+",
	'┬': "+", '┴': "+", '┼': "+", '╋': "+", '印': "[]",
	'（': "( ", '）': " )", '：': ": ", '，': ", ", '　': "  ",
}

// toASCII replaces every non-ASCII character of s (outside its escape
// sequences, which are ASCII) keeping each line's width in cells.
func toASCII(s string) string {
	isASCII := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			isASCII = false
			break
		}
	}
	if isASCII {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case asciiFor[r] != "":
			b.WriteString(asciiFor[r])
		default:
			b.WriteString(strings.Repeat("?", max(ansi.StringWidth(string(r)), 0)))
		}
	}
	return b.String()
}

// txtASCIINote is the help's word on the ASCII board.
var txtASCIINote = text{"区域设置不是 UTF-8，棋盘以 ASCII 绘制（可设 LANG=C.UTF-8）", "Locale not UTF-8: ASCII board (try LANG=C.UTF-8)"}
