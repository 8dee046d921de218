package threemonks

import (
	"slices"

	"github.com/chaguan/chaguan/games"
)

// View is what one seat or a spectator sees. It is built field by field
// from the state: this round's chosen cards appear only in the chooser's
// own players entry until every monk has chosen, then in Revealed.
type View struct {
	NumPlayers int      `json:"numPlayers"`
	Round      int      `json:"round"`
	Phase      string   `json:"phase"` // choose, chant, fetch, exchange, drink or over
	Monks      []Monk   `json:"monks"` // by seat
	Holder     int      `json:"holder"`
	Centre     int      `json:"centre"`
	Supply     int      `json:"supplyTaken"` // water taken from the unlimited supply so far
	Chosen     []string `json:"chosen"`      // player IDs who have chosen this round
	// Revealed is every monk's card this round, once all have chosen.
	Revealed   []Card   `json:"revealed,omitempty"`
	LastCards  []Card   `json:"lastCards"` // last round's cards ("" in round 1): locked now
	Events     []Event  `json:"events"`
	LastEvents []Event  `json:"lastEvents"`
	Pending    *Pending `json:"pending,omitempty"`
	Winner     int      `json:"winner"` // seat, or -1
	Draw       bool     `json:"draw,omitempty"`
	// Players holds only the viewer's own entry (none for a spectator).
	Players map[string]Private `json:"players,omitempty"`
}

// Monk is the public part of one seat.
type Monk struct {
	Water int  `json:"water"`
	Item  Item `json:"item"`
}

// Pending is the decision the table waits for. Max is a drink's largest
// amount; Left and Right are the mouse's neighbours (seats).
type Pending struct {
	Seat  int    `json:"seat"`
	Kind  string `json:"kind"`
	Max   int    `json:"max,omitempty"`
	Left  *int   `json:"left,omitempty"`
	Right *int   `json:"right,omitempty"`
}

// Private is the viewer's own hand and choice.
type Private struct {
	Hand   []HandCard `json:"hand"`
	Choice Card       `json:"choice,omitempty"` // this round's card once chosen
}

// HandCard is one card of the hand; Locked is the card played last round.
type HandCard struct {
	Card   Card `json:"card"`
	Locked bool `json:"locked"`
}

// View builds viewer's view (a seat, or games.Spectator). It shares no
// memory with s: bots are handed it directly.
func (r Rules) View(s State, viewer int) View {
	v := View{
		NumPlayers: s.N, Round: s.Round, Phase: r.Status(s).Phase,
		Monks: make([]Monk, s.N), Holder: s.Holder, Centre: s.Centre, Supply: s.Taken,
		Chosen: []string{}, Revealed: cloneCards(s.Revealed), LastCards: append([]Card{}, s.Last...),
		Events: cloneEvents(s.Events), LastEvents: cloneEvents(s.LastEvents),
		Winner: s.Winner, Draw: s.Draw,
	}
	for i := range v.Monks {
		v.Monks[i] = Monk{Water: s.Water[i], Item: s.Items[i]}
		if s.Secret.Choices[i] != "" {
			v.Chosen = append(v.Chosen, games.PlayerID(i))
		}
	}
	if p := s.Pending; p != nil {
		v.Pending = &Pending{Seat: p.Seat, Kind: p.Kind, Max: p.Max}
		if p.Kind == DecideMouse {
			l, rt := s.next(p.Seat), s.prev(p.Seat)
			v.Pending.Left, v.Pending.Right = &l, &rt
		}
	}
	if viewer >= 0 && viewer < s.N {
		own := Private{Choice: s.Secret.Choices[viewer]}
		for _, c := range Cards {
			own.Hand = append(own.Hand, HandCard{Card: c, Locked: c == s.Last[viewer]})
		}
		v.Players = map[string]Private{games.PlayerID(viewer): own}
	}
	return v
}

// cloneEvents copies events with their slices, never nil (the view's JSON
// has [] for none).
func cloneEvents(events []Event) []Event {
	out := make([]Event, len(events))
	for i, e := range events {
		e.Seats, e.Cards = slices.Clone(e.Seats), cloneCards(e.Cards)
		out[i] = e
	}
	return out
}
