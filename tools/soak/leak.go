package soak

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/all"
	"github.com/chaguan/chaguan/games/gametest"
	"github.com/chaguan/chaguan/protocol"
)

// secretWords are, per game, the JSON keys that only hidden state or one
// seat's private entry uses: a spectator's view must hold none of them at
// any depth (docs/protocol.md, "Hidden information"). Every game also checks "secret" and "rng".
var secretWords = map[string][]string{
	"gongzhu":     {"hands", "hand", "legal"},    // a seat's cards, its playable cards
	"threemonks":  {"choices", "hand", "choice"}, // action cards held and chosen face down
	"carcassonne": {"deck"},                      // the tiles still to draw, in order
}

// gameChecks are, per game, further checks of a spectator's G.
var gameChecks = map[string]func(g map[string]any) error{
	"gongzhu": gongzhuCardsPlayed,
}

// leakChecker checks the state frames a spectator receives for one game.
type leakChecker struct {
	words  []string
	secret map[string]bool // moves whose arguments stay out of the log
	extra  func(g map[string]any) error
}

// newLeakChecker builds the checker of game from the game registry.
func newLeakChecker(game string) leakChecker {
	c := leakChecker{
		words:  append([]string{"secret", "rng"}, secretWords[game]...),
		secret: map[string]bool{},
		extra:  gameChecks[game],
	}
	if g, ok := all.Registry().Get(game); ok {
		for _, m := range g.Info().Moves {
			if m.SecretArgs {
				c.secret[m.Name] = true
			}
		}
	}
	return c
}

// check returns why st, a state sent to a spectator, shows hidden
// information, or nil: a seat of its own ("you"), a secret key in G, a
// private players entry in G, what the game's own check finds (Gong Zhu: a
// card not yet played), or a secret move's arguments in the log.
func (c leakChecker) check(st *protocol.State) error {
	if st.You != "" {
		return fmt.Errorf("spectator's state names it seat %q", st.You)
	}
	if err := gametest.CheckView(st.G, games.Spectator, c.words); err != nil {
		return fmt.Errorf("view G: %w", err)
	}
	if c.extra != nil {
		var g map[string]any
		if err := json.Unmarshal(st.G, &g); err != nil {
			return fmt.Errorf("view G: %w", err)
		}
		if err := c.extra(g); err != nil {
			return err
		}
	}
	for _, e := range st.Log {
		if c.secret[e.Move] && hasArgs(e.Args) {
			return fmt.Errorf("log shows the secret arguments of %s by seat %s", e.Move, e.PlayerID)
		}
	}
	return nil
}

// checkOps returns why a spectator's patch operations hold hidden
// information, or nil: a path or a value that names a secret key. The
// view they make is checked as a state is (check); this also catches a
// secret an operation adds and a later one takes away.
func (c leakChecker) checkOps(ops []protocol.PatchOp) error {
	for i, op := range ops {
		for _, tok := range strings.Split(op.Path, "/") {
			if slices.Contains(c.words, tok) {
				return fmt.Errorf("patch operation %d (%s %s) names the secret key %q", i, op.Op, op.Path, tok)
			}
		}
		if len(op.Value) == 0 {
			continue
		}
		// Wrapped, so that only the keys count: a value's own "players"
		// member is no view's.
		wrapped := append(append([]byte(`{"value":`), op.Value...), '}')
		if err := gametest.CheckView(wrapped, games.Spectator, c.words); err != nil {
			return fmt.Errorf("patch operation %d (%s %s): %w", i, op.Op, op.Path, err)
		}
	}
	return nil
}

// hasArgs reports whether a log entry's args say anything.
func hasArgs(args json.RawMessage) bool {
	a := bytes.TrimSpace(args)
	return len(a) > 0 && !bytes.Equal(a, []byte("null")) && !bytes.Equal(a, []byte("[]"))
}

// gongzhuCardsPlayed checks that every card a Gong Zhu spectator is shown
// for the round in play has been played in it: it is in the trick on the
// table or in one of the round's finished tricks. Only lastRound and
// history (finished rounds, all public) may name other cards; any other
// card named is one still in someone's hand.
func gongzhuCardsPlayed(g map[string]any) error {
	played := map[string]bool{}
	tricks, _ := g["tricks"].([]any)
	for _, t := range append(tricks, g["trick"]) {
		tm, _ := t.(map[string]any)
		plays, _ := tm["plays"].([]any)
		for _, p := range plays {
			if pm, ok := p.(map[string]any); ok {
				card, _ := pm["card"].(string)
				played[card] = true
			}
		}
	}
	for k, v := range g {
		if k == "lastRound" || k == "history" {
			continue
		}
		if c := unplayedCard(v, played); c != "" {
			return fmt.Errorf("view G.%s shows %s, a card not played this round", k, c)
		}
	}
	return nil
}

// unplayedCard returns a card named anywhere in v that is not in played.
func unplayedCard(v any, played map[string]bool) string {
	switch x := v.(type) {
	case string:
		if isCard(x) && !played[x] {
			return x
		}
	case map[string]any:
		for _, child := range x {
			if c := unplayedCard(child, played); c != "" {
				return c
			}
		}
	case []any:
		for _, child := range x {
			if c := unplayedCard(child, played); c != "" {
				return c
			}
		}
	}
	return ""
}

// isCard reports whether s is a card as the wire writes it ("QS", "TD").
func isCard(s string) bool {
	return len(s) == 2 && strings.IndexByte("23456789TJQKA", s[0]) >= 0 && strings.IndexByte("SHDC", s[1]) >= 0
}
