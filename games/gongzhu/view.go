package gongzhu

import (
	"slices"
	"sort"

	"github.com/chaguan/chaguan/games"
	"github.com/chaguan/chaguan/games/cards"
)

// View is what one seat or a spectator sees. It is built field by field
// from the state: the only private data is players[viewer] (the viewer's
// own hand and legal cards); everything else is public at the table.
// docs/gongzhu.md documents its JSON shape.
//
// The seat to play is not in it: ctx.currentPlayer says it. Nor are the
// seats' hand sizes: HandCount counts them from the tricks.
type View struct {
	Seats int `json:"seats"`
	Round int `json:"round"`
	// FirstLeader led (or leads) this round's first trick.
	FirstLeader int `json:"firstLeader"`
	// OpeningLead is true while the match's first trick is owed its fixed
	// lead: ♣2 with 4 seats, ♣3 with 3 (the card itself is not named, so no
	// view lists a card still in someone else's hand).
	OpeningLead bool                  `json:"openingLead,omitempty"`
	Players     map[string]PlayerView `json:"players"`
	Trick       TrickView             `json:"trick"`
	Tricks      []TrickView           `json:"tricks"` // finished this round, oldest first
	// PointCards are the scoring cards each seat took this round, sorted.
	PointCards  [][]cards.Card `json:"pointCards"`
	RoundScores []int          `json:"roundScores"` // this round so far, as if it ended now
	Totals      []int          `json:"totals"`
	TricksTotal int            `json:"tricksPerRound"`
	LastRound   *RoundView     `json:"lastRound,omitempty"`
	// History is every finished round, oldest first (the latest
	// HistoryCap of them): the 榜's round-by-round table.
	History    []HistoryRow `json:"history"`
	Teams      [][]int      `json:"teams,omitempty"` // 4 seats: [[0,2],[1,3]]
	Scoreboard Scoreboard   `json:"scoreboard"`
}

// HandCount is how many cards seat holds: every seat is dealt
// tricksPerRound cards and plays one to each trick, so it holds that many
// less one per finished trick of the round, and one less again once it
// has played to the trick on the table. (The web client counts them so;
// TestHandCount checks it against the hands.)
func (v View) HandCount(seat int) int {
	n := v.TricksTotal - len(v.Tricks)
	for _, p := range v.Trick.Plays {
		if p.Seat == seat {
			n--
		}
	}
	return n
}

// PlayerView is the viewer's own private entry.
type PlayerView struct {
	Hand  []cards.Card `json:"hand"`  // sorted for display
	Legal []cards.Card `json:"legal"` // playable now; empty when not your turn
}

// TrickView is a trick as the table sees it. Taker is -1 while in progress.
// Its scoring cards are not listed: its plays show them (IsScoring), and
// the seats' pointCards sum them up.
type TrickView struct {
	Leader  int    `json:"leader"`
	LedSuit string `json:"ledSuit,omitempty"` // "S","H","D","C"; absent while empty
	Plays   []Play `json:"plays"`
	Taker   int    `json:"taker"`
}

// Winner is the seat on top of the trick so far (the highest card of the
// led suit; there are no trumps), -1 while it is empty. The view leaves it
// out, as its plays tell it.
func (t TrickView) Winner() int { return Trick{Plays: t.Plays}.Winner() }

// RoundView is the last finished round.
type RoundView struct {
	Round      int            `json:"round"`
	FirstLead  int            `json:"firstLeader"`
	Tricks     []TrickView    `json:"tricks"`
	Taken      [][]cards.Card `json:"taken"`
	PointCards [][]cards.Card `json:"pointCards"`
	Scores     []int          `json:"scores"`
}

// HistoryRow is one finished round: who scored what, the running totals,
// who took the pig, the sheep, the transformer and all hearts, and with 4
// seats the two teams' round scores and totals (team 0 is seats 0+2).
type HistoryRow struct {
	RoundSummary
	TeamScores []int `json:"teamScores,omitempty"`
	TeamTotals []int `json:"teamTotals,omitempty"`
}

