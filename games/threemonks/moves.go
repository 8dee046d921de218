package threemonks

import (
	"encoding/json"

	"github.com/chaguan/chaguan/games"
)

// Status says who may move: every monk who has not chosen while choosing,
// else the one monk a pending decision waits for.
func (Rules) Status(s State) games.Status {
	st := games.Status{Phase: "choose", Turn: s.Round, Current: -1}
	switch {
	case s.Winner >= 0:
		st.Phase = "over"
		st.Outcome = &games.Outcome{Winner: games.PlayerID(s.Winner), Reason: "water", Detail: map[string]any{"water": s.Water}}
	case s.Draw:
		st.Phase = "over"
		st.Outcome = &games.Outcome{Draw: true, Reason: "cap", Detail: map[string]any{"water": s.Water}}
	case s.Pending != nil:
		st.Phase = string(Phases[min(s.Cur.Phase, len(Phases)-1)])
		st.Current = s.Pending.Seat
		st.Active = map[int]string{s.Pending.Seat: s.Pending.Kind}
	default:
		st.Active = map[int]string{}
		for i, c := range s.Secret.Choices {
			if c == "" {
				st.Active[i] = "choose"
			}
		}
	}
	return st
}

// Apply plays one move. It never mutates s; on error it returns s unchanged.
func (r Rules) Apply(s State, seat int, name string, args json.RawMessage) (State, error) {
	if s.over() {
		return s, games.ErrGameOver
	}
	if seat < 0 || seat >= s.N {
		return s, games.ErrNotYourTurn
	}
	switch name {
	case "choose":
		return applyChoose(s, seat, args)
	case DecideDrink, DecideMouse, DecideBowl:
		return applyDecision(s, seat, name, args)
	}
	return s, games.ErrUnknownMove
}

func applyChoose(s State, seat int, args json.RawMessage) (State, error) {
	if s.Pending != nil || s.Revealed != nil {
		return s, games.Invalid("cards are not being chosen now", "现在不是出牌的时候")
	}
	if s.Secret.Choices[seat] != "" {
		return s, games.Invalid("you have already chosen a card this round", "你本轮已经出过牌了")
	}
	var a []string
	if err := json.Unmarshal(args, &a); err != nil || len(a) != 1 || !Card(a[0]).Valid() {
		return s, games.Invalid(`choose takes one card: ["chant"|"fetch"|"exchange"|"drink"|"rest"]`,
			`出牌需要一张牌：["chant"|"fetch"|"exchange"|"drink"|"rest"]`)
	}
	c := Card(a[0])
	if c == s.Last[seat] {
		return s, games.Invalid("you played "+string(c)+" last round; it is locked this round",
			"你上一轮打出了"+cardZh[c]+"，本轮不能再选")
	}
	n := s.clone()
	n.Secret.Choices[seat] = c
	for _, ch := range n.Secret.Choices {
		if ch == "" {
			return n, nil
		}
	}
	n.reveal()
	return n, nil
}

func applyDecision(s State, seat int, name string, args json.RawMessage) (State, error) {
	p := s.Pending
	if p == nil || p.Seat != seat || p.Kind != name {
		return s, games.Invalid("nobody is asking you for "+name+" now", "现在不需要你做这个选择（"+name+"）")
	}
	n := s.clone()
	n.Pending = nil
	switch name {
	case DecideDrink:
		var a []int
		if err := json.Unmarshal(args, &a); err != nil || len(a) != 1 || a[0] < 0 || a[0] > p.Max {
			return s, games.Invalid("drink takes one whole number from 0 to "+itoa(p.Max),
				"喝水需要一个0到"+itoa(p.Max)+"之间的整数")
		}
		n.drinkFrom(seat, a[0])
	case DecideMouse:
		var a []string
		if err := json.Unmarshal(args, &a); err != nil || len(a) != 1 || (a[0] != Left && a[0] != Right) {
			return s, games.Invalid(`mouse takes ["left"] or ["right"]`, `老鼠需要选择 ["left"]（左）或 ["right"]（右）`)
		}
		victim := n.next(seat)
		if a[0] == Right {
			victim = n.prev(seat)
		}
		n.mouse(seat, victim)
		n.Cur.Idx++
	case DecideBowl:
		var a []bool
		if err := json.Unmarshal(args, &a); err != nil || len(a) != 1 {
			return s, games.Invalid("bowl takes [true] or [false]", "大碗需要选择 [true]（放）或 [false]（不放）")
		}
		n.fillBowl(seat, a[0])
	}
	n.run()
	return n, nil
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
