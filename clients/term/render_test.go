package main

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/chaguan/chaguan/games/weiqi"
)

// The tests draw in the full look (colours, Unicode) whatever the
// environment they run in; the tests of the other looks set theirs.
func init() { lk = look{} }

// withLook draws in l until the test ends.
func withLook(t *testing.T, l look) {
	t.Helper()
	old := lk
	lk = l
	t.Cleanup(func() { lk = old })
}

// The test games.

// halves19 is n moves of a 19x19 game: black fills columns A-H from the
// bottom, white columns M-T, with no capture.
func halves19(n int) []string {
	var mv []string
	bl, wh := "ABCDEFGH", "MNOPQRST"
	for i := 0; len(mv) < n; i++ {
		c, r := i/19, i%19+1
		mv = append(mv, fmt.Sprintf("%c%d", bl[c], r), fmt.Sprintf("%c%d", wh[c], r))
	}
	return mv[:n]
}

// rows is n moves on a board of size: black fills rows from the bottom,
// white from the top, with no capture (n at most about size*size/2).
func rows(size, n int) []string {
	cols := "ABCDEFGHJKLMNOPQRST"[:size]
	var mv []string
	for i := 0; len(mv) < n; i++ {
		mv = append(mv, fmt.Sprintf("%c%d", cols[i%size], 1+i/size), fmt.Sprintf("%c%d", cols[i%size], size-i/size))
	}
	return mv[:n]
}

// whiteAll19 ends a 19x19 game by scoring with a white 2x2 block (which
// the evolution keeps) owning the whole board: white 4 + 357 + 7.5 =
// 368.5, the widest score a 19x19 game has.
var whiteAll19 = []string{"pass", "D4", "pass", "D5", "pass", "E4", "pass", "E5", "pass", "pass", "0 approve", "1 approve"}

// atEnd shows the end of a game by scoring without its animation.
func atEnd(h *harness) {
	h.m.stopEvolution()
}

// screenAt is the screen of a hot-seat game of size after moves, at w×h,
// after keys.
func screenAt(t *testing.T, size int, moves []string, l lang, w, hh int, keys ...string) (*harness, string) {
	t.Helper()
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, l, game(t, size, moves...))
	atEnd(h)
	h.send(teaSize(w, hh))
	h.keys(keys...)
	return h, h.screen()
}

// checkFits fails unless screen is exactly w×h cells.
func checkFits(t *testing.T, screen string, w, h int) {
	t.Helper()
	lines := strings.Split(screen, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), h, screen)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n != w {
			t.Fatalf("line %d is %d wide, want %d:\n%s", i, n, w, screen)
		}
	}
}

// TestMinimumSizeScreens: golden screens at the design's three minimum
// sizes, 9x9 at 60x16, 13x13 at 68x20, 19x19 at 80x26: a game past 20
// moves (the record shows the last 20), the help over the panels with
// the status bar below it, and the end with its score.
func TestMinimumSizeScreens(t *testing.T) {
	for _, tc := range []struct {
		name       string
		size, w, h int
		l          lang
		moves      []string
		keys       []string
	}{
		{"min9_play_en.txt", 9, 60, 16, langEn, rows(9, 30), nil},
		{"min9_help_zh.txt", 9, 60, 16, langZh, rows(9, 30), []string{"?"}},
		{"min9_end_en.txt", 9, 60, 16, langEn, append(walls9(), "0 approve", "1 approve"), nil},
		{"min13_play_zh.txt", 13, 68, 20, langZh, rows(13, 40), nil},
		{"min13_help_en.txt", 13, 68, 20, langEn, rows(13, 40), []string{"?"}},
		{"min19_play_en.txt", 19, 80, 26, langEn, halves19(150), nil},
		{"min19_help_zh.txt", 19, 80, 26, langZh, halves19(150), []string{"?"}},
		{"min19_end_zh.txt", 19, 80, 26, langZh, whiteAll19, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, s := screenAt(t, tc.size, tc.moves, tc.l, tc.w, tc.h, tc.keys...)
			checkFits(t, s, tc.w, tc.h)
			golden(t, tc.name, s+"\n")
		})
	}
}

