package threemonks

import (
	"encoding/json"
	"fmt"

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
	c, err := parseChoose(args)
	if err != nil {
		return s, err
	}
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
	v, err := parseDecision(name, args)
	if err != nil {
		return s, err
	}
	if name == DecideDrink && (v.amount < 0 || v.amount > p.Max) {
		return s, games.Invalid("drink takes one whole number from 0 to "+itoa(p.Max),
			"喝水需要一个0到"+itoa(p.Max)+"之间的整数")
	}
	n := s.clone()
	n.Pending = nil
	switch name {
	case DecideDrink:
		n.drinkFrom(seat, v.amount)
	case DecideMouse:
		victim := n.next(seat)
		if v.dir == Right {
			victim = n.prev(seat)
		}
		n.mouse(seat, victim)
		n.Cur.Idx++
	case DecideBowl:
		n.fillBowl(seat, v.yes)
	}
	n.run()
	return n, nil
}

// CanonicalArgs parses the args of move name and returns their canonical
// JSON (games.ArgsParser): ["rest"] for choose, [2] for drink, ["left"]
// for mouse, [true] for bowl. A drink amount is checked against the
// amount allowed by Apply, which knows it.
func (Rules) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	switch name {
	case "choose":
		c, err := parseChoose(args)
		if err != nil {
			return nil, err
		}
		return games.CanonicalJSON(c)
	case DecideDrink, DecideMouse, DecideBowl:
		v, err := parseDecision(name, args)
		if err != nil {
			return nil, err
		}
		switch name {
		case DecideDrink:
			return games.CanonicalJSON(v.amount)
		case DecideMouse:
			return games.CanonicalJSON(v.dir)
		}
		return games.CanonicalJSON(v.yes)
	}
	return nil, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
}

// parseChoose reads choose's ["rest"]: one of the five cards, spelt as
// the catalog spells it.
func parseChoose(args json.RawMessage) (Card, error) {
	var c Card
	err := games.DecodeArgs("choose", `["chant"|"fetch"|"exchange"|"drink"|"rest"]`, args, &c)
	if err == nil && !c.Valid() {
		err = games.Invalid(`choose takes one card: ["chant"|"fetch"|"exchange"|"drink"|"rest"]`,
			`出牌需要一张牌：["chant"|"fetch"|"exchange"|"drink"|"rest"]`)
	}
	return c, err
}

// decision is the typed args of a drink, mouse or bowl move.
type decision struct {
	amount int    // drink
	dir    string // mouse: Left or Right
	yes    bool   // bowl
}

// parseDecision reads the args of decision move name: drink [2] (a whole
// number; its range is Apply's to check), mouse ["left"] or ["right"],
// bowl [true] or [false].
func parseDecision(name string, args json.RawMessage) (decision, error) {
	var v decision
	switch name {
	case DecideDrink:
		return v, games.DecodeArgs(name, "[n]", args, &v.amount)
	case DecideMouse:
		err := games.DecodeArgs(name, `["left"|"right"]`, args, &v.dir)
		if err == nil && v.dir != Left && v.dir != Right {
			err = games.Invalid(`mouse takes ["left"] or ["right"]`, `老鼠需要选择 ["left"]（左）或 ["right"]（右）`)
		}
		return v, err
	}
	return v, games.DecodeArgs(name, "[true|false]", args, &v.yes)
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }
