package main

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// The seed's palette (seed 003, 调色板), taken from the materials of a real
// set: slate black stones, clam-shell white stones, a torreya (榧木) board.
// Every colour on screen comes from this table, but greyDead: the seed asks
// for the dead stones' ✕ on grey and names no grey.
var (
	bgPanel      = lipgloss.Color("#1B1612") // BG_PANEL: ink-dark panels
	bgBoard      = lipgloss.Color("#2E2519") // BG_BOARD: the torreya board
	gridHard     = lipgloss.Color("#4A3D2A") // GRID_HARD: the grid lines
	gridSoft     = lipgloss.Color("#3A2F1F") // GRID_SOFT: star points and tengen
	stoneBlack   = lipgloss.Color("#0A0A0A") // STONE_BLACK_BG: slate
	stoneWhite   = lipgloss.Color("#EFE4C9") // STONE_WHITE_BG: shell
	cursorHalo   = lipgloss.Color("#D4A56A") // CURSOR_HALO: amber cursor
	sealRed      = lipgloss.Color("#B2343A") // SEAL_RED: the cinnabar seal
	textDim      = lipgloss.Color("#8E7B5E") // TEXT_DIM: warm grey text
	textMain     = lipgloss.Color("#D9C9A6") // TEXT_MAIN: rice-paper text
	borderGold   = lipgloss.Color("#6B5535") // BORDER_GOLD: bronze borders
	greyDead     = lipgloss.Color("#6A6A6A") // the grey under a dead stone's ✕
	stoneColours = [2]color.Color{stoneBlack, stoneWhite}
)

// Glyphs. Every one is a single terminal cell wide (the ambiguous-width
// ones, ● ▪ ✕, are narrow in a UTF-8 terminal outside a CJK width setting,
// as the seed assumes).
const (
	glyphStone = "●" // a stone of either colour on the board
	glyphSeal  = "▪" // the seal beside the last move (落款印)
	glyphDead  = "✕" // a stone marked dead in scoring
	glyphTerr  = "·" // an empty point of one side's territory
	glyphStar  = "╋" // a star point (星位) or tengen (天元)
	glyphHoriz = "─" // the line between two intersections
	sealChar   = "印" // the character inside the seal pool's large seal
)

// panelStone is how the panels write a colour ("B" or "W"): slate black
// on the dark panel would vanish, so text uses the usual ● for black and
// ○ for white.
func panelStone(c string) string {
	if c == "W" {
		return "○"
	}
	return "●"
}

// Styles shared by the panels.
var (
	panelText = lipgloss.NewStyle().Foreground(textMain).Background(bgPanel)
	panelDim  = lipgloss.NewStyle().Foreground(textDim).Background(bgPanel)
	panelBold = panelText.Bold(true)
	panelSeal = lipgloss.NewStyle().Foreground(sealRed).Background(bgPanel).Bold(true)
	panelBox  = lipgloss.NewStyle().Background(bgPanel).
			Border(lipgloss.RoundedBorder()).
			BorderForeground(borderGold).BorderBackground(bgPanel)
)