// Scoreboard is the 榜, ready to draw: rows best (highest total) first.
type Scoreboard struct {
	Rows  []ScoreRow  `json:"rows"`
	Teams []TeamScore `json:"teams,omitempty"` // 4 seats only, best first
}

// ScoreRow is one seat on the board. Rank is 1-based; equal totals share it.
// LastRound is 0 before the first round ends.
type ScoreRow struct {
	Rank      int  `json:"rank"`
	Seat      int  `json:"seat"`
	LastRound int  `json:"lastRound"`
	Total     int  `json:"total"`
	Team      *int `json:"team,omitempty"` // 4 seats: 0 (seats 0+2) or 1 (seats 1+3)
}

// TeamScore is one partnership's sums.
type TeamScore struct {
	Rank      int   `json:"rank"`
	Team      int   `json:"team"`
	Seats     []int `json:"seats"`
	LastRound int   `json:"lastRound"`
	Total     int   `json:"total"`
}

// View builds viewer's view (a seat, or games.Spectator).
func (Rules) View(s State, viewer int) View { return view(s, viewer, true) }

// view builds viewer's view; without tail, it leaves out what every state
// of a round shows alike (LastRound, History, Teams, Scoreboard), which
// AppendPublicView takes from the round's cache instead.
func view(s State, viewer int, tail bool) View {
	v := View{
		Seats:       s.Seats,
		Round:       s.Round,
		FirstLeader: s.FirstLeader,
		Players:     map[string]PlayerView{},
		Trick:       trickView(s.Trick),
		Tricks:      make([]TrickView, len(s.Tricks)),
		PointCards:  make([][]cards.Card, s.Seats),
		Totals:      slices.Clone(s.Totals),
	}
	if s.Seats > 0 {
		v.TricksTotal = len(Deck(s.Seats)) / s.Seats
	}
	v.OpeningLead = s.Opening.Valid()
	if viewer >= 0 && viewer < s.Seats && viewer < len(s.Hands) {
		v.Players[games.PlayerID(viewer)] = PlayerView{
			Hand:  cards.Sorted(s.Hands[viewer]),
			Legal: s.Legal(viewer),
		}
	}
	// The tricks' plays and point cards are cut from two arrays per view
	// (tricks), not two allocations a trick.
	var tricks trickArena
	n := len(s.Trick.Plays)
	for _, t := range s.Tricks {
		n += len(t.Plays)
	}
	if s.LastRound != nil && tail {
		for _, t := range s.LastRound.Tricks {
			n += len(t.Plays)
		}
	}
	tricks.plays = make([]Play, 0, n)
	for i, t := range s.Tricks {
		v.Tricks[i] = tricks.view(t)
	}
	taken := s.Taken()
	for i := range taken {
		v.PointCards[i] = PointCards(taken[i])
	}
	v.RoundScores = ScoreRound(taken)
	if !tail {
		return v
	}
	if r := s.LastRound; r != nil {
		rv := &RoundView{Round: r.Round, FirstLead: r.Leader, Scores: slices.Clone(r.Scores)}
		for _, t := range r.Tricks {
			rv.Tricks = append(rv.Tricks, tricks.view(t))
		}
		for _, cs := range r.Taken(s.Seats) {
			rv.Taken = append(rv.Taken, cards.Sorted(cs))
			rv.PointCards = append(rv.PointCards, PointCards(cs))
		}
		v.LastRound = rv
	}
	if s.Seats == 4 {
		v.Teams = [][]int{{0, 2}, {1, 3}}
	}
	v.History = history(s)
	v.Scoreboard = scoreboard(s)
	return v
}

