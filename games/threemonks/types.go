package threemonks

// Card is one of the five action cards every monk holds.
type Card string

// The five action cards, in the order the client shows them.
const (
	Chant    Card = "chant"    // 念经
	Fetch    Card = "fetch"    // 挑水
	Exchange Card = "exchange" // 交换
	Drink    Card = "drink"    // 喝水
	Rest     Card = "rest"     // 休息
)

// Cards lists every card in display order.
var Cards = []Card{Chant, Fetch, Exchange, Drink, Rest}

// Valid reports whether c is one of the five cards.
func (c Card) Valid() bool {
	for _, k := range Cards {
		if c == k {
			return true
		}
	}
	return false
}

// Phases are the action phases in their fixed resolution order. A phase runs
// once in a round when at least one monk played its card.
var Phases = []Card{Chant, Fetch, Exchange, Drink}

// ItemKind names one of the ten item cards.
type ItemKind string

// The ten items. The first five are the fetching items.
const (
	Bucket       ItemKind = "bucket"       // 水桶: fetching costs 1
	WoodenBarrel ItemKind = "woodenBarrel" // 木桶: fetching is free if another monk fetches
	BigBarrel    ItemKind = "bigBarrel"    // 大桶: drink any amount from it
	Pole         ItemKind = "pole"         // 扁担: its water returns to the centre when exchanged
	Ladle        ItemKind = "ladle"        // 水瓢: after fetching, 1 from the centre onto it
	WoodenFish   ItemKind = "fish"         // 木鱼: its owner takes the token at the end of a round
	Vase         ItemKind = "vase"         // 净瓶: chanting puts 1 from the supply on it
	BigBowl      ItemKind = "bowl"         // 大碗: when not drunk from, 1 from the centre onto it
	Mouse        ItemKind = "mouse"        // 老鼠: chanting steals 1 from a neighbour's item
	WaterVat     ItemKind = "vat"          // 水缸: +1 from the supply when drinking; drinks only if it played drink
)

// FetchingItems are the five fetching items (挑水道具).
var FetchingItems = []ItemKind{Bucket, WoodenBarrel, BigBarrel, Pole, Ladle}

// OtherItems are the five other items.
var OtherItems = []ItemKind{WoodenFish, Vase, BigBowl, Mouse, WaterVat}

// Fetching reports whether k is a fetching item.
func (k ItemKind) Fetching() bool {
	for _, f := range FetchingItems {
		if k == f {
			return true
		}
	}
	return false
}

// Item is the item card a monk holds and the water lying on it.
type Item struct {
	Kind  ItemKind `json:"kind"`
	Water int      `json:"water"`
}

// Winning water and the round cap.
const (
	WinWater   = 10  // a monk holding this much water wins at once
	StartWater = 2   // every monk's water at the start
	RoundCap   = 200 // no winner after this many rounds: a draw
	MinPlayers = 3
	MaxPlayers = 8
)

// Decision kinds: the choices a monk makes inside a phase. Each is also the
// name of the move that answers it and the stage in Status.Active.
const (
	DecideDrink = "drink" // how much to drink from one's own item
	DecideMouse = "mouse" // which neighbour's item the mouse robs
	DecideBowl  = "bowl"  // whether to move 1 from the centre onto the big bowl
)

// Mouse targets.
const (
	Left  = "left"  // the next monk clockwise
	Right = "right" // the previous monk clockwise
)
