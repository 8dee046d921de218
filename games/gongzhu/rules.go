package gongzhu

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// Rules implements games.Rules for Gong Zhu.
type Rules struct{}

// MovePlay is the only move: play one card, args ["QS"].
const MovePlay = "play"

// PhasePlay is the only phase.
const PhasePlay = "play"

// Bot levels.
const (
	LevelEasy   = "easy"
	LevelNormal = "normal"
)

// Info describes the game for the catalog.
func (Rules) Info() games.Info {
	return games.Info{
		Name:         "gongzhu",
		Title:        games.Text{En: "Gong Zhu", Zh: "拱猪"},
		MinPlayers:   3,
		MaxPlayers:   4,
		SetupOptions: map[string]games.SetupOption{},
		Moves: []games.MoveSpec{{
			Name: MovePlay,
			Description: games.Text{
				En: "Play a card from your hand (follow the led suit if you can)",
				Zh: "出一张手牌（有领出花色的牌必须跟）",
			},
			Args: `["QS"]`,
		}},
		Bots: []string{LevelEasy, LevelNormal},
	}
}

// Setup deals round 1. Gong Zhu has no setup options: setupData must be
// absent, null or an empty object.
func (Rules) Setup(n int, setupData json.RawMessage, rng *games.RNG) (State, error) {
	if n < 3 || n > 4 {
		return State{}, games.BadSetup("gongzhu takes 3 or 4 players, not %d", n)
	}
	if err := checkSetupData(setupData); err != nil {
		return State{}, err
	}
	if rng == nil {
		return State{}, games.BadSetup("gongzhu needs a random source to deal")
	}
	s := State{
		Seats:   n,
		Round:   1,
		Opening: OpeningCard(n),
		Totals:  make([]int, n),
		Secret:  Secret{RNG: rng.Clone()},
	}
	s.deal()
	for seat, h := range s.Hands {
		if cards.Contains(h, s.Opening) {
			s.FirstLeader = seat
		}
	}
	s.Trick = Trick{Leader: s.FirstLeader, Taker: -1}
	return s, nil
}

func checkSetupData(raw json.RawMessage) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return games.BadSetup("gongzhu setupData must be a JSON object: %v", err)
	}
	for k := range m {
		return games.BadSetup("gongzhu has no setup option %q (it has none)", k)
	}
	return nil
}

// deal shuffles a fresh deck with the state's RNG and deals it. The caller
// owns s.Secret.RNG (a clone no other state shares).
func (s *State) deal() {
	deck := Deck(s.Seats)
	cards.Shuffle(deck, s.Secret.RNG)
	hands, err := cards.Deal(deck, s.Seats)
	if err != nil {
		panic(err) // 52/4 and 51/3 always divide: a programming error
	}
	s.Hands = hands
	s.Tricks = nil
}

// Status: one phase, the seat to play, a turn counter that counts tricks
// over the whole match, and never an outcome.
func (Rules) Status(s State) games.Status {
	return games.Status{Phase: PhasePlay, Turn: s.TricksPlayed + 1, Current: s.Current()}
}

// Apply plays a card for seat. It refuses anything but a held, legal card.
func (Rules) Apply(s State, seat int, name string, args json.RawMessage) (State, error) {
	if name != MovePlay {
		return s, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
	}
	if s.Seats < 3 || seat != s.Current() {
		return s, games.ErrNotYourTurn
	}
	c, err := parsePlayArgs(args)
	if err != nil {
		return s, err
	}
	if err := s.check(seat, c); err != nil {
		return s, err
	}
	return s.play(seat, c), nil
}

// CanonicalArgs parses the args of move name and returns their canonical
// JSON (games.ArgsParser): play's card in its wire code, upper case with
// T for the ten (["10c"] becomes ["TC"]), as the bots send it.
func (Rules) CanonicalArgs(name string, args json.RawMessage) (json.RawMessage, error) {
	if name != MovePlay {
		return nil, fmt.Errorf("%w: %q", games.ErrUnknownMove, name)
	}
	c, err := parsePlayArgs(args)
	if err != nil {
		return nil, err
	}
	// What games.CanonicalJSON(c.String()) writes: a code is letters and
	// digits, which JSON does not escape.
	return json.RawMessage(`["` + c.String() + `"]`), nil
}

// parsePlayArgs reads play's ["QS"]: strictly one string (games.DecodeArgs),
// then a card code as cards.Parse reads it.
func parsePlayArgs(args json.RawMessage) (cards.Card, error) {
	code, ok := plainCode(args)
	if !ok {
		if err := games.DecodeArgs(MovePlay, `["QS"]`, args, &code); err != nil {
			return cards.Card{}, err
		}
	}
	c, err := cards.Parse(code)
	if err != nil {
		return cards.Card{}, games.Invalid(
			fmt.Sprintf("%q is not a card: use a rank 23456789TJQKA and a suit SHDC, like \"QS\"", code),
			fmt.Sprintf("%q 不是一张牌：应为点数 23456789TJQKA 加花色 SHDC，例如 \"QS\"", code))
	}
	return c, nil
}