// history copies the state's round history for a view, with the team sums
// for 4 seats. It is never nil: an empty history is [].
//
// The rows' slices are cut from one array per view (a view of a long
// match has 100 rows, built for every viewer on every move), capped so
// that appending to one never reaches the next.
func history(s State) []HistoryRow {
	out := make([]HistoryRow, len(s.History))
	n := 0
	for _, e := range s.History {
		n += len(e.Scores) + len(e.Totals) + 4
	}
	ints := make([]int, 0, n)
	take := func(xs []int) []int {
		if xs == nil {
			return nil
		}
		start := len(ints)
		ints = append(ints, xs...)
		return ints[start:len(ints):len(ints)]
	}
	for i, e := range s.History {
		e.Scores, e.Totals = take(e.Scores), take(e.Totals)
		out[i] = HistoryRow{RoundSummary: e}
		if s.Seats == 4 {
			if xs := e.Scores; len(xs) == 4 {
				out[i].TeamScores = take([]int{xs[0] + xs[2], xs[1] + xs[3]})
			}
			if xs := e.Totals; len(xs) == 4 {
				out[i].TeamTotals = take([]int{xs[0] + xs[2], xs[1] + xs[3]})
			}
		}
	}
	return out
}

// teamSums adds a 4-seat slice by team: [xs[0]+xs[2], xs[1]+xs[3]].
func teamSums(xs []int) []int {
	if len(xs) != 4 {
		return nil
	}
	return []int{xs[0] + xs[2], xs[1] + xs[3]}
}

// trickView copies t.Plays: a view shares no memory with the state (bots
// are handed it directly and may change it).
func trickView(t Trick) TrickView {
	tv := TrickView{
		Leader: t.Leader,
		Plays:  slices.Clone(t.Plays),
		Taker:  t.Taker,
	}
	if tv.Plays == nil {
		tv.Plays = []Play{}
	}
	if led := t.LedSuit(); led != 0 {
		tv.LedSuit = led.String()
	}
	return tv
}

// trickArena builds trick views whose plays and point cards are cut from
// two arrays, each capped so that appending to one never reaches the
// next: what trickView gives, in two allocations for all of a view's
// tricks.
type trickArena struct {
	plays []Play
}

func (a *trickArena) view(t Trick) TrickView {
	start := len(a.plays)
	a.plays = append(a.plays, t.Plays...)
	tv := TrickView{
		Leader: t.Leader,
		Plays:  a.plays[start:len(a.plays):len(a.plays)],
		Taker:  t.Taker,
	}
	if tv.Plays == nil {
		tv.Plays = []Play{}
	}
	if led := t.LedSuit(); led != 0 {
		tv.LedSuit = led.String()
	}
	return tv
}

// scoreboard ranks the seats by total, best first; ties keep seat order and
// share a rank. With 4 seats it adds the teams 0+2 and 1+3.
func scoreboard(s State) Scoreboard {
	last := make([]int, s.Seats)
	if s.LastRound != nil {
		copy(last, s.LastRound.Scores)
	}
	var b Scoreboard
	for seat := 0; seat < s.Seats; seat++ {
		row := ScoreRow{Seat: seat, LastRound: last[seat], Total: s.Totals[seat]}
		if s.Seats == 4 {
			team := seat % 2
			row.Team = &team
		}
		b.Rows = append(b.Rows, row)
	}
	sort.SliceStable(b.Rows, func(i, j int) bool { return b.Rows[i].Total > b.Rows[j].Total })
	for i := range b.Rows {
		b.Rows[i].Rank = i + 1
		if i > 0 && b.Rows[i].Total == b.Rows[i-1].Total {
			b.Rows[i].Rank = b.Rows[i-1].Rank
		}
	}
	if s.Seats == 4 {
		lastTeams, totalTeams := teamSums(last), teamSums(s.Totals)
		for team := 0; team < 2; team++ {
			b.Teams = append(b.Teams, TeamScore{
				Team: team, Seats: []int{team, team + 2},
				LastRound: lastTeams[team], Total: totalTeams[team],
			})
		}
		sort.SliceStable(b.Teams, func(i, j int) bool { return b.Teams[i].Total > b.Teams[j].Total })
		for i := range b.Teams {
			b.Teams[i].Rank = i + 1
			if i > 0 && b.Teams[i].Total == b.Teams[i-1].Total {
				b.Teams[i].Rank = b.Teams[i-1].Rank
			}
		}
	}
	return b
}

// Cards lists the trick's cards in the order played.
func (t TrickView) Cards() []cards.Card {
	out := make([]cards.Card, len(t.Plays))
	for i, p := range t.Plays {
		out[i] = p.Card
	}
	return out
}