// TestHelpFitsAboveStatusBar: at each minimum size and above, in both
// languages and every phase, the help shows every key of its table (the
// full one, or the compact one where it does not fit), and the status bar
// stays visible below it, saying how to close it.
func TestHelpFitsAboveStatusBar(t *testing.T) {
	before, after := endByScoring(t)
	for _, size := range []int{9, 13, 19} {
		mw, mh := minSize(size)
		for _, wh := range [][2]int{{mw, mh}, {mw, mh + 1}, {mw + 10, mh + 4}, {160, 50}} {
			for _, l := range []lang{langZh, langEn} {
				for phase, moves := range map[string][]string{"play": {"E5"}, "scoring": before, "over": after} {
					if size != 9 && phase != "play" {
						continue // the scoring games are 9x9
					}
					h, plain := screenAt(t, size, moves, l, wh[0], wh[1])
					h.keys("?")
					s := h.screen()
					checkFits(t, s, wh[0], wh[1])
					lines := strings.Split(s, "\n")
					pl := strings.Split(plain, "\n")
					n := len(lines)
					if lines[n-2] != pl[n-2] {
						t.Errorf("%d %dx%d %v %s: the help covers the status bar:\n%s", size, wh[0], wh[1], l, phase, s)
					}
					if !strings.Contains(lines[n-1], l.tr(text{"关闭帮助", "close help"})) {
						t.Errorf("%d %dx%d %v %s: the status bar does not say how to close the help:\n%s", size, wh[0], wh[1], l, phase, s)
					}
					table := append(append([]hint(nil), helpKeys...), helpScoring...)
					if wh[1]-statusRows < len(table)+2+2 { // the title, the scoring heading, the border

						table = helpCompact
					}
					top := strings.Join(lines[:n-2], "\n")
					for _, hn := range table {
						if !strings.Contains(top, hn.key+strings.Repeat(" ", 14-ansi.StringWidth(hn.key))+l.tr(hn.do)) {
							t.Errorf("%d %dx%d %v %s: the help lacks %q %q:\n%s", size, wh[0], wh[1], l, phase, hn.key, l.tr(hn.do), s)
						}
					}
				}
			}
		}
	}
}

// recordRe is one entry of the record: number, stone, point or pass, and
// the stones it took.
var recordRe = regexp.MustCompile(`(\d+) ([●○XO]) ([A-T]\d{1,2}|pass|停)((?:×|x)\d+)?`)

// recordShown is the record's entries on screen, by number.
func recordShown(s string) map[int]string {
	out := map[int]string{}
	for _, l := range strings.Split(s, "\n") {
		for _, m := range recordRe.FindAllStringSubmatch(l, -1) {
			n, _ := strconv.Atoi(m[1])
			out[n] = m[0]
		}
	}
	return out
}

// checkRecord fails unless the record shows exactly the last want moves
// of v, each whole.
func checkRecord(t *testing.T, v weiqi.View, s string, want int) {
	t.Helper()
	got := recordShown(s)
	if len(got) != want {
		t.Fatalf("the record shows %d entries, want %d:\n%s", len(got), want, s)
	}
	for _, e := range v.Recent[len(v.Recent)-want:] {
		mv := e.Move
		if mv == "pass" && strings.Contains(s, "停") {
			mv = "停"
		}
		entry := fmt.Sprintf("%d %s %s", e.N, panelStone(e.Color), mv)
		if e.Captured > 0 {
			entry += lk.sym("×", "x") + strconv.Itoa(e.Captured)
		}
		if got[e.N] != entry {
			t.Fatalf("record entry %d is %q, want %q:\n%s", e.N, got[e.N], entry, s)
		}
	}
}

