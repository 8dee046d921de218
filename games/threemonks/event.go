package threemonks

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/chaguan/chaguan/games"
)

// Event kinds, in the public record of a round (State.Events). Each event is
// one visible step, so a client can animate it and write a log line.
const (
	EvReveal    = "reveal"    // Cards: every monk's card, in seat order
	EvPhase     = "phase"     // Phase begins; Seats: its participants in order
	EvVase      = "vase"      // Seat's vase takes 1 from the supply
	EvMouse     = "mouse"     // Seat's mouse takes N=1 from From (a neighbour's item)
	EvMouseIdle = "mouseIdle" // Seat's mouse found no water next door
	EvToken     = "token"     // the fish token moves From seat To seat (Reason chant|fish)
	EvPay       = "pay"       // Seat pays N of their water onto their fetching item
	EvNoPay     = "noPay"     // Seat cannot pay N and pays nothing (still a participant)
	EvSupply    = "supply"    // N water from the supply to the centre
	EvLadle     = "ladle"     // Seat's ladle takes 1 from the centre
	EvPole      = "pole"      // Seat's carrying pole empties N into the centre before it moves
	EvPass      = "pass"      // an item (with N water) passes From seat's item To the next
	EvCentre    = "centre"    // Seat drinks 1 from the centre
	EvVat       = "vat"       // Seat's water vat gives 1 from the supply
	EvDrink     = "drink"     // Seat drinks N from their own item
	EvBowl      = "bowl"      // Seat moves 1 from the centre onto their big bowl
	EvWin       = "win"       // Seat holds N water and wins
	EvCap       = "cap"       // the round cap is reached: a draw
)

// Places, in Event.From and Event.To: "supply", "centre", "water:<seat>"
// (what the monk has drunk), "item:<seat>" (the item in front of the monk) and
// "seat:<seat>" (the monk, for the token).
const (
	PlaceSupply = "supply"
	PlaceCentre = "centre"
)

// Place names per seat, built once: events are made in the bots' inner loop.
var waterPlaces, itemPlaces, seatPlaces = places("water:"), places("item:"), places("seat:")

func places(prefix string) []string {
	out := make([]string, MaxPlayers)
	for i := range out {
		out[i] = prefix + strconv.Itoa(i)
	}
	return out
}

func placeWater(seat int) string { return waterPlaces[seat] }
func placeItem(seat int) string  { return itemPlaces[seat] }
func placeSeat(seat int) string  { return seatPlaces[seat] }

// PlaceSeat returns the seat a "water:", "item:" or "seat:" place names, or
// -1 for the supply and the centre.
func PlaceSeat(place string) int {
	_, after, ok := strings.Cut(place, ":")
	if !ok {
		return -1
	}
	n, err := strconv.Atoi(after)
	if err != nil {
		return -1
	}
	return n
}

// Event is one public step of a round. Seat is the acting monk (-1 for none);
// the other fields are set as the kind's comment says.
type Event struct {
	Kind   string   `json:"kind"`
	Seat   int      `json:"seat"`
	N      int      `json:"n,omitempty"`
	From   string   `json:"from,omitempty"`
	To     string   `json:"to,omitempty"`
	Item   ItemKind `json:"item,omitempty"`
	Phase  Card     `json:"phase,omitempty"`
	Seats  []int    `json:"seats,omitempty"`
	Cards  []Card   `json:"cards,omitempty"`
	Reason string   `json:"reason,omitempty"`
}

var cardZh = map[Card]string{Chant: "念经", Fetch: "挑水", Exchange: "交换", Drink: "喝水", Rest: "休息"}

var itemNames = map[ItemKind]games.Text{
	Bucket:       {En: "bucket", Zh: "水桶"},
	WoodenBarrel: {En: "wooden barrel", Zh: "木桶"},
	BigBarrel:    {En: "big barrel", Zh: "大桶"},
	Pole:         {En: "carrying pole", Zh: "扁担"},
	Ladle:        {En: "ladle", Zh: "水瓢"},
	WoodenFish:   {En: "wooden fish", Zh: "木鱼"},
	Vase:         {En: "vase", Zh: "净瓶"},
	BigBowl:      {En: "big bowl", Zh: "大碗"},
	Mouse:        {En: "mouse", Zh: "老鼠"},
	WaterVat:     {En: "water vat", Zh: "水缸"},
}

// Name is the item's name in both languages.
func (k ItemKind) Name() games.Text { return itemNames[k] }

