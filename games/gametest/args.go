package gametest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/chaguan/chaguan/games"
)

// ArgsCase is one row of a game's table of move arguments: Args sent to
// move Move, and Want, their canonical form, or "" when they must be
// refused as an invalid move.
type ArgsCase struct {
	Name string
	Move string
	Args string
	Want string
	// Illegal marks args that parse (Want is set) but that the position
	// refuses: a point off the board, a card not in hand. Other accepted
	// rows must be played.
	Illegal bool
}

// CheckArgs runs a game's table of move arguments against g from state
// st, where seat may make every move of the table. A refused row must be
// refused by Game.CanonicalArgs and by State.Apply with an invalid move
// (a reason in both languages) and leave st as it was. An accepted row
// must give Want, a canonical form that is its own canonical form; Apply
// must play it (or refuse it, when the row is Illegal) and give the same
// answer, and the same state, for the original args as for Want.
func CheckArgs(t *testing.T, g games.Game, st games.State, seat int, cases []ArgsCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			if err := checkArgsCase(g, st, seat, c); err != nil {
				t.Fatalf("%s %.200s: %v", c.Move, c.Args, err)
			}
		})
	}
}

// Accept is a row whose args Apply plays, with canonical form want.
func Accept(name, move, args, want string) ArgsCase {
	return ArgsCase{Name: name, Move: move, Args: args, Want: want}
}

// Parses is a row whose args parse to canonical form want but that the
// position refuses.
func Parses(name, move, args, want string) ArgsCase {
	return ArgsCase{Name: name, Move: move, Args: args, Want: want, Illegal: true}
}

// Refuse is a row whose args must be refused as an invalid move.
func Refuse(name, move, args string) ArgsCase {
	return ArgsCase{Name: name, Move: move, Args: args}
}

func checkArgsCase(g games.Game, st games.State, seat int, c ArgsCase) error {
	before, err := st.MarshalJSON()
	if err != nil {
		return err
	}
	canon, cerr := g.CanonicalArgs(c.Move, json.RawMessage(c.Args))
	next, aerr := st.Apply(seat, c.Move, json.RawMessage(c.Args))
	if after, _ := st.MarshalJSON(); !bytes.Equal(before, after) {
		return errors.New("the move changed its input state")
	}
	if c.Want == "" {
		if cerr == nil {
			return fmt.Errorf("CanonicalArgs accepted it as %s", canon)
		}
		if err := checkInvalid(cerr); err != nil {
			return fmt.Errorf("CanonicalArgs: %v", err)
		}
		if aerr == nil {
			return errors.New("CanonicalArgs refused it, but Apply accepted it")
		}
		return checkInvalid(aerr)
	}
	if cerr != nil {
		return fmt.Errorf("CanonicalArgs refused it: %v", cerr)
	}
	if string(canon) != c.Want {
		return fmt.Errorf("canonical form %s, want %s", canon, c.Want)
	}
	if err := CheckCanonical(g, c.Move, canon); err != nil {
		return err
	}
	switch {
	case c.Illegal && aerr == nil:
		return errors.New("accepted and played, but the case says the position refuses it")
	case !c.Illegal && aerr != nil:
		return fmt.Errorf("parsed but not played: %v", aerr)
	}
	return sameApply(st, seat, c.Move, next, aerr, canon)
}

// checkInvalid checks that err is an invalid move with a reason in both
// languages.
func checkInvalid(err error) error {
	var me *games.MoveError
	switch {
	case !errors.Is(err, games.ErrInvalidMove):
		return fmt.Errorf("error %v does not wrap ErrInvalidMove", err)
	case errors.As(err, &me) && (me.Reason.En == "" || me.Reason.Zh == ""):
		return fmt.Errorf("error %v lacks a reason in English or Chinese", err)
	}
	return nil
}

// CheckCanonical checks that args, canonical args of move, are their own
// canonical form: CanonicalArgs gives them back byte for byte.
func CheckCanonical(g games.Game, move string, args json.RawMessage) error {
	again, err := g.CanonicalArgs(move, args)
	if err != nil {
		return fmt.Errorf("canonical args %s refused: %v", args, err)
	}
	if !bytes.Equal(again, args) {
		return fmt.Errorf("canonical args %s are not canonical: CanonicalArgs gives %s", args, again)
	}
	return nil
}