// TestRecordShowsLastTwenty: the record holds the design's last 20 moves
// wherever the height allows it, at each minimum size too; where it does
// not (the 9x9 end, its score taking four rows of 16), as many of the
// newest as fit, each whole.
func TestRecordShowsLastTwenty(t *testing.T) {
	for _, tc := range []struct {
		size, w, h int
		l          lang
		moves      []string
		want       int
	}{
		{9, 60, 16, langEn, rows(9, 30), 20},
		{9, 60, 16, langZh, rows(9, 30), 20},
		{9, 60, 16, langEn, rows(9, 7), 7},
		{9, 100, 30, langEn, rows(9, 30), 20},
		{13, 68, 20, langEn, rows(13, 40), 20},
		{13, 68, 20, langZh, rows(13, 40), 20},
		{19, 80, 26, langEn, halves19(150), 20},
		{19, 80, 26, langZh, halves19(150), 20},
		{19, 120, 40, langEn, halves19(150), 20},
		{9, 60, 16, langEn, append(walls9(), "0 approve", "1 approve"), 9},
		{9, 60, 16, langZh, append(walls9(), "0 approve", "1 approve"), 9},
		{9, 60, 17, langEn, append(walls9(), "0 approve", "1 approve"), 12},
		{19, 80, 26, langEn, whiteAll19, 10},
	} {
		t.Run(fmt.Sprintf("%d_%dx%d_%v_%d", tc.size, tc.w, tc.h, tc.l, len(tc.moves)), func(t *testing.T) {
			h, s := screenAt(t, tc.size, tc.moves, tc.l, tc.w, tc.h)
			checkFits(t, s, tc.w, tc.h)
			checkRecord(t, h.m.v, s, tc.want)
		})
	}
}

// wholeNumber reports whether s holds num with no digit or point glued
// to either side (a number cut to "41." or "368" does not count).
func wholeNumber(s, num string) bool {
	re := regexp.MustCompile(`(^|[^0-9.])` + regexp.QuoteMeta(num) + `($|[^0-9.])`)
	return re.MatchString(s)
}

// TestScoreTotalsWhole: the score's numbers show whole at every size and
// in both languages: 43.5 at 9x9's 60x16 (its full English line is 30
// cells in a 29-cell sidebar) and 368.5 at 19x19's 80x26; the short form
// takes over with its heading.
func TestScoreTotalsWhole(t *testing.T) {
	for _, tc := range []struct {
		size, w, h int
		l          lang
		moves      []string
		nums       []string
	}{
		{9, 60, 16, langEn, append(walls9(), "0 approve", "1 approve"), []string{"36", "43.5", "7.5", "18"}},
		{9, 60, 16, langZh, append(walls9(), "0 approve", "1 approve"), []string{"36", "43.5", "7.5", "18"}},
		{9, 100, 30, langEn, append(walls9(), "0 approve", "1 approve"), []string{"36", "43.5", "7.5", "18"}},
		{19, 80, 26, langEn, whiteAll19, []string{"368.5", "357", "4", "7.5", "0"}},
		{19, 80, 26, langZh, whiteAll19, []string{"368.5", "357", "4", "7.5", "0"}},
		{19, 120, 40, langEn, whiteAll19, []string{"368.5", "357", "4", "7.5", "0"}},
	} {
		t.Run(fmt.Sprintf("%d_%dx%d_%v", tc.size, tc.w, tc.h, tc.l), func(t *testing.T) {
			h, s := screenAt(t, tc.size, tc.moves, tc.l, tc.w, tc.h)
			checkFits(t, s, tc.w, tc.h)
			side := sidebarText(s)
			sc := h.m.v.Score
			if sc == nil {
				t.Fatal("no score")
			}
			for _, n := range tc.nums {
				if !wholeNumber(side, n) {
					t.Errorf("the sidebar lacks %s whole:\n%s", n, side)
				}
			}
			for _, n := range []string{num(sc.Black.Total), num(sc.White.Total)} {
				if !regexp.MustCompile(`= ` + regexp.QuoteMeta(n) + `($|[^0-9.])`).MatchString(side) {
					t.Errorf("the total %s is not whole after its =:\n%s", n, side)
				}
			}
		})
	}
}

// sidebarText is the screen's sidebar, right of the board panel, one
// line per row, without the status bar.
func sidebarText(s string) string {
	lines := strings.Split(s, "\n")
	x := 0
	for _, l := range lines {
		if i := strings.Index(l, "╮╭"); i >= 0 {
			x = ansi.StringWidth(l[:i]) + 1
			break
		}
	}
	var out []string
	for _, l := range lines[:len(lines)-statusRows] {
		out = append(out, ansi.Cut(l, x, ansi.StringWidth(l)))
	}
	return strings.Join(out, "\n")
}