// Name is the card's name in both languages.
func (c Card) Name() games.Text { return games.Text{En: string(c), Zh: cardZh[c]} }

// Text narrates the event in both languages, naming monks by seat number.
func (e Event) Text() games.Text {
	m := func(s int) (string, string) { return fmt.Sprintf("monk %d", s), fmt.Sprintf("%d号和尚", s) }
	en, zh := m(e.Seat)
	it := e.Item.Name()
	switch e.Kind {
	case EvReveal:
		var a, b []string
		for i, c := range e.Cards {
			a = append(a, fmt.Sprintf("%d:%s", i, c))
			b = append(b, fmt.Sprintf("%d:%s", i, cardZh[c]))
		}
		return games.Text{En: "cards revealed: " + strings.Join(a, " "), Zh: "亮牌：" + strings.Join(b, " ")}
	case EvPhase:
		return games.Text{En: fmt.Sprintf("%s phase, participants %v", e.Phase, e.Seats),
			Zh: fmt.Sprintf("%s阶段，参与者 %v", cardZh[e.Phase], e.Seats)}
	case EvVase:
		return games.Text{En: en + "'s vase takes 1 water from the supply", Zh: zh + "的净瓶从供应堆得到1个水"}
	case EvMouse:
		v1, v2 := m(PlaceSeat(e.From))
		return games.Text{En: fmt.Sprintf("%s's mouse steals 1 water from %s's item", en, v1),
			Zh: fmt.Sprintf("%s的老鼠从%s的道具上偷走1个水", zh, v2)}
	case EvMouseIdle:
		return games.Text{En: en + "'s mouse finds no water", Zh: zh + "的老鼠没找到水"}
	case EvToken:
		why := map[string][2]string{"chant": {"as the last chanter", "最后念经"}, "fish": {"holding the wooden fish", "持有木鱼"}}[e.Reason]
		return games.Text{En: fmt.Sprintf("%s takes the fish token (%s)", en, why[0]), Zh: fmt.Sprintf("%s获得木鱼标记（%s）", zh, why[1])}
	case EvPay:
		return games.Text{En: fmt.Sprintf("%s puts %d water on the %s", en, e.N, it.En), Zh: fmt.Sprintf("%s将%d个水放在%s上", zh, e.N, it.Zh)}
	case EvNoPay:
		return games.Text{En: fmt.Sprintf("%s cannot pay %d water and puts none", en, e.N), Zh: fmt.Sprintf("%s的水不足%d个，不放水", zh, e.N)}
	case EvSupply:
		return games.Text{En: fmt.Sprintf("%d water from the supply to the centre", e.N), Zh: fmt.Sprintf("从供应堆拿%d个水放入中央", e.N)}
	case EvLadle:
		return games.Text{En: en + "'s ladle scoops 1 water from the centre", Zh: zh + "的水瓢从中央舀起1个水"}
	case EvPole:
		return games.Text{En: fmt.Sprintf("%s's carrying pole spills %d water into the centre", en, e.N), Zh: fmt.Sprintf("%s的扁担将%d个水倒回中央", zh, e.N)}
	case EvPass:
		v1, v2 := m(PlaceSeat(e.To))
		return games.Text{En: fmt.Sprintf("%s passes the %s (%d water) to %s", en, it.En, e.N, v1), Zh: fmt.Sprintf("%s将%s（%d个水）交给%s", zh, it.Zh, e.N, v2)}
	case EvCentre:
		return games.Text{En: en + " drinks 1 water from the centre", Zh: zh + "从中央喝到1口水"}
	case EvVat:
		return games.Text{En: en + "'s water vat gives 1 more water", Zh: zh + "的水缸额外给1口水"}
	case EvDrink:
		return games.Text{En: fmt.Sprintf("%s drinks %d from the %s", en, e.N, it.En), Zh: fmt.Sprintf("%s从%s喝了%d口水", zh, it.Zh, e.N)}
	case EvBowl:
		return games.Text{En: en + " moves 1 water from the centre onto the big bowl", Zh: zh + "从中央将1个水放到大碗上"}
	case EvWin:
		return games.Text{En: fmt.Sprintf("%s has %d water and wins!", en, e.N), Zh: fmt.Sprintf("%s喝到%d口水，获胜！", zh, e.N)}
	case EvCap:
		return games.Text{En: fmt.Sprintf("no winner after %d rounds: a draw", RoundCap), Zh: fmt.Sprintf("%d轮后无人获胜：平局", RoundCap)}
	}
	return games.Text{En: e.Kind, Zh: e.Kind}
}