// sameApply checks that applying canon on st gives what applying the
// original args gave (next, err): the same refusal or the same state.
func sameApply(st games.State, seat int, move string, next games.State, err error, canon json.RawMessage) error {
	cnext, cerr := st.Apply(seat, move, canon)
	switch {
	case (err == nil) != (cerr == nil):
		return fmt.Errorf("applying the args gave %v but their canonical form %s gave %v", err, canon, cerr)
	case err != nil:
		if err.Error() != cerr.Error() {
			return fmt.Errorf("the args were refused with %q but their canonical form %s with %q", err, canon, cerr)
		}
		return nil
	}
	a, _ := next.MarshalJSON()
	b, _ := cnext.MarshalJSON()
	if !bytes.Equal(a, b) {
		return fmt.Errorf("the canonical form %s gave another state than the args", canon)
	}
	return nil
}

// Hostile returns variants of well-formed args (a bot's) that every game
// must refuse: one element too many, trailing data, and for each
// element: null, a wrong JSON type, a string padded with a space (at any
// depth), a number with a fraction, an object with an extra field (the
// spoofed "tile" of a placement) or without one of its fields.
func Hostile(args json.RawMessage) []json.RawMessage {
	var elems []any
	if json.Unmarshal(args, &elems) != nil {
		return nil
	}
	out := []json.RawMessage{
		append(append(json.RawMessage{}, args...), " x"...),
		marshal(append(append([]any{}, elems...), 0)),
	}
	for i, e := range elems {
		with := func(v any) json.RawMessage {
			c := append([]any{}, elems...)
			c[i] = v
			return marshal(c)
		}
		out = append(out, with(nil))
		switch v := e.(type) {
		case string:
			out = append(out, with(v+" "), with(" "+v), with(json.Number("7")))
		case float64:
			out = append(out, with(v+0.5), with(fmt.Sprint(v)))
		case bool:
			out = append(out, with(fmt.Sprint(v)))
		case []any:
			out = append(out, with(map[string]any{}))
			if len(v) > 0 {
				if s, ok := v[0].(string); ok {
					l := append([]any{}, v...)
					l[0] = s + strings.Repeat(" ", 60)
					out = append(out, with(l))
				}
			}
		case map[string]any:
			extra := map[string]any{"tile": "A"}
			for k, x := range v {
				extra[k] = x
				if s, ok := x.(string); ok {
					padded := map[string]any{}
					for k2, x2 := range v {
						padded[k2] = x2
					}
					padded[k] = " " + s
					out = append(out, with(padded))
				}
				short := map[string]any{}
				for k2, x2 := range v {
					if k2 != k {
						short[k2] = x2
					}
				}
				out = append(out, with(short))
			}
			out = append(out, with(extra), with([]any{}))
		}
	}
	return out
}

func marshal(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only JSON values are built here
	}
	return b
}

// checkBotArgs checks a bot's move (name, args) on st for seat: args are
// canonical, and every Hostile variant of them is refused by
// CanonicalArgs and by Apply as an invalid move, leaving st as it was.
func checkBotArgs(st games.State, g games.Game, seat int, name string, args json.RawMessage) error {
	if err := CheckCanonical(g, name, args); err != nil {
		return fmt.Errorf("bot move %s: %v", name, err)
	}
	before, err := st.MarshalJSON()
	if err != nil {
		return err
	}
	for _, bad := range Hostile(args) {
		if canon, err := g.CanonicalArgs(name, bad); err == nil {
			return fmt.Errorf("%s %s: CanonicalArgs accepted it as %s", name, bad, canon)
		} else if err := checkInvalid(err); err != nil {
			return fmt.Errorf("%s %s: CanonicalArgs: %v", name, bad, err)
		}
		if _, err := st.Apply(seat, name, bad); err == nil {
			return fmt.Errorf("%s %s: Apply accepted it", name, bad)
		} else if err := checkInvalid(err); err != nil {
			return fmt.Errorf("%s %s: Apply: %v", name, bad, err)
		}
	}
	if after, _ := st.MarshalJSON(); !bytes.Equal(before, after) {
		return errors.New("a refused move changed the state")
	}
	return nil
}