// TestScorePreviewWhole: the scoring preview with 3-digit counts and a
// wide komi keeps its numbers whole in the narrowest sidebar.
func TestScorePreviewWhole(t *testing.T) {
	m := &model{lang: langEn, v: weiqi.View{Phase: "scoring", Komi: 107.5, Size: 19}}
	row := strings.Repeat("W", 19)
	for i := 0; i < 19; i++ {
		m.v.Board = append(m.v.Board, row)
	}
	lines := m.phaseLines(29)
	text := ansi.Strip(strings.Join(lines, "\n"))
	for _, n := range []string{"361", "107.5"} {
		if !wholeNumber(text, n) {
			t.Errorf("the preview lacks %s whole:\n%s", n, text)
		}
	}
	for _, l := range lines {
		if w := ansi.StringWidth(l); w > 29 {
			t.Errorf("preview line %q is %d wide", ansi.Strip(l), w)
		}
	}
	// And wrapping never splits a word: a line too long for any form.
	got := fitForms(12, []styled{{panelText, "W 361 + 0 + 107.5 = 468.5"}})
	want := []string{"W 361 + 0 +", "107.5 =", "468.5"}
	if len(got) != len(want) {
		t.Fatalf("wrapped %q", got)
	}
	for i := range got {
		if ansi.Strip(got[i]) != want[i] {
			t.Fatalf("wrapped %q, want %q", got, want)
		}
	}
}

// TestStatusLineKeepsWords: a message too long for the status bar loses
// the cursor's point, then its last words, never part of a word or a
// number.
func TestStatusLineKeepsWords(t *testing.T) {
	h, _ := screenAt(t, 9, capture9, langEn, 60, 16)
	msg := "The other side removed the dead mark on G7 and wants 12345 more points"
	h.m.setInfo(msg)
	line := h.statusLine()
	if strings.Contains(line, "cursor") {
		t.Errorf("the cursor's point stayed on a full line: %q", line)
	}
	if !strings.HasSuffix(line, "…") {
		t.Fatalf("no … on the shortened line %q", line)
	}
	words := strings.Fields(strings.TrimSuffix(line[strings.LastIndex(line, "│")+len("│"):], "…"))
	if !strings.HasPrefix(msg, strings.Join(words, " ")) {
		t.Fatalf("the status line %q cut the message %q inside a word", line, msg)
	}
	h.m.setInfo("Too fast: wait a moment")
	if line := h.statusLine(); !strings.Contains(line, "cursor E5 │ Too fast: wait a moment") {
		t.Fatalf("a short message lost the cursor: %q", line)
	}
}

// contrast is the WCAG contrast ratio of two colours "r;g;b".
func contrast(a, b [3]int) float64 {
	lum := func(c [3]int) float64 {
		var l [3]float64
		for i, v := range c {
			s := float64(v) / 255
			if s <= 0.03928 {
				l[i] = s / 12.92
			} else {
				l[i] = math.Pow((s+0.055)/1.055, 2.4)
			}
		}
		return 0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2]
	}
	la, lb := lum(a), lum(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// sgrColour is the true colour of an SGR parameter in s: 38 for the
// foreground, 48 for the background.
func sgrColour(t *testing.T, s string, which int) [3]int {
	t.Helper()
	m := regexp.MustCompile(fmt.Sprintf(`(?:^|[;\[])%d;2;(\d+);(\d+);(\d+)`, which)).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("no colour %d in %q", which, s)
	}
	var c [3]int
	for i := range c {
		c[i], _ = strconv.Atoi(m[i+1])
	}
	return c
}