// plainCode reads the args every client sends, ["QS"] with no space and
// a code of two or three letters and digits, without a JSON decoder: the
// string DecodeArgs would give (every move is parsed twice, its args
// made canonical and then played). ok is false for anything else, which
// DecodeArgs reads.
func plainCode(args []byte) (code string, ok bool) {
	n := len(args)
	if n < 6 || n > 7 || args[0] != '[' || args[1] != '"' || args[n-2] != '"' || args[n-1] != ']' {
		return "", false
	}
	for _, c := range args[2 : n-2] {
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return "", false
		}
	}
	return string(args[2 : n-2]), true
}

// check says whether seat may play c now, with a reason a person understands.
func (s State) check(seat int, c cards.Card) error {
	hand := s.Hands[seat]
	if !cards.Contains(hand, c) {
		return games.Invalid(
			fmt.Sprintf("You do not hold %s", c.Label()),
			fmt.Sprintf("你手里没有%s", c.Label()))
	}
	if len(s.Trick.Plays) == 0 {
		if s.Opening.Valid() && c != s.Opening {
			return games.Invalid(
				fmt.Sprintf("The first trick must be led with %s", s.Opening.Label()),
				fmt.Sprintf("第一墩必须由%s首出", s.Opening.Label()))
		}
		return nil
	}
	led := s.Trick.LedSuit()
	if c.Suit != led {
		if same := cards.OfSuit(hand, led); len(same) > 0 {
			cards.Sort(same)
			return games.Invalid(
				fmt.Sprintf("You must follow %s: you still hold %s", led.Name(), same[0].Label()),
				fmt.Sprintf("必须跟%s：你手里还有%s", led.NameZh(), same[0].Label()))
		}
	}
	return nil
}

// Legal lists the cards seat may play now, sorted (empty if not its turn).
func (s State) Legal(seat int) []cards.Card {
	if seat < 0 || seat >= s.Seats || seat != s.Current() {
		return []cards.Card{}
	}
	return legalFrom(s.Hands[seat], s.Trick.LedSuit(), s.Opening)
}

// legalFrom is the legal cards of hand given the led suit (0 when leading)
// and the opening card still owed (zero when none).
func legalFrom(hand []cards.Card, led cards.Suit, opening cards.Card) []cards.Card {
	var out []cards.Card
	switch {
	case led == 0 && opening.Valid() && cards.Contains(hand, opening):
		out = []cards.Card{opening}
	case led != 0 && cards.CountSuit(hand, led) > 0:
		out = cards.OfSuit(hand, led)
	default:
		out = slices.Clone(hand)
	}
	cards.Sort(out)
	return out
}

// play applies a checked card to a copy of s: the trick, the trick's end,
// and the round's end with the next deal.
func (s State) play(seat int, c cards.Card) State {
	n := s.clone()
	n.Hands[seat], _ = cards.Without(n.Hands[seat], c)
	if c == n.Opening {
		n.Opening = cards.Card{}
	}
	n.Trick.Plays = append(n.Trick.Plays, Play{Seat: seat, Card: c})
	if len(n.Trick.Plays) < n.Seats {
		return n
	}
	done := n.Trick
	done.Taker = done.Winner()
	n.Tricks = append(n.Tricks, done)
	n.TricksPlayed++
	n.Trick = Trick{Leader: done.Taker, Taker: -1}
	if len(n.Hands[0]) == 0 {
		n.endRound()
	}
	return n
}

// endRound scores the round, keeps it as LastRound, adds it to History and
// deals the next one, led by the seat after this round's first leader with
// any card.
func (s *State) endRound() {
	taken := s.Taken()
	scores := ScoreRound(taken)
	for i := range scores {
		s.Totals[i] += scores[i]
	}
	s.LastRound = &RoundResult{Round: s.Round, Leader: s.FirstLeader, Tricks: s.Tricks, Scores: scores, enc: new(roundJSON)}
	s.History = appendHistory(s.History, summarize(s.Round, taken, scores, s.Totals))
	s.Round++
	s.FirstLeader = (s.FirstLeader + 1) % s.Seats
	s.Secret.RNG = s.Secret.RNG.Clone() // never advance a generator another state shares
	s.deal()
	s.Trick = Trick{Leader: s.FirstLeader, Taker: -1}
}
