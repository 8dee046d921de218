package threemonks

import (
	"bytes"
	"encoding/json"

	"github.com/chaguan/chaguan/games"
)

// State is the authoritative state of a match. Everything in it is public
// except Secret (this round's chosen cards until the reveal); views are
// built from it positively in view.go.
type State struct {
	N     int `json:"n"`     // number of monks, seats 0..N-1 clockwise
	Round int `json:"round"` // 1-based
	// Water[i] is what monk i has drunk and still holds (the score).
	Water []int `json:"water"`
	// Items[i] is the item in front of monk i, with its water.
	Items []Item `json:"items"`
	// StartItems is the deal, kept for statistics.
	StartItems []ItemKind `json:"startItems"`
	Holder     int        `json:"holder"` // seat holding the fish token
	Centre     int        `json:"centre"` // water in the centre of the table
	Taken      int        `json:"taken"`  // water taken from the unlimited supply so far
	// Last[i] is the card monk i played last round ("" in round 1): locked now.
	Last []Card `json:"last"`
	// Revealed holds this round's cards once everyone has chosen, else nil.
	Revealed []Card  `json:"revealed,omitempty"`
	Cur      Cursor  `json:"cursor"`
	Pending  *Decide `json:"pending,omitempty"`
	// Events is the public record of this round, LastEvents of the last.
	Events     []Event   `json:"events"`
	LastEvents []Event   `json:"lastEvents"`
	Runs       PhaseRuns `json:"runs"`
	Winner     int       `json:"winner"` // seat, or -1
	Draw       bool      `json:"draw,omitempty"`
	Secret     Secret    `json:"secret"`
	// quiet skips the event record, for the normal bot's simulations.
	quiet bool
}

// Secret is what no view may show: the cards chosen this round before the
// reveal ("" for a monk who has not chosen).
type Secret struct {
	Choices []Card `json:"choices"`
}

// Cursor is where the resolution of a revealed round stands, so that it can
// stop for a monk's decision and resume after it.
type Cursor struct {
	Phase   int   `json:"phase"`   // index into Phases
	Started bool  `json:"started"` // Order is set for Phases[Phase]
	Order   []int `json:"order"`   // the phase's participants, clockwise from the holder
	Idx     int   `json:"idx"`     // the participant being resolved
	Step    int   `json:"step"`    // the step inside that participant's turn
	Drank   int   `json:"drank"`   // water drunk from the item this turn (big bowl rule)
}

// Decide is a decision the engine waits for: Seat must answer with the move
// named Kind. Max is the most a drink may take.
type Decide struct {
	Seat int    `json:"seat"`
	Kind string `json:"kind"`
	Max  int    `json:"max,omitempty"`
}

// PhaseRuns counts how often each phase has run in this match.
type PhaseRuns struct {
	Chant    int `json:"chant"`
	Fetch    int `json:"fetch"`
	Exchange int `json:"exchange"`
	Drink    int `json:"drink"`
}

func (p *PhaseRuns) add(c Card) {
	switch c {
	case Chant:
		p.Chant++
	case Fetch:
		p.Fetch++
	case Exchange:
		p.Exchange++
	case Drink:
		p.Drink++
	}
}

// Total is the water in play: the monks', the items' and the centre's. It
// always equals N*StartWater + Taken.
func (s *State) Total() int {
	t := s.Centre
	for i := range s.Water {
		t += s.Water[i] + s.Items[i].Water
	}
	return t
}

// Owner returns the seat holding item k, or -1 if it is not in play.
func (s *State) Owner(k ItemKind) int {
	for i, it := range s.Items {
		if it.Kind == k {
			return i
		}
	}
	return -1
}

// clone returns a deep copy, so Apply never mutates its input.
func (s State) clone() State {
	c := s
	c.Water = append([]int(nil), s.Water...)
	c.Items = append([]Item(nil), s.Items...)
	c.StartItems = append([]ItemKind(nil), s.StartItems...)
	c.Last = append([]Card(nil), s.Last...)
	c.Revealed = cloneCards(s.Revealed)
	c.Cur.Order = append([]int(nil), s.Cur.Order...)
	if s.Pending != nil {
		p := *s.Pending
		c.Pending = &p
	}
	c.Events = append([]Event(nil), s.Events...)
	c.Secret.Choices = append([]Card(nil), s.Secret.Choices...)
	return c
}

func cloneCards(c []Card) []Card {
	if c == nil {
		return nil
	}
	return append([]Card(nil), c...)
}

// Info describes the game for the catalog.
func (Rules) Info() games.Info {
	return games.Info{
		Name:       "threemonks",
		Title:      games.Text{En: "Three Monks", Zh: "三个和尚"},
		MinPlayers: MinPlayers,
		MaxPlayers: MaxPlayers,
		Moves: []games.MoveSpec{
			{Name: "choose", Args: `["chant"|"fetch"|"exchange"|"drink"|"rest"]`, SecretArgs: true,
				Description: games.Text{En: "play an action card face down (not the one played last round)", Zh: "扣下一张行动牌（不能是上一轮打出的牌）"}},
			{Name: DecideDrink, Args: `[n]`,
				Description: games.Text{En: "drink n water from your own item (0-2, any from the big barrel)", Zh: "从自己的道具上喝n口水（0-2，大桶不限）"}},
			{Name: DecideMouse, Args: `["left"|"right"]`,
				Description: games.Text{En: "choose whose item your mouse robs: left (next clockwise) or right", Zh: "选择老鼠偷哪一侧的道具：左（顺时针下一位）或右"}},
			{Name: DecideBowl, Args: `[true|false]`,
				Description: games.Text{En: "move 1 water from the centre onto your big bowl, or not", Zh: "是否从中央将1个水放到大碗上"}},
		},
		Bots: []string{"easy", "normal"},
	}
}

// Setup deals ⌈N/2⌉ of the fetching items and ⌊N/2⌋ of the others, chosen
// and dealt at random, gives everyone StartWater and a random monk the
// token. setupData must be empty (null or {}).
func (Rules) Setup(n int, setupData json.RawMessage, rng *games.RNG) (State, error) {
	if n < MinPlayers || n > MaxPlayers {
		return State{}, games.BadSetup("threemonks takes %d to %d players, not %d", MinPlayers, MaxPlayers, n)
	}
	if d := bytes.TrimSpace(setupData); len(d) > 0 && !bytes.Equal(d, []byte("null")) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(d, &m); err != nil || len(m) > 0 {
			return State{}, games.BadSetup("threemonks takes no setup options")
		}
	}
	pick := func(from []ItemKind, k int) []ItemKind {
		p := rng.Perm(len(from))
		out := make([]ItemKind, k)
		for i := range out {
			out[i] = from[p[i]]
		}
		return out
	}
	deal := append(pick(FetchingItems, (n+1)/2), pick(OtherItems, n/2)...)
	rng.Shuffle(len(deal), func(i, j int) { deal[i], deal[j] = deal[j], deal[i] })
	s := State{
		N: n, Round: 1, Water: make([]int, n), Items: make([]Item, n), StartItems: deal,
		Holder: rng.IntN(n), Last: make([]Card, n), Events: []Event{}, LastEvents: []Event{},
		Winner: -1, Secret: Secret{Choices: make([]Card, n)},
	}
	for i := range s.Water {
		s.Water[i] = StartWater
		s.Items[i] = Item{Kind: deal[i]}
	}
	return s, nil
}