// TestStonesStandOut: the slate stone keeps the design's #0A0A0A but sits
// on its lit rim, at least 3:1 against the disc and against the board
// around it (the bare board gave 1.32:1); the shell stone is as clear on
// the board.
func TestStonesStandOut(t *testing.T) {
	h, _ := screenAt(t, 9, capture9, langEn, 60, 16)
	sc := h.m.scene()
	board := [3]int{0x2E, 0x25, 0x19}
	black := h.m.point(&sc, 4, 3) // E6
	if !strings.Contains(ansi.Strip(black), glyphStone) {
		t.Fatalf("E6 is %q", black)
	}
	disc, rim := sgrColour(t, black, 38), sgrColour(t, black, 48)
	if disc != [3]int{10, 10, 10} {
		t.Errorf("the black stone is %v, not the design's #0A0A0A", disc)
	}
	if c := contrast(disc, rim); c < 3 {
		t.Errorf("black stone on its rim: %.2f:1", c)
	}
	if c := contrast(rim, board); c < 3 {
		t.Errorf("the black stone's rim on the board: %.2f:1", c)
	}
	if c := contrast(disc, board); c > 1.5 {
		t.Errorf("the test's premise: slate on the board is %.2f:1", c)
	}
	white := h.m.point(&sc, 0, 7) // A2
	if c := contrast(sgrColour(t, white, 38), sgrColour(t, white, 48)); c < 3 {
		t.Errorf("white stone on the board: %.2f:1", c)
	}
	// The territory dots of both sides at the end (A9 black's, J9 white's).
	h, _ = screenAt(t, 9, append(walls9(), "0 approve", "1 approve"), langEn, 60, 16)
	sc = h.m.scene()
	for _, x := range []int{0, 8} {
		dot := h.m.point(&sc, x, 0)
		if !strings.Contains(ansi.Strip(dot), glyphTerr) {
			t.Fatalf("(%d, 0) is %q", x, dot)
		}
		if c := contrast(sgrColour(t, dot, 38), board); c < 3 {
			t.Errorf("territory dot at (%d, 0) on the board: %.2f:1", x, c)
		}
	}
}

// boardRow is the row of the board of size labelled n, between its
// labels (the board panel at the screen's left edge, as at the minimum
// widths).
func boardRow(t *testing.T, s string, size, n int) string {
	t.Helper()
	for _, l := range strings.Split(s, "\n") {
		if ansi.Cut(l, 2, 4) == fmt.Sprintf("%2d", n) && ansi.Cut(l, 5+2*size, 7+2*size) == fmt.Sprintf("%2d", n) {
			return ansi.Cut(l, 4, 5+2*size)
		}
	}
	t.Fatalf("no row %d:\n%s", n, s)
	return ""
}

// sgrHas reports whether an SGR sequence of s sets attribute a (7:
// reverse video), skipping the parameters of the extended colours.
func sgrHas(s string, a int) bool {
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(s, -1) {
		ps := strings.Split(m[1], ";")
		for i := 0; i < len(ps); i++ {
			switch ps[i] {
			case "38", "48", "58":
				if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				} else {
					i += 2
				}
			case strconv.Itoa(a):
				return true
			}
		}
	}
	return false
}

