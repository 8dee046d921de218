package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// update is this package's -update flag: rewrite the golden screens.
var update = flag.Bool("update", false, "rewrite the golden screens in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal([]byte(got), want) {
		t.Fatalf("%s differs (run with -update to rewrite it, then read the diff):\n%s", path, got)
	}
}

// capture9 is a small 9x9 game: black captures the white stone on E5
// with its fourth stone (E4), white has two stones on the edge.
var capture9 = []string{"D5", "E5", "F5", "A1", "E6", "A2", "E4"}

// walls9 builds two walls two stones thick, black on C-D and white on F-G,
// which the evolution keeps (every stone has 2 or 3 neighbours of its
// colour), then both pass: each side owns the two columns behind its wall.
func walls9() []string {
	var mv []string
	for _, col := range []string{"C", "D"} {
		for row := 1; row <= 9; row++ {
			w := map[string]string{"C": "F", "D": "G"}[col]
			mv = append(mv, col+itoa(row), w+itoa(row))
		}
	}
	return append(mv, "pass", "pass")
}

// TestGoldenScreens renders fixed 9x9 positions at the design's minimum
// size, 60x16, to text (colours stripped): playing, in Chinese, with the
// cursor on the captured point; scoring in English with white's stones
// marked dead; the end after the evolution; and the help overlay.
func TestGoldenScreens(t *testing.T) {
	for _, tc := range []struct {
		name  string
		l     lang
		moves []string
		keys  []string
	}{
		{"play_zh.txt", langZh, capture9, nil},
		{"scoring_en.txt", langEn, append(capture9[:7:7], "pass", "pass", `0 toggleDead ["A1"]`), []string{"h", "h", "h", "h", "j", "j", "j", "j"}},
		{"end_zh.txt", langZh, append(walls9(), "0 approve", "1 approve"), nil},
		{"help_en.txt", langEn, capture9, []string{"?"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, modeHotSeat, []string{"0", "1"}, tc.l, game(t, 9, tc.moves...))
			h.send(teaSize(60, 16))
			h.keys(tc.keys...)
			golden(t, tc.name, h.screen()+"\n")
		})
	}
}

// TestPalette: the play screen's colours are the design's table exactly:
// the board, the grid, the stones, the cursor, the seal and the panels.
func TestPalette(t *testing.T) {
	h := newHarness(t, modeHotSeat, []string{"0", "1"}, langZh, game(t, 9, capture9...))
	h.send(teaSize(60, 16))
	out := h.m.View().Content
	golden(t, "play_zh.ansi", out+"\n")
	for name, sgr := range map[string]string{
		"BG_PANEL":       "48;2;27;22;18",
		"BG_BOARD":       "48;2;46;37;25",
		"GRID_HARD":      "38;2;74;61;42",
		"GRID_SOFT":      "48;2;58;47;31",
		"STONE_BLACK_BG": "38;2;10;10;10",
		"STONE_WHITE_BG": "38;2;239;228;201",
		"CURSOR_HALO":    "48;2;212;165;106",
		"SEAL_RED":       "38;2;178;52;58",
		"TEXT_DIM":       "38;2;142;123;94",
		"TEXT_MAIN":      "38;2;217;201;166",
		"BORDER_GOLD":    "38;2;107;85;53",
	} {
		if !strings.Contains(out, sgr) {
			t.Errorf("%s (%s) is not on the screen", name, sgr)
		}
	}
	// The seal sits right of the last move, E4, in cinnabar.
	var row string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(ansi.Strip(l), " 4 ├") {
			row = l
		}
	}
	if !strings.Contains(ansi.Strip(row), " 4 ├─┼─┼─┼─●▪┼─┼─┼─┤  4") {
		t.Fatalf("row 4 is %q", ansi.Strip(row))
	}
	if !strings.Contains(row, "38;2;178;52;58") || !strings.Contains(row, "▪") {
		t.Fatalf("the seal on row 4 is not cinnabar: %q", row)
	}
}
