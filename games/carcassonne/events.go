package carcassonne

import (
	"fmt"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// Event kinds in the public record (State.Events, the view's events).
const (
	EvStart  = "start"  // the start tile at (0,0)
	EvPlace  = "place"  // Seat placed Tile at (X, Y), Rotation degrees
	EvMeeple = "meeple" // Seat put a meeple on Feature of the tile at (X, Y)
	EvScore  = "score"  // a completed feature scored Points for each of Seats
	EvRemove = "remove" // Tile could not be placed anywhere and was removed
	EvFinal  = "final"  // end scoring of one feature (also in final.breakdown)
	EvEnd    = "end"    // the game is over; Seats are the winners
)

// Event is one public step of the game, with a sentence in both languages.
// X, Y name the tile placed (place, meeple) or a tile of the scored feature.
type Event struct {
	Turn     int      `json:"turn"`
	Kind     string   `json:"kind"`
	Seat     int      `json:"seat"` // the acting seat, -1 for none
	Tile     string   `json:"tile,omitempty"`
	X        int      `json:"x"`
	Y        int      `json:"y"`
	Rotation int      `json:"rotation,omitempty"`
	Feature  string   `json:"feature,omitempty"` // feature id on the tile at (X, Y)
	What     string   `json:"what,omitempty"`    // scored feature kind: road, city, cloister, field
	Points   int      `json:"points,omitempty"`  // for each scoring seat
	Seats    []int    `json:"seats,omitempty"`   // scoring seats (ties all score), or winners
	Meeples  []int    `json:"meeples,omitempty"` // meeples per seat on the scored feature
	Size     int      `json:"size,omitempty"`    // tiles of the feature (cloister: itself and its neighbours)
	Shields  int      `json:"shields,omitempty"`
	Cities   int      `json:"cities,omitempty"` // field: completed cities it touches
	Complete bool     `json:"complete,omitempty"`
	Cells    [][2]int `json:"cells,omitempty"` // the feature's tiles, for highlighting
	// Text is the event in words; the state stores events without it and
	// the view fills it in (text), so stored states stay small.
	Text games.Text `json:"text,omitzero"`
}

func player(seat int) (string, string) {
	return fmt.Sprintf("player %d", seat), fmt.Sprintf("玩家%d", seat)
}

func players(seats []int) (string, string) {
	var en, zh []string
	for _, s := range seats {
		a, b := player(s)
		en = append(en, a)
		zh = append(zh, b)
	}
	return joinAnd(en), strings.Join(zh, "、")
}

// text narrates the event in both languages. tiles is the board (for the
// label of a meeple's feature); players are named by seat number.
func (ev Event) text(tiles []Placed) games.Text {
	en, zh := player(ev.Seat)
	switch ev.Kind {
	case EvStart:
		return games.Text{En: "The start tile D lies at (0,0)", Zh: "起始板块 D 放在 (0,0)"}
	case EvPlace:
		return games.Text{En: fmt.Sprintf("%s placed tile %s at (%d,%d), turned %d°", en, ev.Tile, ev.X, ev.Y, ev.Rotation),
			Zh: fmt.Sprintf("%s把板块 %s 放在 (%d,%d)，旋转%d°", zh, ev.Tile, ev.X, ev.Y, ev.Rotation)}
	case EvMeeple:
		label := games.Text{En: ev.Feature, Zh: ev.Feature}
		if sh, ok := shapeOf(tileAt(tiles, ev.X, ev.Y)); ok {
			if f := featureIndex(sh, ev.Feature); f >= 0 {
				label = sh.feats[f].label
			}
		}
		return games.Text{En: fmt.Sprintf("%s put a meeple on tile %s at (%d,%d): %s", en, ev.Tile, ev.X, ev.Y, label.En),
			Zh: fmt.Sprintf("%s在 (%d,%d) 的板块 %s 上放置米宝：%s", zh, ev.X, ev.Y, ev.Tile, label.Zh)}
	case EvRemove:
		return games.Text{En: fmt.Sprintf("Tile %s fits nowhere and is removed; the next tile is drawn", ev.Tile),
			Zh: fmt.Sprintf("板块 %s 无处可放，已移除并重新抽取", ev.Tile)}
	case EvScore, EvFinal:
		return scoreText(ev)
	case EvEnd:
		en, zh := players(ev.Seats)
		if len(ev.Seats) > 1 {
			return games.Text{En: fmt.Sprintf("Game over: %s share the win with %d points", en, ev.Points),
				Zh: fmt.Sprintf("游戏结束：%s以%d分并列第一", zh, ev.Points)}
		}
		return games.Text{En: fmt.Sprintf("Game over: %s wins with %d points", en, ev.Points),
			Zh: fmt.Sprintf("游戏结束：%s以%d分获胜", zh, ev.Points)}
	}
	return games.Text{En: ev.Kind, Zh: ev.Kind}
}

func scoreText(ev Event) games.Text {
	var en, zh string
	switch ev.What {
	case "road":
		en = "road of " + plural(ev.Size, "tile")
		zh = fmt.Sprintf("%d块板的道路", ev.Size)
	case "city":
		en = "city of " + plural(ev.Size, "tile")
		zh = fmt.Sprintf("%d块板的城堡", ev.Size)
		if ev.Shields > 0 {
			en += " and " + plural(ev.Shields, "shield")
			zh = fmt.Sprintf("%d块板、%d个盾牌的城堡", ev.Size, ev.Shields)
		}
	case "cloister":
		en = "cloister with " + plural(ev.Size-1, "tile") + " around it"
		zh = fmt.Sprintf("周围有%d块板的修道院", ev.Size-1)
	case "field":
		en = "field touching " + plural(ev.Cities, "completed city")
		zh = fmt.Sprintf("接触%d座完成城堡的草地", ev.Cities)
	}
	state, stateZh := "a completed ", "完成的"
	if !ev.Complete && ev.What != "field" {
		state, stateZh = "an unfinished ", "未完成的"
	}
	if ev.What == "field" {
		state, stateZh = "a ", ""
	}
	who, whoZh := players(ev.Seats)
	each, eachZh := "", ""
	if len(ev.Seats) > 1 {
		each, eachZh = " each", "（各得，平局）"
	}
	prefix, prefixZh := "", ""
	if ev.Kind == EvFinal {
		prefix, prefixZh = "End of game: ", "终局："
	}
	return games.Text{
		En: fmt.Sprintf("%s%s scores %d%s for %s%s", prefix, who, ev.Points, each, state, en),
		Zh: fmt.Sprintf("%s%s因%s%s得%d分%s", prefixZh, whoZh, stateZh, zh, ev.Points, eachZh),
	}
}

// plural writes "1 tile", "2 tiles", "0 shields", "2 completed cities".
func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	if strings.HasSuffix(word, "y") {
		return fmt.Sprintf("%d %sies", n, word[:len(word)-1])
	}
	return fmt.Sprintf("%d %ss", n, word)
}