// TestNoColor: with NO_COLOR the colours go (Bubble Tea drops them), so
// the glyphs tell the stones apart (● black, ○ white), the cursor shows
// as brackets either side of its point, on an empty point, on a stone,
// beside the seal and at both edges, and dead stones and territory have
// their own marks.
func TestNoColor(t *testing.T) {
	withLook(t, look{noColor: true})
	h, s := screenAt(t, 9, capture9, langEn, 60, 16)
	checkFits(t, s, 60, 16)
	golden(t, "nocolor_play_en.txt", s+"\n")
	for n, want := range map[int]string{
		6: " ├─┼─┼─┼─●─┼─┼─┼─┤ ",
		5: " ├─┼─┼─●[╋]●─┼─┼─┤ ", // the cursor on tengen
		4: " ├─┼─┼─┼─●▪┼─┼─┼─┤ ",
		2: " ○─┼─┼─┼─┼─┼─┼─┼─┤ ",
	} {
		if got := boardRow(t, s, 9, n); got != want {
			t.Errorf("row %d is %q, want %q", n, got, want)
		}
	}
	for _, tc := range []struct {
		keys []string
		row  int
		want string
	}{
		{[]string{"j"}, 4, " ├─┼─┼─┼[●]┼─┼─┼─┤ "},                               // on the last move: brackets over the seal
		{[]string{"h", "h", "h", "h", "j", "j", "j"}, 2, "[○]┼─┼─┼─┼─┼─┼─┼─┤ "}, // left edge
		{[]string{"l", "l", "l", "l", "l", "k", "k", "k", "k"}, 9, " ┌─┬─┬─┬─┬─┬─┬─┬[┐]"},
	} {
		h, _ := screenAt(t, 9, capture9, langEn, 60, 16)
		h.keys(tc.keys...)
		if got := boardRow(t, h.screen(), 9, tc.row); got != tc.want {
			t.Errorf("keys %v: row %d is %q, want %q", tc.keys, tc.row, got, tc.want)
		}
	}
	// Scoring: the dead white stones and black's territory.
	_, s = screenAt(t, 9, append(capture9[:7:7], "pass", "pass", `0 toggleDead ["A1"]`), langEn, 60, 16)
	if got := boardRow(t, s, 9, 1); got != " ✕─•─•─•─•─•─•─•─• " {
		t.Errorf("scoring row 1 is %q", got)
	}
	_, s = screenAt(t, 9, append(walls9(), "0 approve", "1 approve"), langEn, 60, 16)
	if got := boardRow(t, s, 9, 9); got != " •─•─●─●─┬─○─○─◦─◦ " {
		t.Errorf("end row 9 is %q", got)
	}
	// The seal pool's block shows in reverse video, no colour needed.
	if !sgrHas(h.m.View().Content, 7) {
		t.Error("no reverse video on the screen without colours")
	}
}

// TestLookFromEnv: NO_COLOR (any value) and TERM=dumb take the colours
// away; a locale whose LC_ALL, else LC_CTYPE, else LANG names no UTF-8
// means ASCII.
func TestLookFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		want look
	}{
		{map[string]string{}, look{}},
		{map[string]string{"LANG": "en_US.UTF-8"}, look{}},
		{map[string]string{"LANG": "zh_CN.utf8"}, look{}},
		{map[string]string{"LANG": "C"}, look{ascii: true}},
		{map[string]string{"LANG": "POSIX"}, look{ascii: true}},
		{map[string]string{"LANG": "zh_CN.GB18030"}, look{ascii: true}},
		{map[string]string{"LANG": "en_US.UTF-8", "LC_ALL": "C"}, look{ascii: true}},
		{map[string]string{"LANG": "C", "LC_CTYPE": "C.UTF-8"}, look{}},
		{map[string]string{"LC_ALL": "en_US.ISO-8859-1", "LC_CTYPE": "C.UTF-8"}, look{ascii: true}},
		{map[string]string{"NO_COLOR": "1"}, look{noColor: true}},
		{map[string]string{"NO_COLOR": "yes", "LANG": "C"}, look{noColor: true, ascii: true}},
		{map[string]string{"NO_COLOR": ""}, look{}},
		{map[string]string{"TERM": "dumb"}, look{noColor: true}},
	} {
		if got := lookFromEnv(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: %+v, want %+v", tc.env, got, tc.want)
		}
	}
}

// TestASCII: a terminal that is not UTF-8 gets only ASCII, in every phase,
// with the help open, below the minimum size and in the window title; the
// board is the usual text diagram (. + X O, the last move in
// parentheses), and the game speaks English, Chinese being unprintable
// there, its messages too.
func TestASCII(t *testing.T) {
	for _, l := range []look{{ascii: true}, {ascii: true, noColor: true}} {
		withLook(t, l)
		before, after := endByScoring(t)
		for _, size := range []int{9, 13, 19} {
			mw, mh := minSize(size)
			for _, wh := range [][2]int{{mw, mh}, {mw - 1, mh}, {120, 40}} {
				for phase, moves := range map[string][]string{"play": {"E5", "F5"}, "scoring": before, "over": after} {
					if size != 9 && phase != "play" {
						continue
					}
					for _, keys := range [][]string{nil, {"?"}} {
						h := newHarness(t, modeHotSeat, []string{"0", "1"}, langZh, game(t, size, moves...))
						h.m.players[0].Name = "黑方"
						h.m.players[1].Name = "Zoë"
						h.send(teaSize(wh[0], wh[1]))
						h.keys(keys...)
						v := h.m.View()
						for i := 0; i < len(v.Content); i++ {
							if v.Content[i] >= 0x80 {
								t.Fatalf("%+v %d %s %v at %dx%d: byte %#x at %d:\n%s", l, size, phase, keys, wh[0], wh[1], v.Content[i], i, h.screen())
							}
						}
						if strings.ContainsFunc(v.WindowTitle, func(r rune) bool { return r >= 0x80 }) {
							t.Fatalf("title %q", v.WindowTitle)
						}
						checkFits(t, h.screen(), wh[0], wh[1])
					}
				}
			}
		}
		h, s := screenAt(t, 9, capture9, langZh, 60, 16)
		if l == (look{ascii: true}) {
			golden(t, "ascii_play.txt", s+"\n")
		}
		if got := boardRow(t, s, 9, 4); got != " . . . .(X). . . . " {
			t.Errorf("row 4 is %q", got)
		}
		if got := boardRow(t, s, 9, 5); l.noColor && got != " . . . X[+]X . . . " {
			t.Errorf("row 5 is %q", got)
		}
		if !strings.Contains(s, "Weiqi 9x9 - hot-seat") || !strings.Contains(s, "O White to play | cursor E5") {
			t.Errorf("not in English:\n%s", s)
		}
		h.keys("d") // a message made after the switch is English too
		if line := h.statusLine(); !strings.Contains(line, "d marks dead stones in scoring") {
			t.Errorf("status %q", line)
		}
	}
}

// TestTooSmallMessage: the message printed before exiting says what the
// board needs and, for a new game, which smaller boards the terminal
// fits; a joined match's size is not the player's to choose.
func TestTooSmallMessage(t *testing.T) {
	for _, tc := range []struct {
		size, w, h int
		l          lang
		choose     bool
		want       []string
		not        []string
	}{
		{19, 80, 24, langEn, true, []string{"terminal too small (need 80x26, have 80x24)", "A 19x19 board needs a terminal of at least 80x26.", "This terminal fits -size 13 (68x20) or -size 9 (60x16)."}, nil},
		{19, 67, 24, langEn, true, []string{"This terminal fits -size 9 (60x16)."}, []string{"-size 13"}},
		{19, 80, 24, langZh, true, []string{"终端太小：需要 80×26，当前 80×24", "当前终端可用 -size 13（68×20） 或 -size 9（60×16）。"}, nil},
		{13, 66, 19, langEn, true, []string{"need 68x20, have 66x19", "This terminal fits -size 9 (60x16)."}, []string{"-size 13"}},
		{13, 59, 30, langEn, true, []string{"Enlarge the terminal: the smallest board, -size 9, needs 60x16."}, []string{"fits"}},
		{9, 59, 16, langZh, true, []string{"终端太小：需要 60×16，当前 59×16", "请放大终端：最小的 9 路棋盘（-size 9）也需要 60×16。"}, nil},
		{19, 80, 24, langEn, false, []string{"need 80x26", "The match's board size is fixed: enlarge the terminal."}, []string{"-size"}},
	} {
		got := tooSmallMessage(tc.size, tc.w, tc.h, tc.l, tc.choose)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%d at %dx%d: %q lacks %q", tc.size, tc.w, tc.h, got, w)
			}
		}
		for _, w := range tc.not {
			if strings.Contains(got, w) {
				t.Errorf("%d at %dx%d: %q has %q", tc.size, tc.w, tc.h, got, w)
			}
		}
	}
	if got := tooSmallMessage(19, 80, 26, langEn, true); got != "" {
		t.Errorf("a fitting terminal got %q", got)
	}
	withLook(t, look{ascii: true})
	got := tooSmallMessage(19, 80, 24, langZh, true)
	if strings.ContainsFunc(got, func(r rune) bool { return r >= 0x80 }) || !strings.Contains(got, "-size 13 (68x20)") {
		t.Errorf("ASCII message %q", got)
	}
}
